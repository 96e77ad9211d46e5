"""Makes the roles of an episode from its config, through the registry of role kinds: the one place the episode
reaches concrete roles. One factory per process holds what episodes share (per-provider concurrency limits, the
image encoding cache, response caches, the direct route's HTTP sessions, the sandbox server that forks every
code runner)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import mmtsb.roles  # noqa: F401  (declares the built-in kinds)
from mmtsb.protocol import registry
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.protocol.judges import Judge
from mmtsb.protocol.registry import RoleRequest
from mmtsb.protocol.roles import Role
from mmtsb.tools.session import ToolSession

if TYPE_CHECKING:
    from mmtsb.sandbox import SandboxServer


class RoleFactory:
    """Builds agents, users, judges and code runners; shared state lives here, never in modules."""

    def __init__(self, sandbox: SandboxServer | None = None) -> None:
        """``sandbox``: the fork server of the code runners (default: one of the factory's own, started with the
        first code runner and closed by :meth:`aclose`)."""
        self._shared: dict[str, Any] = {}
        self._own_sandbox = sandbox is None
        self._sandbox = sandbox

    @property
    def sandbox(self) -> SandboxServer:
        """The fork server every code runner of this factory comes from (made on first use)."""
        if self._sandbox is None:
            from mmtsb.sandbox import SandboxServer

            self._sandbox = SandboxServer()
        return self._sandbox

    @property
    def shared(self) -> dict[str, Any]:
        """The process-wide objects model roles share (keys of :mod:`mmtsb.roles.llm_common`)."""
        return self._shared

    async def aclose(self) -> None:
        """Close the connections the roles opened through this factory (the direct route's HTTP sessions) and
        the sandbox server it made itself (one it was given stays with its owner)."""
        if "mmtsb.roles.llm_common" in sys.modules:   # else no model role was ever made here
            from mmtsb.roles.llm_common import close_shared

            await close_shared(self._shared)
        if self._own_sandbox and self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None

    def _request(self, cfg: EpisodeConfig, role: str) -> RoleRequest:
        return RoleRequest(cfg, cfg.role_settings(role), self._shared)

    def agent(self, cfg: EpisodeConfig) -> Role:
        return registry.agent(cfg.agent).make(self._request(cfg, "agent"))

    def user(self, cfg: EpisodeConfig) -> Role:
        return registry.user(cfg.user).make(self._request(cfg, "user"))

    def judges(self, cfg: EpisodeConfig) -> dict[str, Judge]:
        """The episode's judges by judged party (agent, user; ui in UI mode), as ``cfg.judge`` provides them;
        empty for ``judge=none``."""
        backend = registry.judge_backend(cfg.judge).name
        out: dict[str, Judge] = {}
        for name, party in registry.judged_parties().items():
            make = registry.judge_maker(backend, name)
            if make is not None and party.applies(cfg):
                out[name] = make(self._request(cfg, "judge"))
        return out

    def code_runner(self, cfg: EpisodeConfig, session: ToolSession, scratch: str | Path) -> Any:
        """A sandbox interpreter with every agent tool, for interfaces that run code (None otherwise)."""
        if not registry.interface(cfg.interface).runs_code:
            return None
        from mmtsb.sandbox import Interpreter

        specs = [s for s in session.registry.visible_to("agent") if s.name != "execute_code"]
        return Interpreter(tools=specs, tool_handler=lambda name, args: session.call(name, args, role="agent"),
                           scratch_dir=str(scratch), seed=cfg.seed, server=self.sandbox,
                           clock=session.world.clock.now)   # agent code reads the World's time
