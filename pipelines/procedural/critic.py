"""The procedural critic: the seven quality criteria of stage 6 as real checks of an assembled scenario file
against the ground truth of its images (no model). Each check returns (passed, reason)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from mmtsb.scenarios.script import parse_user_script
from mmtsb.world.people import KNOWN_PEOPLE, base_people
from pipelines.backends.base import GroupContext
from pipelines.items import CRITERIA, Critique, CriterionVerdict, Outline
from pipelines.procedural.families import FAMILIES

__all__ = ["critique", "image_values", "leaks", "user_texts"]

Scenario = dict[str, Any]
Check = Callable[[Scenario, GroupContext, Outline], tuple[bool, str]]

_MONEY = re.compile(r"\$([\d,]+\.\d\d)")
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")
_NAME = re.compile(r"\b([A-Z][a-z]+) ([A-Z][A-Za-z']+)\b")


def _truths(ctx: GroupContext) -> list[tuple[str, dict[str, Any]]]:
    return [(im.truth["family"], im.truth["content"]) for im in ctx.images if im.truth]


def _kinds(ctx: GroupContext) -> list[tuple[str, dict[str, Any]]]:
    """(content kind, content) of each image with ground truth."""
    return [(FAMILIES[f].kind if f in FAMILIES else f, c) for f, c in _truths(ctx)]


def image_values(ctx: GroupContext) -> list[str]:
    """Every value the group's images show that a user must not say (at least 4 characters)."""
    out = []
    for family, content in _truths(ctx):
        fam = FAMILIES.get(family)
        out += [v for v in (fam.values(content) if fam else []) if len(v) >= 4]
    return out


def leaks(text: str, values: Iterable[str]) -> list[str]:
    """The image values ``text`` contains as whole values: "2:00 PM" is not in "12:00 PM", nor "$12" in
    "$12.50"."""
    return sorted({v for v in values if v and re.search(rf"(?<!\w){re.escape(v)}(?!\w|\.\d)", text)})


def user_texts(scenario: Scenario) -> list[str]:
    """What the user side says or is told: the script (queries and instructions) and the opening turn."""
    return [m.get("content", "") for m in scenario.get("messages", []) if m.get("sender") in ("SYSTEM", "USER")]


def _text_twin(outline: Outline) -> bool:
    """A text twin hands the images' content over in words, by design."""
    return "text" in outline.variant.split("+")[1:]


