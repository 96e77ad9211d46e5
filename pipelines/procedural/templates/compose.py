"""Turn a recipe's :class:`~pipelines.procedural.templates.base.Plan` into a scenario draft and entity set: the
rounds of the outline's arrival pattern, the challenge, the running outcome (entities made as their images
arrive, updated as more do), the reference solution that really reaches the expected state, and its specs."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mmtsb.apps.setting.schema import BASE_SETTING_ROW
from mmtsb.authoring.model import known_user
from mmtsb.authoring.specs import update
from mmtsb.eval.similarity import EXACT
from pipelines.backends.base import GroupContext
from pipelines.items import DraftRound, EntitySet, Outline, ScenarioDraft, SolutionStep
from pipelines.procedural.families import ImageFamily
from pipelines.procedural.templates.base import Material, Plan, ordinal
from pipelines.procedural.templates.entities import (
    DELETABLE, IDENTITY, LOOKUP_TOOLS, SEEDABLE, SENDABLE, UPDATABLE, Entity, Seed, create_specs, create_steps,
    delete_steps, find_steps, seed_row, update_spec, update_steps,
)
from pipelines.procedural.templates.rounds import count_word, deliveries, images_phrase, which
from pipelines.procedural.templates.sinks import project_rows
from pipelines.procedural.templates.ui_twin import UIPick, ui_pick

__all__ = ["FRIENDS", "USERS", "compose", "material_of", "stale_seed"]

#: main users (base people with known identities) and who they are
USERS = {50: "an office manager who keeps the team's paperwork in order",
         105: "a consultant who travels for conferences", 8: "a homeowner who tracks household costs",
         13: "a community organiser who plans outings with friends"}
#: base contacts every main user has (id, first, last, email)
FRIENDS = [(55, "Glen", "Moore", "gl.moore@gmail.com"), (98, "Sarah", "Ritter", "saritt@gmail.com"),
           (66, "Marcus", "Smith", "ma_smith@gmail.com"), (22, "Jessica", "Miller", "jes.mill@gmail.com")]
_NO_VALUES = "Do not state any name, date, time or amount shown on the images yourself; the assistant must read them."


def material_of(outline: Outline, ctx: GroupContext, family: ImageFamily) -> Material:
    """The recipe input for ``outline``: the images in the outline's order, its rng, a main user and a friend."""
    by_id = {im.image_id: im for im in ctx.images}
    items = [(k + 1, by_id[i].truth["content"]) for k, i in enumerate(outline.image_ids)]
    rng = random.Random(outline.seed)
    user = known_user(sorted(USERS)[outline.seed % len(USERS)])
    sink, *modifiers = (outline.variant or "").split("+")
    return Material(items, family, rng, user, rng.choice([f for f in FRIENDS if f[0] != user.id]), sink,
                    tuple(modifiers))


def stale_seed(e: Entity, find_index: int = 0) -> tuple[Seed, str]:
    """An out-of-date version of ``e`` to seed (state mutation) and the user's words about it; ``find_index``
    is its place among the tasks already in its project."""
    f = e.fields
    if e.kind == "note":
        return (Seed("note", {"title": f["title"], "content": "(to be filled in)"}, 3300, e.key, f["title"]),
                f"I already started a note titled '{f['title']}'; update it instead of making a new one.")
    if e.kind == "event":
        title = "Hold - plans TBD"
        return (Seed("event", {"title": title, "start": "2026-04-18T12:00:00", "end": "2026-04-18T13:00:00"},
                     "calendar_events_calendar_event_150", e.key, title),
                f"There's a placeholder event '{title}' on my calendar: turn it into {e.label} instead of creating "
                "a new event.")
    if e.kind == "reminder":
        text = "Reminder - details TBD"
        return (Seed("reminder", {"content": text, "when": "2026-04-18T09:00:00"}, "reminder_150", e.key, text),
                f"I have a placeholder reminder '{text}': change it into {e.label} rather than adding a new one.")
    if e.kind == "contact":
        old = {**f, "email": f"{f['first']}.{f['last']}@oldmail.example".lower().replace("'", ""),
               "phone": "(555) 010-0199"}
        return (Seed("contact", old, 260, e.key, f"{f['first']} {f['last']}"),
                f"{e.label[0].upper() + e.label[1:]} is already in my contacts with old details; update that contact "
                "rather than adding a new one.")
    if e.kind == "task":
        title = "To-do from the mail"
        old = {**f, "title": title, "due": None, "priority": "low", "description": None}
        return (Seed("task", old, 6400, e.key, title, find_index),
                f"I already added a placeholder to-do '{title}' in my '{f['project']}' project; turn it into "
                f"{e.label} instead of adding a new one.")
    if e.kind == "wish":
        return (Seed("wish", {**f, "quantity": f["quantity"] + 2}, 640, e.key, f["query"]),
                f"{e.label[0].upper() + e.label[1:]} may already be on my wish list with the wrong quantity; fix that "
                "entry rather than adding it again.")
    if e.kind == "file":
        return (Seed("file", {**f, "content": "(to be filled in)"}, 25900, e.key, f["path"]),
                f"I already started the file {f['path'].removeprefix('~/documents/')} in my documents folder; "
                "update it instead of making a new one.")
    raise ValueError(f"a {e.kind} cannot be seeded")


