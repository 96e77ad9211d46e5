"""Web search for the agent: ``web_search_serper`` with two backends.

* **frozen web** (default): a local corpus of documents, one JSON object per line
  (``{"url", "title", "snippet", "text"}``), ranked with BM25. Deterministic and offline. The corpus is
  ``world.metadata["web_corpus"]`` when a scenario ships its own file, else the project's default
  ``mmtsb/vision/frozen_web/corpus.jsonl``.
* **live Serper API**: used when the ``SERPER_API_KEY`` environment variable is set (unless
  ``world.metadata["web_search_backend"] == "frozen"``). ``SERPER_BASE_URL`` overrides the endpoint
  (tests point it at a local server).

Both return Serper's "organic" list: ``[{"title", "link", "snippet", "position"}, ...]``.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmtsb.text import plural_stem
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

DEFAULT_CORPUS = Path(__file__).resolve().parent / "frozen_web" / "corpus.jsonl"
SERPER_URL = "https://google.serper.dev"
SERPER_TIMEOUT_S = 10.0
MAX_RESULTS = 10
MAX_QUERY_CHARS = 2048
BACKENDS = ("auto", "frozen", "serper")

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
#: question words that carry no topic, added to bm25s's English stop words
_QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "does",
                             "do", "did", "can", "could", "should", "would", "much", "many", "about", "from"})


# ------------------------------------------------------------------------------------------ tokens
@functools.cache
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN) | _QUESTION_WORDS


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without English stop words, lightly stemmed."""
    stop = _stopwords()
    return [plural_stem(t) for t in _TOKEN.findall(text.lower()) if t not in stop]


# ------------------------------------------------------------------------------------------ frozen web
@dataclass(frozen=True)
class WebDocument:
    url: str
    title: str
    snippet: str
    text: str


@dataclass(frozen=True)
class FrozenWebIndex:
    """A corpus and its BM25 index; built once per corpus file and never modified afterwards."""

    path: str
    documents: tuple[WebDocument, ...]
    retriever: Any

    def search(self, query: str, k: int = MAX_RESULTS) -> list[dict[str, Any]]:
        """The top ``k`` documents with a positive BM25 score, best first (ties keep corpus order)."""
        tokens = tokenize(query)
        if not tokens:
            return []
        scores = self.retriever.get_scores(tokens)
        ranked = sorted((i for i in range(len(self.documents)) if scores[i] > 0), key=lambda i: (-scores[i], i))
        return [{"title": d.title, "link": d.url, "snippet": d.snippet, "position": pos}
                for pos, d in enumerate((self.documents[i] for i in ranked[:k]), start=1)]


def _field(path: Path, lineno: int, obj: dict[str, Any], name: str, required: bool) -> str:
    value = obj.get(name, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise ValueError(f"web corpus {path}, line {lineno}: field {name!r} must be a non-empty string.")
    return value.strip()


def load_corpus(path: Path) -> tuple[WebDocument, ...]:
    """Parse a JSON-lines corpus; errors name the file, the line and the field."""
    docs = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"web corpus {path}, line {lineno}: not valid JSON ({e.msg}).") from None
            if not isinstance(obj, dict):
                raise ValueError(f"web corpus {path}, line {lineno}: expected a JSON object with url, title, "
                                 f"snippet and text.")
            url, title = _field(path, lineno, obj, "url", True), _field(path, lineno, obj, "title", True)
            text, snippet = _field(path, lineno, obj, "text", False), _field(path, lineno, obj, "snippet", False)
            if not snippet and not text:
                raise ValueError(f"web corpus {path}, line {lineno}: give a snippet or a text.")
            docs.append(WebDocument(url, title, snippet or _shorten(text), text or snippet))
    if not docs:
        raise ValueError(f"web corpus {path} has no documents.")
    return tuple(docs)


def _shorten(text: str, limit: int = 200) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " ..."


@functools.lru_cache(maxsize=16)
def _build_index(path: str, mtime_ns: int, size: int) -> FrozenWebIndex:
    """Keyed by file identity, so an edited corpus file gets a fresh index."""
    import bm25s

    docs = load_corpus(Path(path))
    # the title counts twice: a match in the title is stronger evidence than one in the body
    tokens = [tokenize(f"{d.title} {d.title} {d.snippet} {d.text}") or [""] for d in docs]
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    return FrozenWebIndex(path, docs, retriever)


