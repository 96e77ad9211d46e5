"""The tool-use agent (SPEC.md §4 modes 2-3): provider-native tool calls over the session's working set;
``hybrid`` adds ``execute_code``. Tool results become ``role: tool`` messages; the images they carry follow
in one user message once every parallel call of the step has its result."""

from __future__ import annotations

import json
from typing import Any

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.view import EpisodeView
from mmtsb.protocol.messages import Message, ToolCall
from mmtsb.llm import LLMResponse
from mmtsb.roles.agents.base import LLMAgent
from mmtsb.protocol import Action, CallTools, RunCode, Say
from mmtsb.roles.llm_common import split_think, thinking_blocks
from mmtsb.roles.prompts.agent import (
    AGENT_HYBRID_PROMPT_VERSION,
    AGENT_TOOL_USE_PROMPT_VERSION,
    AGENT_UI_HYBRID_PROMPT_VERSION,
    AGENT_UI_PROMPT_VERSION,
    MISSING_TOOL_RESULT,
    NUDGE_EMPTY_TOOLS,
    TOOL_IMAGES_NOTE,
    tool_use_prompt,
    ui_first_prompt,
)
from mmtsb.protocol.registry import InterfaceSpec, RoleRequest, agent_kind

EXECUTE_CODE = "execute_code"

#: offered in hybrid mode when the registry has no ``execute_code`` tool: a lone call becomes RunCode
EXECUTE_CODE_SCHEMA: dict[str, Any] = {"type": "function", "function": {
    "name": EXECUTE_CODE,
    "description": ("Runs Python code in a persistent interpreter where every API is available as a function "
                    "with the same name and keyword parameters. Returns what the code printed, then the value "
                    "of the last expression, or the error."),
    "parameters": {"type": "object", "properties": {
        "code": {"type": "string", "description": "the Python code to run"}}, "required": ["code"]},
}}


def history_arguments(call_raw: str | None, parse_error: str | None) -> str:
    """The arguments string stored in the history: the model's own text when it is a JSON object, else a
    JSON wrapper of it (some providers re-parse past arguments and would reject the raw text)."""
    raw = call_raw or ""
    if parse_error is None:
        return raw if raw.strip() else "{}"
    return json.dumps({"unparsed_arguments": raw}, ensure_ascii=False)


