"""What a role may read of the episode it plays in: :class:`EpisodeView`, plus the episode's limits
(:class:`Budgets`) and interface names.

Why a protocol: roles are written against this small read-only surface, not against the episode loop's own
objects, so the roles package never imports the episode package (the episode's ``EpisodeContext``
satisfies it; tests may pass any object that does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from mmtsb.scenarios.model import Scenario
    from mmtsb.scenarios.script import UserScript
    from mmtsb.tools.registry import ToolRegistry
    from mmtsb.tools.session import ToolSession
    from mmtsb.world.world import World

#: the agent interfaces of the paper (the registry of agent kinds says which one each agent uses)
Interface = Literal["code_exec", "tool_use", "hybrid"]


@dataclass
class Budgets:
    """Limits of one episode. ``max_messages`` counts rows as the reference does (every tool call, result
    and user tool call); ``max_interaction_steps`` counts the paper's steps (messages sent by the agent or the
    user, :func:`mmtsb.protocol.steps.is_interaction_step`); the others are ours. None turns a limit off (but
    ``max_messages``: None is the scenario's own)."""

    max_messages: int | None = None          # None: the scenario's own max_messages
    max_steps: int | None = None             # agent actions (ours; protocol=mmtsb: 60)
    wall_clock_s: float = 900.0
    max_tokens: int | None = None            # all roles together
    max_interaction_steps: int | None = 100  # the paper's cap: messages of the agent and the user together

    def problems(self) -> list[str]:
        """Budgets no episode can be played under, each naming its key (a config error, not an agent failure)."""
        out = []
        if self.max_steps is not None and self.max_steps < 1:
            out.append(f"budgets.max_steps={self.max_steps}: must be at least 1 (agent actions per episode), "
                       "or null for no cap")
        if self.max_interaction_steps is not None and self.max_interaction_steps < 1:
            out.append(f"budgets.max_interaction_steps={self.max_interaction_steps}: must be at least 1 (agent and "
                       "user messages per episode), or null for no cap")
        if not self.wall_clock_s > 0:
            out.append(f"budgets.wall_clock_s={self.wall_clock_s}: must be greater than 0 seconds")
        if self.max_messages is not None and self.max_messages < 1:
            out.append(f"budgets.max_messages={self.max_messages}: must be at least 1 (or null: the scenario's own)")
        if self.max_tokens is not None and self.max_tokens < 1:
            out.append(f"budgets.max_tokens={self.max_tokens}: must be at least 1 (or null: no token budget)")
        return out


class EpisodeView(Protocol):
    """The episode as a role sees it: the scenario and its script, the world (images, clock), the tools it
    may call through the session, the interface, UI mode, seed and budgets. Roles read; the loop writes."""

    @property
    def scenario(self) -> Scenario: ...

    @property
    def script(self) -> UserScript: ...

    @property
    def world(self) -> World: ...

    @property
    def registry(self) -> ToolRegistry: ...

    @property
    def session(self) -> ToolSession: ...

    @property
    def interface(self) -> Interface: ...

    @property
    def ui(self) -> bool: ...

    @property
    def seed(self) -> int: ...

    @property
    def budgets(self) -> Budgets: ...
