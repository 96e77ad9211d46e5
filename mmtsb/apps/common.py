"""Helpers shared by app tools: the acting user, API-style errors, pagination, sorting, text search, and the
two pieces that let one written-out tool serve several apps (:func:`tool_doc`, :func:`register_tool`).

They encode the calling conventions of the reference (TOOLS.md §4) once, so every app behaves alike.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from collections.abc import Callable, Iterable, Mapping, Sequence

from mmtsb.tools.spec import tool
from mmtsb.world import device
from mmtsb.world.world import World

PAGE_LIMIT_MAX = 20


def api_error(message: str) -> ValueError:
    """The reference's error for a failed app API call: ``ValueError("API error: ...")``."""
    return ValueError(f"API error: {message}")


def validation_error(field: str, reason: str) -> ValueError:
    """AppWorld's error for an argument its request validation refuses (a blank name, a short password):
    ``Validation error. Reason: <field>: <reason>``."""
    return api_error(f"Validation error. Reason: {field}: {reason}")


def unauthorized_error(app: str) -> ValueError:
    """AppWorld's per-app 401 error: the token is missing, invalid or expired (or its account is gone)."""
    return api_error(f"You are either not authorized to access this {app} API endpoint or your access token is "
                     "missing, invalid or expired.")


def current_user(world: World, app: str) -> dict[str, Any]:
    """The row of ``<app>.users`` for the account logged in to ``app``.

    PermissionError when logged out (the reference's own check, before AppWorld is asked); AppWorld's 401 error
    when the session's token has expired or its account no longer exists.
    """
    session = device.session_of(world, app)
    if session is None:
        raise PermissionError(f"Not authenticated to {app}. Call {app}_login() first.")
    if device.session_expired(world, session):
        raise unauthorized_error(app)
    column = "phone_number" if app == "phone" else "email"
    rows = world.select(f"{app}.users", f'"{column}" = ?', (session["username"],))
    if not rows:
        raise unauthorized_error(app)
    return rows[0]


def current_user_id(world: World, app: str) -> int:
    return int(current_user(world, app)["id"])


def existing_row(world: World, key: str, row_id: Any, what: str, id_field: str) -> dict[str, Any]:
    """The row ``row_id`` of table ``key``, or the reference's error ``<what> with <id_field>=<id> does not exist.``"""
    row = world.get(key, row_id)
    if row is None:
        raise api_error(f"{what} with {id_field}={row_id} does not exist.")
    return row


def check_page(page_index: int | None, page_limit: int | None, *, max_limit: int = PAGE_LIMIT_MAX) -> tuple[int, int]:
    """Validate pagination arguments (defaults 0 and 5; limit 1..20)."""
    page_index = 0 if page_index is None else page_index
    page_limit = 5 if page_limit is None else page_limit
    if page_index < 0:
        raise api_error("page_index must be >= 0.")
    if not 1 <= page_limit <= max_limit:
        raise api_error(f"page_limit must be between 1 and {max_limit}.")
    return page_index, page_limit


def check_open_page(page_index: int | None, page_limit: int | None, message: str) -> tuple[int, int]:
    """Validate pagination arguments where page_limit is only bounded below (>= 1), as some reference apps do.

    Defaults 0 and 5; ``message`` words the error, formatted with ``field``, ``value`` and ``bound``.
    """
    page_index = 0 if page_index is None else page_index
    page_limit = 5 if page_limit is None else page_limit
    for field, value, bound in (("page_index", page_index, 0), ("page_limit", page_limit, 1)):
        if value < bound:
            raise api_error(message.format(field=field, value=value, bound=bound))
    return page_index, page_limit


def paginate(items: Sequence[Any], page_index: int | None, page_limit: int | None, *,
             max_limit: int = PAGE_LIMIT_MAX) -> list[Any]:
    """One page of items (after validating the arguments)."""
    page_index, page_limit = check_page(page_index, page_limit, max_limit=max_limit)
    start = page_index * page_limit
    return list(items[start:start + page_limit])


def parse_sort_by(sort_by: str | None, allowed: Iterable[str]) -> tuple[str, bool] | None:
    """``"-created_at"`` -> ``("created_at", True)``; validates the prefix (AppWorld requires one) and the
    attribute against ``allowed``."""
    if sort_by is None or sort_by == "":
        return None
    allowed = list(allowed)
    text = sort_by.strip()
    if not text.startswith(("+", "-")):
        raise api_error("The sort_by parameter must start with + or -.")
    descending = text.startswith("-")
    attr = text.lstrip("+-").strip()
    if attr not in allowed:
        raise api_error(f"Invalid sort_by {sort_by!r}. Use +/- followed by one of: {', '.join(allowed)}.")
    return attr, descending


