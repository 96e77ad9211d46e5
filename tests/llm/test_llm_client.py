"""LLMClient against the fake server over real HTTP: text, tool calls, reasoning, usage, cost, ledger."""

from __future__ import annotations

import pytest

from mmtsb.llm import LLMClient, ModelSettings, UsageLedger

USER = [{"role": "user", "content": "What is on my calendar?"}]
TOOLS = [{"type": "function", "function": {
    "name": "calendar_search_events", "description": "Search events.",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}]


def test_text_reply(server, run, config_for):
    server.reset(script=[{"text": "Nothing today.", "usage": {"prompt_tokens": 11, "completion_tokens": 3}}])
    response = run(LLMClient(config_for(server)).complete(USER))
    assert response.text == "Nothing today."
    assert response.tool_calls == []
    assert response.finish_reason == "stop"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens) == (11, 3, 14)
    assert response.cached is False and response.latency_s > 0
    assert response.raw["choices"][0]["message"]["content"] == "Nothing today."
    body = server.requests[0]
    assert body["model"] == "fake-model" and body["messages"] == USER


def test_tool_call_reply_with_parsed_arguments(server, run, config_for):
    server.reset(script=[{"tool_calls": [{"id": "c1", "name": "calendar_search_events",
                                          "arguments": {"query": "dentist"}},
                                         {"name": "calendar_search_events", "arguments": ""}]}])
    response = run(LLMClient(config_for(server)).complete(USER, tools=TOOLS, tool_choice="auto"))
    first, second = response.tool_calls
    assert (first.id, first.name, first.parsed_arguments, first.parse_error) == (
        "c1", "calendar_search_events", {"query": "dentist"}, None)
    assert first.arguments == '{"query": "dentist"}'
    assert second.parsed_arguments == {} and second.parse_error is None and second.id
    assert response.finish_reason == "tool_calls"
    assert server.requests[0]["tools"] == TOOLS and server.requests[0]["tool_choice"] == "auto"


def test_malformed_tool_call_json_is_returned_not_raised(server, run, config_for):
    server.reset(script=[{"fault": "malformed_tool_args",
                          "tool_calls": [{"name": "calendar_search_events", "arguments": {"query": "x"}}]},
                         {"tool_calls": [{"name": "calendar_search_events", "arguments": "[1, 2]"}]}])
    client = LLMClient(config_for(server))
    broken = run(client.complete(USER, tools=TOOLS)).tool_calls[0]
    assert broken.arguments == '{"query": "x"'
    assert broken.parsed_arguments is None
    assert "not valid JSON" in broken.parse_error
    not_object = run(client.complete(USER, tools=TOOLS)).tool_calls[0]
    assert not_object.parsed_arguments is None and "must be a JSON object, got list" in not_object.parse_error
    assert server.request_count == 2  # a parse error is not retried


def test_reasoning_text_is_surfaced(server, run, config_for):
    server.reset(script=[{"text": "42", "reasoning": "6 times 7"}])
    response = run(LLMClient(config_for(server, model="hosted_vllm/Qwen/Qwen3.5-9B")).complete(USER))
    assert (response.text, response.reasoning) == ("42", "6 times 7")
    assert server.requests[0]["model"] == "Qwen/Qwen3.5-9B"


def test_sampling_params_seed_and_extra_params_reach_the_server(server, run, config_for):
    server.reset(script=["ok"])
    config = config_for(server, temperature=0.2, max_tokens=64, seed=7,
                        extra_params={"top_p": 0.5, "extra_body": {"chat_template_kwargs": {"enable_thinking": False}}})
    run(LLMClient(config).complete(USER))
    body = server.requests[0]
    assert (body["temperature"], body["max_tokens"], body["seed"], body["top_p"]) == (0.2, 64, 7, 0.5)
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


def test_cost_from_litellm_price_map_for_a_known_model(server, run, config_for):
    server.reset(script=[{"text": "hi", "usage": {"prompt_tokens": 1000, "completion_tokens": 100}}])
    response = run(LLMClient(config_for(server, model="openai/gpt-4o-mini")).complete(USER))
    assert response.cost_known is True
    assert response.cost == pytest.approx(1000 * 0.15e-6 + 100 * 0.6e-6)


