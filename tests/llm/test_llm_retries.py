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
    LLMNotFoundError,
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
