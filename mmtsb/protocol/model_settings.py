"""ModelSettings: which model a role uses and how to call it, as plain data: the one definition behind the
Hydra model entries (``conf/model/*.yaml``), the ``mmtsb episode`` overrides and the LLM client.

Why one dataclass: the settings used to exist three times, copied field by field, and their defaults drifted
apart. A dataclass (not a pydantic model) because Hydra's structured configs are dataclasses; the checks a
pydantic model would make run in :meth:`ModelSettings.checked`, which the LLM client calls, so a default
instance (no model: a static role) stays valid data.

Any litellm model id works, including OpenAI-compatible local servers (vLLM, the fake test server) through
``api_base`` (the reference hard-codes a Python subclass per model, SPEC §9.14). The API key is never stored:
``api_key_env`` names the environment variable holding it.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

#: how a model on an ``api_base`` is called: ``fast`` through litellm's plain OpenAI-compatible handler;
#: ``openai_sdk`` through the OpenAI SDK (whose request transform costs O(history) CPU per call); ``direct``
#: skips litellm and POSTs the chat completion itself (OpenAI-compatible servers such as vLLM only; the cheapest
#: in CPU, for hundreds of concurrent episodes; see :mod:`mmtsb.llm.direct`)
COMPAT_ROUTES = ("fast", "openai_sdk", "direct")

#: fields that must be > 0, >= 0 or >= 1 when set
_POSITIVE = ("max_tokens", "timeout_s")
_NON_NEGATIVE = ("max_retries", "retry_base_s", "retry_max_wait_s", "input_cost_per_mtok", "output_cost_per_mtok")


@dataclass
class ModelSettings:
    """Which model a role uses and how it is called (see the module docstring)."""

    model: str | None = None                  # litellm id: openai/gpt-5.4, hosted_vllm/Qwen/Qwen3.5-9B; None: no model
    api_base: str | None = None               # endpoint of an OpenAI-compatible server (vLLM, a gateway)
    api_key_env: str | None = None            # NAME of the env variable holding the key (read per call)
    temperature: float | None = None
    max_tokens: int | None = None
    reasoning_effort: str | None = None       # none/minimal/low/medium/high where the provider supports it
    seed: int | None = None                   # sampling seed sent to providers that take one
    extra_params: dict[str, Any] = field(default_factory=dict)   # sent unchanged (thinking, top_p, ...)
    drop_params: bool = True                  # let litellm drop params a provider does not accept
    timeout_s: float = 120.0                  # per-attempt HTTP timeout
    max_retries: int = 4                      # retries after the first attempt, on retryable errors only
    retry_base_s: float = 1.0                 # first backoff step (exponential, full jitter)
    retry_max_wait_s: float = 60.0            # cap of one backoff wait, Retry-After included
    concurrency: int = 16                     # in-flight requests to this provider, across the whole run
    provider: str | None = None               # limit/ledger key; None: the api_base host, else the model prefix
    input_cost_per_mtok: float | None = None  # USD per 1M prompt tokens, for models litellm does not price
    output_cost_per_mtok: float | None = None
    compat_route: str = "fast"                # one of COMPAT_ROUTES (api_base servers)

    # ------------------------------------------------------------------ checking
    def problems(self) -> list[str]:
        """What makes these settings unusable for a model call, each problem starting with its field name
        (empty when they are fine)."""
        if not self.model:
            return ["model is empty: set it to a litellm model id (e.g. openai/gpt-5.4)"]
        out = []
        if "/" not in self.model and self.api_base is None:
            out.append(f"model={self.model!r}: use a litellm id with a provider prefix (e.g. 'openai/{self.model}') "
                       "or set api_base")
        if self.compat_route not in COMPAT_ROUTES:
            out.append(f"compat_route={self.compat_route!r}: choose one of {', '.join(COMPAT_ROUTES)}")
        elif self.compat_route == "direct" and not self.api_base:
            out.append(f"compat_route=direct for model {self.model!r} needs an api_base: mmtsb then calls an "
                       "OpenAI-compatible server (such as vLLM) itself (or use compat_route 'fast')")
        for name in _POSITIVE:
            value = getattr(self, name)
            if value is not None and value <= 0:
                out.append(f"{name}={value}: must be greater than 0")
        for name in _NON_NEGATIVE:
            value = getattr(self, name)
            if value is not None and value < 0:
                out.append(f"{name}={value}: must be at least 0")
        if self.concurrency < 1:
            out.append(f"concurrency={self.concurrency}: must be at least 1")
        return out

    def checked(self, where: str = "model") -> ModelSettings:
        """A validated copy with the provider resolved; raises ValueError naming ``where`` (the config section,
        e.g. ``agent_model``) and every problem."""
        if not self.model:
            raise ValueError(f"{where}.model is empty: set it to a litellm model id (e.g. openai/gpt-5.4)")
        problems = self.problems()
        if problems:
            raise ValueError(f"{where}: " + "; ".join(problems))
        return dataclasses.replace(self, provider=self.provider or derive_provider(str(self.model), self.api_base))

    # ------------------------------------------------------------------ derived values
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
        model = str(self.model)
        if self.compat_route == "fast" and self.api_base and model.startswith("openai/"):
            return "hosted_vllm/" + model.split("/", 1)[1]
        return model

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
                                 model=str(self.model), provider=self.provider)
        return value

    def request_params(self) -> dict[str, Any]:
        """The sampling parameters sent with every request (also part of the cache key): temperature, max_tokens,
        seed, then ``extra_params``, then ``reasoning_effort`` unless ``extra_params`` sets it."""
        params: dict[str, Any] = {}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        if self.seed is not None:
            params["seed"] = self.seed
        params.update(self.extra_params)
        if self.reasoning_effort is not None:
            params.setdefault("reasoning_effort", self.reasoning_effort)
        return params


def derive_provider(model: str, api_base: str | None) -> str:
    """The api_base host:port for custom endpoints (never its ``user:password@``: the provider names limits,
    ledgers and error messages, which are written down), else the litellm provider prefix of the model."""
    if api_base:
        parts = urlsplit(api_base if "://" in api_base else f"http://{api_base}")
        host = parts.netloc.rpartition("@")[2]
        if host:
            return host.lower()
    return model.split("/", 1)[0].lower()
