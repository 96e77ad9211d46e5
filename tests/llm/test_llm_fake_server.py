"""FakeLLMServer: endpoints, reply selection, faults, request log, concurrency, subprocess mode."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import httpx
import pytest

from mmtsb.testing import FakeLLMServer, Reply
from mmtsb.testing.fake_llm import server_from_file


def _chat(server: FakeLLMServer, text: str = "hi", **extra) -> httpx.Response:
    body = {"model": "fake-model", "messages": [{"role": "user", "content": text}], **extra}
    return httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=5)


def test_health_models_and_stats_endpoints():
    with FakeLLMServer(models=["m1", "m2"], default="x") as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.port > 0
        root = server.base_url[:-3]
        assert httpx.get(f"{root}/health").json() == {"status": "ok"}
        assert [m["id"] for m in httpx.get(f"{server.base_url}/models").json()["data"]] == ["m1", "m2"]
        _chat(server)
        assert httpx.get(f"{root}/stats").json()["requests"] == 1


def test_script_then_rules_then_default_then_exhausted():
    rules = [{"match": r"weather", "reply": "sunny"}, {"match": r"\btime\b", "reply": {"text": "noon"}}]
    with FakeLLMServer(script=["first", "second"], rules=rules) as server:
        replies = [_chat(server, t) for t in ("weather?", "weather?", "the weather", "what time is it", "other")]
        texts = [r.json()["choices"][0]["message"]["content"] for r in replies[:4]]
        assert texts == ["first", "second", "sunny", "noon"]
        assert replies[4].status_code == 400 and "script exhausted" in replies[4].json()["error"]["message"]
        assert [b["messages"][0]["content"] for b in server.requests][:2] == ["weather?", "weather?"]
    with FakeLLMServer(default={"text": "fallback"}) as server:
        assert _chat(server).json()["choices"][0]["message"]["content"] == "fallback"


def test_rules_match_the_last_user_or_tool_message_and_responder_wins():
    def responder(body):
        return "from responder" if body.get("seed") == 1 else None

    rules = [{"match": "RESULT-42", "reply": "saw the tool result"}]
    with FakeLLMServer(rules=rules, responder=responder, default="d") as server:
        messages = [{"role": "user", "content": "go"},
                    {"role": "assistant", "content": None, "tool_calls": []},
                    {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "RESULT-42"}]}]
        body = {"model": "m", "messages": messages}
        reply = httpx.post(f"{server.base_url}/chat/completions", json=body).json()
        assert reply["choices"][0]["message"]["content"] == "saw the tool result"
        assert _chat(server, seed=1).json()["choices"][0]["message"]["content"] == "from responder"


def test_tool_calls_usage_and_faults_in_the_wire_format():
    script = [
        {"tool_calls": [{"name": "f", "arguments": {"a": 1}, "id": "x1"}], "usage": {"prompt_tokens": 7,
                                                                                   "completion_tokens": 2}},
        {"fault": "malformed_tool_args", "tool_calls": [{"name": "f", "arguments": {"a": 1}}]},
        {"status": 429, "retry_after": 2},
        {"fault": "unavailable"},
        {"fault": "empty_choices"},
    ]
    with FakeLLMServer(script=script) as server:
        ok = _chat(server).json()
        call = ok["choices"][0]["message"]["tool_calls"][0]
        assert call == {"id": "x1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
        assert ok["choices"][0]["finish_reason"] == "tool_calls"
        assert ok["usage"] == {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9}
        bad = _chat(server).json()["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
        with pytest.raises(json.JSONDecodeError):
            json.loads(bad)
        limited = _chat(server)
        assert limited.status_code == 429 and limited.headers["retry-after"] == "2"
        assert limited.json()["error"]["type"] == "rate_limit_error"
        assert _chat(server).status_code == 503
        assert _chat(server).json()["choices"] == []
        assert server.request_count == 5


def test_latency_timeouts_auth_and_streaming():
    with FakeLLMServer(script=[{"text": "slow", "latency_s": 0.3}, {"fault": "timeout", "hang_s": 5}],
                       default="d", api_key="sk-right") as server:
        headers = {"Authorization": "Bearer sk-right"}
        body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        start = time.perf_counter()
        httpx.post(f"{server.base_url}/chat/completions", json=body, headers=headers)
        assert time.perf_counter() - start >= 0.3
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{server.base_url}/chat/completions", json=body, headers=headers, timeout=0.3)
        assert httpx.post(f"{server.base_url}/chat/completions", json=body).status_code == 401
        assert httpx.post(f"{server.base_url}/chat/completions", json={**body, "stream": True},
                          headers=headers).status_code == 400
        assert server.request_headers[0]["authorization"] == "Bearer sk-right"
    # stopping with a request still hanging must not block


def test_hundreds_of_concurrent_requests():
    import aiohttp  # installed with litellm; much cheaper than httpx for a burst of connections

    with FakeLLMServer(default="ok", latency_s=0.3) as server:
        async def burst():
            body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                async def one():
                    async with session.post(f"{server.base_url}/chat/completions", json=body) as response:
                        return response.status, (await response.json())["choices"][0]["message"]["content"]
                return await asyncio.gather(*(one() for _ in range(300)))

        results = asyncio.run(burst())
        assert set(results) == {(200, "ok")} and server.request_count == 300
        assert server.max_in_flight > 100  # really concurrent, not serialised (what a wall-clock bound stood for)


def test_reply_and_file_specs_are_validated(tmp_path):
    with pytest.raises(ValueError, match="unknown reply keys \\['txt'\\]"):
        Reply.parse({"txt": "typo"})
    with pytest.raises(ValueError, match="unknown fault 'oops'"):
        Reply.parse({"fault": "oops"})
    spec = tmp_path / "bad.json"
    spec.write_text(json.dumps({"scrpt": []}))
    with pytest.raises(ValueError, match="unknown keys \\['scrpt'\\]"):
        server_from_file(str(spec))


def test_runs_as_a_subprocess_with_a_script_file(tmp_path):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"script": ["one", {"tool_calls": [{"name": "g", "arguments": {}}]}],
                                  "default": "more"}))
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.testing.fake_llm", "--port", "0", "--script", str(script)],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("FAKE_LLM_READY http://127.0.0.1:")
        base = line.split()[1]
        body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        texts = [httpx.post(f"{base}/chat/completions", json=body, timeout=5).json()["choices"][0]["message"]
                 for _ in range(3)]
        assert texts[0]["content"] == "one" and texts[1]["tool_calls"][0]["function"]["name"] == "g"
        assert texts[2]["content"] == "more"
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
