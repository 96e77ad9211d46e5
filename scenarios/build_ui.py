"""Generate mmtsb's UI-mode scenario set ``scenarios/ui/`` (JSON files and their images).

Each UI scenario converts one starter scenario of ``build_nominal.py`` (imported, never copied): in one round
the user's choice is made on an interactive screen instead of in words. The converted round's query asks to
see the options, its Instructions say which option to "select via `ui_user_interact`" (with a text fallback
when no interactive UI is shown), the criteria get a ``UI Requirements:`` section, and the category
``UI_MODE`` is added. The expected state changes are the nominal ones, so the same entity-diff evaluation applies.

Two extensions of the file format carry what the offline roles need (both in ``metadata``):

- ``reference_solution``: the converted round renders the screen (``render_ui_screen``), shows it
  (``show_ui_to_user``) and replies; its ``after_user`` part runs once the user has chosen, reading the choice
  from the UI action saved under ``ui_action_as`` (mmtsb/scenarios/solution.py);
- ``ui_interactions``: what the scripted user picks on the screen, what it says afterwards, and what it says
  when no interactive UI is shown (mmtsb/scenarios/script.py ``UIInteraction``).

Deterministic: ``python scenarios/build_ui.py`` regenerates byte-identical files (tests/ui_mode checks it).
Usage: ``python scenarios/build_ui.py [--out DIR] [--only N ...]`` (default: the folder next to this file).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import build_nominal as nominal  # noqa: E402  (the starter set's generator: helpers and definitions)
from build_nominal import Definition, Round, step  # noqa: E402

from mmtsb.scenarios.solution import ReferenceSolution  # noqa: E402
from mmtsb.ui.examples import button, column, comp, lit, ref, row, screen, text  # noqa: E402

OUT_DIR = HERE / "ui"
UI_CATEGORY = "UI_MODE"


# =========================================================================================== the model
@dataclass
class UIDefinition(Definition):
    """A nominal definition renamed into the UI set (``mmtsb_ui_NNN``, images ``images/uNNN_*``)."""

    @property
    def name(self) -> str:
        return f"mmtsb_ui_{self.number:03d}"

    def image_path(self, index: int) -> str:
        return f"images/u{self.number:03d}_{index + 1}_{self.images[index][0]}.png"


@dataclass
class UIRound:
    """How one round of the base scenario becomes a UI round.

    ``steps``/``reply`` end with the screen shown and a short reply; ``after_steps``/``after_reply`` run once the
    user has chosen (the choice is saved as ``$picked``, or ``fallback_action`` when the user answers in words).
    """

    round: int                       # 1-based round of the base definition
    query: str
    instructions: str
    requirement: str                 # the round's line under "UI Requirements:"
    steps: list[dict[str, Any]]
    reply: str
    after_steps: list[dict[str, Any]]
    after_reply: str
    fallback_action: dict[str, Any]  # the userAction-like value used when the user answers in words
    choose: str                      # what the scripted user picks (visible text on the screen)
    message: str                     # what it says after the click
    fallback: str                    # what it says when no interactive UI was shown
    field_values: dict[str, Any] | None = None


@dataclass
class UIVariant:
    number: int
    base: Callable[[], Definition]
    description: str
    rounds: list[UIRound]
    criteria: str = ""               # replaces the base criteria when set (before the UI Requirements)
    edit: Callable[[Definition], None] | None = None     # extra entities etc.
    requirements: list[str] = field(default_factory=list)


# =========================================================================================== helpers
def escape(value: Any) -> Any:
    """Reference-solution arguments: a string starting with ``$`` is a reference, so literal text such as a
    price ("$247") is written ``$$247``."""
    if isinstance(value, str):
        return "$" + value if value.startswith("$") else value
    if isinstance(value, list):
        return [escape(v) for v in value]
    if isinstance(value, dict):
        return {k: escape(v) for k, v in value.items()}
    return value


def render(ui_json: list[dict[str, Any]]) -> dict[str, Any]:
    """A render_ui_screen step (literal screen, ``$`` escaped)."""
    return step("render_ui_screen", ui_json=escape(ui_json))


def show() -> dict[str, Any]:
    return step("show_ui_to_user")


def quick_start() -> dict[str, Any]:
    return step("ui_get_quick_start")


def contact_cards(surface: str, heading: str, people: list[dict[str, str]], action: str, verb: str,
                  keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """One card per contact (explicit children), each with its own button carrying the contact's details."""
    components = [column("root", "heading", "hint", *(f"card{i}" for i in range(len(people)))),
                  text("heading", heading, hint="h3"),
                  text("hint", "Tap the person you mean.", hint="caption")]
    for i, p in enumerate(people):
        components += [
            comp(f"card{i}", "Card", child=f"body{i}"),
            column(f"body{i}", f"name{i}", f"detail{i}", f"act{i}"),
            text(f"name{i}", p["name"], hint="h4"),
            text(f"detail{i}", p["detail"], hint="caption"),
            text(f"act{i}-label", f"{verb} {p['name']}"),
            button(f"act{i}", f"act{i}-label", action,
                   context={k: lit(p[k]) for k in keys}),
        ]
    return screen(surface, components)


