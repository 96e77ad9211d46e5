"""ModelConfig: one model endpoint described as plain data (from a config file), never a class per model.

Why: the reference hard-codes one Python subclass per model (SPEC §9.14). Here any litellm model id works,
including OpenAI-compatible local servers (vLLM, the fake test server) through ``api_base``.
"""

from __future__ import annotations

import os
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ModelConfig(BaseModel):
    """How to call one model. The API key itself is never stored: only the NAME of its env variable."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(description='litellm model id, e.g. "openai/gpt-5.4", "hosted_vllm/Qwen/Qwen3.5-9B"')
    api_base: str | None = Field(None, description="endpoint URL for custom/OpenAI-compatible servers")
    api_key_env: str | None = Field(None, description="name of the env var holding the key (read per call)")
    temperature: float | None = None
    max_tokens: int | None = Field(None, gt=0)
    seed: int | None = None
    extra_params: dict[str, Any] = Field(
        default_factory=dict, description="passed to litellm unchanged (reasoning_effort, thinking, top_p, ...)")
    drop_params: bool = Field(True, description="let litellm drop params a provider does not accept")
    timeout_s: float = Field(120.0, gt=0, description="per-attempt HTTP timeout")
    max_retries: int = Field(6, ge=0, description="retries after the first attempt, on retryable errors only")
    retry_base_s: float = Field(1.0, ge=0, description="first backoff step (exponential, full jitter)")
    retry_max_wait_s: float = Field(60.0, ge=0, description="cap of one backoff wait, Retry-After included")
    concurrency: int = Field(16, ge=1, description="max in-flight requests to this provider (process-wide)")
    provider: str | None = Field(None, description="limit/ledger key; derived from api_base host or model prefix")
    input_cost_per_mtok: float | None = Field(None, ge=0, description="USD per 1M prompt tokens (overrides)")
    output_cost_per_mtok: float | None = Field(None, ge=0, description="USD per 1M completion tokens")
    compat_route: Literal["fast", "openai_sdk", "direct"] = Field(
        "fast", description="how a model on an api_base is called: 'fast' uses litellm's plain "
                            "OpenAI-compatible HTTP handler for 'openai/<name>'; 'openai_sdk' the OpenAI SDK, "
                            "whose request transform costs O(history) CPU per call; 'direct' skips litellm and "
                            "POSTs the chat completion itself (OpenAI-compatible servers such as vLLM only; "
                            "the cheapest in CPU, for hundreds of concurrent episodes)")

    @model_validator(mode="after")
    def _derive_provider(self) -> ModelConfig:
        if "/" not in self.model and self.api_base is None:
            raise ValueError(f"model {self.model!r}: use a litellm id with a provider prefix "
                             f"(e.g. 'openai/{self.model}') or set api_base")
        if self.compat_route == "direct" and not self.api_base:
            raise ValueError(f"model {self.model!r}: compat_route 'direct' calls an OpenAI-compatible server "
                             f"itself and needs its api_base (or use compat_route 'fast')")
        if self.provider is None:
            object.__setattr__(self, "provider", derive_provider(self.model, self.api_base))
        return self

    @property
    def direct(self) -> bool:
        """Whether calls skip litellm (``compat_route='direct'``, see :mod:`mmtsb.llm.direct`)."""
        return self.compat_route == "direct"

    @property
    def litellm_model(self) -> str:
        """The id handed to litellm. An ``openai/`` model on a custom endpoint (a local or third-party
        OpenAI-compatible server) goes through the lightweight compatible handler (``hosted_vllm/``): same
        wire format, but without the OpenAI SDK's per-call transform of the whole conversation, which made
        a turn's CPU grow with history length. Official OpenAI (no api_base) is unchanged."""
        if self.compat_route == "fast" and self.api_base and self.model.startswith("openai/"):
            return "hosted_vllm/" + self.model.split("/", 1)[1]
        return self.model

    @property
    def has_prices(self) -> bool:
        return self.input_cost_per_mtok is not None or self.output_cost_per_mtok is not None

    def api_key(self) -> str | None:
        """Read the key from the named env var at call time; a named but unset var is a config error."""
        if self.api_key_env is None:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            from mmtsb.llm.errors import LLMConfigError

            raise LLMConfigError(f"environment variable {self.api_key_env} (api_key_env) is not set",
                                 model=self.model, provider=self.provider)
        return value

    def request_params(self) -> dict[str, Any]:
        """The sampling parameters sent with every request (also part of the cache key)."""
        params: dict[str, Any] = {}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        if self.seed is not None:
            params["seed"] = self.seed
        params.update(self.extra_params)
        return params


def derive_provider(model: str, api_base: str | None) -> str:
    """The api_base host:port for custom endpoints, else the litellm provider prefix of the model."""
    if api_base:
        parts = urlsplit(api_base if "://" in api_base else f"http://{api_base}")
        if parts.netloc:
            return parts.netloc.lower()
    return model.split("/", 1)[0].lower()