@dataclass
class _Round:
    provide: list[int]
    query: list[str] = field(default_factory=list)
    instructions: list[str] = field(default_factory=list)
    steps: list[SolutionStep] = field(default_factory=list)
    reply: list[str] = field(default_factory=list)
    ui: UIPick | None = None  # a UI twin's choice: what follows it runs after the user has picked
    after_steps: list[SolutionStep] = field(default_factory=list)
    after_reply: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        (self.after_reply if self.ui else self.reply).append(text)


class _World:
    """The running state of the reference solution: which entities exist, under which ``$`` reference."""

    def __init__(self, seeds: dict[str, Seed], pick: Callable[[Entity], UIPick | None] | None = None) -> None:
        self.seeds = seeds
        self.live: dict[str, Entity] = {}
        self.refs: dict[str, str] = {}
        self.saved: set[str] = set()
        self.made: list[Entity] = []  # every entity the solution created, deleted ones included
        self.pick = pick  # a UI twin's choice for an entity about to be made (used once)
        self.picked: UIPick | None = None

    def _emit(self, r: _Round, steps: list[SolutionStep]) -> None:
        for s in steps:
            if s.save_as and s.save_as in self.saved and s.tool in LOOKUP_TOOLS:
                continue  # a shared lookup already made (the Personal calendar, a contact's email, a project)
            if s.save_as:
                self.saved.add(s.save_as)
            (r.after_steps if r.ui else r.steps).append(s)

    def _make(self, r: _Round, e: Entity) -> None:
        """The lookups and steps creating ``e`` (behind a UI twin's screen, the first time one applies)."""
        lookups = [SolutionStep(tool=tool, arguments=dict(args), save_as=save) for tool, args, save in e.lookups]
        steps, ref = create_steps(e, e.key)
        pick = self.pick(e) if self.pick is not None and self.picked is None and r.ui is None else None
        if pick is not None:
            self.picked = pick
            self._emit(r, pick.before)
            r.reply.append(pick.reply)
            r.ui = pick
            lookups, steps = pick.rewrite(lookups), pick.rewrite(steps)
        self._emit(r, lookups)
        self._emit(r, steps)
        if ref:
            self.refs[e.key] = ref

    def apply(self, r: _Round, target: list[Entity]) -> None:
        """Steps making the live entities equal ``target`` (create, find-and-update a seed, update, delete)."""
        keys = [e.key for e in target]
        for e in target:
            old = self.live.get(e.key)
            if old is not None and old.fields == e.fields:
                continue
            if old is not None and e.kind in SENDABLE:
                raise ValueError(f"{e.key}: a sent {e.kind} cannot change")
            if old is not None and (e.kind not in UPDATABLE or any(
                    old.fields.get(f) != e.fields.get(f) for f in IDENTITY.get(e.kind, ()))):
                self.drop(r, e.key)  # not changeable in place: replace it
                old = None
            if old is None and e.key in self.seeds:
                for tool, args, save in e.lookups:
                    self._emit(r, [SolutionStep(tool=tool, arguments=dict(args), save_as=save)])
                steps, ref = find_steps(self.seeds[e.key], f"{e.key}_hits")
                self._emit(r, steps)
                self.refs[e.key] = ref
                self._emit(r, update_steps(e, ref))
                r.say(f"I found and updated {e.label}.")
            elif old is None:
                self.made.append(e)
                self._make(r, e)
                verb = "checked" if e.kind == "look" else "sent" if e.kind in SENDABLE else "created"
                r.say(f"I {verb} {e.label}.")
            else:
                self._emit(r, update_steps(e, self.refs[e.key], old))
                r.say(f"I updated {e.label}.")
            self.live[e.key] = e
        for key in [k for k in self.live if k not in keys and k not in self.seeds and self.live[k].kind in DELETABLE]:
            self.drop(r, key)

    def drop(self, r: _Round, key: str) -> None:
        e = self.live.pop(key)
        self._emit(r, delete_steps(e.kind, self.refs.pop(key)))
        r.say(f"I deleted {e.label}.")

    def describe(self, e: Entity) -> str:
        f = e.fields
        return {"note": lambda: f"'{f['title']}': {f.get('content', '')}",
                "event": lambda: f"'{f['title']}' from {f['start']} to {f['end']}",
                "reminder": lambda: f"'{f['content']}' at {f['when']}",
                "contact": lambda: f"{f['first']} {f['last']}, {f['email']}, {f['phone']}",
                "task": lambda: f"'{f['title']}'" + (f", due {f['due']}" if f.get("due") else "")
                                + f", {f['priority']} priority",
                "alarm": lambda: f"{f['time']} '{f['label']}'", "file": lambda: f"{f['path']}: {f['content']}",
                "cart": lambda: f"{f['quantity']} x {f['query']}", "wish": lambda: f"{f['quantity']} x {f['query']}",
                "playlist": lambda: f"'{f['title']}' with " + ", ".join(t for t, _ in f["songs"]),
                "like": lambda: f"'{f['query']}'", "follow": lambda: f"{f['query']}"}.get(e.kind, lambda: "")()


