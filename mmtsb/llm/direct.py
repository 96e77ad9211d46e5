"""The lean HTTP leg for OpenAI-compatible servers (``compat_route="direct"``): one aiohttp POST per attempt.

Why: a local vLLM (or SGLang, llama.cpp, the fake test server) speaks exactly OpenAI's chat-completions wire
format, so litellm has nothing to translate; yet its per-call work (provider resolution, request and response
transforms through httpx, a thread hop, logging and cost bookkeeping) costs a few ms of CPU per call, more
than half of an episode's harness CPU when hundreds of episodes share a few cores
(``benchmarks/concurrency.py`` prints both routes side by side). Everything else of a call (retries, limits,
ledger, cache, response parsing, error classes) stays in :class:`mmtsb.llm.client.LLMClient`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp

from mmtsb.jsonio import dumps_bytes
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.llm.errors import (
    LLMBadRequestError,
    LLMConnectionError,
    LLMError,
    LLMMalformedResponseError,
    LLMTimeoutError,
    _parse_retry_after,
    class_for_status,
    redact,
)

#: the request keys a client sets itself (a config's extra_params cannot override them)
_RESERVED = frozenset({"model", "messages", "tools", "tool_choice", "stream"})


def served_model_name(model: str) -> str:
    """The name the server knows: the litellm id without its route prefix (``hosted_vllm/Qwen/X`` -> ``Qwen/X``)."""
    return model.split("/", 1)[1] if "/" in model else model


def request_body(config: ModelSettings, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                 tool_choice: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The chat-completions JSON body (what litellm would send such a server)."""
    # as litellm does: a null content (an assistant turn that only calls tools) is left out
    wire = [{k: v for k, v in m.items() if k != "content"} if "content" in m and m["content"] is None else m
            for m in messages]
    body: dict[str, Any] = {"model": served_model_name(config.model), "messages": wire}
    if tools:
        body["tools"] = tools
    if tool_choice is not None:
        body["tool_choice"] = tool_choice
    extra_body = params.get("extra_body")
    body.update({k: v for k, v in params.items() if k not in _RESERVED and k != "extra_body"})
    if isinstance(extra_body, dict):   # litellm's and the OpenAI SDK's convention: merged into the body
        body.update({k: v for k, v in extra_body.items() if k not in _RESERVED})
    return body


class DirectTransport:
    """POSTs chat completions to OpenAI-compatible endpoints.

    ``pooled=True`` (share one per process, close it with ``aclose``): keep-alive connections over one aiohttp
    session per event loop (a session belongs to the loop it was made in). ``pooled=False``: a session per
    call, nothing to close (for a client used on its own)."""

    def __init__(self, *, pooled: bool = True) -> None:
        self.pooled = pooled
        self._sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}

    def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        for old in [lp for lp in self._sessions if lp.is_closed()]:   # sessions of finished loops
            del self._sessions[old]
        session = self._sessions.get(loop)
        if session is None or session.closed:
            # no connection cap here: the per-provider limits decide how many requests are in flight
            connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=300)
            session = self._sessions[loop] = aiohttp.ClientSession(connector=connector)
        return session

    async def complete(self, config: ModelSettings, body: dict[str, Any], secret: str | None) -> dict[str, Any]:
        """One attempt: the decoded JSON answer, or an LLMError (retryable or not) naming model and provider."""
        assert config.api_base, "the direct route needs an api_base"
        url = config.api_base.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {secret or 'no-key'}"}
        timeout = aiohttp.ClientTimeout(total=config.timeout_s)
        try:
            async with contextlib.AsyncExitStack() as stack:
                session = self._session() if self.pooled else await stack.enter_async_context(aiohttp.ClientSession())
                resp = await stack.enter_async_context(session.post(url, data=dumps_bytes(body), headers=headers,
                                                                    timeout=timeout))
                payload = await resp.read()
                status, retry_after = resp.status, _parse_retry_after(resp.headers)
        except (TimeoutError, aiohttp.ServerTimeoutError) as e:
            raise LLMTimeoutError(f"no answer within {config.timeout_s} s ({type(e).__name__})",
                                  model=config.model, provider=config.provider) from None
        except aiohttp.ClientError as e:
            raise LLMConnectionError(redact(f"{type(e).__name__}: {e}", secret), model=config.model,
                                     provider=config.provider) from None
        if status >= 400:
            raise _http_error(status, payload, retry_after, config, secret)
        try:
            answer = json.loads(payload)
        except ValueError as e:   # UnicodeDecodeError included: bytes that are not UTF-8
            raise LLMMalformedResponseError(f"the answer is not JSON ({e}): {redact(repr(payload[:200]), secret)}",
                                            model=config.model, provider=config.provider,
                                            status_code=status) from None
        if not isinstance(answer, dict):
            raise LLMMalformedResponseError(f"the answer is not a JSON object: {redact(repr(payload[:200]), secret)}",
                                            model=config.model, provider=config.provider, status_code=status)
        return answer

    async def aclose(self) -> None:
        """Close the session of the running loop (others belong to finished loops and are dropped)."""
        loop = asyncio.get_running_loop()
        session = self._sessions.pop(loop, None)
        self._sessions.clear()
        if session is not None and not session.closed:
            await session.close()


def _http_error(status: int, payload: bytes, retry_after: float | None, config: ModelSettings,
                secret: str | None) -> LLMError:
    """The LLMError for an HTTP error answer, with the server's message as detail."""
    detail = _error_message(payload) or f"HTTP {status}"
    detail = redact(" ".join(detail.split()), secret)[:800]
    cls = class_for_status(status, detail) or LLMBadRequestError
    return cls(detail, model=config.model, provider=config.provider,
               status_code=None if cls is LLMTimeoutError else status, retry_after_s=retry_after)


def _error_message(payload: bytes) -> str:
    """``error.message`` of an OpenAI-style error body, else the body's text."""
    text = payload.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except ValueError:
        return text
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    if isinstance(error, str):
        return error
    if isinstance(data, dict) and data.get("message"):
        return str(data["message"])
    return text
