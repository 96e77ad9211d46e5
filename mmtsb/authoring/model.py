"""What a scenario is authored as: its main user, its rounds (query, user instructions, reference-solution
steps, reply) and a :class:`Definition` holding everything one scenario file is generated from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mmtsb.authoring.clock import REFERENCE_TIME
from mmtsb.world.people import KNOWN_PEOPLE

__all__ = ["Definition", "Round", "User", "check_definition", "known_user", "step"]


class User(NamedTuple):
    """A base person used as a scenario's main user (its email is the file's ``device_state_id``)."""

    email: str
    id: int
    first: str


def known_user(uid: int) -> User:
    """The base person with id ``uid`` whose identity the released files reveal (mmtsb/world/people.py)."""
    first, _, email = KNOWN_PEOPLE[uid]
    return User(email, uid, first)


def step(tool: str, save_as: str | None = None, **arguments: Any) -> dict[str, Any]:
    """One reference-solution step: a tool call, its result saved as ``$save_as`` for later steps when named."""
    out: dict[str, Any] = {"tool": tool, "arguments": arguments}
    if save_as:
        out["save_as"] = save_as
    return out


@dataclass
class Round:
    """One user turn: the images it delivers, the user's query and instructions, and the oracle's answer."""

    provide: list[int]  # 1-based image numbers delivered with this round
    query: str
    instructions: str
    steps: list[dict[str, Any]]
    reply: str


@dataclass
class Definition:
    """Everything one scenario file is generated from.

    ``images`` pairs a slug with a function drawing the PNG (called only when the file is written). The file is
    named ``mmtsb_<series>_<NNN>`` and its images ``images/<s><NNN>_<k>_<slug>.png``, ``<s>`` being the series'
    first letter (``n`` for the starter set ``nominal``, ``u`` for ``ui``).
    """

    number: int
    user: User
    description: str
    flow: str
    arrival: str
    challenge: str
    disambiguation: bool
    dataset_type: str
    images: list[tuple[str, Callable[[], bytes]]]
    rounds: list[Round]
    specs: list[dict[str, Any]]
    criteria: str
    appworld: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    agentsandbox: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    series: str = "nominal"
    reference_time: str = REFERENCE_TIME

    @property
    def name(self) -> str:
        return f"mmtsb_{self.series}_{self.number:03d}"

    def image_path(self, index: int) -> str:
        """The path (relative to the set's folder) of the ``index``-th (0-based) image."""
        slug = self.images[index][0]
        return f"images/{self.series[0]}{self.number:03d}_{index + 1}_{slug}.png"


def check_definition(d: Definition) -> None:
    """Fail loudly on a scenario that breaks the sets' conventions: every image delivered exactly once, 2-5
    rounds, 2-6 images, and deliveries that fit the declared image arrival pattern. A text twin (no images: the
    images' content is in the user's words) needs only its 2-5 rounds."""
    delivered = [k for r in d.rounds for k in r.provide]
    where = d.name
    if not d.images:
        if delivered or not 2 <= len(d.rounds) <= 5:
            raise ValueError(f"{where}: a text twin delivers no image and has 2-5 rounds")
        return
    if sorted(delivered) != list(range(1, len(d.images) + 1)):
        raise ValueError(f"{where}: every image must be delivered exactly once; got {delivered}")
    if not 2 <= len(d.rounds) <= 5 or not 2 <= len(d.images) <= 6:
        raise ValueError(f"{where}: 2-5 rounds and 2-6 images expected")
    first = bool(d.rounds[0].provide)
    later = any(r.provide for r in d.rounds[1:])
    expected = {"upfront": first and not later, "late": not first and later,
                "progressive": first and later, "mixed": first and later}
    if not expected.get(d.arrival, False):
        raise ValueError(f"{where}: image_arrival {d.arrival!r} does not fit the rounds' deliveries")