def test_cost_from_config_prices_for_an_unknown_model(server, run, config_for):
    server.reset(script=[{"text": "hi", "usage": {"prompt_tokens": 2000, "completion_tokens": 500}}] * 2)
    priced = config_for(server, model="openai/my-finetune-xyz", input_cost_per_mtok=3.0, output_cost_per_mtok=15.0)
    response = run(LLMClient(priced).complete(USER))
    assert response.cost_known is True
    assert response.cost == pytest.approx(2000 * 3.0 / 1e6 + 500 * 15.0 / 1e6)
    unpriced = run(LLMClient(config_for(server, model="openai/my-finetune-xyz")).complete(USER))
    assert (unpriced.cost, unpriced.cost_known) == (0.0, False)


def test_ledger_totals_per_role(server, run, config_for):
    server.reset(script=[{"text": "a", "usage": {"prompt_tokens": 10, "completion_tokens": 2}},
                         {"text": "b", "usage": {"prompt_tokens": 20, "completion_tokens": 4}},
                         {"text": "c", "usage": {"prompt_tokens": 5, "completion_tokens": 1}}])
    ledger = UsageLedger()
    client = LLMClient(config_for(server, input_cost_per_mtok=1.0, output_cost_per_mtok=2.0), ledger=ledger)

    async def episode():
        await client.complete(USER, role="agent")
        await client.complete(USER, role="agent")
        await client.complete(USER, role="judge")

    run(episode())
    totals = ledger.totals()
    assert set(totals) == {"agent", "judge"}
    agent = totals["agent"]
    assert (agent["prompt_tokens"], agent["completion_tokens"], agent["total_tokens"], agent["api_calls"]) == (30, 6, 36, 2)
    assert agent["cost_usd"] == pytest.approx((30 * 1.0 + 6 * 2.0) / 1e6)
    assert totals["judge"]["api_calls"] == 1 and totals["judge"]["total_tokens"] == 6
    assert ledger.total_cost() == pytest.approx((35 * 1.0 + 7 * 2.0) / 1e6)
    merged = UsageLedger()
    merged.merge(ledger)
    merged.merge(ledger)
    assert merged.totals()["agent"]["api_calls"] == 4


def test_model_config_derives_provider_and_rejects_typos():
    assert ModelSettings(model="anthropic/claude-sonnet-4-5").checked().provider == "anthropic"
    assert ModelSettings(model="gemini/gemini-3.1-pro").checked().provider == "gemini"
    assert ModelSettings(model="hosted_vllm/Qwen/Qwen3.5-9B",
                         api_base="http://gpu-node:8000/v1").checked().provider == "gpu-node:8000"
    assert ModelSettings(model="openai/gpt-5.4", provider="openai-batch").checked().provider == "openai-batch"
    with pytest.raises(TypeError, match="temprature"):
        ModelSettings(model="openai/gpt-5.4", temprature=0.0)
    with pytest.raises(ValueError, match="provider prefix"):
        ModelSettings(model="gpt-5.4").checked()
    with pytest.raises(ValueError, match="provider prefix"):   # the client checks its settings
        LLMClient(ModelSettings(model="gpt-5.4"))
    with pytest.raises(ValueError, match=r"agent_model: max_tokens=0: must be greater than 0; concurrency=0"):
        ModelSettings(model="openai/gpt-5.4", max_tokens=0, concurrency=0).checked("agent_model")


def test_reasoning_effort_passes_through_extra_params(server, run, config_for):
    server.reset(script=["ok"])
    run(LLMClient(config_for(server, model="openai/gpt-5.4", extra_params={"reasoning_effort": "high"})).complete(USER))
    assert server.requests[0]["reasoning_effort"] == "high" and server.requests[0]["model"] == "gpt-5.4"


def test_litellms_own_logging_is_skipped_unless_a_litellm_callback_is_configured(server, run,
                                                                                 restore_litellm_callbacks):
    """mmtsb accounts for calls itself, so litellm's per-call logging pipeline is skipped (CPU); a user's
    litellm callback still receives every call."""
    import litellm
    from litellm.integrations.custom_logger import CustomLogger

    from mmtsb.llm.runtime import without_litellm_logging

    class Seen(CustomLogger):
        def __init__(self) -> None:
            super().__init__()
            self.calls = 0

        async def async_log_success_event(self, kwargs, response_obj, start_time, end_time):
            self.calls += 1

    import litellm._internal_context as internal

    with without_litellm_logging(litellm):
        assert internal.is_internal_call.get() is True      # no callback: litellm's pipeline is skipped
    assert internal.is_internal_call.get() is False
    seen = Seen()
    litellm.callbacks.append(seen)
    try:
        with without_litellm_logging(litellm):
            assert internal.is_internal_call.get() is False  # a callback: litellm logs as usual
        server.reset(script=["hello"])
        response = run(LLMClient(ModelSettings(model="openai/fake-model", api_base=server.base_url, timeout_s=5.0,
                                              max_retries=0)).complete(USER))
        assert response.text == "hello" and seen.calls == 1
    finally:
        litellm.callbacks.remove(seen)


