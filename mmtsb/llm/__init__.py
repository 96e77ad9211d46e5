"""mmtsb's one LLM client over litellm: config-driven models, retries on transient errors only,
per-provider concurrency limits, token/cost accounting per role, image encoding, on-disk response cache.

litellm is imported on first use (the direct route never imports it); the offline default (no price-map
download) is set before that.
"""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from mmtsb.llm.cache import ResponseCache, cache_key
from mmtsb.llm.client import LLMClient
from mmtsb.llm.errors import (
    LLMAuthError,
    LLMBadRequestError,
    LLMConfigError,
    LLMConnectionError,
    LLMContextWindowError,
    LLMEmptyResponseError,
    LLMError,
    LLMMalformedResponseError,
    LLMNotFoundError,
    LLMRateLimitError,
    LLMServerError,
    LLMTimeoutError,
)
from mmtsb.llm.images import ImageEncoder
from mmtsb.llm.ledger import UsageLedger
from mmtsb.llm.limits import ProviderLimits
from mmtsb.llm.runtime import configure_litellm, flush_litellm_logging, load_litellm
from mmtsb.llm.types import LLMResponse, ToolCall, Usage
from mmtsb.protocol.model_settings import ModelSettings

__all__ = [
    "ImageEncoder", "LLMAuthError", "LLMBadRequestError", "LLMClient", "LLMConfigError", "LLMConnectionError",
    "LLMContextWindowError", "LLMEmptyResponseError", "LLMError", "LLMMalformedResponseError",
    "LLMNotFoundError", "LLMRateLimitError",
    "LLMResponse", "LLMServerError", "LLMTimeoutError", "ModelSettings", "ProviderLimits", "ResponseCache",
    "ToolCall", "Usage", "UsageLedger", "cache_key", "configure_litellm", "flush_litellm_logging",
    "load_litellm",
]
