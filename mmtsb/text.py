"""Small text helpers shared by the searches, the scenario loader and the error reports, kept free of any other
mmtsb import.

Why one module: tool search, the frozen web search and the entity-reference prefixes each need to meet
"notes" with "note"; one stemmer keeps them consistent and is tested once.
"""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=65536)
def plural_stem(word: str) -> str:
    """A light English plural stemmer for lower-case words: notes -> note, entries -> entry, matches -> match,
    boxes -> box, sizes -> size; words of three letters or fewer, numbers and -ss/-us/-is endings stay.

    Deliberately small and dependency-free: documents and queries both go through it, so only consistency
    matters. Stripping -ing/-ed/-e as well measured worse on the scenario queries
    (``benchmarks/search_ranking.py``), so it stays at plurals. -zes loses only its s (sizes -> size,
    freezes -> freeze: such words are in our tools' and pages' text; no -zzes word is). Every app table name
    maps to its singular (``cart_entries`` -> ``cart_entry``), which the scenario reference prefixes rely on.
    """
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_TRACEBACK = "Traceback (most recent call last):"


def error_headline(text: object) -> str:
    """The line that says what went wrong in an error text: its first line, and when that line opens (or ends in)
    a Python traceback, the exception line that traceback ends with (``ValueError: ...``): a failure reported
    as "SolutionError: ...: Traceback (most recent call last):" would otherwise hide its cause."""
    lines = [line for line in str(text or "").strip().splitlines() if line.strip()]
    if not lines:
        return ""
    head = lines[0].strip()
    if not head.endswith(_TRACEBACK):
        return head
    cause = next((line.strip() for line in lines[1:] if not line[:1].isspace() and line.strip() != _TRACEBACK), "")
    prefix = head[: -len(_TRACEBACK)].rstrip(" :")
    return f"{prefix}: {cause}" if prefix and cause else (cause or head)
