"""End to end against the fake OpenAI-compatible server over real HTTP: the code-exec agent, the tool-use
agent and the hybrid agent, with the LLM user and the LLM judges, through `play_scenario` and the CLI."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.episode.play import play_scenario
from mmtsb.llm import flush_litellm_logging
from mmtsb.protocol.judges import AGENT_CRITERIA, USER_CRITERIA
from mmtsb.testing import FakeLLMServer
from testkit import REPO



async def played(episode: Any) -> Any:
    """Await an episode, then drain litellm's logging worker before ``asyncio.run`` closes the loop."""
    try:
        return await episode
    finally:
        await flush_litellm_logging()

CODE_SCRIPT = [
    "I'll create the note and update the trip note.\n```python\nnote = simple_note_create_note("
    "title='Packing list', content='passport, charger')\nsimple_note_update_note(note_id=3200, "
    "content='pack the tent')\nnote\n```",
    "Done: the packing list is created and your trip note updated.",
    "```python\nremove_reminder(reminder_id='reminder_1')\n```",
    "The plant reminder is removed.",
]
TOOL_SCRIPT = [
    {"tool_calls": [{"id": "s1", "name": "api_docs_search_api_docs",
                     "arguments": {"query": "simple note create update note", "page_limit": 10}}]},
    {"tool_calls": [{"id": "c1", "name": "simple_note_create_note",
                     "arguments": {"title": "Packing list", "content": "passport, charger"}},
                    {"id": "c2", "name": "simple_note_update_note",
                     "arguments": '{"note_id": 3200, "content": "pack the tent"'}]},   # malformed JSON
    {"tool_calls": [{"id": "c3", "name": "simple_note_update_note",
                     "arguments": {"note_id": 3200, "content": "pack the tent"}}]},
    "Done: the packing list is created and your trip note updated.",
    {"tool_calls": [{"id": "s2", "name": "api_docs_search_api_docs",
                     "arguments": {"query": "remove reminder", "page_limit": 10}}]},
    {"tool_calls": [{"id": "c4", "name": "remove_reminder", "arguments": {"reminder_id": "reminder_1"}}]},
    "The plant reminder is removed.",
]
HYBRID_SCRIPT = [
    {"tool_calls": [{"id": "h1", "name": "execute_code", "arguments": {"code": (
        "simple_note_create_note(title='Packing list', content='passport, charger')\n"
        "simple_note_update_note(note_id=3200, content='pack the tent')")}}]},
    {"tool_calls": [{"id": "h0", "name": "api_docs_search_api_docs",
                     "arguments": {"query": "simple note create update note", "page_limit": 10}}]},
    {"tool_calls": [{"id": "h2", "name": "execute_code", "arguments": {"code": (
        "simple_note_create_note(title='Packing list', content='passport, charger')\n"
        "simple_note_update_note(note_id=3200, content='pack the tent')")}}]},
    "Done: the packing list is created and your trip note updated.",
    {"tool_calls": [{"id": "h3", "name": "api_docs_search_api_docs", "arguments": {"query": "remove reminder"}}]},
    {"tool_calls": [{"id": "h4", "name": "remove_reminder", "arguments": {"reminder_id": "reminder_1"}}]},
    "The plant reminder is removed.",
]
USER_SCRIPT = [
    "Also remove my plant reminder.",
    {"tool_calls": [{"id": "u1", "name": "end_conversation", "arguments": {}}]},
]


def verdict(criteria: tuple[str, ...]) -> str:
    return json.dumps({"criteria_evaluation": [{"criterion": c, "analysis": "ok", "pass": True, "evidence": "x"}
                                               for c in criteria], "reasoning": "All criteria hold."})


def role_of(body: dict[str, Any]) -> str:
    first = body["messages"][0]
    system = first["content"] if first["role"] == "system" else ""
    system = system if isinstance(system, str) else json.dumps(system)
    if "careful evaluator of an AI assistant" in system:
        return "agent_judge"
    if "SIMULATED USER" in system:
        return "user_judge"
    if "You are playing a person" in system:
        return "user"
    return "agent"


