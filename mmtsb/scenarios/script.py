"""The scripted user's instructions (``messages[0].content``, SYSTEM->USER) as data, and back.

The released layout (STATS.md §3): the ``{{USER_INSTRUCTION}}`` placeholder, then one block per round::

    ROUND 2 [provide: image_3, image_6]
    Query: <what the user says>
    Instructions: <the simulated user's private policy>

then an image block (``You have N images ...`` / ``Image mapping:`` / ``  image_k.jpg -> image ID k-1``) and,
when rounds after the first deliver images, an ``## IMAGE DELIVERY`` schedule
(``  Round r: YOU MUST call the send_message_with_image tool with image_ids='2,3' ...``).

Scripts name images 1-based (``image_k``); tool ids are 0-based (``k - 1``). :func:`parse_user_script` is
tolerant (CRLF, extra spaces, ``.jpg`` suffixes in the provide list, multi-line Query/Instructions, missing
Instructions); :func:`render_user_script` writes the released layout exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PLACEHOLDER = "{{USER_INSTRUCTION}}"

_ROUND = re.compile(r"(?:^|(?<=\}\}))[ \t]*ROUND[ \t]+(\d+)[ \t]*(?:\[[ \t]*provide[ \t]*:(?P<provide>[^\]]*)\])?[ \t]*$",
                    re.IGNORECASE | re.MULTILINE)
_IMAGE_NAME = re.compile(r"image_(\d+)", re.IGNORECASE)
_FIELD = re.compile(r"^[ \t]*(Query|Instructions)[ \t]*:[ \t]?", re.IGNORECASE | re.MULTILINE)
_IMAGE_BLOCK = re.compile(r"^[ \t]*You have \d+ images? available", re.IGNORECASE | re.MULTILINE)
_DELIVERY_HEADER = re.compile(r"^[ \t]*##[ \t]*IMAGE DELIVERY", re.IGNORECASE | re.MULTILINE)
_MAPPING = re.compile(r"^[ \t]*(image_\d+)(?:\.\w+)?[ \t]*->[ \t]*image ID[ \t]*(\d+)", re.IGNORECASE | re.MULTILINE)
_SCHEDULE = re.compile(r"^[ \t]*Round[ \t]+(\d+)[ \t]*:.*?image_ids[ \t]*=[ \t]*['\"]?([\d,\s]*)['\"]?",
                       re.IGNORECASE | re.MULTILINE)

DELIVERY_INTRO = ("⚠️ IMPORTANT: You MUST use the `send_message_with_image` tool to share images with User B. "
                  "Do NOT just describe images in text — you MUST call the tool.")
DELIVERY_LINE = ("  Round {round}: YOU MUST call the send_message_with_image tool with image_ids='{ids}' — do NOT write "
                 "the tool name as text; use the actual function call. Include a natural, conversational message to "
                 "the assistant.")


class ScriptError(ValueError):
    """A user script that cannot be read (the message says what is missing)."""


@dataclass
class ScriptRound:
    """One scripted user round.

    Attributes:
        number: the round number as written (1-based).
        provide_image_ids: 0-based image ids delivered in this round (``image_k`` -> ``k - 1``), in script order.
        query: what the user says to open the round.
        instructions: the simulated user's private policy for the round.
    """

    number: int
    provide_image_ids: list[int] = field(default_factory=list)
    query: str = ""
    instructions: str = ""

    @property
    def provide_names(self) -> list[str]:
        """The 1-based names the script uses (``image_3``)."""
        return [f"image_{i + 1}" for i in self.provide_image_ids]


@dataclass
class UserScript:
    """A parsed SYSTEM->USER script.

    Attributes:
        rounds: the rounds in script order.
        image_mapping: ``image_k`` -> 0-based image id, from the image block (empty when absent).
        delivery_schedule: round number -> 0-based ids from the ``## IMAGE DELIVERY`` schedule (later rounds).
        preamble: whatever precedes the first round (normally just the placeholder).
    """

    rounds: list[ScriptRound]
    image_mapping: dict[str, int] = field(default_factory=dict)
    delivery_schedule: dict[int, list[int]] = field(default_factory=dict)
    preamble: str = ""

    def round(self, number: int) -> ScriptRound:
        """The round with this number; KeyError naming the available numbers otherwise."""
        for r in self.rounds:
            if r.number == number:
                return r
        raise KeyError(f"the script has no round {number}; its rounds are {[r.number for r in self.rounds]}")

    @property
    def image_arrival(self) -> dict[int, list[int]]:
        """Round number -> 0-based ids, for rounds that deliver images."""
        return {r.number: list(r.provide_image_ids) for r in self.rounds if r.provide_image_ids}


def _image_ids(provide: str | None) -> list[int]:
    if not provide:
        return []
    return [int(n) - 1 for n in _IMAGE_NAME.findall(provide)]


def _split_fields(body: str) -> tuple[str, str]:
    """(query, instructions) of one round's body; text before any label counts as the query."""
    query_parts: list[str] = []
    instructions_parts: list[str] = []
    marks = list(_FIELD.finditer(body))
    if not marks:
        return body.strip(), ""
    lead = body[:marks[0].start()].strip()
    if lead:
        query_parts.append(lead)
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        text = body[m.end():end].strip()
        (query_parts if m.group(1).lower() == "query" else instructions_parts).append(text)
    return "\n".join(p for p in query_parts if p), "\n".join(p for p in instructions_parts if p)


