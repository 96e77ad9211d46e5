"""The discovery tool, ``api_docs_search_api_docs``: search the toolbox and make the found tools callable.

In tool-use mode the page's tools are registered into the session's LRU working set (so their schemas are
offered on the agent's next model call) and the answer is the reference's one-line text; in code-exec mode
every tool is already importable and the answer is the page's full documentation.
"""

from __future__ import annotations

from typing import Any

from mmtsb.tools.session import ToolSession
from mmtsb.tools.spec import ToolSpec, tool

SEARCH_TOOL = "api_docs_search_api_docs"
CODE_TOOL = "execute_code"
PAGE_LIMIT_MAX = 20


@tool(domain="meta", needs_context=True)
def api_docs_search_api_docs(session: ToolSession, query: str | None = "", page_index: int | None = 0,
                             page_limit: int | None = 5) -> str | list[dict[str, Any]]:
    """Searches all available tools by relevance to a query and makes the best matches available to you.

    Search with an app name and/or action words, e.g. "gmail send email", "todoist create task",
    "spotify playlist add song", "calendar event". Results are ranked best first and paginated; ask for the
    next page (page_index + 1) if the tool you need is not on this one. In function-calling mode the found
    tools become callable from your next step on (at most 100 discovered tools stay available; the least
    recently used one is dropped beyond that and can be found again). An empty query lists the tools in
    toolbox order.

    Args:
        query: words describing the tool you need (app name, action, object). Empty lists every tool.
        page_index: which page of the ranked results to return, 0 for the first (must be >= 0).
        page_limit: how many tools per page, between 1 and 20.

    Returns:
        In function-calling mode the text "Successfully registered N tools: [names]" (plus which tools were
        dropped from the working set, if any); in code-execution mode a list of {app_name, tool_name,
        description, parameters: [{name, type, required, description, default}], returns}.
    """
    index, limit = _check_page(page_index, page_limit)
    text = (query or "").strip()
    method = getattr(session, "search_method", "bm25")  # a ToolSession may opt into the reference ranking
    # the search tool never lists itself; execute_code only where an interpreter exists (hybrid mode)
    hidden = {SEARCH_TOOL} | ({CODE_TOOL} if getattr(session, "code_runner", None) is None else set())
    ranked = [s for s in session.registry.search_index.search(text, role="agent", method=method)
              if s.name not in hidden]
    page = ranked[index * limit:(index + 1) * limit]
    if session.mode == "code_exec":
        return [s.doc_entry() for s in page]
    names = [s.name for s in page]
    note = _note(session, text, ranked, index, limit)
    if session.working_set is None:
        return (f"Found {len(names)} tools (every tool is already available, nothing to register): "
                f"{names}{note}")
    evicted = session.working_set.touch(names)
    message = f"Successfully registered {len(names)} tools: {names}"
    if evicted:
        message += (f". Dropped from your available tools (least recently used; search again to get them "
                    f"back): {evicted}")
    return message + note


def _check_page(page_index: int | None, page_limit: int | None) -> tuple[int, int]:
    """Defaults 0 and 5; index >= 0, limit 1..20, with messages that name the parameter."""
    index = 0 if page_index is None else page_index
    limit = 5 if page_limit is None else page_limit
    if index < 0:
        raise ValueError(f"page_index must be >= 0 (0 is the first page), got {index}.")
    if not 1 <= limit <= PAGE_LIMIT_MAX:
        raise ValueError(f"page_limit must be between 1 and {PAGE_LIMIT_MAX}, got {limit}.")
    return index, limit


def _note(session: ToolSession, query: str, ranked: list[ToolSpec], index: int, limit: int) -> str:
    """Guidance appended to the tool-use answer: empty query, no match, or a page past the end."""
    if not query:
        shown = min(limit, max(len(ranked) - index * limit, 0))
        return (f". No query given: these are {shown} of all {len(ranked)} tools in toolbox order; pass a "
                f"query (an app name and action words) to search.")
    if not ranked:
        apps = sorted({s.domain for s in session.registry.visible_to("agent")} - {"meta", "user"})
        return (f". No tool matched {query!r}; search with an app name ({', '.join(apps)}) and/or action "
                f"words (show, search, create, update, delete, send).")
    pages = (len(ranked) + limit - 1) // limit
    if index >= pages:
        return (f". page_index {index} is past the last page: {len(ranked)} tools matched, pages 0 to "
                f"{pages - 1} with page_limit {limit}.")
    return ""