class Responder:
    """Serves each role its own script, in order."""

    def __init__(self, agent_script: list[Any]) -> None:
        self.scripts = {"agent": list(agent_script), "user": list(USER_SCRIPT),
                        "agent_judge": [verdict(AGENT_CRITERIA)], "user_judge": [verdict(USER_CRITERIA)]}
        self.calls: Counter[str] = Counter()

    def __call__(self, body: dict[str, Any]) -> Any:
        role = role_of(body)
        self.calls[role] += 1
        return self.scripts[role].pop(0)


def model_overrides(base_url: str) -> list[str]:
    return [f"{role}_model.{k}={v}" for role in ("agent", "user", "judge")
            for k, v in (("model", "openai/fake-model"), ("api_base", base_url), ("max_retries", "1"))]


@pytest.mark.parametrize("agent, script", [("code_exec", CODE_SCRIPT), ("tool_use", TOOL_SCRIPT),
                                           ("hybrid", HYBRID_SCRIPT)])
def test_llm_agent_user_and_judges_end_to_end(scenario_file, tmp_path, agent, script):
    responder = Responder(script)
    with FakeLLMServer(responder=responder) as server:
        cfg = apply_overrides(EpisodeConfig(), [f"agent={agent}", "user=llm", "judge=llm", "images=placeholder",
                                                *model_overrides(server.base_url)])
        result = asyncio.run(played(play_scenario(scenario_file, cfg, trajectory_dir=tmp_path)))
    assert result.end_reason == "user_ended", result.error
    assert result.entity_f1 == 1.0 and result.agent_pass is True and result.user_pass is True
    assert all(not s for s in responder.scripts.values()), responder.scripts  # every scripted reply was used
    t = json.loads((tmp_path / "episode_test_001.json").read_text())
    assert t["usage"]["agent"]["api_calls"] == len(script) and t["usage"]["user"]["api_calls"] == 2
    assert t["usage"]["agent_judge"]["api_calls"] == 1 and t["judges"]["agent"]["static"] is False
    assert t["prompts"]["agent"]["version"].startswith("mmtsb-agent")
    errors = [m for m in t["messages"] if m["is_error"]]
    if agent == "tool_use":   # the malformed JSON was fed back, not fatal
        assert any("not valid JSON" in m["content"] for m in errors)
    if agent == "hybrid":     # code calling an undiscovered tool fails inside the sandbox and is reported
        assert "not in your working set" in t["messages"][[m["tool_call_id"] for m in t["messages"]].index("h1")]["content"]


def test_provider_faults_are_retried_and_never_abort(scenario_file):
    responder = Responder(CODE_SCRIPT)
    faults = iter([{"fault": "500"}, {"fault": "429", "retry_after": 0}])

    def flaky(body: dict[str, Any]) -> Any:
        if role_of(body) == "agent" and responder.calls["agent"] in (0, 2):
            fault = next(faults, None)
            if fault is not None:
                return fault
        return responder(body)

    with FakeLLMServer(responder=flaky) as server:
        overrides = [o.replace("max_retries=1", "max_retries=3") for o in model_overrides(server.base_url)]
        cfg = apply_overrides(EpisodeConfig(), ["agent=code_exec", "images=placeholder", *overrides])
        result = asyncio.run(played(play_scenario(scenario_file, cfg)))
    assert result.end_reason == "user_ended" and result.entity_f1 == 1.0


def test_episode_cli_with_models(scenario_file):
    with FakeLLMServer(responder=Responder(CODE_SCRIPT)) as server:
        r = subprocess.run([sys.executable, "-m", "mmtsb.cli", "episode", str(scenario_file), "--json",
                            "--images", "placeholder", "agent=code_exec", "user=llm", "judge=llm",
                            *model_overrides(server.base_url)], capture_output=True, text=True, cwd=REPO,
                           timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["agent_pass"] is True and summary["entity_f1"] == 1.0 and summary["end_reason"] == "user_ended"
