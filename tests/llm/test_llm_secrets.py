"""The API key is read from the named env var per call, sent as Bearer auth, and leaks nowhere."""

from __future__ import annotations

import dataclasses
import json
import logging

import pytest

from mmtsb.llm import LLMAuthError, LLMClient, LLMConfigError, LLMServerError
from mmtsb.testing import FakeLLMServer

SECRET = "sk-test-7f3a9c21d4e8b6a0-DO-NOT-LEAK"
USER = [{"role": "user", "content": "hi"}]


def test_key_from_env_is_sent_as_bearer_and_never_leaks(run, config_for, monkeypatch, caplog, capsys):
    monkeypatch.setenv("MMTSB_TEST_KEY", SECRET)
    caplog.set_level(logging.DEBUG)
    for name in ("LiteLLM", "openai", "httpx", "httpcore", "aiohttp", "mmtsb"):
        caplog.set_level(logging.DEBUG, logger=name)
    with FakeLLMServer(script=[{"fault": "server_error"}, "hello", {"status": 401}], api_key=SECRET) as server:
        config = config_for(server, api_key_env="MMTSB_TEST_KEY")
        assert SECRET not in json.dumps(dataclasses.asdict(config)) and SECRET not in repr(config)
        client = LLMClient(config)
        response = run(client.complete(USER))  # one retry on the way (logged)
        assert response.text == "hello"
        assert [h["authorization"] for h in server.request_headers] == [f"Bearer {SECRET}"] * 2
        with pytest.raises(LLMAuthError) as info:
            run(client.complete(USER))
    assert SECRET not in repr(response.to_dict())
    assert SECRET not in str(info.value) and SECRET not in repr(info.value.args)
    assert info.value.__cause__ is None and info.value.__context__ is None
    assert SECRET not in caplog.text and "retrying" in caplog.text
    if not config.direct:   # litellm's debug output was checked too (the direct route never calls litellm)
        assert any(r.name.startswith("LiteLLM") for r in caplog.records)
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err


def test_key_is_read_at_call_time(run, config_for, monkeypatch):
    with FakeLLMServer(default="ok") as server:
        client = LLMClient(config_for(server, api_key_env="MMTSB_ROTATING_KEY"))
        for key in ("sk-first", "sk-second"):
            monkeypatch.setenv("MMTSB_ROTATING_KEY", key)
            run(client.complete(USER))
        assert [h["authorization"] for h in server.request_headers] == ["Bearer sk-first", "Bearer sk-second"]


def test_unset_key_variable_is_a_config_error_without_a_request(server, run, config_for, monkeypatch):
    monkeypatch.delenv("MMTSB_MISSING_KEY", raising=False)
    with pytest.raises(LLMConfigError, match="MMTSB_MISSING_KEY"):
        run(LLMClient(config_for(server, api_key_env="MMTSB_MISSING_KEY")).complete(USER))
    assert server.request_count == 0


def test_custom_endpoint_without_key_never_receives_openai_api_key(server, run, config_for, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    server.reset(script=["ok"])
    run(LLMClient(config_for(server)).complete(USER))
    assert SECRET not in server.request_headers[0]["authorization"]


def test_secret_echoed_by_a_provider_is_redacted(run, config_for, monkeypatch):
    monkeypatch.setenv("MMTSB_TEST_KEY", SECRET)
    echo = [{"status": 500, "error": f"upstream rejected key {SECRET}"}, {"text": f"your key is {SECRET}"}]
    with FakeLLMServer(script=echo) as server:
        client = LLMClient(config_for(server, api_key_env="MMTSB_TEST_KEY", max_retries=0))
        with pytest.raises(LLMServerError) as info:
            run(client.complete(USER))
        assert SECRET not in str(info.value) and "[REDACTED]" in str(info.value)
        response = run(client.complete(USER))
    assert SECRET not in repr(response.raw) and SECRET not in (response.text or "")