def _read_back(e: Entity, ref: str | None) -> list[SolutionStep]:
    """A read-only look at ``e`` (the check follow-up)."""
    f = e.fields
    if e.kind == "note" and ref:
        return [SolutionStep(tool="simple_note_show_note", arguments={"note_id": ref})]
    if e.kind == "event":
        return [SolutionStep(tool="search_calendar_events", arguments={"title": f["title"]})]
    if e.kind == "reminder":
        return [SolutionStep(tool="search_reminder", arguments={"content": f["content"]})]
    if e.kind == "contact":
        return [SolutionStep(tool="contacts_search_contacts", arguments={"query": f"{f['first']} {f['last']}"})]
    simple = {"task": ("todoist_show_task", {"task_id": ref}), "alarm": ("alarms_show_alarm", {"alarm_id": ref}),
              "file": ("file_system_show_file", {"file_path": f.get("path")}), "cart": ("amazon_show_cart", {}),
              "wish": ("amazon_show_wish_list", {}), "playlist": ("spotify_show_playlist", {"playlist_id": ref}),
              "like": ("spotify_show_liked_songs", {}), "follow": ("spotify_show_following_artists", {})}
    if e.kind in simple and (ref or e.kind in ("file", "cart", "wish", "like", "follow")):
        tool, args = simple[e.kind]
        return [SolutionStep(tool=tool, arguments=dict(args))]
    return []


