"""LLMClient: the one async entry point to every model, over ``litellm.acompletion`` (or, on the direct route,
one pooled HTTP POST; litellm is then never imported).

One call = optional cache lookup -> per-attempt provider slot -> litellm (its own and the SDK's retries
off, its per-call work that mmtsb does not use skipped: see :func:`~mmtsb.llm.runtime.lean_litellm_call`)
-> our tenacity policy on retryable errors only -> LLMResponse -> ledger. The API key is read from
the configured env var at call time and never stored on the client, in responses, errors or logs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from mmtsb.llm.cache import ResponseCache, cache_key
from mmtsb.llm.direct import DirectTransport, request_body
from mmtsb.llm.errors import LLMError, classify
from mmtsb.llm.images import ImageEncoder, ImageLike
from mmtsb.llm.ledger import UsageLedger
from mmtsb.llm.limits import ProviderLimits
from mmtsb.llm.parse import cost_of_lookup_ready, prices_itself, to_llm_response
from mmtsb.llm.retry import call_with_retries, retry_controller
from mmtsb.llm.runtime import lean_litellm_call, load_litellm, uses_litellm
from mmtsb.llm.types import LLMResponse
from mmtsb.protocol.model_settings import ModelSettings

log = logging.getLogger("mmtsb.llm")

# Sent to custom endpoints configured without a key, so the OpenAI SDK never falls back to a real
# OPENAI_API_KEY from the environment (which would leak it to a local or third-party server).
NO_KEY = "no-key"

Messages = list[dict[str, Any]]


class LLMClient:
    """Calls one configured model. Share ``limits`` (and usually ``images``) across all clients of a
    process; give each episode its own ``ledger``."""

    def __init__(self, config: ModelSettings, *, limits: ProviderLimits | None = None,
                 ledger: UsageLedger | None = None, cache: ResponseCache | None = None,
                 images: ImageEncoder | None = None, transport: DirectTransport | None = None) -> None:
        """``config`` is checked here (:meth:`ModelSettings.checked`: a bad setting raises ValueError);
        ``transport``: the pooled HTTP sessions of the direct route (share one per process; without one, each
        direct call opens and closes its own connection)."""
        self.config = config.checked()
        self.limits = limits if limits is not None else ProviderLimits()
        self.ledger = ledger if ledger is not None else UsageLedger()
        self.cache = cache
        self.images = images if images is not None else ImageEncoder()
        self.transport = transport if transport is not None else DirectTransport(pooled=False)
        self._prices_itself = prices_itself(self.config)

    @property
    def provider(self) -> str:
        return self.config.provider or ""

    def image_part(self, image: ImageLike | bytes, mime_type: str | None = None,
                   detail: str | None = None) -> dict[str, Any]:
        """An ``image_url`` content part for ``image``, encoded once per distinct image (see ImageEncoder)."""
        return self.images.content_part(image, mime_type, detail)

    def image_parts(self, images: list[ImageLike | bytes]) -> list[dict[str, Any] | ValueError]:
        """Several images' parts; an undecodable one's ValueError in its place (see ImageEncoder.content_parts)."""
        return self.images.content_parts(images)

    async def image_parts_async(self, images: list[ImageLike | bytes]) -> list[dict[str, Any] | ValueError]:
        """Several images' parts, encoded concurrently off the loop; an undecodable one's ValueError in its place."""
        return await self.images.content_parts_async(images)

    async def complete(self, messages: Messages, tools: list[dict[str, Any]] | None = None,
                       tool_choice: str | dict[str, Any] | None = None, role: str = "agent") -> LLMResponse:
        """One chat completion. Raises LLMError (naming model and provider) when it cannot succeed;
        malformed tool-call arguments are returned in ``tool_calls[i].parse_error``, not raised."""
        params = self.config.request_params()
        key = None
        if self.cache is not None:
            key = cache_key(model=self.config.model, api_base=self.config.api_base, messages=messages,
                            tools=tools, tool_choice=tool_choice, params=params)
            if (hit := self.cache.get(key)) is not None:
                self.ledger.add(role, hit.usage, hit.cost, cost_known=hit.cost_known, cached=True)
                return hit
        secret = self.config.api_key()
        if self.config.direct:
            body = request_body(self.config, messages, tools, tool_choice, params)
            send = lambda: self._attempt_direct(body, secret)  # noqa: E731
        else:
            kwargs = self._request(messages, tools, tool_choice, params, secret)
            send = lambda: self._attempt(kwargs, secret)  # noqa: E731
        attempts = failed = 0

        async def attempt() -> LLMResponse:
            nonlocal attempts, failed
            attempts += 1
            try:
                return await send()
            except LLMError:
                failed += 1
                raise

        try:
            response = await call_with_retries(retry_controller(self.config), attempt)
        except LLMError as exc:
            raise exc.with_attempts(attempts) from None
        finally:
            self.ledger.add_failures(role, failed)
        self.ledger.add(role, response.usage, response.cost, cost_known=response.cost_known)
        if self.cache is not None and key is not None:
            self.cache.put(key, response)
        return response

    def _request(self, messages: Messages, tools: list[dict[str, Any]] | None, tool_choice: Any,
                 params: dict[str, Any], secret: str | None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.config.litellm_model, "messages": messages, "timeout": self.config.timeout_s,
            "num_retries": 0, "max_retries": 0,  # only our retry policy applies
            "drop_params": self.config.drop_params, **params}
        if tools:
            kwargs["tools"] = tools
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        if self.config.api_base:
            kwargs["api_base"] = self.config.api_base
        if secret is not None:
            kwargs["api_key"] = secret
        elif self.config.api_base:
            kwargs["api_key"] = NO_KEY
        return kwargs

    async def _attempt(self, kwargs: dict[str, Any], secret: str | None) -> LLMResponse:
        """One HTTP attempt inside a provider slot; failures become (possibly retryable) LLMErrors."""
        async with self.limits.slot(self.provider, self.config.concurrency):
            log.debug("calling model=%s provider=%s", self.config.model, self.provider)
            start = time.perf_counter()
            error: LLMError | None = None
            try:
                litellm = load_litellm()
                with lean_litellm_call(litellm, priced_by_mmtsb=self._prices_itself):
                    response = await litellm.acompletion(**kwargs)
            except Exception as exc:
                error = classify(exc, model=self.config.model, provider=self.provider, secret=secret)
                if error is None:
                    raise
            latency = time.perf_counter() - start
        if error is not None:
            # raised outside the except block: the litellm exception (whose request object carries the
            # Authorization header) is not chained to ours
            raise error
        return to_llm_response(response, self.config, latency, secret)

    async def _attempt_direct(self, body: dict[str, Any], secret: str | None) -> LLMResponse:
        """One HTTP attempt of the direct route (litellm skipped) inside a provider slot."""
        async with self.limits.slot(self.provider, self.config.concurrency):
            log.debug("calling model=%s provider=%s (direct)", self.config.model, self.provider)
            start = time.perf_counter()
            answer = await self.transport.complete(self.config, body, secret)
            latency = time.perf_counter() - start
        return to_llm_response(answer, self.config, latency, secret)


def prepare_for(models: Iterable[ModelSettings]) -> bool:
    """Load now what the first call with each of ``models`` would load: litellm when a route needs it (see
    :func:`~mmtsb.llm.runtime.uses_litellm`) and the model's first price lookup. For a process's warm-up, so
    that cost (~2 s) is not paid by the first responses of a run. Returns whether litellm was loaded."""
    needed = [m for m in models if uses_litellm(m)]
    if not needed:
        return False
    load_litellm()
    for m in needed:
        cost_of_lookup_ready(m)
    return True
