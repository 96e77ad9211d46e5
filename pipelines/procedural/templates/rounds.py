"""Image deliveries for an arrival pattern, and the small phrases the composer writes rounds with."""

from __future__ import annotations

import random

from pipelines.procedural.templates.base import ordinal

__all__ = ["count_word", "deliveries", "images_phrase", "plural"]

_COUNTS = ("no", "one", "two", "three", "four", "five", "six")


def count_word(n: int) -> str:
    return _COUNTS[n]


def plural(noun: str, n: int) -> str:
    return noun if n == 1 else noun + "s"


def _chunks(images: list[int], parts: int, rng: random.Random) -> list[list[int]]:
    """``images`` in order, cut into ``parts`` non-empty runs."""
    cuts = sorted(rng.sample(range(1, len(images)), parts - 1))
    bounds = [0, *cuts, len(images)]
    return [images[a:b] for a, b in zip(bounds, bounds[1:])]


def deliveries(n_images: int, n_rounds: int, arrival: str, rng: random.Random) -> list[list[int]]:
    """The 1-based image numbers each round delivers, fitting the arrival pattern: upfront (all in round 1),
    progressive (consecutive rounds from round 1), late (none in round 1), mixed (a first batch in round 1, the
    rest in later rounds with gaps allowed)."""
    images = list(range(1, n_images + 1))
    out: list[list[int]] = [[] for _ in range(n_rounds)]
    if arrival == "upfront":
        out[0] = images
    elif arrival == "progressive":
        parts = rng.randint(2, min(n_rounds, n_images))
        for r, chunk in enumerate(_chunks(images, parts, rng)):
            out[r] = chunk
    elif arrival == "late":
        parts = rng.randint(1, min(n_rounds - 1, n_images))
        for r, chunk in enumerate(_chunks(images, parts, rng)):
            out[r + 1] = chunk
    elif arrival == "mixed":
        first = rng.randint((n_images + 1) // 2, n_images - 1)
        out[0] = images[:first]
        rest = images[first:]
        parts = rng.randint(1, min(n_rounds - 1, len(rest)))
        rounds = sorted(rng.sample(range(1, n_rounds), parts))
        for r, chunk in zip(rounds, _chunks(rest, parts, rng)):
            out[r] = chunk
    else:
        raise ValueError(f"unknown arrival pattern {arrival!r}")
    return out


def images_phrase(batch: list[int], noun: str, first: bool) -> str:
    """How the user hands a batch over: "Here are three receipts." / "Here's another receipt."."""
    n = len(batch)
    if first:
        return f"Here's a {noun}." if n == 1 else f"Here are {count_word(n)} {plural(noun, n)}."
    return f"Here's another {noun}." if n == 1 else f"Here are {count_word(n)} more {plural(noun, n)}."


def which(batch: list[int], noun: str) -> str:
    """The images of a batch by number, for the user's instructions: "image 2 (the second receipt)"."""
    return ", ".join(f"image {k} (the {ordinal(k)} {noun})" for k in batch)
