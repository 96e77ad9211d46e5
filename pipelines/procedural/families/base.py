"""What an image family is, and the small helpers the families share (money, dates, style colours)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

__all__ = ["CATEGORIES", "PAPER_CATEGORY", "ImageFamily", "clock_time", "knob_family", "long_date", "money",
           "short_date", "style_rng", "tint"]

#: visual categories of the families: documents, natural scene text, photo-like scenes with little text, charts
#: (and tables, infographics), UI screenshots
CATEGORIES = ("document", "scene_text", "photo", "chart", "screenshot")
#: the paper's four image source categories (its Appendix D.4 / Table 12) by family category
PAPER_CATEGORY = {"document": "Docs/Charts/Tables", "chart": "Docs/Charts/Tables", "scene_text": "Natural (text-rich)",
                  "photo": "Natural (less text)", "screenshot": "UI"}

Content = dict[str, Any]


@dataclass(frozen=True)
class ImageFamily:
    """A kind of procedurally drawn image: ``sample`` draws a content record from an rng, ``draw`` renders it
    (same content and style seed, same PNG bytes); ``values`` lists what the image shows that a user must never
    say (the agent has to read it), ``facts`` the short statements stage 1 reports. Families of one ``kind``
    share the shape of their content (a receipt and an invoice both show an expense), so the flow templates
    build from any of them; ``takes_knobs`` families draw under difficulty knobs
    (:class:`~pipelines.procedural.render.knobs.Knobs`: ``draw(content, style_seed, knobs)``)."""

    name: str
    category: str
    dataset_type: str
    domains: tuple[str, ...]  # tool domains, primary first
    actionable: bool
    noun: str  # how a user calls one image ("receipt")
    sample: Callable[[random.Random], Content]
    draw: Callable[[Content, int], bytes]
    values: Callable[[Content], list[str]]
    facts: Callable[[Content], list[str]]
    kind: str = ""  # the content's kind (default: the family's own name)
    takes_knobs: bool = False

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"{self.name}: unknown category {self.category!r}")
        if not self.kind:
            object.__setattr__(self, "kind", self.name)

    def render(self, content: Content, style_seed: int, knobs: Any = None) -> bytes:
        """The image's bytes: under ``knobs`` for a family that takes them (PNG for the knobs' default), else
        the family's own PNG."""
        if self.takes_knobs:
            from pipelines.procedural.render.knobs import Knobs

            return self.draw(content, style_seed, knobs if knobs is not None else Knobs())  # type: ignore[call-arg]
        return self.draw(content, style_seed)


def knob_family(kind: str, domains: tuple[str, ...], sample: Callable[[random.Random], Content],
                values: Callable[[Content], list[str]], facts: Callable[[Content], list[str]]
                ) -> Callable[..., ImageFamily]:
    """The maker of one content kind's knob-aware families: ``make(name, category, dataset_type, noun, draw)``."""
    def make(name: str, category: str, dataset_type: str, noun: str, draw: Callable[..., bytes]) -> ImageFamily:
        return ImageFamily(name, category, dataset_type, domains, True, noun, sample, draw, values, facts, kind=kind,
                           takes_knobs=True)
    return make


def money(x: float) -> str:
    """A dollar amount as printed: ``$1,234.50``."""
    return f"${x:,.2f}"


def long_date(iso: str) -> str:
    """``2026-04-24`` -> ``Friday, April 24``."""
    d = date.fromisoformat(iso)
    return f"{d:%A}, {d:%B} {d.day}"


def short_date(iso: str) -> str:
    """``2026-04-24`` -> ``April 24``."""
    d = date.fromisoformat(iso)
    return f"{d:%B} {d.day}"


def clock_time(hhmm: str) -> str:
    """``19:30`` -> ``7:30 PM``."""
    h, m = map(int, hhmm.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def style_rng(style_seed: int, family: str) -> random.Random:
    """The rng behind one image's looks (independent of its content)."""
    return random.Random(f"{family}:{style_seed}")


def tint(rng: random.Random, lo: int = 60, hi: int = 200) -> tuple[int, int, int]:
    """A saturated-enough accent colour."""
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))
