"""Small text helpers shared by the searches and the scenario loader, kept free of any other mmtsb import.

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
