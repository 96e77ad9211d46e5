"""Retry policy over real HTTP: transient faults are retried (counted at the server), 4xx fail at once."""

from __future__ import annotations

import pickle
import socket

import pytest

from mmtsb.llm import (
    LLMAuthError,
    LLMBadRequestError,
    LLMClient,
    LLMConnectionError,
    LLMContextWindowError,
    LLMMalformedResponseError,
    LLMNotFoundError,
    ModelSettings,
    LLMRateLimitError,
    LLMServerError,
    LLMTimeoutError,
    UsageLedger,
)

USER = [{"role": "user", "content": "hi"}]


def test_429_with_retry_after_is_honoured_then_succeeds(server, run, config_for, retries):
    server.reset(script=[{"status": 429, "retry_after": 0.4}, "finally"])
    response = run(LLMClient(config_for(server)).complete(USER))
    assert response.text == "finally"
    assert server.request_count == 2
    assert retries.failures == [LLMRateLimitError]
    (wait,) = retries.waits
    assert 0.4 <= wait <= 0.4 * 1.1  # the server's Retry-After plus at most 10% jitter (backoff alone: <= 0.01 s)


@pytest.mark.parametrize("model", ["openai/fake-model", "hosted_vllm/Qwen/Qwen3.5-9B"])  # two litellm code paths
def test_500_and_503_are_retried_then_succeed(server, run, config_for, model, retries):
    server.reset(script=[{"fault": "server_error"}, {"fault": "unavailable"}, "ok"])
    ledger = UsageLedger()
    response = run(LLMClient(config_for(server, model=model), ledger=ledger).complete(USER))
    assert response.text == "ok"
    assert server.request_count == 3
    assert ledger.totals()["agent"]["api_calls"] == 1  # one logical call, three HTTP attempts
    assert retries.failures == [LLMServerError, LLMServerError]
    # exponential backoff with full jitter: retry n waits at most retry_base_s * 2**(n-1)
    assert len(retries.waits) == 2 and all(0 <= w <= 0.01 * 2 ** n for n, w in enumerate(retries.waits))


def test_timeout_is_retried_then_succeeds(server, run, config_for, retries):
    server.reset(script=[{"fault": "timeout", "hang_s": 5.0}, "fast"])
    response = run(LLMClient(config_for(server, timeout_s=0.5)).complete(USER))
    assert response.text == "fast"
    assert server.request_count == 2
    assert retries.failures == [LLMTimeoutError]  # the client gave up on its own timeout, not the server's hang


def test_empty_choices_is_retried(server, run, config_for):
    server.reset(script=[{"fault": "empty_choices"}, "ok"])
    assert run(LLMClient(config_for(server)).complete(USER)).text == "ok"
    assert server.request_count == 2


def test_gives_up_after_max_retries_with_a_clear_error(server, run, config_for):
    server.reset(script=[{"status": 500, "error": "boom"}] * 5)
    with pytest.raises(LLMServerError) as info:
        run(LLMClient(config_for(server, max_retries=2)).complete(USER))
    assert server.request_count == 3  # 1 + 2 retries: no hidden litellm/SDK retries underneath
    err = info.value
    assert err.attempts == 3 and err.status_code == 500 and err.retryable
    assert "'openai/fake-model'" in str(err) and server.base_url.split("//")[1].split("/")[0] in str(err)
    assert "after 3 attempts" in str(err) and "boom" in str(err)


def test_max_retries_zero_means_one_request(server, run, config_for):
    server.reset(script=[{"status": 503}, "never"])
    with pytest.raises(LLMServerError):
        run(LLMClient(config_for(server, max_retries=0)).complete(USER))
    assert server.request_count == 1


@pytest.mark.parametrize(("status", "error", "expected"), [
    (400, "unsupported value for tool_choice", LLMBadRequestError),
    (401, None, LLMAuthError),
    (403, None, LLMAuthError),
    (404, "The model `fake-model` does not exist", LLMNotFoundError),
    (400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens",
     LLMContextWindowError),
])
@pytest.mark.parametrize("model", ["openai/fake-model", "hosted_vllm/fake-model"])
def test_client_errors_are_not_retried(server, run, config_for, status, error, expected, model):
    server.reset(script=[{"status": status, "error": error}, "should not be reached"])
    with pytest.raises(expected) as info:
        run(LLMClient(config_for(server, model=model)).complete(USER))
    assert server.request_count == 1
    assert info.value.retryable is False and info.value.attempts == 1
    assert f"model {model!r}" in str(info.value) and "provider '127.0.0.1:" in str(info.value)
    assert f"HTTP {status}" in str(info.value)
    clone = pickle.loads(pickle.dumps(info.value))  # errors cross process boundaries (Ray)
    assert type(clone) is expected and str(clone) == str(info.value)


def test_connection_refused_is_retried_then_raised(run, config_for):
    with socket.socket() as probe:  # a port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    class Closed:
        base_url = f"http://127.0.0.1:{port}/v1"

    with pytest.raises(LLMConnectionError) as info:
        run(LLMClient(config_for(Closed, max_retries=1)).complete(USER))
    assert info.value.attempts == 2 and info.value.retryable
    assert info.value.status_code is None and "HTTP" not in str(info.value).split(":")[0]


