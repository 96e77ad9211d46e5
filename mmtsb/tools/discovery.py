"""Tool discovery: rank a toolbox's tools against a free-text query.

Two rankers live here:

* :class:`ToolSearchIndex`, ours: BM25 (the ``bm25s`` library) over each tool's search document
  (:meth:`ToolSpec.search_text`: name, name words, domain, summary, description, parameters, absorbed names).
  Text is split on non-word characters *and* underscores, so ``simple_note_create_note`` indexes as
  ``simple note create note``; stop words are dropped and a plural stemmer makes "notes" and "note" meet.
  The tool's name words are scored as a second field and added, so the name decides among tools whose
  text matches equally. Length normalisation is moderate (b=0.5): long parameter lists should not bury a tool.
* :func:`reference_keyword_rank`, a faithful re-implementation of the reference's keyword scoring
  (TOOLS.md §6), kept for side-by-side measurement (``benchmarks/search_ranking.py``) and as an option.

Both accept anything shaped like a :class:`~mmtsb.tools.spec.ToolSpec` (see :class:`SearchDoc`), so the
benchmark can rank catalog entries that have no implementation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Generic, Literal, Protocol, TypeVar

import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from mmtsb.text import plural_stem
from mmtsb.tools.spec import Role


class SearchDoc(Protocol):
    """What a ranker needs from a tool (ToolSpec satisfies it)."""

    name: str
    domain: str
    summary: str
    visible_to: tuple[Role, ...]
    absorbs: tuple[str, ...]

    def search_text(self) -> str: ...


D = TypeVar("D", bound=SearchDoc)

# ---------------------------------------------------------------------------------------- tokenising
_WORD = re.compile(r"[a-z0-9]+")
#: bm25s's (Lucene's) English list; a longer list of conversational fillers measured no better
_STOPWORDS = frozenset(STOPWORDS_EN) | {"e", "g", "etc", "please", "via"}
#: the rankers a search can use: ours, or the reference's keyword scoring (for comparison runs)
SearchMethod = Literal["bm25", "reference"]


def tokenize(text: str) -> list[str]:
    """Lowercase word pieces (underscores split words), stop words removed, stemmed."""
    return [plural_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


# ------------------------------------------------------------------------------------------- BM25
class _Field:
    """One BM25 index over one text field of every tool (token ids are assigned here, which builds the
    index about twice as fast as letting bm25s tokenise)."""

    def __init__(self, texts: Sequence[str], *, k1: float, b: float) -> None:
        self.vocab: dict[str, int] = {}
        corpus = [[self.vocab.setdefault(t, len(self.vocab)) for t in tokenize(text)] for text in texts]
        self.bm25 = bm25s.BM25(k1=k1, b=b)
        self.size = len(corpus)
        if self.vocab:
            self.bm25.index((corpus, dict(self.vocab)), show_progress=False)

    def scores(self, tokens: list[str]) -> np.ndarray:
        ids = [self.vocab[t] for t in tokens if t in self.vocab]
        if not ids:
            return np.zeros(self.size, dtype=np.float32)
        return self.bm25.get_scores_from_ids(ids)


class ToolSearchIndex(Generic[D]):
    """A BM25 index over a fixed list of tools (built once per registry; 10-20 ms for the 511 tools).

    Two fields are scored and added: the whole search text, and the tool's name words (with the names it
    absorbs). Without the name field, a word as common as "email" (a parameter of 120 tools) lets
    ``*_send_verification_code`` outrank ``gmail_send_email`` for "send an email"; with it, the name
    decides among tools the text matches equally (see benchmarks/search_ranking.py for the measured gain).
    """

    def __init__(self, specs: Sequence[D], *, k1: float = 1.2, b: float = 0.5,
                 name_weight: float = 1.0) -> None:
        self.specs: list[D] = list(specs)
        self.name_weight = name_weight
        self._visible: dict[str, np.ndarray] = {}
        self._names: set[str] | None = None
        self._text = _Field([s.search_text() for s in self.specs], k1=k1, b=b)
        self._name = _Field([" ".join((s.name, *s.absorbs)) for s in self.specs], k1=k1, b=b)

    def __len__(self) -> int:
        return len(self.specs)

    def scores(self, query: str) -> np.ndarray:
        """Relevance of every indexed tool to the query (zeros when no query word is known)."""
        tokens = tokenize(query or "")
        return self._text.scores(tokens) + self.name_weight * self._name.scores(tokens)

    def search(self, query: str, *, role: Role = "agent", limit: int | None = None,
               method: SearchMethod = "bm25") -> list[D]:
        """Tools visible to ``role``, best first; only tools sharing a word with the query.

        An empty query returns every visible tool in registry order. ``method="reference"`` ranks with the
        reference's keyword scoring instead (:func:`reference_keyword_rank`).
        """
        if method == "reference":
            ranked = reference_keyword_rank(self.specs, query, role=role)
            return ranked if limit is None else ranked[:limit]
        if method != "bm25":
            raise ValueError(f"Unknown search method {method!r}; use 'bm25' or 'reference'.")
        visible = self._visible.get(role)
        if visible is None:
            visible = self._visible[role] = np.array([role in s.visible_to for s in self.specs], dtype=bool)
        if not (query or "").strip():
            ranked = [s for s, v in zip(self.specs, visible) if v]
        else:
            scores = self.scores(query)
            keep = np.flatnonzero(visible & (scores > 0))
            order = keep[np.argsort(-scores[keep], kind="stable")]
            ranked = [self.specs[i] for i in order]
            exact = self._exact_names(query)
            if exact:  # a query that IS a tool's name (or a name a level tool absorbs) finds that tool first
                ranked = [s for s in ranked if s.name in exact or exact & set(getattr(s, "absorbs", ()))] + [
                    s for s in ranked if not (s.name in exact or exact & set(getattr(s, "absorbs", ())))]
        return ranked if limit is None else ranked[:limit]

    def _exact_names(self, query: str) -> set[str]:
        """Tool names written verbatim in the query (snake_case words that name a tool or an absorbed tool)."""
        words = set(re.findall(r"[a-z][a-z0-9_]*_[a-z0-9_]+", query.lower()))
        if not words:
            return set()
        names = self._names
        if names is None:
            names = self._names = {s.name for s in self.specs} | {a for s in self.specs
                                                                  for a in getattr(s, "absorbs", ())}
        return words & names


# -------------------------------------------------------------------------- the reference's scoring
def reference_domain_label(doc: SearchDoc) -> str:
    """The domain word the reference's search sees: the module name for app, device and vision tools,
    ``user_tools`` for user tools, else the name's first word (UI: ui/render/show; meta: api/execute)."""
    if doc.domain in ("ui", "meta"):
        return doc.name.split("_", 1)[0]
    if doc.domain == "user":
        return "user_tools"
    return doc.domain