def parse_user_script(content: str) -> UserScript:
    """Parse a SYSTEM->USER script; raises ScriptError when it has no ``ROUND n`` block."""
    text = content.replace("\r\n", "\n").replace("\r", "\n")
    tail_start = min([m.start() for m in (_IMAGE_BLOCK.search(text), _DELIVERY_HEADER.search(text)) if m],
                     default=len(text))
    rounds_text, tail = text[:tail_start], text[tail_start:]
    heads = list(_ROUND.finditer(rounds_text))
    if not heads:
        raise ScriptError("the user script has no 'ROUND n' block (expected 'ROUND 1 [provide: image_1]' / "
                          "'Query: ...' / 'Instructions: ...')")
    rounds = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(rounds_text)
        query, instructions = _split_fields(rounds_text[h.end():end])
        rounds.append(ScriptRound(int(h.group(1)), _image_ids(h.group("provide")), query, instructions))
    mapping = {m.group(1).lower(): int(m.group(2)) for m in _MAPPING.finditer(tail)}
    schedule: dict[int, list[int]] = {}
    delivery = _DELIVERY_HEADER.search(tail)
    if delivery:
        for m in _SCHEDULE.finditer(tail[delivery.end():]):
            schedule[int(m.group(1))] = [int(x) for x in re.split(r"[,\s]+", m.group(2).strip()) if x]
    preamble = rounds_text[:heads[0].start()]
    return UserScript(rounds, mapping, schedule, preamble)


def render_user_script(rounds: list[ScriptRound], num_images: int) -> str:
    """The released layout for these rounds and ``num_images`` images (inverse of :func:`parse_user_script`)."""
    blocks = []
    for r in rounds:
        head = f"ROUND {r.number}" + (f" [provide: {', '.join(r.provide_names)}]" if r.provide_image_ids else "")
        blocks.append(f"{head}\nQuery: {r.query}\nInstructions: {r.instructions}")
    text = PLACEHOLDER + "\n\n".join(blocks) + "\n\n"
    if num_images:
        ids = ", ".join(str(i) for i in range(num_images))
        lines = [(f"You have {num_images} images available to share with the agent using the "
                  "send_message_with_image tool."),
                 "IMPORTANT: Image IDs are ZERO-INDEXED integers (0, 1, 2, ...). Do NOT add 1 to the IDs.",
                 f"Available image IDs: [{ids}]",
                 "Image mapping:"]
        lines += [f"  image_{k + 1}.jpg -> image ID {k}" for k in range(num_images)]
        text += "\n".join(lines)
    later = [r for r in rounds if r.number > 1 and r.provide_image_ids]
    if later:
        schedule = [DELIVERY_LINE.format(round=r.number, ids=",".join(str(i) for i in r.provide_image_ids))
                    for r in later]
        text += "\n\n## IMAGE DELIVERY\n\n" + DELIVERY_INTRO + "\n\nImage delivery schedule:\n\n" + "\n".join(schedule)
    return text


# ------------------------------------------------------------------------------------------ UI interactions
#: ``metadata.ui_interactions``: our extension of the format, what the scripted user does on UI screens
UI_INTERACTIONS_KEY = "ui_interactions"


@dataclass
class UIInteraction:
    """One choice the scripted user makes on an interactive screen (UI mode), in a given round.

    The file form (``metadata.ui_interactions``) is a list of objects with these keys::

        {"round": 2, "choose": "Sarah Chen", "message": "Done, I picked Sarah Chen on the screen.",
         "fallback": "I mean Sarah Chen, my colleague at Lumen Labs."}

    Attributes:
        round: the script round (1-based) in which the agent is expected to show the screen.
        choose: visible text naming the option to pick: a button label, a value its action sends, or the text
            of the card/row holding exactly one button (mmtsb.ui.inspect.find_choice).
        message: what the user says after the interaction (the click alone does not hand the turn back).
        fallback: what the user says when no interactive screen offering the choice was shown.
        action_name / component_id: press exactly this button instead of looking for ``choose``.
        field_values: inputs to fill in the same call (input id -> value).
    """

    round: int
    choose: str
    message: str
    fallback: str
    action_name: str | None = None
    component_id: str | None = None
    field_values: dict[str, Any] | None = None


_UI_KEYS = {"round", "choose", "message", "fallback", "action_name", "component_id", "field_values"}


def parse_ui_interactions(data: Any) -> dict[int, list[UIInteraction]]:
    """``metadata.ui_interactions`` by round (in file order); ScriptError names the entry and the problem."""
    if data is None:
        return {}
    if not isinstance(data, list):
        raise ScriptError(f"metadata.{UI_INTERACTIONS_KEY} must be a list of objects, got {type(data).__name__}")
    out: dict[int, list[UIInteraction]] = {}
    for i, entry in enumerate(data):
        where = f"metadata.{UI_INTERACTIONS_KEY}[{i}]"
        if not isinstance(entry, dict):
            raise ScriptError(f"{where} must be an object, got {type(entry).__name__}")
        unknown = sorted(set(entry) - _UI_KEYS)
        if unknown:
            raise ScriptError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(_UI_KEYS)}")
        missing = [k for k in ("round", "choose", "message", "fallback") if k not in entry]
        if missing:
            raise ScriptError(f"{where}: missing key(s) {missing}")
        number = entry["round"]
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ScriptError(f"{where}.round must be a round number >= 1, got {number!r}")
        for key in ("choose", "message", "fallback"):
            if not isinstance(entry[key], str) or not entry[key].strip():
                raise ScriptError(f"{where}.{key} must be a non-empty string")
        if entry.get("field_values") is not None and not isinstance(entry["field_values"], dict):
            raise ScriptError(f"{where}.field_values must be an object (input id -> value)")
        out.setdefault(number, []).append(UIInteraction(**entry))
    return out
