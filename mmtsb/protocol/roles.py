"""What every role (agent, user) looks like to the episode loop.

A role sees the conversation only through :meth:`Role.observe` (every message visible to it, its own
included, in order), so it can keep its model-facing history incrementally: nothing is re-encoded per
turn. :meth:`Role.act` returns one action; the loop turns it into messages and routes them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from mmtsb.protocol.actions import Action
from mmtsb.protocol.messages import Message
from mmtsb.protocol.view import EpisodeView


@dataclass
class RoleUsage:
    """Model usage of one role during an episode."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    api_calls: int = 0
    failed_calls: int = 0        # failed attempts (retried, or the last of a call that failed)
    cost_usd: float = 0.0
    cost_known: bool = True

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens, "api_calls": self.api_calls, "failed_calls": self.failed_calls,
                "cost_usd": round(self.cost_usd, 6), "cost_known": self.cost_known}


def cost_text(usd: float | None, known: bool = True) -> str:
    """A cost as printed: ``$0.0123``; ``unknown`` when a price was unknown (its calls counted as 0), or
    ``$0.0123 + unknown`` when only some were priced."""
    if known:
        return f"${usd or 0.0:.4f}"
    return f"${usd:.4f} + unknown" if usd else "unknown"


class Role(ABC):
    """An agent or a user."""

    #: shown in trajectories and summaries (e.g. "oracle", "code_exec:openai/gpt-5.4")
    name: str = "role"
    #: version of the prompts this role uses (recorded in the trajectory)
    prompt_version: str = "none"

    def __init__(self) -> None:
        self.usage = RoleUsage()

    async def start(self, ctx: EpisodeView) -> None:
        """Called once before the first message; the role may read the scenario and the tools."""

    def observe(self, message: Message) -> None:
        """Called for every message this role can see, in order (its own included)."""

    @abstractmethod
    async def act(self) -> Action:
        """The role's next action."""

    def prompts(self) -> dict[str, str]:
        """The prompt texts this role used (recorded in the trajectory)."""
        return {}

    def usage_record(self) -> dict[str, Any]:
        """The role's usage as the trajectory records it (a model role adds its failed attempts)."""
        return self.usage.to_dict()

    async def close(self) -> None:
        """Release resources (model clients, interpreters)."""