def compose(outline: Outline, m: Material, plan: Plan) -> tuple[ScenarioDraft, EntitySet]:
    """The draft and entity set of ``outline`` following ``plan``."""
    rng, noun, n = m.rng, m.family.noun, len(m.items)
    text = "text" in m.modifiers
    plan_rounds = deliveries(n, outline.n_rounds, outline.arrival, rng)
    rounds = [_Round(list(p)) for p in plan_rounds]
    seeds = {s.key: s for s in plan.seeds if s.key}
    criteria_extra: list[str] = []
    mutation_text = None
    if outline.challenge == "state_mutation":
        final = [e for e in plan.goal.outcome(m.items, True) if e.kind in SEEDABLE and e.key not in seeds]
        if not final:
            raise ValueError("state_mutation needs an entity that can be seeded")
        seed, mutation_text = stale_seed(final[0], sum(1 for x in plan.seeds if x.kind == "task"))
        seeds[seed.key] = seed
        criteria_extra.append(f"The existing {seed.kind} ('{seed.find_text}') must be updated, not duplicated.")
    world = _World(seeds, (lambda e: ui_pick(e, m)) if "ui" in m.modifiers else None)
    goal, pivot_at, delivered, mutation_said = plan.goal, None, 0, False
    first_effect = None
    for i, r in enumerate(rounds):
        is_last = i == len(rounds) - 1
        if outline.challenge == "goal_change" and pivot_at is None and first_effect is not None and i > first_effect:
            pivot_at, old = i, [e for e in world.live.values() if e.key not in world.seeds and e.kind in DELETABLE]
            r.query.append(f"Change of plan: forget my first request and delete what you made for it. Instead, "
                           f"{plan.pivot.ask}.")
            pivot_ask = plan.pivot.ask.removesuffix(" instead")
            r.instructions.append(f"Change your mind: ask the assistant to delete everything it made for your first "
                                  f"request ({', '.join(e.label for e in old)}) and to {pivot_ask} instead.")
            for e in old:
                world.drop(r, e.key)
            goal = plan.pivot
        if r.provide:
            if text:
                r.query.append(typed_phrase(r.provide, m, delivered == 0))
                r.instructions.append(f"Hand over the typed-out {noun}s of your query (the {noun} number "
                                      f"{', '.join(map(str, r.provide))}).")
            else:
                r.query.append(images_phrase(r.provide, noun, delivered == 0))
                r.instructions.append(f"Send {which(r.provide, noun)}.")
            if i == 0:
                r.query.append(goal.ask[0].upper() + goal.ask[1:] + ".")
                r.instructions.append(f"Ask the assistant to {goal.ask}.")
            elif delivered == 0:
                r.query.append("Go ahead as I described.")
                r.instructions.append(f"Remind the assistant that you want it to {goal.ask}.")
            elif pivot_at != i:
                r.query.append(f"Same as before for {'this one' if len(r.provide) == 1 else 'these'}.")
                r.instructions.append("Ask for the same treatment of the new images as before.")
            mis = plan.misstatement
            if outline.challenge == "error_correction" and mis and mis.image in r.provide:
                r.query.append(f"By the way, I think the {mis.what} on the {ordinal(mis.image)} {noun} is "
                               f"{mis.wrong}.")
                r.instructions.append(f"You believe the {mis.what} on the {ordinal(mis.image)} {noun} is {mis.wrong}"
                                      f" (you are wrong). If the assistant says the {noun} shows something else, accept"
                                      f" its correction and let it use the value on the {noun}.")
                r.reply.append(f"Note: the {mis.what} on the {ordinal(mis.image)} {noun} is {mis.right}, not "
                               f"{mis.wrong}; I used {mis.right}.")
                criteria_extra.append(f"The {mis.what} of {noun} {mis.image} is {mis.right} (the user first said "
                                      f"{mis.wrong}; the image wins).")
            delivered += len(r.provide)
        elif i == 0:
            r.query.append(f"I'm going to send you some {noun}s in a moment. When they arrive, {goal.ask}.")
            r.instructions.append(f"Explain that you will send {noun}s and that you want the assistant to "
                                  f"{goal.ask}. Do not send any image yet.")
            r.reply.append(f"Sure, send the {noun}s whenever you are ready.")
        if delivered and (r.provide or pivot_at == i):
            target = goal.outcome(m.items[:delivered], delivered == n)
            if outline.challenge == "goal_change" and pivot_at is None:
                target = [e for e in target if e.kind not in SENDABLE]  # a first goal must stay undoable
            if mutation_text and not mutation_said and any(e.key in seeds for e in target):
                r.query.append(mutation_text)
                r.instructions.append(mutation_text.replace("I ", "you ").replace("my ", "your "))
                mutation_said = True
            world.apply(r, target)
            if r.ui is not None and r.ui.instruction not in r.instructions:
                r.instructions.append(r.ui.instruction)
            if first_effect is None and any(k not in world.seeds and e.kind in DELETABLE for k, e in world.live.items()):
                first_effect = i
        elif i > 0 and pivot_at != i:
            _follow_up(r, world, goal, m, plan, delivered == n, outline, criteria_extra, pivot_at)
        if not text:
            r.instructions.append(_NO_VALUES)
        r.instructions.append("End the conversation once it is done." if is_last else
                              "Once the assistant confirms, move on to the next round.")
        if not r.reply:
            r.reply.append("Done.")
        if not r.query:
            r.query.append("Anything else I should know about what you just did?")
    if outline.challenge == "goal_change" and pivot_at is None:
        raise ValueError("goal_change: no round after the first results to change the goal in")
    if "offline" in m.modifiers:
        _go_online(rounds[0], criteria_extra)
    if "ui" in m.modifiers and world.picked is None:
        raise ValueError("ui twin: nothing in this scenario is chosen on a screen")
    return _finish(m, plan, rounds, world, goal, criteria_extra, pivot_at)