def _multimodal_necessity(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    if _text_twin(outline):
        return True, "a text twin: the content is handed over in words by design (its image twin is checked)"
    found = leaks("\n".join(user_texts(scenario)), image_values(ctx))
    return (not found, f"the user's script states image values: {found}" if found else "no image value in the script")


def _visual_realism(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    bad = [f for f, _ in _truths(ctx) if f not in FAMILIES or not FAMILIES[f].actionable]
    if len(_truths(ctx)) != len(ctx.images) or bad:
        return False, f"images without truth or from non-actionable families: {bad}"
    if _text_twin(outline):
        ok = not scenario.get("image_paths")
        return ok, "a text twin: no image, the content is typed out" if ok else "a text twin carries images"
    if len(scenario.get("image_paths", [])) != len(outline.image_ids):
        return False, "the file's images are not the outline's"
    return True, "every image drawn by an actionable family"


@functools.cache
def _base_names(email: str) -> tuple[frozenset[str], frozenset[str]]:
    """The full and first names of the base people of the world whose main user has ``email``."""
    uid = next((i for i, p in KNOWN_PEOPLE.items() if p[2] == email), 1)
    people = base_people(email, uid)
    return frozenset(p.full_name for p in people), frozenset(p.first_name for p in people)


def _known_people(scenario: Scenario) -> set[str]:
    names = set(_base_names(scenario.get("device_state_id", ""))[0])
    for key, rows in scenario.get("appworld_entities", {}).items():
        if key in ("phone.contacts", "gmail.users", "phone.users"):
            names |= {f"{r.get('first_name')} {r.get('last_name')}" for r in rows}
    return names


def _self_containment(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    firsts = _base_names(scenario.get("device_state_id", ""))[1]
    known = _known_people(scenario)
    script = "\n".join(user_texts(scenario))
    missing = sorted({f"{a} {b}" for a, b in _NAME.findall(script) if a in firsts and f"{a} {b}" not in known})
    ids = {r["id"] for r in scenario.get("appworld_entities", {}).get("gmail.users", [])}
    phones = {r["id"] for r in scenario.get("appworld_entities", {}).get("phone.users", [])}
    for spec in scenario.get("entity_diff_specs", []):
        data = spec.get("entity_data") or {}
        if spec.get("table") == "gmail.emails":
            missing += [f"email recipient {i}" for i in data.get("recipient_ids", []) if not (i <= 110 or i in ids)]
        if spec.get("table") == "phone.global_text_messages":
            i = data.get("receiver_id")
            missing += [f"text receiver {i}"] if not (i <= 110 or i in phones) else []
    return (not missing, f"not in the world: {missing}" if missing else "every person named exists")


def _step_integrity(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    script = parse_user_script(scenario["messages"][0]["content"])
    rounds = script.rounds
    given = [k for r in rounds for k in r.provide_image_ids]
    if _text_twin(outline):
        ok = not given and 2 <= len(rounds) <= 5 and all(r.query.strip() for r in rounds)
        return ok, f"{len(rounds)} rounds, the content typed out" if ok else "a text twin must deliver no image"
    if sorted(given) != list(range(len(scenario.get("image_paths", [])))):
        return False, f"images delivered {given}, not each exactly once"
    if not 2 <= len(rounds) <= 5 or any(not r.query.strip() for r in rounds):
        return False, "2-5 rounds, each with a query, expected"
    first, later = bool(rounds[0].provide_image_ids), any(r.provide_image_ids for r in rounds[1:])
    fits = {"upfront": first and not later, "late": not first and later, "progressive": first and later,
            "mixed": first and later}.get(outline.arrival, False)
    solution = scenario.get("metadata", {}).get("reference_solution", {}).get("rounds", [])
    if not fits:
        return False, f"deliveries do not fit the {outline.arrival} arrival"
    if [r["round"] for r in solution] != [r.number for r in rounds]:
        return False, "the reference solution's rounds are not the script's"
    return True, f"{len(rounds)} rounds, {outline.arrival} deliveries"


def _steps(scenario: Scenario) -> list[dict[str, Any]]:
    rounds = scenario.get("metadata", {}).get("reference_solution", {}).get("rounds", [])
    return [s for r in rounds for s in r.get("steps", [])]


def _goal_flexibility(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    script = "\n".join(user_texts(scenario))
    specs = scenario.get("entity_diff_specs", [])
    if outline.challenge == "goal_change":
        deleted = [s["tool"] for s in _steps(scenario) if any(w in s["tool"] for w in ("delete", "remove", "unlike",
                                                                                          "unfollow"))]
        ok = "Change of plan" in script and bool(deleted)
        return ok, "a pivot round deletes the first goal's entities" if ok else "no pivot that undoes the first goal"
    if outline.challenge == "error_correction":
        claims = re.findall(r"I think the (.+?) on the (\w+) [\w -]+? is (.+?)\.(?:\s|$)", script)
        wrong = [c for c in claims if c[2] not in image_values(ctx)]
        return bool(wrong), "the user misstates a detail the image contradicts" if wrong else "no misstatement"
    if outline.challenge == "state_mutation":
        seeded = [s for s in specs if s["operation"] in ("update", "delete")]
        return bool(seeded), "an existing entity is updated" if seeded else "no existing entity changes"
    return "Change of plan" not in script, "cooperative baseline"


def _spec_texts(spec: dict[str, Any]) -> dict[str, Any]:
    return dict(spec.get("entity_data") or spec.get("expected_fields") or {})


def _grounding(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    truths = _kinds(ctx)
    events: dict[str, set[tuple[str, str]]] = {}  # two posters may share a title: any of their times is right
    for f, c in truths:
        if f == "event":
            events.setdefault(c["title"], set()).add((f"{c['date']}T{c['start']}", f"{c['date']}T{c['end']}"))
    people = {(c["first"], c["last"]): c for f, c in truths if f == "person"}
    amounts: dict[str, set[str]] = {}
    for f, c in truths:
        if f == "expense":
            amounts.setdefault(c["vendor"], set()).update({f"{c['total']:,.2f}", f"{c['tax']:,.2f}"})
    wrong = []
    for spec in scenario.get("entity_diff_specs", []):
        data, table = _spec_texts(spec), spec.get("table") or spec.get("namespace")
        if table == "CALENDAR_EVENTS" and data.get("title") in events:
            times = (str(data.get("start_datetime", ""))[:16], str(data.get("end_datetime", ""))[:16])
            if times not in events[data["title"]]:
                wrong.append(f"event '{data['title']}' times")
        if table == "phone.contacts" and (data.get("first_name"), data.get("last_name")) in people:
            c = people[(data["first_name"], data["last_name"])]
            if (data.get("email"), data.get("phone_number")) != (c["email"], c["phone"]):
                wrong.append(f"contact {c['first']} {c['last']}")
        for value in data.values():
            for line in str(value).splitlines() if isinstance(value, str) else []:
                vendor, _, rest = line.partition(": ")
                m = _MONEY.match(rest)
                if vendor in amounts and m and m.group(1) not in amounts[vendor]:
                    wrong.append(f"{vendor} amount {m.group(1)}")
    return (not wrong, f"values that contradict the images: {wrong}" if wrong else "every image value matches")


def _plausibility(scenario: Scenario, ctx: GroupContext, outline: Outline) -> tuple[bool, str]:
    rows = [_spec_texts(s) for s in scenario.get("entity_diff_specs", [])]
    rows += [r for v in scenario.get("agentsandbox_entities", {}).values() for r in v]
    text = repr([{k: v for k, v in r.items() if not k.endswith(("_at", "creation_datetime"))} for r in rows])
    bad = [f"{y}-{m}-{d}" for y, m, d in _DATE.findall(text) if (y, m) != ("2026", "04")]
    bad += [f"${a}" for a in _MONEY.findall(text) if float(a.replace(",", "")) <= 0]
    return (not bad, f"implausible dates or amounts: {bad}" if bad else "dates in the scenario month, amounts positive")


CHECKS: dict[str, Check] = {
    "multimodal_necessity": _multimodal_necessity, "visual_realism": _visual_realism,
    "self_containment": _self_containment, "conversation_step_integrity": _step_integrity,
    "goal_flexibility": _goal_flexibility, "visual_grounding_accuracy": _grounding, "plausibility": _plausibility,
}
assert tuple(CHECKS) == CRITERIA


def critique(scenario: Scenario, ctx: GroupContext, outline: Outline) -> Critique:
    """The verdict on every criterion (a check that fails to run counts as failed, with its error)."""
    out = {}
    for name, check in CHECKS.items():
        try:
            passed, reason = check(scenario, ctx, outline)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            passed, reason = False, f"check failed: {type(e).__name__}: {e}"
        out[name] = CriterionVerdict(passed=passed, reason=reason)
    return Critique(criteria=out)