class ToolUseAgent(LLMAgent):
    """Calls tools natively. The tools offered on every call are the session's available agent tools (the
    working set of discovered tools plus the pinned ones), so a discovery call's finds appear next call."""

    kind = "tool_use"

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any], *, hybrid: bool = False,
                 response_cache_dir: str | None = None) -> None:
        super().__init__(model_settings, shared, response_cache_dir=response_cache_dir)
        self.hybrid = hybrid
        if hybrid:
            self.kind = "hybrid"
            self.name = f"hybrid:{model_settings.model}"
        self.prompt_version = AGENT_HYBRID_PROMPT_VERSION if hybrid else AGENT_TOOL_USE_PROMPT_VERSION
        self._schemas: dict[str, dict[str, Any]] = {}
        self._open_calls: list[str] = []          # ids of the last step's calls still waiting for a result
        self._pending_images: list[int] = []      # images of this step's results, sent after the last one
        self._seen_ids: set[str] = set()
        self._code_call: str | None = None        # a lone execute_code call run as RunCode (fallback)
        self._builtin_exec = False
        self._step = 0

    def build_system_prompt(self, ctx: EpisodeView) -> str:
        self._builtin_exec = self.hybrid and EXECUTE_CODE not in ctx.registry
        if ctx.ui:  # UI mode: the UI-first prompt (SPEC.md §4)
            self.prompt_version = AGENT_UI_HYBRID_PROMPT_VERSION if self.hybrid else AGENT_UI_PROMPT_VERSION
            return ui_first_prompt(ctx.world.clock.now(), hybrid=self.hybrid)
        return tool_use_prompt(ctx.world.clock.now(), hybrid=self.hybrid)

    # ---- tools offered -------------------------------------------------------------------------------------
    def tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI schemas of the tools available now (cached per tool: specs are immutable)."""
        assert self.ctx is not None
        out = []
        for spec in self.ctx.session.available("agent"):
            if spec.name == EXECUTE_CODE and not self.hybrid:
                continue
            schema = self._schemas.get(spec.name)
            if schema is None:
                schema = self._schemas[spec.name] = spec.openai_schema()
            out.append(schema)
        if self._builtin_exec:
            out.append(EXECUTE_CODE_SCHEMA)
        return out

    # ---- observing -----------------------------------------------------------------------------------------
    def observe_result(self, message: Message) -> None:
        call_id = message.tool_call_id
        if call_id is None and self._code_call is not None:
            call_id, self._code_call = self._code_call, None
        if call_id is not None and call_id in self._open_calls:
            self._open_calls.remove(call_id)
            self._add({"role": "tool", "tool_call_id": call_id, "content": message.content or "(no output)"})
            self._pending_images.extend(message.image_ids)
            if not self._open_calls:
                self._flush_images()
            return
        # an environment notice that answers no open call (e.g. a UI notification): a user message
        self._close_step()
        self._add({"role": "user", "content": self.multimodal(message.content or "(no output)",
                                                               list(message.image_ids))})

    def before_user_message(self) -> None:
        self._close_step()

    def _flush_images(self) -> None:
        if self._pending_images:
            ids = list(dict.fromkeys(self._pending_images))
            self._pending_images = []
            self._add({"role": "user", "content": [{"type": "text", "text": TOOL_IMAGES_NOTE},
                                                   *self.image_parts(ids)]})

    def _close_step(self) -> None:
        """Answer calls that got no result (the API requires one per call), then send pending images."""
        for call_id in self._open_calls:
            self._add({"role": "tool", "tool_call_id": call_id, "content": MISSING_TOOL_RESULT})
        self._open_calls = []
        self._code_call = None
        self._flush_images()

    # ---- acting --------------------------------------------------------------------------------------------
    async def one_step(self) -> Action | None:
        self._close_step()
        self._step += 1
        response = await self.complete(self.tool_schemas())
        text, _ = split_think(response.text)
        if response.tool_calls:
            return self._tool_action(response, text)
        if not text:
            self._add({"role": "user", "content": NUDGE_EMPTY_TOOLS})
            return None
        self._add({"role": "assistant", "content": text, **thinking_blocks(response)})
        return Say(text)

    def _unique_id(self, call_id: str, index: int) -> str:
        """Provider ids, made unique within the episode (some servers number calls per response)."""
        cid = call_id or f"call_{self._step}_{index}"
        if cid in self._seen_ids:
            cid = f"{cid}_s{self._step}_{index}"
        self._seen_ids.add(cid)
        return cid

    def _tool_action(self, response: LLMResponse, text: str) -> Action:
        calls: list[ToolCall] = []
        wire: list[dict[str, Any]] = []
        for i, c in enumerate(response.tool_calls):
            cid = self._unique_id(c.id, i)
            calls.append(ToolCall(id=cid, name=c.name, arguments=dict(c.parsed_arguments or {}),
                                  raw_arguments=c.arguments, parse_error=c.parse_error))
            wire.append({"id": cid, "type": "function",
                         "function": {"name": c.name, "arguments": history_arguments(c.arguments, c.parse_error)}})
        self._add({"role": "assistant", "content": text or None, "tool_calls": wire, **thinking_blocks(response)})
        self._open_calls = [c.id for c in calls]
        lone = calls[0] if len(calls) == 1 else None
        if (self._builtin_exec and lone is not None and lone.name == EXECUTE_CODE and lone.parse_error is None
                and isinstance(lone.arguments.get("code"), str)):
            self._code_call = lone.id
            return RunCode(lone.arguments["code"], text=text)
        return CallTools(calls, text=text)


#: the tool-use interface: JSON function calls, tools found through discovery (SPEC.md §2.2)
TOOL_USE = InterfaceSpec("tool_use", "the agent calls tools as JSON function calls (discovery through "
                         "api_docs_search_api_docs)", tool_calls=True, pinned_tools=("api_docs_search_api_docs",))
#: tool use plus an execute_code tool running Python in the sandbox
HYBRID = InterfaceSpec("hybrid", "JSON tool calls plus an execute_code tool for Python", runs_code=True,
                       tool_calls=True, pinned_tools=("api_docs_search_api_docs", EXECUTE_CODE))


@agent_kind("tool_use", interface=TOOL_USE)
def tool_use_agent(req: RoleRequest) -> ToolUseAgent:
    """A chat model calling tools natively over the discovery working set."""
    return ToolUseAgent(req.settings, req.shared, response_cache_dir=req.response_cache_dir)


@agent_kind("hybrid", interface=HYBRID)
def hybrid_agent(req: RoleRequest) -> ToolUseAgent:
    """The tool-use agent with execute_code offered as well."""
    return ToolUseAgent(req.settings, req.shared, hybrid=True, response_cache_dir=req.response_cache_dir)