def frozen_index(corpus: str | os.PathLike[str] | None = None) -> FrozenWebIndex:
    """The (cached) index of a corpus file; the project's default corpus when none is given."""
    path = Path(corpus) if corpus else DEFAULT_CORPUS
    try:
        stat = path.resolve(strict=True).stat()
    except (FileNotFoundError, NotADirectoryError):
        raise ValueError(f"web corpus file not found: {path} (set by world.metadata['web_corpus'] or the "
                         f"default corpus).") from None
    return _build_index(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


# ------------------------------------------------------------------------------------------ live Serper
def serper_search(query: str, api_key: str, base_url: str | None = None,
                  timeout: float = SERPER_TIMEOUT_S) -> list[dict[str, Any]]:
    """POST the query to Serper and return its organic results; every failure is a precise ValueError."""
    import httpx

    base = (base_url or os.environ.get("SERPER_BASE_URL") or SERPER_URL).rstrip("/")
    url = base if base.endswith("/search") else base + "/search"
    try:
        response = httpx.post(url, json={"q": query}, timeout=timeout,
                              headers={"X-API-KEY": api_key, "Content-Type": "application/json"})
    except httpx.TimeoutException:
        raise ValueError(f"Web search failed: the Serper API at {url} did not answer within {timeout:g} s.") from None
    except httpx.HTTPError as e:
        raise ValueError(f"Web search failed: could not reach the Serper API at {url} ({e}).") from None
    if response.status_code in (401, 403):
        raise ValueError(f"Web search failed: the Serper API rejected the API key (HTTP {response.status_code}); "
                         f"check SERPER_API_KEY.")
    if response.status_code == 429:
        raise ValueError("Web search failed: the Serper API rate limit or credit was exceeded (HTTP 429).")
    if response.status_code >= 400:
        raise ValueError(f"Web search failed: the Serper API answered HTTP {response.status_code}: "
                         f"{response.text[:200]!r}.")
    try:
        payload = response.json()
    except ValueError:
        raise ValueError(f"Web search failed: the Serper API answered with non-JSON content: "
                         f"{response.text[:200]!r}.") from None
    organic = payload.get("organic", []) if isinstance(payload, dict) else None
    if not isinstance(organic, list):
        raise ValueError("Web search failed: the Serper API answer has no 'organic' result list.")
    results = []
    for pos, item in enumerate((o for o in organic if isinstance(o, dict)), start=1):
        results.append({**item, "title": str(item.get("title", "")), "link": str(item.get("link", "")),
                        "snippet": str(item.get("snippet", "")), "position": item.get("position", pos)})
    return results


# ------------------------------------------------------------------------------------------ the tool
def _backend(world: World) -> str:
    choice = world.metadata.get("web_search_backend", "auto")
    if choice not in BACKENDS:
        raise ValueError(f"world.metadata['web_search_backend'] must be one of {', '.join(BACKENDS)}, got {choice!r}.")
    if choice == "auto":
        return "serper" if os.environ.get("SERPER_API_KEY") else "frozen"
    if choice == "serper" and not os.environ.get("SERPER_API_KEY"):
        raise ValueError("Web search is configured to use the Serper API, but SERPER_API_KEY is not set.")
    return choice


@tool(domain="vision", requires=Requirements(wifi=True))
def web_search_serper(world: World, query: str) -> list[dict[str, Any]]:
    """Searches the web and returns the top results (title, link, snippet). Needs WiFi on.

    Write a focused query with the key names and terms (e.g. "Eiffel Tower height"). Results are ranked
    best first; each snippet is a short extract of the page.

    Args:
        query: the search query, 1..2048 characters.

    Returns:
        list of {title, link, snippet, position} (position 1 = best); an empty list when nothing matched.
    """
    query = query.strip()
    if not query:
        raise ValueError("query must be a non-empty search string.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValueError(f"query must be at most {MAX_QUERY_CHARS} characters, got {len(query)}.")
    if _backend(world) == "serper":
        return serper_search(query, os.environ["SERPER_API_KEY"])
    return frozen_index(world.metadata.get("web_corpus")).search(query)
