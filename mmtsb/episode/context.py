"""Everything one episode owns, passed explicitly to the loop and (as an :class:`~mmtsb.protocol.EpisodeView`)
to the roles (no global state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mmtsb.protocol.view import Budgets, Interface
from mmtsb.scenarios.build import ScenarioWorld
from mmtsb.scenarios.model import Scenario
from mmtsb.scenarios.script import UserScript, parse_user_script
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.world.world import World

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
