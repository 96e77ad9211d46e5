"""Text matching for device-side searches.

The reference matches calendar titles, descriptions, addresses and attendee names by embedding cosine
similarity (gte-multilingual-base, threshold 0.7). No embedding model is available offline, so we use a
lexical stand-in with the same threshold: rapidfuzz ``token_set_ratio`` on lowercased text, scaled to
0..1, or the share of query words that start a word of the text when that is higher (so "brainstorm"
finds "Brainstorming session"). It scores 1.0 whenever every query word occurs in the text ("gym" vs
"Morning gym session"), tolerates small typos and word order, but it does not know synonyms ("doctor"
vs "dentist").
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz, utils

_WORD = re.compile(r"\w+")

SEMANTIC_THRESHOLD = 0.7
#: reminder content: rapidfuzz WRatio (0..100), as the reference
FUZZY_THRESHOLD = 50.0
#: latitude/longitude tolerance in degrees
COORDINATE_TOLERANCE = 0.01


def text_similarity(query: str, text: str | None) -> float:
    """Lexical similarity in 0..1 (0 when the text is missing)."""
    if not text or not query:
        return 0.0
    score = fuzz.token_set_ratio(query, text, processor=utils.default_process) / 100.0
    return max(score, _prefix_coverage(query, text))


def _prefix_coverage(query: str, text: str) -> float:
    """Share of query words (3+ characters) that begin some word of the text."""
    words = [w for w in _WORD.findall(query.lower()) if len(w) >= 3]
    if not words:
        return 0.0
    hay = _WORD.findall(text.lower())
    return sum(1 for w in words if any(h.startswith(w) for h in hay)) / len(words)


def fuzzy_score(query: str, text: str | None) -> float:
    """rapidfuzz WRatio in 0..100 on case-folded text (0 when the text is missing)."""
    if not text or not query:
        return 0.0
    return float(fuzz.WRatio(query, text, processor=utils.default_process))


def near(given: float, stored: float | None) -> bool:
    """Coordinates match within :data:`COORDINATE_TOLERANCE` degrees."""
    return stored is not None and abs(float(stored) - given) <= COORDINATE_TOLERANCE + 1e-12
