"""The offline scripted user: delivers each round's query with its images, in order, moving on whenever
the agent replies, and ends the conversation after the last round. Deterministic; no model."""

from __future__ import annotations

from mmtsb.episode.context import EpisodeContext
from mmtsb.episode.messages import Message, ToolCall
from mmtsb.roles.base import Action, CallTools, Role, Say


class ScriptedUser(Role):
    name = "scripted"

    def __init__(self) -> None:
        super().__init__()
        self._rounds: list = []
        self._next = 1  # index into rounds of the next round to deliver (round 1 is the scenario's first message)

    async def start(self, ctx: EpisodeContext) -> None:
        self._rounds = list(ctx.script.rounds)

    async def act(self) -> Action:
        if self._next < len(self._rounds):
            r = self._rounds[self._next]
            self._next += 1
            return Say(r.query, list(r.provide_image_ids))
        return CallTools([ToolCall(id=f"user_end_{self._next}", name="end_conversation", arguments={})])

    def observe(self, message: Message) -> None:  # the script does not depend on what the agent says
        return None
