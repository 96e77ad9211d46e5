"""UI mode (the paper's A2UI variant of a scenario): which tools it adds and how its criteria are written.

In UI mode the agent gets the seven agent UI tools (pinned in a tool-use working set), the user gets
``ui_user_interact``, the agent gets the UI-first prompt and the UI judge runs (SPEC.md §1 "UI-mode scenarios").
"""

from __future__ import annotations

import re

#: the agent's UI tools: five documentation tools, the renderer and the tool that shows a screen to the user
AGENT_UI_TOOLS = ("ui_get_quick_start", "ui_get_item_details", "ui_explore_capabilities", "ui_list_items",
                  "ui_search_docs", "render_ui_screen", "show_ui_to_user")
#: the user's UI tool
USER_UI_TOOL = "ui_user_interact"
UI_TOOLS = (*AGENT_UI_TOOLS, USER_UI_TOOL)
#: the category UI scenario files carry (the reference drops it as unknown; we keep it)
UI_CATEGORY = "UI_MODE"

_REQUIREMENTS = re.compile(r"^[ \t]*UI Requirements[ \t]*:[ \t]*", re.IGNORECASE | re.MULTILINE)


def ui_requirements(criteria: str) -> str:
    """The ``UI Requirements:`` part of a scenario's completion criteria (empty when it has none)."""
    m = _REQUIREMENTS.search(criteria or "")
    return criteria[m.end():].strip() if m else ""


def without_ui_requirements(criteria: str) -> str:
    """The completion criteria without their ``UI Requirements:`` part."""
    m = _REQUIREMENTS.search(criteria or "")
    return criteria[:m.start()].rstrip() if m else (criteria or "")
