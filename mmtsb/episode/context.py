"""Everything one episode owns, passed explicitly to roles and the loop (no global state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from mmtsb.scenarios.build import ScenarioWorld
from mmtsb.scenarios.model import Scenario
from mmtsb.scenarios.script import UserScript, parse_user_script
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.world.world import World

Interface = Literal["code_exec", "tool_use", "hybrid"]


@dataclass
class Budgets:
    """Limits of one episode. ``max_messages`` counts rows as the reference does (every tool call, result
    and user tool call); the others are ours."""

    max_messages: int | None = None          # None: the scenario's own max_messages
    max_steps: int = 60                      # agent actions
    wall_clock_s: float = 900.0
    max_tokens: int | None = None            # all roles together


@dataclass
class EpisodeContext:
    """One episode: scenario, world, tools, interface and budgets."""

    built: ScenarioWorld
    registry: ToolRegistry
    session: ToolSession
    interface: Interface = "code_exec"
    budgets: Budgets = field(default_factory=Budgets)
    seed: int = 0
    extras: dict[str, Any] = field(default_factory=dict)
    #: UI mode: roles offer the A2UI tools and use their UI prompts; the UI judge runs
    ui: bool = False
    _script: UserScript | None = None

    @property
    def scenario(self) -> Scenario:
        return self.built.scenario

    @property
    def world(self) -> World:
        return self.built.world

    @property
    def script(self) -> UserScript:
        """The parsed SYSTEM->USER script (rounds with queries and images)."""
        if self._script is None:
            self._script = parse_user_script(self.scenario.user_script)
        return self._script
