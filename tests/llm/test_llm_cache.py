"""ResponseCache: an exact re-run is served from disk without any HTTP request."""

from __future__ import annotations

import json

import pytest

from mmtsb.llm import LLMBadRequestError, LLMClient, ResponseCache, UsageLedger, cache_key

USER = [{"role": "user", "content": "plan my day"}]
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]


def test_cache_hit_makes_no_http_request(server, run, config_for, tmp_path):
    server.reset(script=[{"tool_calls": [{"name": "f", "arguments": {"a": 1}}], "text": "calling",
                          "usage": {"prompt_tokens": 50, "completion_tokens": 5}}])
    config = config_for(server, seed=3, input_cost_per_mtok=1.0, output_cost_per_mtok=1.0)
    first_ledger, second_ledger = UsageLedger(), UsageLedger()
    first = run(LLMClient(config, cache=ResponseCache(tmp_path), ledger=first_ledger).complete(USER, tools=TOOLS))
    assert first.cached is False and server.request_count == 1

    cache = ResponseCache(tmp_path)  # a new process would open the same directory
    again = run(LLMClient(config, cache=cache, ledger=second_ledger).complete(USER, tools=TOOLS))
    assert server.request_count == 1  # served from disk
    assert again.cached is True and cache.hits == 1
    assert again.text == "calling" and again.tool_calls == first.tool_calls
    assert again.usage == first.usage and again.raw == first.raw
    # an exact re-run reports the same usage; the hit is also tallied
    assert second_ledger.totals()["agent"]["total_tokens"] == first_ledger.totals()["agent"]["total_tokens"] == 55
    assert second_ledger.totals()["agent"]["cached_calls"] == 1


def test_any_change_in_the_request_misses(server, run, config_for, tmp_path):
    server.reset(script=["a", "b", "c", "d"])
    cache = ResponseCache(tmp_path)
    run(LLMClient(config_for(server, seed=1), cache=cache).complete(USER))
    run(LLMClient(config_for(server, seed=2), cache=cache).complete(USER))  # other seed
    run(LLMClient(config_for(server, seed=1, temperature=0.5), cache=cache).complete(USER))  # other params
    run(LLMClient(config_for(server, seed=1), cache=cache).complete(USER, tools=TOOLS))  # other tools
    assert server.request_count == 4 and cache.hits == 0
    assert run(LLMClient(config_for(server, seed=1), cache=cache).complete(USER)).text == "a"
    assert server.request_count == 4


def test_entries_are_one_json_file_per_key_and_failures_are_not_cached(server, run, config_for, tmp_path):
    server.reset(script=[{"status": 400}, "ok"])
    config = config_for(server)
    client = LLMClient(config, cache=ResponseCache(tmp_path))
    with pytest.raises(LLMBadRequestError):
        run(client.complete(USER))
    assert list(tmp_path.rglob("*.json")) == []
    run(client.complete(USER))
    key = cache_key(model=config.model, api_base=config.api_base, messages=USER, tools=None, tool_choice=None,
                    params=config.request_params())
    files = list(tmp_path.rglob("*.json"))
    assert [f.name for f in files] == [f"{key}.json"] and files[0].parent.name == key[:2]
    assert json.loads(files[0].read_text())["response"]["text"] == "ok"
    assert not list(tmp_path.rglob("*.tmp"))
    # key order in dicts does not matter (canonical JSON)
    assert key == cache_key(model=config.model, api_base=config.api_base,
                            messages=[{"content": "plan my day", "role": "user"}], tools=None, tool_choice=None,
                            params=config.request_params())
