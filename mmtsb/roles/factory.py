"""Makes the roles of an episode from its config. One factory per process holds what episodes share
(per-provider concurrency limits, the image encoding cache, the sandbox template)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mmtsb.episode.config import EpisodeConfig
from mmtsb.protocol import Role
from mmtsb.protocol.judges import Judge
from mmtsb.roles.judges.static import StaticAgentJudge, StaticUIJudge, StaticUserJudge
from mmtsb.roles.oracle import OracleAgent
from mmtsb.roles.scripted_user import ScriptedUser
from mmtsb.tools.session import ToolSession


class RoleFactory:
    """Builds agents, users, judges and code runners; shared state lives here, never in modules."""

    def __init__(self) -> None:
        self._shared: dict[str, Any] = {}

    async def aclose(self) -> None:
        """Close the connections the roles opened through this factory (the direct route's HTTP sessions)."""
        if "mmtsb.roles.llm_common" in sys.modules:   # else no model role was ever made here
            from mmtsb.roles.llm_common import close_shared

            await close_shared(self._shared)

    def agent(self, cfg: EpisodeConfig) -> Role:
        if cfg.agent == "oracle":
            return OracleAgent(cfg.interface)
        from mmtsb.roles.llm_agents import make_llm_agent

        return make_llm_agent(cfg, self._shared)

    def user(self, cfg: EpisodeConfig) -> Role:
        if cfg.user == "scripted":
            return ScriptedUser()
        from mmtsb.roles.llm_user import LLMUser

        return LLMUser(cfg.user_model, self._shared, response_cache_dir=cfg.response_cache_dir)

    def judges(self, cfg: EpisodeConfig) -> tuple[Judge | None, Judge | None]:
        if cfg.judge == "none":
            return None, None
        if cfg.judge == "static":
            return StaticAgentJudge(), StaticUserJudge()
        from mmtsb.roles.judges.llm import LLMAgentJudge, LLMUserJudge

        return (LLMAgentJudge(cfg.judge_model, self._shared, response_cache_dir=cfg.response_cache_dir),
                LLMUserJudge(cfg.judge_model, self._shared, response_cache_dir=cfg.response_cache_dir, ui=cfg.ui))

    def ui_judge(self, cfg: EpisodeConfig) -> Judge | None:
        """The UI judge of a UI-mode episode (``judge=static``: deterministic rules; ``judge=llm``: the rubric
        judge over ``judge_model``); None outside UI mode or with ``judge=none``."""
        if not cfg.ui or cfg.judge == "none":
            return None
        if cfg.judge == "static":
            return StaticUIJudge()
        from mmtsb.roles.judges.llm import LLMUIJudge

        return LLMUIJudge(cfg.judge_model, self._shared, response_cache_dir=cfg.response_cache_dir)

    def code_runner(self, cfg: EpisodeConfig, session: ToolSession, scratch: str | Path) -> Any:
        """A sandbox interpreter with every agent tool, for the code-exec and hybrid interfaces."""
        if cfg.interface not in ("code_exec", "hybrid"):
            return None
        from mmtsb.sandbox import Interpreter

        specs = [s for s in session.registry.visible_to("agent") if s.name != "execute_code"]
        return Interpreter(tools=specs, tool_handler=lambda name, args: session.call(name, args, role="agent"),
                           scratch_dir=str(scratch), seed=cfg.seed)
