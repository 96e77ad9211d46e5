"""The LLM user simulator: a model playing the scenario's scripted supervisor (SPEC.md §3.3).

Its history mirrors the conversation: the SYSTEM->USER script (with ``{{USER_INSTRUCTION}}`` replaced by our
supervisor rules and the challenge-type guardrail) is the system message, the agent's messages are ``user``
turns and the user's own are ``assistant`` turns (with a ``[Sent image IDs: ...]`` suffix). Delivery is blind:
the user never sees its own images; of the images the agent shows it, only the latest is sent as an image.
The deterministic delivery fallback lives in the loop (mmtsb.episode.delivery), not here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.view import EpisodeView
from mmtsb.protocol.messages import AGENT, ENV, SYSTEM, USER, Message, ToolCall
from mmtsb.protocol import Action, CallTools, Say
from mmtsb.roles.llm_common import ModelRole, split_think
from mmtsb.roles.prompts.user import (
    EMPTY_MESSAGE,
    IMAGE_OMITTED,
    NUDGE_EMPTY_USER,
    USER_PROMPT_VERSION,
    USER_UI_PROMPT_VERSION,
    user_instruction,
)
from mmtsb.scenarios.script import PLACEHOLDER
from mmtsb.protocol.registry import RoleRequest, user_kind

SEND_IMAGES = "send_message_with_image"
MAX_NUDGES = 2
_SENT_IDS = re.compile(r"\s*\[Sent image IDs?:[^\]]*\]", re.IGNORECASE)


def strip_sent_ids(text: str) -> str:
    """Remove echoed ``[Sent image IDs: ...]`` markers (the model may imitate its own history)."""
    return _SENT_IDS.sub("", text or "").strip()


def sent_ids_suffix(image_ids: list[int]) -> str:
    return f"\n[Sent image IDs: {', '.join(str(i) for i in image_ids)}]" if image_ids else ""


def _image_ids_argument(value: Any) -> Any:
    """Accept a list or a number for ``image_ids`` (the tool takes a comma-separated string)."""
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return ",".join(str(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


class LLMUser(ModelRole):
    """The simulated user over one chat model."""

    kind = "llm_user"
    role_key = "user"
    prompt_version = USER_PROMPT_VERSION

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any],
                 response_cache_dir: str | None = None) -> None:
        super().__init__(model_settings, shared, response_cache_dir=response_cache_dir)
        self.instruction = ""
        self._system: dict[str, Any] | None = None
        self._image_message: tuple[dict[str, Any], str] | None = None
        self._open_calls: set[str] = set()
        self._seen_ids: set[str] = set()
        self._last: Message | None = None
        self._turn = 0

    async def start(self, ctx: EpisodeView) -> None:
        self.ctx = ctx
        self.instruction = user_instruction(ctx.scenario.taxonomy.challenge_type, ui=ctx.ui)
        if ctx.ui:
            self.prompt_version = USER_UI_PROMPT_VERSION

    def prompts(self) -> dict[str, str]:
        return {"user_instruction": self.instruction}

    # ---- observing -----------------------------------------------------------------------------------------
    def observe(self, message: Message) -> None:
        self._last = message
        if message.sender == SYSTEM:
            self._observe_script(message.content or "")
        elif message.sender == USER and message.recipient == AGENT:
            self._add({"role": "assistant",
                       "content": strip_sent_ids(message.content) + sent_ids_suffix(list(message.image_ids))
                       or EMPTY_MESSAGE})
        elif message.sender == USER:
            self._observe_own_calls(message)
        elif message.sender == AGENT:
            self._observe_agent(message)
        elif message.sender == ENV:
            self._observe_result(message)

    def _observe_script(self, content: str) -> None:
        """SYSTEM->USER rows form one system message; the first carries our instruction."""
        if self._system is None:
            text = (content.replace(PLACEHOLDER, self.instruction, 1) if PLACEHOLDER in content
                    else self.instruction + content)
            self._system = {"role": "system", "content": text}
            self.history.insert(0, self._system)
            self.conversions += 1
        else:
            self._system["content"] += "\n\n" + content.replace(PLACEHOLDER, "")

    def _observe_agent(self, message: Message) -> None:
        """An agent message becomes a ``user`` turn; only the latest agent image stays an image."""
        text = message.content or EMPTY_MESSAGE
        if not message.image_ids:
            self._add({"role": "user", "content": text})
            return
        if self._image_message is not None:  # the older image gives way to the new one (text kept)
            previous, previous_text = self._image_message
            previous["content"] = f"{previous_text}\n{IMAGE_OMITTED}"
        entry = self._add({"role": "user", "content": self.multimodal(text, list(message.image_ids))})
        self._image_message = (entry, text)

    def _observe_own_calls(self, message: Message) -> None:
        wire = []
        for call in message.tool_calls:
            raw = call.raw_arguments if call.raw_arguments is not None and call.parse_error is None else None
            wire.append({"id": call.id, "type": "function", "function": {
                "name": call.name, "arguments": raw if raw and raw.strip() else _json(call.arguments)}})
            self._open_calls.add(call.id)
        if wire:
            self._add({"role": "assistant", "content": None, "tool_calls": wire})

    def _observe_result(self, message: Message) -> None:
        if message.tool_call_id is not None and message.tool_call_id in self._open_calls:
            self._open_calls.discard(message.tool_call_id)
            self._add({"role": "tool", "tool_call_id": message.tool_call_id,
                       "content": message.content or "(no output)"})
        else:
            self._add({"role": "user", "content": message.content or EMPTY_MESSAGE})

    # ---- acting --------------------------------------------------------------------------------------------
    def tools_offered(self) -> bool:
        """Tools only right after an agent message, or after the user's own failed tool call (to retry)."""
        last = self._last
        if last is None:
            return False
        return last.sender == AGENT or (last.sender == ENV and last.recipient == USER and last.is_error)

    def tool_schemas(self) -> list[dict[str, Any]]:
        assert self.ctx is not None
        ui_mode = self.ctx.ui  # ui_user_interact belongs to UI mode only
        return [s.openai_schema() for s in self.ctx.session.available("user")
                if ui_mode or s.domain != "ui"]

    async def act(self) -> Action:
        assert self.ctx is not None, "start() was not called"
        for _ in range(MAX_NUDGES + 1):
            self._turn += 1
            tools = self.tool_schemas() if self.tools_offered() else None
            response = await self.complete(tools)
            text, _ = split_think(response.text)
            text = strip_sent_ids(text)
            if response.tool_calls and tools:
                return CallTools([self._call(c, i) for i, c in enumerate(response.tool_calls)], text=text)
            if text:
                return Say(text)
            self._add({"role": "user", "content": NUDGE_EMPTY_USER})
        return Say("")

    def _call(self, c: Any, index: int) -> ToolCall:
        cid = c.id or f"user_call_{self._turn}_{index}"
        if cid in self._seen_ids:
            cid = f"{cid}_u{self._turn}_{index}"
        self._seen_ids.add(cid)
        args = dict(c.parsed_arguments or {})
        if c.name == SEND_IMAGES:
            if isinstance(args.get("message"), str):
                args["message"] = strip_sent_ids(args["message"])
            if "image_ids" in args:
                args["image_ids"] = _image_ids_argument(args["image_ids"])
        return ToolCall(id=cid, name=c.name, arguments=args, raw_arguments=c.arguments, parse_error=c.parse_error)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


@user_kind("llm")
def llm_user(req: RoleRequest) -> LLMUser:
    """An LLM plays the user from the scenario's script (``user_model``)."""
    return LLMUser(req.settings, req.shared, response_cache_dir=req.response_cache_dir)