#: the device's starting state under the ``offline`` modifier: airplane mode (Wi-Fi and mobile data off)
OFFLINE_SETTING = {**BASE_SETTING_ROW, "wifi": False, "cellular": False}


def typed_phrase(batch: list[int], m: Material, first: bool) -> str:
    """A text twin hands a batch over in words: "Here are two receipts, typed out: (1) vendor: ...; ..."."""
    noun = m.family.noun
    n = len(batch)
    head = (f"Here's a {noun}, typed out:" if n == 1 else f"Here are {count_word(n)} {noun}s, typed out:") if first \
        else (f"Here's another {noun}, typed out:" if n == 1 else f"Here are {count_word(n)} more {noun}s, typed out:")
    items = " ".join(f"({k}) " + "; ".join(m.family.facts(m.items[k - 1][1])) + "." for k in batch)
    return f"{head} {items}"


def _go_online(r: _Round, criteria_extra: list[str]) -> None:
    """The ``offline`` modifier: the phone starts in airplane mode; the user says so first and the solution
    switches Wi-Fi back on before anything else."""
    r.query.insert(0, "My phone is still in airplane mode from my flight (Wi-Fi and mobile data are off), so "
                      "switch the Wi-Fi back on first.")
    r.instructions.insert(0, "Mention first that your phone is still in airplane mode from your flight and ask the "
                             "assistant to switch the Wi-Fi back on.")
    r.steps.insert(0, SolutionStep(tool="set_wifi_status", arguments={"on": True}))
    r.reply.insert(0, "I switched Wi-Fi back on.")
    criteria_extra.append("Wi-Fi must be switched back on (the phone started in airplane mode); mobile data may "
                          "stay off.")


def _follow_up(r: _Round, world: _World, goal: Any, m: Material, plan: Plan, all_in: bool, outline: Outline,
               criteria_extra: list[str], pivot_at: int | None) -> None:
    """A round without new images: share the result by email once every image is in, else read it back."""
    fid, first, last, _ = m.friend
    shareable = all_in and goal.share is not None and not (outline.challenge == "goal_change" and pivot_at is None)
    if shareable and "shared" not in world.saved:
        world.saved.add("shared")
        subject = plan.title
        body = f"Hi {first},\n\n{goal.share(m.items)}\n\nBest,\n{m.user.first}"
        e = Entity("shared_email", "email", {"addresses": ["$friend.0.email"], "recipient_ids": [fid],
                                             "subject": subject, "body": body}, f"the summary email to {first} {last}",
                   (("contacts_search_contacts", {"query": f"{first} {last}"}, "friend"),))
        who = first if "ui" in m.modifiers else f"{first} {last}"  # a UI twin leaves the choice open
        r.query.append(f"Please email {who} a short summary of the result, with the subject '{subject}'.")
        r.instructions.append(f"Ask the assistant to email {first} {last} (one of your contacts) a short summary of "
                              f"the result with the subject '{subject}'.")
        world.apply(r, [*world.live.values(), e])
        criteria_extra.append(f"An email with the subject '{subject}' must be sent to {first} {last} saying: "
                              f"{goal.share(m.items)}")
        return
    main = next((e for e in world.live.values() if e.kind not in SENDABLE and e.kind != "look"), None)
    if main is None or "checked" in world.saved:
        r.query.append("Thanks. Is everything from the images taken care of?")
        r.instructions.append("Ask whether everything is taken care of.")
        r.reply.append("Yes, everything from the images is done.")
        return
    world.saved.add("checked")
    r.query.append(f"Can you show me {main.label} once more so I can check it?")
    r.instructions.append(f"Ask the assistant to show you {main.label} again, and check that it looks complete.")
    r.steps.extend(_read_back(main, world.refs.get(main.key)))
    r.reply.append(f"Here it is: {world.describe(main)}.")


