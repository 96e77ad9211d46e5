"""Turn a litellm ModelResponse into an LLMResponse: text, tool calls, reasoning, usage and cost."""

from __future__ import annotations

import functools
import json
from typing import Any

from mmtsb.llm.errors import LLMEmptyResponseError, LLMMalformedResponseError
from mmtsb.llm.runtime import load_litellm
from mmtsb.llm.types import LLMResponse, ToolCall, Usage
from mmtsb.protocol.model_settings import ModelSettings


def _text(content: Any) -> str | None:
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # some providers return content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict)) or None
    return str(content)


def _reasoning(message: dict[str, Any]) -> str | None:
    if message.get("reasoning_content"):
        return message["reasoning_content"]
    blocks = message.get("thinking_blocks") or []
    joined = "\n".join(b.get("thinking", "") for b in blocks if isinstance(b, dict) and b.get("thinking"))
    return joined or None


def _tool_calls(message: dict[str, Any], malformed: Any) -> list[ToolCall]:
    """The message's tool calls; ``malformed(what)`` builds the error for a call not shaped like one."""
    listed = message.get("tool_calls") or []
    if not isinstance(listed, list):
        raise malformed(f"tool_calls is not a list: {str(listed)[:200]}")
    calls = []
    for i, call in enumerate(listed):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            raise malformed(f"tool_calls[{i}] has no function object: {str(call)[:200]}")
        name = function.get("name")
        calls.append(ToolCall.parse(call.get("id") or f"call_{i}", name if isinstance(name, str) else "",
                                    function.get("arguments")))
    return calls


def prices_itself(config: ModelSettings) -> bool:
    """Whether :func:`cost_of` prices a litellm call under ``config`` without litellm's own figure (the
    response's ``_hidden_params["response_cost"]``): the config carries prices, or the model is routed (priced
    under the configured id, not the route's)."""
    return config.has_prices or config.litellm_model != config.model


def cost_of(response: Any, config: ModelSettings, usage: Usage) -> tuple[float, bool]:
    """(USD, known): the config's prices when set (an explicit override wins), else litellm's price map,
    else (0.0, False)."""
    if config.has_prices:
        return ((usage.prompt_tokens * (config.input_cost_per_mtok or 0.0)
                 + usage.completion_tokens * (config.output_cost_per_mtok or 0.0)) / 1e6, True)
    if isinstance(response, dict):   # the direct route (no litellm response): price the configured id
        if not _litellm_prices(config.model):
            return 0.0, False
        litellm = load_litellm()
        prompt, completion = litellm.cost_per_token(model=config.model, prompt_tokens=usage.prompt_tokens,
                                                    completion_tokens=usage.completion_tokens)
        return float(prompt + completion), True
    hidden = getattr(response, "_hidden_params", None) or {}
    routed = config.litellm_model != config.model  # priced under the configured id, not the route's
    if hidden.get("response_cost") is not None and not routed:
        return float(hidden["response_cost"]), True
    if routed and not _litellm_prices(config.model):   # unknown to the price map: skip litellm's exception
        return 0.0, False
    litellm = load_litellm()
    try:
        if routed:
            prompt, completion = litellm.cost_per_token(model=config.model, prompt_tokens=usage.prompt_tokens,
                                                        completion_tokens=usage.completion_tokens)
            return float(prompt + completion), True
        return float(litellm.completion_cost(completion_response=response)), True
    except Exception:  # noqa: BLE001  (litellm raises plain Exception for models missing from its price map)
        return 0.0, False


def cost_of_lookup_ready(config: ModelSettings) -> None:
    """Do the first (costly) price-map lookup of ``config``'s model now (a run's warm-up), not in its first
    episode."""
    if config.model and not config.has_prices:
        _litellm_prices(str(config.model))


@functools.lru_cache(maxsize=256)
def _litellm_prices(model: str) -> bool:
    """Whether litellm's (local) price map prices ``model`` (memoised: asking costs an exception when not)."""
    litellm = load_litellm()
    try:
        litellm.cost_per_token(model=model, prompt_tokens=1, completion_tokens=1)
    except Exception:  # noqa: BLE001  (litellm raises plain Exception for unknown models)
        return False
    return True


def _scrub(value: Any, secret: str) -> Any:
    if isinstance(value, str):
        return value.replace(secret, "[REDACTED]")
    if isinstance(value, dict):
        return {k: _scrub(v, secret) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secret) for v in value]
    return value


def to_llm_response(response: Any, config: ModelSettings, latency_s: float,
                    secret: str | None = None) -> LLMResponse:
    """Build the LLMResponse; an answer without choices raises LLMEmptyResponseError (retryable)."""
    raw: dict[str, Any] = response.model_dump() if hasattr(response, "model_dump") else dict(response)
    if secret and secret in json.dumps(raw, default=str):
        raw = _scrub(raw, secret)

    def malformed(what: str) -> LLMMalformedResponseError:
        return LLMMalformedResponseError(f"the answer is not a chat completion: {what}", model=config.model,
                                         provider=config.provider)

    if not isinstance(raw.get("choices"), (list, type(None))):
        raise malformed(f"choices is not a list: {str(raw.get('choices'))[:200]}")
    choices = raw.get("choices") or []
    if not choices:
        raise LLMEmptyResponseError("the provider returned no choices", model=config.model,
                                    provider=config.provider)
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, (dict, type(None))) or not isinstance(choice, dict):
        raise malformed(f"choices[0] has no message object: {str(choice)[:200]}")
    message = message or {}
    usage = Usage.from_dict(raw.get("usage"))
    cost, known = cost_of(response, config, usage)
    return LLMResponse(text=_text(message.get("content")), tool_calls=_tool_calls(message, malformed),
                       reasoning=_reasoning(message), usage=usage, cost=cost, cost_known=known,
                       latency_s=latency_s, finish_reason=choice.get("finish_reason"), model=config.model,
                       provider=config.provider or "", raw=raw)