def contact_list(surface: str, heading: str, people: dict[str, dict[str, str]], action: str,
                 keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """A templated List over the data model (one row per entry, each with a Choose button)."""
    return screen(surface, [
        column("root", "heading", "people"),
        text("heading", heading, hint="h3"),
        comp("people", "List", children={"template": {"componentId": "person", "dataBinding": "/people"}}),
        comp("person", "Card", child="person-row"),
        row("person-row", "person-info", "pick", distribution="spaceBetween"),
        column("person-info", "person-name", "person-detail"),
        text("person-name", path="name", hint="h4"),
        text("person-detail", path="detail", hint="caption"),
        text("pick-label", "Choose"),
        button("pick", "pick-label", action, context={k: ref(k) for k in keys}),
    ], data_at={f"/people/{key}": value for key, value in people.items()})


# =========================================================================================== variants
def u001() -> UIVariant:
    """n001: the two Glens as cards; the user taps Glen Moore, the agent emails him."""
    base = nominal.s001()
    r2 = base.rounds[1]
    email = r2.steps[1]["arguments"]
    people = [{"name": "Glen Moore", "detail": "gl.moore@gmail.com - coworker", "email": "gl.moore@gmail.com"},
              {"name": "Glen Peterson", "detail": "glen.peterson@petersoncpa.com - accountant",
               "email": "glen.peterson@petersoncpa.com"}]
    ui = UIRound(
        2, r2.query,
        "Ask the assistant to email Glen the grand total and the per-vendor amounts. You have two contacts named "
        "Glen. The assistant should find both and present them; when it does, select Glen Moore via "
        "`ui_user_interact`. If no interactive UI is shown, tell the assistant you mean Glen Moore, your coworker "
        "(not Glen Peterson, your accountant). If the total it states differs from the one in the note, point it "
        "back to the receipts. End the conversation once the email is sent.",
        "Round 2: The agent must present the matching Glen contacts in a structured interactive UI that lets the "
        "user select which Glen to email.",
        [step("contacts_search_contacts", "glens", query="Glen"), quick_start(),
         render(contact_cards("choose-glen", "Which Glen should get the summary?", people, "choose_contact",
                              "Email", ("name", "email"))), show()],
        "You have two contacts named Glen; pick the one who should get the summary on the screen.",
        [step("gmail_send_email", email_addresses=["$picked.context.email"], subject=email["subject"],
              body=email["body"])],
        r2.reply,
        {"name": "choose_contact", "context": {"name": "Glen Moore", "email": "gl.moore@gmail.com"}},
        "Glen Moore", "Done, I picked Glen Moore on the screen.",
        "I mean Glen Moore, my coworker, not Glen Peterson.")
    return UIVariant(1, nominal.s001, "(UI mode: the recipient is chosen on a screen.)", [ui])


def u002() -> UIVariant:
    """n002: the two Ronalds in a templated list; the user chooses Ronald Harrison, the agent texts him."""
    base = nominal.s002()
    r3 = base.rounds[2]
    message = r3.steps[1]["arguments"]["message"]
    people = {"r1": {"name": "Ronald Harrison", "detail": "(491) 753-5233 - spouse", "phone": "4917535233"},
              "r2": {"name": "Ronald Baker", "detail": "(206) 555-0164 - neighbor", "phone": "(206) 555-0164"}}
    ui = UIRound(
        3, r3.query,
        "Ask the assistant to text Ronald the free events with their days and times. You have two contacts named "
        "Ronald. The assistant should find both and present them; when it does, select Ronald Harrison, your "
        "husband, via `ui_user_interact`. If no interactive UI is shown, tell it you mean your husband, Ronald "
        "Harrison (not Ronald Baker, your neighbor). End the conversation once the text is sent to your husband.",
        "Round 3: The agent must present the matching Ronald contacts in a structured interactive UI that lets the "
        "user select which Ronald to text.",
        [step("contacts_search_contacts", "ronalds", query="Ronald"), quick_start(),
         render(contact_list("choose-ronald", "Text which Ronald?", people, "choose_recipient", ("name", "phone"))),
         show()],
        "I found two Ronalds in your contacts; choose the one to text on the screen.",
        [step("messages_send_text_message", phone_number="$picked.context.phone", message=message)],
        "I texted Ronald Harrison the two free events with their days and times.",
        {"name": "choose_recipient", "context": {"name": "Ronald Harrison", "phone": "4917535233"}},
        "Ronald Harrison", "Picked him on the screen, my husband Ronald.",
        "I mean my husband, Ronald Harrison, not Ronald Baker.")
    return UIVariant(2, nominal.s002, "(UI mode: the recipient is chosen on a screen.)", [ui])


def u003() -> UIVariant:
    """n003: the two nonstop flights side by side; the user picks the cheaper one, the agent books it."""
    flights = [("SW 418", "SkyWay Air", "6:05 AM", "8:14 AM", "$289", "2026-04-20T06:05:00", "2026-04-20T08:14:00"),
               ("NS 1127", "Northstar", "7:40 AM", "9:52 AM", "$247", "2026-04-20T07:40:00", "2026-04-20T09:52:00")]
    components = [column("root", "heading", "options"), text("heading", "Monday, April 20 - SEA to SFO", hint="h3"),
                  row("options", *(f"f{i}" for i in range(len(flights))))]
    for i, f in enumerate(flights):
        components += [
            comp(f"f{i}", "Card", weight=1, child=f"fb{i}"),
            column(f"fb{i}", f"fn{i}", f"ft{i}", f"fs{i}", f"fp{i}", f"fa{i}"),
            text(f"fn{i}", f"{f[1]} {f[0]}", hint="h4"),
            text(f"ft{i}", f"{f[2]} - {f[3]}"),
            text(f"fs{i}", "Nonstop", hint="caption"),
            text(f"fp{i}", f[4], hint="h3"),
            text(f"fa{i}-label", f"Choose {f[0]}"),
            button(f"fa{i}", f"fa{i}-label", "choose_flight", primary=True, context={
                "flight": lit(f[0]), "title": lit(f"Flight to San Francisco ({f[0]})"),
                "start": lit(f[5] + nominal.TZ), "end": lit(f[6] + nominal.TZ)}),
        ]
    ns = flights[1]
    ui = UIRound(
        1,
        "I need to fly to San Francisco on Monday for a conference. Show me these two nonstop options side by side "
        "so I can pick one, then put my pick on my Work calendar, titled 'Flight to San Francisco (<flight "
        "number>)', from departure to arrival.",
        "Send the two flight screenshots and ask to see the two options side by side so you can choose. When the "
        "assistant presents them, select the cheaper flight, Northstar NS 1127, via `ui_user_interact`. If no "
        "interactive UI is shown, tell the assistant you want the cheaper one. Do not mention the prices yourself. "
        "Once it confirms the calendar event, move on to the next round.",
        "Round 1: The agent must present the two flight options with their times and prices in a structured "
        "interactive UI that lets the user select which flight to book.",
        [quick_start(), render(screen("choose-flight", components)), show()],
        "Here are the two nonstop flights side by side; choose the one you want on the screen.",
        [step("search_calendars", "work", title="Work"),
         step("create_calendar_event", "flight", calendar_id="$work.0.calendar_id", title="$picked.context.title",
              start_datetime="$picked.context.start", end_datetime="$picked.context.end")],
        f"I added 'Flight to San Francisco ({ns[0]})' to your Work calendar on Monday from 7:40 to 9:52 AM.",
        {"name": "choose_flight", "context": {"flight": ns[0], "title": f"Flight to San Francisco ({ns[0]})",
                                              "start": ns[5] + nominal.TZ, "end": ns[6] + nominal.TZ}},
        "Northstar NS 1127", "Chose it on the screen, the Northstar one.",
        "Let's take the cheaper one.")
    return UIVariant(3, nominal.s003, "(UI mode: the flight is chosen on a screen.)", [ui])


def u008() -> UIVariant:
    """n008: the user picks the project for the grocery task in a form (choice input + Add button)."""
    base = nominal.s008()
    r3 = base.rounds[2]
    note_step = r3.steps[0]
    projects = ["Inbox", "Meal prep", "Home"]

    def add_projects(d: Definition) -> None:
        uid = d.user.id
        rows = [nominal.project(401, uid, "Meal prep", "green"), nominal.project(402, uid, "Home", "blue")]
        d.appworld = {**d.appworld, "todoist.projects": [r for r, _ in rows],
                      "todoist.project_collaborator_links": [link for _, link in rows]}

    form = screen("task-project", [
        comp("root", "Card", child="body"),
        column("body", "title", "task", "due", "project", "add"),
        text("title", "New task", hint="h3"),
        text("task", "Buy groceries for Sunday", hint="h4"),
        text("due", "Due Saturday, April 18", hint="caption"),
        comp("project", "MultipleChoice", selections=ref("/choice/project"), maxAllowedSelections=1,
             options=[{"label": lit(p), "value": p} for p in projects]),
        text("add-label", "Add task"),
        button("add", "add-label", "add_task", primary=True, context={
            "project": ref("/choice/project"), "title": lit("Buy groceries for Sunday"), "due": lit("2026-04-18")}),
    ])
    ui = UIRound(
        3,
        "Change of plans: we're eating out on Saturday, so drop the pasta completely. Here's what's already in my "
        "pantry, so remove anything I already have. Then I need a task 'Buy groceries for Sunday', due Saturday, "
        "April 18: show me my Todoist projects so I can choose where it goes.",
        "Tell the assistant you no longer make the pasta, send the pantry screenshot and ask it to remove the "
        "pasta's ingredients and everything you already have from the list. Then ask for the task due April 18 "
        "and to see your projects. When the assistant shows them, select Inbox and add the task via "
        "`ui_user_interact`. If no interactive UI is shown, tell it to use your Inbox. If it asks whether the "
        "chicken still needs garlic, say you already have garlic. End the conversation once the list is updated "
        "and the task created.",
        "Round 3: The agent must present the user's Todoist projects in a structured interactive UI that lets the "
        "user choose the project for the new task and confirm it.",
        [note_step, step("todoist_show_projects", "projects"), quick_start(), render(form), show()],
        "The shopping list is trimmed to 6 items. Choose the project for 'Buy groceries for Sunday' on the screen "
        "and press Add task.",
        [step("todoist_show_projects", "target", query="$picked.context.project.0"),
         step("todoist_create_task", project_id="$target.0.project_id", title="$picked.context.title",
              due_date="$picked.context.due")],
        "The list now has 6 items (chicken thighs, lemons, thyme, Greek yogurt, berries and granola), and the task "
        "'Buy groceries for Sunday' is in your Inbox, due April 18.",
        {"name": "add_task", "context": {"project": ["Inbox"], "title": "Buy groceries for Sunday",
                                         "due": "2026-04-18"}},
        "Add task", "Done, I picked Inbox and added it.", "Put it in my Inbox.",
        field_values={"project": ["Inbox"]})
    return UIVariant(8, nominal.s008, "(UI mode: the task's project is chosen in a form.)", [ui], edit=add_projects)


def u012() -> UIVariant:
    """n012: two Jessicas in the contacts; the user taps Jessica Miller, the agent texts her."""
    base = nominal.s012()
    r3 = base.rounds[2]
    draft_step, _, text_step = r3.steps
    alvarez = ("Jessica", "Alvarez", "jess.alvarez@fastmail.com", "(206) 555-0148")

    def add_jessica(d: Definition) -> None:
        uid = d.user.id
        first, last, mail, phone = alvarez
        d.appworld = {**d.appworld,
                      "phone.contacts": [nominal.contact(200, uid, first, last, mail, phone, ["neighbor"])],
                      "gmail.users": [nominal.gmail_user(200, first, last, mail)],
                      "phone.users": [nominal.phone_user(200, first, last, phone)]}

    people = [{"name": "Jessica Miller", "detail": "(372) 427-4954 - coworker", "phone": "3724274954"},
              {"name": "Jessica Alvarez", "detail": "(206) 555-0148 - neighbor", "phone": alvarez[3]}]
    components = [column("root", "heading", *(f"p{i}" for i in range(len(people))))]
    components.append(text("heading", "Send the thank-you to", hint="h3"))
    for i, p in enumerate(people):
        components += [
            comp(f"p{i}", "Card", child=f"pr{i}"),
            row(f"pr{i}", f"pi{i}", f"pb{i}", distribution="spaceBetween"),
            column(f"pi{i}", f"pn{i}", f"pd{i}"),
            text(f"pn{i}", p["name"], hint="h4"),
            text(f"pd{i}", p["detail"], hint="caption"),
            text(f"pb{i}-label", f"Text {p['name']}"),
            button(f"pb{i}", f"pb{i}-label", "text_contact", context={"name": lit(p["name"]),
                                                                      "phone": lit(p["phone"])}),
        ]
    ui = UIRound(
        3, r3.query,
        "Send the payment screenshot and ask the assistant to remove Jessica from the draft's recipients (keep "
        "Alexander and Marcus) and text her a thank-you with the amount she paid. You have two contacts named "
        "Jessica. The assistant should find both and present them; when it does, select Jessica Miller via "
        "`ui_user_interact`. If no interactive UI is shown, tell it you mean Jessica Miller from the dinner. End "
        "the conversation once both are done.",
        "Round 3: The agent must present the matching Jessica contacts in a structured interactive UI that lets the "
        "user select which Jessica to text.",
        [draft_step, step("contacts_search_contacts", "jessicas", query="Jessica"), quick_start(),
         render(screen("choose-jessica", components)), show()],
        "Jessica is off the draft (Alexander and Marcus remain). You have two contacts named Jessica; pick the one "
        "to thank on the screen.",
        [step("messages_send_text_message", phone_number="$picked.context.phone",
              message=text_step["arguments"]["message"])],
        "I texted Jessica Miller thanks for the $39.00.",
        {"name": "text_contact", "context": {"name": "Jessica Miller", "phone": "3724274954"}},
        "Jessica Miller", "That one, Jessica Miller. Picked her on the screen.",
        "I mean Jessica Miller, who was at the dinner.")
    return UIVariant(12, nominal.s012, "(UI mode: the recipient is chosen on a screen.)", [ui], edit=add_jessica)


def u013() -> UIVariant:
    """n013: a confirmation screen before the afternoon talk is removed; the user confirms on it."""
    base = nominal.s013()
    r2 = base.rounds[1]
    remove_step, text_step = r2.steps
    dialog = screen("confirm-removal", [
        comp("root", "Card", child="body"),
        column("body", "title", "summary", "divider", "buttons"),
        text("title", "Remove this talk from your calendar?", hint="h3"),
        column("summary", "t-row", "w-row", "s-row"),
        row("t-row", "t-k", "t-v", distribution="spaceBetween"),
        text("t-k", "Talk", hint="caption"), text("t-v", "Incident Reviews That Work", hint="h4"),
        row("w-row", "w-k", "w-v", distribution="spaceBetween"),
        text("w-k", "When", hint="caption"), text("w-v", "Tuesday, April 21 - 1:30 to 2:15 PM (after noon)"),
        row("s-row", "s-k", "s-v", distribution="spaceBetween"),
        text("s-k", "Speaker", hint="caption"), text("s-v", "Sarah Ritter - I'll text her for the slides"),
        comp("divider", "Divider"),
        row("buttons", "keep", "remove", distribution="end"),
        text("keep-label", "Keep it"), button("keep", "keep-label", "keep_talk"),
        text("remove-label", "Remove talk"),
        button("remove", "remove-label", "remove_talk", primary=True,
               context={"talk": lit("Incident Reviews That Work"), "speaker": lit("Sarah Ritter")}),
    ])
    ui = UIRound(
        2,
        "Change of plans: I can only stay until noon on Tuesday. Show me which of those talks start after 12:00 so "
        "I can confirm before you remove them, and then text the speaker whose talk I'll miss to ask for the "
        "slides.",
        "Tell the assistant you now have to leave at noon, and ask it to show you the calendar talks starting after "
        "12:00 for confirmation before removing them, then to text that speaker for the slides. When the assistant "
        "shows the talk to remove, confirm the removal via `ui_user_interact`. If no interactive UI is shown, tell "
        "it to go ahead and remove it. If it asks who to text, say it's whoever's talk you'll miss. End the "
        "conversation once the event is removed and the text sent.",
        "Round 2: The agent must present the talk that starts after noon in a structured interactive confirmation "
        "UI (with confirm and cancel actions) before removing it.",
        [quick_start(), render(dialog), show()],
        "Only 'Incident Reviews That Work' (1:30 PM) starts after noon; please confirm the removal on the screen.",
        [remove_step, text_step],
        "I removed 'Incident Reviews That Work' (1:30 PM) and texted Sarah Ritter asking for her slides.",
        {"name": "remove_talk", "context": {"talk": "Incident Reviews That Work", "speaker": "Sarah Ritter"}},
        "Remove talk", "Confirmed on the screen, go ahead.", "Yes, go ahead and remove it.")
    return UIVariant(13, nominal.s013, "(UI mode: the removal is confirmed on a screen.)", [ui])


VARIANTS: list[Callable[[], UIVariant]] = [u001, u002, u003, u008, u012, u013]


# =========================================================================================== assembly
def definition(v: UIVariant) -> UIDefinition:
    """The base definition, renamed, with the UI rounds' query, instructions, first-part steps and reply."""
    base = v.base()
    d = UIDefinition(**{f.name: copy.deepcopy(getattr(base, f.name)) for f in fields(base)})
    d.number = v.number
    if v.edit is not None:
        v.edit(d)
    for ui in v.rounds:
        old = d.rounds[ui.round - 1]
        d.rounds[ui.round - 1] = Round(old.provide, ui.query, ui.instructions, ui.steps, ui.reply)
    d.description = f"{base.description} {v.description}"
    return d


def scenario_json(v: UIVariant) -> dict[str, Any]:
    """The UI scenario file: the nominal layout plus UI_MODE, UI Requirements, after_user parts and the
    scripted user's UI interactions."""
    d = definition(v)
    data = nominal.scenario_json(d)
    requirements = "\n".join(f"- {ui.requirement}" for ui in v.rounds)
    data["task_completion_criteria"] = f"{v.criteria or d.criteria}\n\nUI Requirements:\n{requirements}"
    data["categories"] = [*data["categories"], UI_CATEGORY]
    meta = data["metadata"]
    solution = meta["reference_solution"]
    for ui in v.rounds:
        solution["rounds"][ui.round - 1]["after_user"] = {
            "ui_action_as": "picked", "ui_action_fallback": ui.fallback_action, "steps": ui.after_steps,
            "reply": ui.after_reply}
    meta["expected_tools"] = [*ReferenceSolution.from_data(solution).tools(), "ui_user_interact"]
    interactions = []
    for ui in v.rounds:
        entry = {"round": ui.round, "choose": ui.choose, "message": ui.message, "fallback": ui.fallback}
        if ui.field_values:
            entry["field_values"] = ui.field_values
        interactions.append(entry)
    meta["ui_interactions"] = interactions
    return data


def build(out_dir: Path, only: set[int] | None = None) -> list[Path]:
    """Write every UI scenario (and its images) under ``out_dir``; returns the written paths."""
    written = []
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    for make in VARIANTS:
        v = make()
        if not only or v.number in only:
            written += nominal.write_scenario(out_dir, definition(v), scenario_json(v))
    return written


def main(argv: list[str] | None = None) -> int:
    return nominal.cli(argv, __doc__.splitlines()[0], OUT_DIR, build)


if __name__ == "__main__":
    raise SystemExit(main())
