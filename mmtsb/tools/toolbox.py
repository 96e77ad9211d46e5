"""The full toolbox: every registered tool of every app plus the cross-cutting tools."""

from __future__ import annotations

import functools

from mmtsb.apps import all_apps
from mmtsb.tools.registry import ToolRegistry

#: tools that belong to no app: user tools, discovery, vision and web search
CROSS_CUTTING_MODULES: tuple[str, ...] = (
    "mmtsb.tools.user_tools",
    "mmtsb.tools.discovery_tool",
    "mmtsb.tools.code_tool",
    "mmtsb.vision.tools",
    "mmtsb.vision.web_search",
    "mmtsb.ui.tools",
)


def tool_modules() -> list[str]:
    mods = [m for a in all_apps() for m in a.tool_modules]
    return mods + list(CROSS_CUTTING_MODULES)


@functools.cache
def full_registry() -> ToolRegistry:
    """Every implemented tool (the FULL level). Built once; registries are immutable."""
    import importlib.util

    return ToolRegistry.from_modules(m for m in tool_modules() if importlib.util.find_spec(m) is not None)
