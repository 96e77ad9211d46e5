"""What the code-execution and tool-use agents share: the system prompt, user turns as multimodal
messages, scenario SYSTEM->AGENT rows, and the nudge loop for replies that cannot be used."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.view import EpisodeView
from mmtsb.protocol.messages import AGENT, ENV, SYSTEM, USER, Message
from mmtsb.protocol import Action, Say
from mmtsb.roles.llm_common import ModelRole
from mmtsb.roles.prompts.user import EMPTY_MESSAGE

#: how many times one act() feeds an unusable (empty) reply back before giving up on it
MAX_NUDGES = 2


class LLMAgent(ModelRole):
    """An agent over one chat model. Its own replies are added to the history when the model produces them
    (in :meth:`act`); everything else is converted once, in :meth:`observe`."""

    kind = "agent"
    role_key = "agent"

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any], *,
                 response_cache_dir: str | None = None) -> None:
        super().__init__(model_settings, shared, response_cache_dir=response_cache_dir)
        self.system_prompt = ""
        self._system_rows = 0
        self._conversation_started = False

    @abstractmethod
    def build_system_prompt(self, ctx: EpisodeView) -> str:
        """The composed system prompt for this episode."""

    async def start(self, ctx: EpisodeView) -> None:
        self.ctx = ctx
        self.system_prompt = self.build_system_prompt(ctx)
        self._add({"role": "system", "content": self.system_prompt})

    def prompts(self) -> dict[str, str]:
        return {"system": self.system_prompt}

    # ---- observing -----------------------------------------------------------------------------------------
    def observe(self, message: Message) -> None:
        if message.sender == AGENT:
            return  # recorded from the model's own reply in act()
        if message.sender == SYSTEM:
            self._observe_system(message)
        elif message.sender == USER:
            self.before_user_message()
            self._conversation_started = True
            self._add({"role": "user", "content": self.multimodal(message.content or EMPTY_MESSAGE,
                                                                   list(message.image_ids))})
        elif message.sender == ENV:
            self._conversation_started = True
            self.observe_result(message)

    def _observe_system(self, message: Message) -> None:
        """The first scenario SYSTEM->AGENT row is replaced by our prompt (as the reference does); later ones
        extend the system message before the conversation starts, and become a note after."""
        self._system_rows += 1
        if self._system_rows == 1 or not message.content:
            return
        if not self._conversation_started:
            self.history[0]["content"] += "\n\n" + message.content
            self.system_prompt = self.history[0]["content"]
        else:
            self._add({"role": "user", "content": f"[System note] {message.content}"})

    def before_user_message(self) -> None:
        """Hook: flush anything pending before a user turn is added."""

    @abstractmethod
    def observe_result(self, message: Message) -> None:
        """Convert an EXECUTION_ENVIRONMENT->AGENT row (tool or code result)."""

    # ---- acting --------------------------------------------------------------------------------------------
    async def act(self) -> Action:
        assert self.ctx is not None, "start() was not called"
        for _ in range(MAX_NUDGES + 1):
            action = await self.one_step()
            if action is not None:
                return action
        return Say("")

    @abstractmethod
    async def one_step(self) -> Action | None:
        """Call the model once; the action, or None after adding a nudge for an unusable reply."""
