"""Toolbox levels (FULL / MEDIUM / COMPACT / MINI): thin dispatchers over the same FULL tool functions.

``registry_for_level(level)`` is the toolbox an episode gets; ``to_level_call`` translates a FULL call to the
level's tool (the oracle uses it to play any level). The tables come from ``levels.json`` (see build_levels.py).
"""

from mmtsb.tools.levels.data import LEVELS, REDUCED_LEVELS, framework_tools
from mmtsb.tools.levels.toolbox import LevelRegistry, expected_count, level_of, registry_for_level
from mmtsb.tools.levels.translate import UnreachableToolError, level_python, reachable, to_level_call

__all__ = ["LEVELS", "REDUCED_LEVELS", "LevelRegistry", "UnreachableToolError", "expected_count",
           "framework_tools", "level_of", "level_python", "reachable", "registry_for_level", "to_level_call"]