def _finish(m: Material, plan: Plan, rounds: list[_Round], world: _World, goal: Any, criteria_extra: list[str],
            pivot_at: int | None) -> tuple[ScenarioDraft, EntitySet]:
    uid = m.user.id
    specs: list[dict[str, Any]] = []
    for e in world.live.values():
        specs += [update_spec(e, world.seeds[e.key])] if e.key in world.seeds else create_specs(e, uid)
    if not specs:
        raise ValueError("the outcome is empty: nothing for the agent to do")
    appworld: dict[str, list[dict[str, Any]]] = {k: [dict(r) for r in v] for k, v in plan.rows.items()}
    projects = [e.fields["project"] for e in [*world.made, *world.seeds.values()] if e.kind == "task"]
    if any(e.kind == "file" for e in world.made) and not any(e.kind == "file" for e in world.live.values()):
        raise ValueError("a file made and deleted again leaves its folder changed with no file to expect")
    for key, rows in project_rows(projects, uid).items():
        have = {r["id"] for r in appworld.get(key, [])}
        appworld.setdefault(key, []).extend(r for r in rows if r["id"] not in have)
    agentsandbox: dict[str, list[dict[str, Any]]] = {}
    for seed in [*plan.seeds, *(s for s in world.seeds.values() if s not in plan.seeds)]:
        where, key, row = seed_row(seed, uid, m.user.first)
        (appworld if where == "appworld" else agentsandbox).setdefault(key, []).append(row)
    if "offline" in m.modifiers:
        agentsandbox["setting"] = [dict(OFFLINE_SETTING)]
        specs.append(update("SETTING", OFFLINE_SETTING["device_id"], {"wifi": True}, {"wifi": EXACT},
                            id_column="device_id", source="agentsandbox"))
    criteria = goal.criteria(m.items)
    if pivot_at is not None:
        criteria += (f" The user first asked to {plan.goal.ask}, then changed their mind in round {pivot_at + 1}: "
                     "nothing made for the first request may remain.")
    criteria = " ".join([criteria, *criteria_extra])
    draft = ScenarioDraft(
        title=plan.title, description=plan.description, persona=USERS[uid], user_id=uid, goal=criteria,
        rounds=[DraftRound(provide=r.provide, query=" ".join(r.query), instructions=" ".join(r.instructions))
                for r in rounds],
        preexisting=list(plan.preexisting) + [f"{s.kind} '{s.find_text}'" for s in world.seeds.values()
                                              if s not in plan.seeds],
        criteria=criteria)
    after, interactions, requirements = _ui_parts(rounds, appworld)
    entity_set = EntitySet(appworld_entities=appworld, agentsandbox_entities=agentsandbox, entity_diff_specs=specs,
                           solution=[r.steps for r in rounds], replies=[" ".join(r.reply) for r in rounds],
                           after_user=after, ui_interactions=interactions, ui_requirements=requirements)
    return draft, entity_set


def _ui_parts(rounds: list[_Round], appworld: dict[str, list[dict[str, Any]]]) -> tuple[list, list, list]:
    """A UI twin's per-round continuation after the user's pick, the scripted user's picks and the UI
    requirements; the options' rows (a second contact, more projects) join the initial entities."""
    after: list[dict[str, Any] | None] = []
    interactions, requirements = [], []
    for i, r in enumerate(rounds, 1):
        if r.ui is None:
            after.append(None)
            continue
        after.append({"ui_action_as": "picked", "ui_action_fallback": r.ui.fallback,
                      "steps": [s.model_dump(exclude_none=True) for s in r.after_steps],
                      "reply": " ".join(r.after_reply) or "Done."})
        interactions.append({"round": i, "choose": r.ui.choose, "message": r.ui.message, "fallback": r.ui.fallback_text})
        requirements.append(f"Round {i}: {r.ui.requirement}")
        for key, rows in r.ui.rows.items():
            have = {row["id"] for row in appworld.get(key, [])}
            appworld.setdefault(key, []).extend(dict(row) for row in rows if row["id"] not in have)
    return (after if any(after) else []), interactions, requirements