def reference_keyword_scores(specs: Sequence[D], query: str) -> list[tuple[D, float]]:
    """Score every tool the reference's way (TOOLS.md §6), in input order (zero scores included).

    Text = lowercase ``domain name name-with-spaces first-docstring-line``. For each whitespace-separated
    (lowercased) query term: +2.0 if it is a substring of the name or of a name the tool absorbed,
    else +1.5 if it is a substring of the domain label, else +1.0 if it occurs anywhere in the text.
    """
    terms = (query or "").lower().split()
    out = []
    for s in specs:
        name = s.name.lower()
        domain = reference_domain_label(s).lower()
        first_line = (s.summary or "").strip().splitlines()[0] if (s.summary or "").strip() else ""
        text = f"{domain} {name} {name.replace('_', ' ')} {first_line}".lower()
        absorbed = [a.lower() for a in getattr(s, "absorbs", ())]
        score = 0.0
        for t in terms:
            if t in name or any(t in a for a in absorbed):
                score += 2.0
            elif t in domain:
                score += 1.5
            elif t in text:
                score += 1.0
        out.append((s, score))
    return out


def reference_keyword_rank(specs: Sequence[D], query: str, *, role: Role | None = "agent") -> list[D]:
    """The reference's ranking: tools with score > 0, by score descending (stable for ties).

    Only tools visible to ``role`` are considered (None: all). An empty query returns them all in order.
    """
    pool = [s for s in specs if role is None or role in getattr(s, "visible_to", ("agent",))]
    if not (query or "").strip():
        return pool
    scored = [(s, sc) for s, sc in reference_keyword_scores(pool, query) if sc > 0]
    return [s for s, _ in sorted(scored, key=lambda x: -x[1])]
