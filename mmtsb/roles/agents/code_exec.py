"""The code-execution agent (SPEC.md §4 mode 4): plain chat without tools; the first fenced python block
of a reply is run in the sandbox, a reply without code goes to the user."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.view import EpisodeView
from mmtsb.protocol.messages import Message
from mmtsb.roles.agents.base import LLMAgent
from mmtsb.protocol import Action, RunCode, Say
from mmtsb.roles.llm_common import split_think
from mmtsb.roles.prompts.agent import (
    AGENT_CODE_EXEC_PROMPT_VERSION,
    CODE_IMAGES_NOTE,
    NUDGE_EMPTY_CODE,
    code_exec_prompt,
)
from mmtsb.protocol.registry import InterfaceSpec, RoleRequest, agent_kind

_OPEN = r"```[ \t]*(?:python3?|py)\b[^\n]*\n"
_BLOCK = re.compile(_OPEN + r"(.*?)^[ \t]*```", re.DOTALL | re.IGNORECASE | re.MULTILINE)
_UNCLOSED = re.compile(_OPEN + r"(.*)\Z", re.DOTALL | re.IGNORECASE)
_TRACEBACK = "Traceback (most recent call last):"


@dataclass
class CodeBlock:
    """The first python block of a reply: its code, the prose before it and the reply cut after it."""

    code: str
    before: str
    kept: str


def first_code_block(text: str) -> CodeBlock | None:
    """The first fenced python block; an unclosed block at the end counts (its code runs to the end, and a
    truncated program then fails to parse instead of being sent to the user as text)."""
    m = _BLOCK.search(text)
    if m is not None:
        return CodeBlock(m.group(1).rstrip(), text[:m.start()].strip(), text[:m.end()].rstrip())
    m = _UNCLOSED.search(text)
    if m is not None:
        return CodeBlock(m.group(1).rstrip(), text[:m.start()].strip(), text.rstrip() + "\n```")
    return None


def execution_body(message: Message) -> str:
    """A code result as the model reads it: output, then ``[Error]: ...`` when the run failed.

    Uses ``meta`` stdout/value/error/blocked when the loop provides them; otherwise marks the error part of
    the loop's text (the traceback, or the whole text when no traceback is found)."""
    meta = message.meta or {}
    if any(k in meta for k in ("error", "blocked")):
        output = "\n".join(p for p in (meta.get("stdout"), meta.get("value")) if p).rstrip("\n")
        error = meta.get("blocked") or meta.get("error")
        if error:
            return (output + "\n" if output else "") + f"[Error]: {error}"
        return output or message.content
    content = (message.content or "").rstrip("\n")
    if not message.is_error:
        return content
    at = content.rfind(_TRACEBACK)
    if at >= 0:
        output = content[:at].rstrip("\n")
        return (output + "\n" if output else "") + "[Error]: " + content[at:]
    return f"[Error]: {content}" if content else "[Error]: the execution failed"


class CodeExecAgent(LLMAgent):
    """Acts through one python block per turn; results come back as ``<execution_results>`` user messages
    (consecutive results merged into one message)."""

    kind = "code_exec"
    prompt_version = AGENT_CODE_EXEC_PROMPT_VERSION

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any], *,
                 response_cache_dir: str | None = None) -> None:
        super().__init__(model_settings, shared, response_cache_dir=response_cache_dir)
        self._results_message: dict[str, Any] | None = None

    def build_system_prompt(self, ctx: EpisodeView) -> str:
        return code_exec_prompt(ctx.world.clock.now())

    def observe_result(self, message: Message) -> None:
        text = f"<execution_results>\n{execution_body(message)}\n</execution_results>"
        parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
        if message.image_ids:
            parts += [{"type": "text", "text": CODE_IMAGES_NOTE}, *self.image_parts(list(message.image_ids))]
        last = self.history[-1] if self.history else None
        if last is not None and last is self._results_message:
            self._merge(last, parts)
            return
        content: Any = text if len(parts) == 1 else parts
        self._results_message = self._add({"role": "user", "content": content})

    def _merge(self, last: dict[str, Any], parts: list[dict[str, Any]]) -> None:
        """Append another result to the trailing results message (no re-encoding: parts are reused)."""
        self.conversions += 1
        if isinstance(last["content"], str) and len(parts) == 1:
            last["content"] += "\n" + parts[0]["text"]
            return
        if isinstance(last["content"], str):
            last["content"] = [{"type": "text", "text": last["content"]}]
        last["content"].extend(parts)

    async def one_step(self) -> Action | None:
        response = await self.complete()
        text, _ = split_think(response.text)
        if not text:
            self._add({"role": "user", "content": NUDGE_EMPTY_CODE})
            return None
        block = first_code_block(text)
        if block is None:
            self._add({"role": "assistant", "content": text})
            return Say(text)
        self._add({"role": "assistant", "content": block.kept})
        return RunCode(block.code, text=block.before)


#: the code-execution interface (SPEC.md §2.1)
CODE_EXEC = InterfaceSpec("code_exec", "the agent writes Python that calls the tools (one persistent sandboxed "
                          "interpreter per episode)", runs_code=True, supports_ui=False)


@agent_kind("code_exec", interface=CODE_EXEC)
def code_exec_agent(req: RoleRequest) -> CodeExecAgent:
    """A chat model whose replies' first ```python block runs in the episode's sandbox."""
    return CodeExecAgent(req.settings, req.shared, response_cache_dir=req.response_cache_dir)