def sort_rows(rows: list[dict[str, Any]], sort_by: str | None, allowed: Iterable[str]) -> list[dict[str, Any]]:
    """Sort dict rows by a ``+attr``/``-attr`` spec (None values last)."""
    spec = parse_sort_by(sort_by, allowed)
    if spec is None:
        return rows
    attr, descending = spec
    present = [r for r in rows if r.get(attr) is not None]
    missing = [r for r in rows if r.get(attr) is None]
    present.sort(key=lambda r: r[attr], reverse=descending)
    return present + missing


_WORD = re.compile(r"\w+")


def tokens(text: str | None) -> list[str]:
    return _WORD.findall((text or "").lower())


def relevance(query: str, *fields: str | None) -> float:
    """A simple relevance score: the share of query words found in the fields (0 when none)."""
    q = tokens(query)
    if not q:
        return 0.0
    hay = set(tokens(" ".join(f or "" for f in fields)))
    hits = sum(1 for w in q if w in hay or any(h.startswith(w) for h in hay))
    return hits / len(q)


def search_rank(rows: list[dict[str, Any]], query: str | None, text_of: Callable[[dict[str, Any]], Iterable[str | None]],
                ) -> list[dict[str, Any]]:
    """Filter rows to those matching the query words, most relevant first (stable for ties)."""
    if not query or not query.strip():
        return rows
    scored = [(relevance(query, *text_of(r)), i, r) for i, r in enumerate(rows)]
    return [r for s, i, r in sorted((x for x in scored if x[0] > 0), key=lambda x: (-x[0], x[1]))]


def paged_search(rows: list[dict[str, Any]], query: str | None, text_of: Callable[[dict[str, Any]], Iterable[str | None]],
                 page_index: int | None, page_limit: int | None, sort_by: str | None, allowed_sort: Iterable[str],
                 default_sort: str | None = None) -> list[dict[str, Any]]:
    """The reference listing convention (TOOLS.md §4): with a query, rank by relevance, paginate, then
    sort within the page; without one, sort (``default_sort`` when none is given) and paginate."""
    allowed_sort = list(allowed_sort)
    if query and query.strip():
        page = paginate(search_rank(rows, query, text_of), page_index, page_limit)
        return sort_rows(page, sort_by, allowed_sort) if sort_by else page
    ordered = sort_rows(rows, sort_by or default_sort, allowed_sort)
    return paginate(ordered, page_index, page_limit)


def parse_date(text: str, field: str) -> datetime:
    """Parse ``YYYY-MM-DD`` or ``YYYY-MM-DD|HH:MM:SS`` (AppWorld formats) with a clear error."""
    for fmt in ("%Y-%m-%d|%H:%M:%S", "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except (ValueError, AttributeError):
            continue
    raise api_error(f"Invalid {field} {text!r}: use YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS.")


def require_non_empty(value: str | None, field: str) -> str:
    if value is None or not str(value).strip():
        raise validation_error(field, "ensure this value has at least 1 characters")
    return value


# ---------------------------------------------------------------------------------------------- shared tools
def tool_doc(summary: str, *paragraphs: str, args: Mapping[str, str] | None = None, returns: str = "") -> str:
    """A tool docstring from its parts, laid out exactly as one written in a module-level ``def``.

    ``summary`` and ``paragraphs`` are plain text (a line break in them continues the paragraph); ``args`` maps
    each parameter to its description and ``returns`` describes the result (a line break in either continues
    it on the next line). The result is what ``inspect.getdoc`` and the tool spec read, byte for byte the same
    as the written-out docstring, so a tool built from shared parts documents itself like any other.
    """
    parts = [summary, *paragraphs]
    if args:
        parts.append("Args:\n" + "\n".join(f"    {name}: " + text.replace("\n", "\n        ")
                                            for name, text in args.items()))
    if returns:
        parts.append("Returns:\n    " + returns.replace("\n", "\n    "))
    body = "\n\n".join(parts).replace("\n", "\n    ").replace("\n    \n", "\n\n")
    return body + "\n    "


def register_tool(fn: Callable[..., Any], name: str, namespace: dict[str, Any], doc: str,
                  **registration: Any) -> Callable[..., Any]:
    """Register ``fn`` as the tool ``name`` of the module whose ``namespace`` (``globals()``) is given.

    For a tool written once and offered by several apps: ``fn`` is a fresh function per app (a closure over
    the app), and here it gets the app's name, module and docstring, is registered with ``@tool``
    (``registration`` are the decorator's keywords) and is bound in the module under its name, where the
    registry collects it like a tool written out there.
    """
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = namespace["__name__"]
    fn.__doc__ = doc
    namespace[name] = tool(**registration)(fn)
    return fn
