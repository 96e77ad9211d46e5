"""What an image family is, and the small helpers the families share (money, dates, style colours)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

__all__ = ["CATEGORIES", "ImageFamily", "long_date", "money", "short_date", "style_rng", "tint", "clock_time"]

#: the paper's visual categories (§4.2: documents, natural scene text, charts, UI screenshots)
CATEGORIES = ("document", "scene_text", "chart", "screenshot")

Content = dict[str, Any]


@dataclass(frozen=True)
class ImageFamily:
    """A kind of procedurally drawn image: ``sample`` draws a content record from an rng, ``draw`` renders it
    (same content and style seed, same PNG bytes); ``values`` lists what the image shows that a user must never
    say (the agent has to read it), ``facts`` the short statements stage 1 reports."""

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

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"{self.name}: unknown category {self.category!r}")


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