def test_retry_after_is_capped_by_retry_max_wait(server, run, config_for, retries):
    server.reset(script=[{"status": 429, "retry_after": 30}, "ok"])
    assert run(LLMClient(config_for(server, retry_max_wait_s=0.2)).complete(USER)).text == "ok"
    assert retries.failures == [LLMRateLimitError] and retries.waits == [0.2]


BROKEN_BODIES = ["truncated_body", "html_body", "empty_body", "not_json_body", "non_utf8_body", "cut_body"]


@pytest.mark.parametrize("fault", BROKEN_BODIES)
def test_a_broken_answer_body_is_retried_at_the_call(server, run, config_for, retries, fault):
    """A 200 whose body cannot be read (cut short, an HTML page, nothing, plain text, bytes that are not UTF-8)
    is retried at the call on both routes, never replayed as a whole episode; the failed attempt is counted."""
    server.reset(script=[{"fault": fault}, "ok"])
    ledger = UsageLedger()
    response = run(LLMClient(config_for(server), ledger=ledger).complete(USER))
    assert response.text == "ok"
    assert server.request_count == 2
    # a body cut off by the connection is a connection error on the direct route (aiohttp notices the missing
    # bytes); every other broken body is a malformed response on both routes
    expected = LLMConnectionError if fault == "cut_body" and config_for(server).direct else LLMMalformedResponseError
    assert retries.failures == [expected]
    assert ledger.totals()["agent"]["failed_calls"] == 1


def test_a_reset_connection_is_retried(server, run, config_for, retries):
    server.reset(script=[{"fault": "connection_reset"}, "ok"])
    assert run(LLMClient(config_for(server)).complete(USER)).text == "ok"
    assert server.request_count == 2
    assert retries.failures == [LLMConnectionError]


def test_a_body_that_stays_broken_gives_up_naming_the_problem(server, run, config_for):
    server.reset(script=[{"fault": "html_body"}] * 3)
    with pytest.raises(LLMMalformedResponseError) as info:
        run(LLMClient(config_for(server, max_retries=2)).complete(USER))
    assert server.request_count == 3
    message = str(info.value)
    assert "malformed response body" in message and "after 3 attempts" in message
    assert "'openai/fake-model'" in message and info.value.retryable


def test_tool_call_arguments_sent_as_an_object_are_read(server, run, config_for):
    """Some servers put the arguments object itself where OpenAI puts its JSON text: the call is the same."""
    server.reset(script=[{"tool_calls": [{"name": "add_note", "arguments": {"title": "a", "n": 2}}],
                          "args_as_object": True}])
    (call,) = run(LLMClient(config_for(server)).complete(USER)).tool_calls
    assert server.requests and call.name == "add_note"
    assert call.parsed_arguments == {"title": "a", "n": 2} and call.parse_error is None


def test_tool_call_arguments_that_are_not_an_object_are_a_parse_error_not_a_crash(server, run, fast_config):
    config = fast_config(server, compat_route="direct")
    server.reset(script=[{"tool_calls": [{"name": "f", "arguments": [1, 2]}], "args_as_object": True}])
    (call,) = run(LLMClient(config).complete(USER)).tool_calls
    assert call.parsed_arguments is None and "must be a JSON object" in call.parse_error


@pytest.mark.parametrize("usage, expected", [
    ({"prompt_tokens": "12", "completion_tokens": 3.0}, (12, 3, 15)),
    ({"prompt_tokens": "n/a", "completion_tokens": None, "total_tokens": "7"}, (0, 0, 7)),
    ({"prompt_tokens": True, "completion_tokens": -4}, (0, 0, 0)),
    ("not an object", (0, 0, 0)),
])
def test_usage_that_is_not_numeric_is_read_defensively_on_the_direct_route(server, run, fast_config, usage,
                                                                         expected):
    server.reset(script=[{"text": "ok", "usage": usage}])
    response = run(LLMClient(fast_config(server, compat_route="direct")).complete(USER))
    assert response.text == "ok" and server.request_count == 1
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens) == expected


def test_usage_litellm_cannot_read_is_a_malformed_body_retried(server, run, retries, fast_config):
    """litellm's parser refuses such a body: a malformed response, retried at the call (not a connection
    error, and not the whole episode)."""
    server.reset(script=[{"text": "ok", "usage": {"prompt_tokens": "n/a"}}, "ok"])
    assert run(LLMClient(fast_config(server, compat_route="fast")).complete(USER)).text == "ok"
    assert retries.failures == [LLMMalformedResponseError] and server.request_count == 2


@pytest.mark.parametrize("answer, what", [
    ({"choices": {"0": "x"}}, "choices is not a list"),
    ({"choices": ["text"]}, "choices[0] has no message object"),
    ({"choices": [{"message": "hi"}]}, "choices[0] has no message object"),
    ({"choices": [{"message": {"tool_calls": {"a": 1}}}]}, "tool_calls is not a list"),
    ({"choices": [{"message": {"tool_calls": ["f"]}}]}, "tool_calls[0] has no function object"),
])
def test_json_not_shaped_like_a_completion_is_a_malformed_body(answer, what):
    from mmtsb.llm.parse import to_llm_response

    config = ModelSettings(model="openai/x", api_base="http://127.0.0.1:9/v1", input_cost_per_mtok=0.0,
                           output_cost_per_mtok=0.0, compat_route="direct")
    with pytest.raises(LLMMalformedResponseError) as info:
        to_llm_response(answer, config, 0.1)
    assert what in str(info.value) and info.value.retryable