def test_litellms_own_pricing_is_skipped_only_where_mmtsb_prices_the_call(server, run, monkeypatch,
                                                                         restore_litellm_callbacks):
    """litellm prices every response; mmtsb skips that (CPU) where it prices the call itself (a routed model,
    config prices) and no litellm callback could read litellm's figure; a model priced from litellm's figure
    (not routed) still gets it. The costs are the same either way."""
    import litellm
    from litellm.integrations.custom_logger import CustomLogger

    priced_by_litellm = []
    original = litellm.response_cost_calculator

    def counting(**kwargs):
        priced_by_litellm.append(kwargs["model"])
        return original(**kwargs)

    monkeypatch.setattr(litellm, "response_cost_calculator", counting)
    usage = {"prompt_tokens": 1000, "completion_tokens": 100}
    expected = 1000 * 0.15e-6 + 100 * 0.6e-6

    def call(**overrides):
        server.reset(script=[{"text": "hi", "usage": usage}])
        config = ModelSettings(**{"model": "openai/gpt-4o-mini", "api_base": server.base_url, "timeout_s": 5.0,
                                  "max_retries": 0, **overrides})
        return run(LLMClient(config).complete(USER))

    routed = call()                                                    # fast: hosted_vllm/gpt-4o-mini
    own_prices = call(input_cost_per_mtok=1.0, output_cost_per_mtok=2.0)
    assert priced_by_litellm == []
    assert (routed.cost, routed.cost_known) == (pytest.approx(expected), True)
    assert own_prices.cost == pytest.approx((1000 * 1.0 + 100 * 2.0) / 1e6)
    not_routed = call(compat_route="openai_sdk")                       # priced from litellm's own figure
    assert priced_by_litellm and (not_routed.cost, not_routed.cost_known) == (pytest.approx(expected), True)
    priced_by_litellm.clear()
    litellm.callbacks.append(callback := CustomLogger())
    try:
        call()                                                         # a callback: litellm prices as usual
    finally:
        litellm.callbacks.remove(callback)
    assert priced_by_litellm


def test_litellms_request_body_is_written_by_orjson_within_mmtsb_calls(server, run):
    """Inside one of mmtsb's calls litellm's HTTP handler encodes the body with orjson (the same JSON, compact
    UTF-8, as the direct route sends); with options, for what orjson refuses, and outside mmtsb's calls the
    standard encoder answers as before."""
    import json

    import litellm
    from litellm.llms.custom_httpx import llm_http_handler

    from mmtsb.llm.runtime import lean_litellm_call

    server.reset(script=["hello"])
    text = [{"role": "user", "content": "Où est la réunion ? ☕"}]
    config = ModelSettings(model="openai/fake-model", api_base=server.base_url, timeout_s=5.0, max_retries=0)
    assert run(LLMClient(config).complete(text, tools=TOOLS)).text == "hello"
    assert server.requests[0]["messages"] == text and server.requests[0]["tools"] == TOOLS
    encode = llm_http_handler.json.dumps
    body = {"messages": text, "n": 1, 3: None}
    big = {"seed": 2**70}
    assert encode(body) == json.dumps(body)                             # not within one of mmtsb's calls
    with lean_litellm_call(litellm, priced_by_mmtsb=True):
        assert encode(body) == '{"messages":[{"role":"user","content":"Où est la réunion ? ☕"}],"n":1,"3":null}'
        assert encode(TOOLS, sort_keys=True, default=str) == json.dumps(TOOLS, sort_keys=True, default=str)
        assert encode(big) == json.dumps(big)
        with pytest.raises(TypeError):
            encode({"x": object()})
    assert llm_http_handler.json.loads("[1]") == [1]                    # the rest of the json module
