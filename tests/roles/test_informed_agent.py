"""The informed agent (the paper's oracle solvability check, §5.1) against the fake OpenAI-compatible server: its
system prompt carries the scenario's expected changes, completion criteria and expected tools; scripted with the
right tool calls it solves a shipped scenario (entity F1 1.0 in the result row); it is selectable from
EpisodeConfig, `mmtsb episode` and `mmtsb run`, and without a model it is refused naming the key to set."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hydra import compose, initialize_config_dir

import mmtsb.config.schema  # noqa: F401  (registers the structured configs)
from mmtsb.config.build import RunConfigError, build_run_settings
from mmtsb.config.paths import conf_dir
from mmtsb.episode.play import play_scenario
from mmtsb.llm import flush_litellm_logging
from mmtsb.protocol import registry
from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig, apply_overrides
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.roles.agents.informed import (
    INFORMED_HEADING,
    INFORMED_PROMPT_VERSION,
    InformedCodeExecAgent,
    informed_block,
)
from mmtsb.roles.prompts.agent import AGENT_CODE_EXEC_PROMPT_VERSION
from mmtsb.runner.rows import episode_row
from mmtsb.scenarios.loader import load_scenario
from mmtsb.testing import FakeLLMServer

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "scenarios" / "nominal" / "mmtsb_nominal_001.json"
MMTSB = str(Path(sys.executable).with_name("mmtsb"))
SEARCH = "api_docs_search_api_docs"
NOTE_TITLE = "Offsite expenses - April 14"
NOTE_CONTENT = "Bluebird Cafe: $52.85\nRainier Cab Co.: $42.40\nQuickPrint Copy Center: $66.06\nGrand total: $161.31"
EMAIL_BODY = ("Hi Glen,\n\nThe team offsite on April 14 came to $161.31 in total: Bluebird Cafe $52.85, Rainier Cab "
              "Co. $42.40 and QuickPrint Copy Center $66.06. Could you process the reimbursement?\n\nThanks,\nBrenda")

#: what a model told the ground truth would do: find each tool, call it, report; round by round
SOLUTION: list[Any] = [
    {"tool_calls": [{"id": "s1", "name": SEARCH, "arguments": {"query": "simple note create note"}}]},
    {"tool_calls": [{"id": "n1", "name": "simple_note_create_note",
                     "arguments": {"title": NOTE_TITLE, "content": NOTE_CONTENT}}]},
    f"I created the note '{NOTE_TITLE}' with the three receipts and a grand total of $161.31.",
    {"tool_calls": [{"id": "s2", "name": SEARCH, "arguments": {"query": "contacts search contacts"}},
                    {"id": "s3", "name": SEARCH, "arguments": {"query": "gmail send email"}}]},
    {"tool_calls": [{"id": "c1", "name": "contacts_search_contacts", "arguments": {"query": "Glen Moore"}}]},
    {"tool_calls": [{"id": "e1", "name": "gmail_send_email",
                     "arguments": {"email_addresses": ["gl.moore@gmail.com"], "subject": "Offsite expense summary",
                                   "body": EMAIL_BODY}}]},
    "I emailed Glen Moore the summary with the grand total of $161.31.",
]


def offered(body: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in body.get("tools") or ()}


class Solver:
    """Serves SOLUTION in order, checking that every tool it calls was offered in that request."""

    def __init__(self) -> None:
        self.script = list(SOLUTION)

    def __call__(self, body: dict[str, Any]) -> Any:
        reply = self.script.pop(0)
        for call in reply.get("tool_calls", []) if isinstance(reply, dict) else []:
            assert call["name"] in offered(body), f"{call['name']} was not offered: {sorted(offered(body))}"
        return reply


def model_overrides(base_url: str) -> list[str]:
    return ["agent_model.model=openai/fake-model", f"agent_model.api_base={base_url}", "agent_model.max_retries=1"]


async def played(cfg: EpisodeConfig, **kw: Any) -> Any:
    try:
        return await play_scenario(SCENARIO, cfg, **kw)
    finally:
        await flush_litellm_logging()


def test_informed_is_registered_as_a_tool_use_model_agent_with_variants():
    kinds = registry.agents()
    assert (kinds["informed"].interface, kinds["informed"].needs_model) == ("tool_use", True)
    assert kinds["informed_hybrid"].interface == "hybrid" and kinds["informed_code_exec"].interface == "code_exec"
    assert EpisodeConfig(agent="informed").interface == "tool_use"
    from mmtsb.config.build import model_agent   # an llm model entry still plays the plain agents

    assert [model_agent(i) for i in ("code_exec", "tool_use", "hybrid")] == ["code_exec", "tool_use", "hybrid"]


def test_the_informed_agent_solves_a_shipped_scenario_and_is_told_the_ground_truth(tmp_path):
    scenario = load_scenario(SCENARIO)
    solver = Solver()
    with FakeLLMServer(responder=solver) as server:
        cfg = apply_overrides(EpisodeConfig(), ["agent=informed", *model_overrides(server.base_url)])
        result = asyncio.run(played(cfg, trajectory_dir=tmp_path))
        requests = server.requests
    assert result.end_reason == "user_ended", result.error
    assert not solver.script   # every scripted reply was used

    system = requests[0]["messages"][0]
    assert system["role"] == "system"
    prompt = system["content"]
    assert INFORMED_HEADING in prompt and "solvability check" in prompt.lower()
    assert prompt.index("TOOL DISCOVERY") < prompt.index(INFORMED_HEADING)   # appended to the normal prompt
    assert f'"title": "{NOTE_TITLE}"' in prompt and '"subject": "Offsite expense summary"' in prompt
    assert '"recipient_ids": [55]' in prompt and "create in simple_note.notes" in prompt
    assert '"created_at"' not in prompt and '"tags"' not in prompt   # ignored columns are left out
    assert scenario.task_completion_criteria in prompt
    assert all(tool in prompt for tool in scenario.expected_tools)
    assert prompt.endswith(informed_block(scenario))
    assert [t["function"]["name"] for t in requests[0]["tools"]] == [SEARCH]   # discovery as for a normal agent

    record = result.record
    assert record.roles["agent"] == "informed:openai/fake-model" and record.interface == "tool_use"
    assert record.prompts["agent"].version.endswith(f"+{INFORMED_PROMPT_VERSION}")
    assert result.entity_f1 == 1.0 and result.agent_pass is True
    row = episode_row(record)
    assert (row["agent"], row["interface"], row["entity_f1"], row["agent_pass"]) == (
        "informed:openai/fake-model", "tool_use", 1.0, True)
    assert json.loads(row["invoked_tools"]) == scenario.expected_tools and row["invoked_tool_recall"] == 1.0
    saved = json.loads((tmp_path / f"{scenario.name}.json").read_text())
    assert saved["entity_f1"] == 1.0 and INFORMED_HEADING in saved["prompts"]["agent"]["texts"]["system"]


def test_update_and_delete_specs_name_the_row_and_the_expected_values():
    block = informed_block(load_scenario(REPO / "scenarios" / "nominal" / "mmtsb_nominal_009.json"))
    assert 'delete from REMINDER where reminder_id = "reminder_101"' in block
    assert 'update REMINDER where reminder_id = "reminder_100": {"reminder_datetime": "2026-05-06T10:00:00"}' in block


def test_the_privileged_block_reaches_the_code_exec_variant_too():
    scenario = load_scenario(SCENARIO)
    clock = SimpleNamespace(now=lambda: scenario.reference_time)
    view = SimpleNamespace(scenario=scenario, ui=False, world=SimpleNamespace(clock=clock))   # what the prompt reads
    agent = InformedCodeExecAgent(ModelSettings(model="openai/fake-model"), {})
    prompt = agent.build_system_prompt(view)   # type: ignore[arg-type]
    assert "```python" in prompt and NOTE_TITLE in prompt and prompt.endswith(informed_block(scenario))
    assert agent.name == "informed_code_exec:openai/fake-model"
    assert agent.prompt_version == f"{AGENT_CODE_EXEC_PROMPT_VERSION}+{INFORMED_PROMPT_VERSION}"


def test_without_a_model_the_informed_agent_is_refused_naming_the_key():
    with pytest.raises(ConfigError, match=r"agent=informed needs a model: set agent_model\.model="):
        apply_overrides(EpisodeConfig(), ["agent=informed"])
    with pytest.raises(ConfigError, match=r"agent_model\.model"):   # a config built in Python, unchecked
        asyncio.run(played(EpisodeConfig(agent="informed")))
    proc = subprocess.run([MMTSB, "episode", str(SCENARIO), "agent=informed"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2 and "agent_model.model" in proc.stderr, proc.stderr[-2000:]


def test_mmtsb_run_selects_it_through_model_kind(tmp_path):
    with initialize_config_dir(config_dir=str(conf_dir()), version_base="1.3"):
        s = build_run_settings(compose(config_name="config", overrides=[
            "model=claude_4_5_opus", "model.kind=informed"]), tmp_path / "run")
        assert (s.episode.agent, s.episode.interface, s.episode.agent_model.model) == (
            "informed", "tool_use", "anthropic/claude-opus-4-5")
        s = build_run_settings(compose(config_name="config", overrides=[
            "model.kind=informed_hybrid", "model.model=openai/fake-model"]), tmp_path / "run")
        assert (s.episode.agent, s.episode.interface) == ("informed_hybrid", "hybrid")
        with pytest.raises(RunConfigError, match=r"model\.model is empty"):
            build_run_settings(compose(config_name="config", overrides=["model.kind=informed"]), tmp_path / "run")


def test_mmtsb_run_plays_it_end_to_end(tmp_path):
    with FakeLLMServer(responder=Solver()) as server:
        proc = subprocess.run([MMTSB, "run", "model.kind=informed", "model.model=openai/fake-model",
                               f"model.api_base={server.base_url}", "runner=inprocess",
                               "dataset.names=[mmtsb_nominal_001]", f"hydra.run.dir={tmp_path / 'run'}"],
                              capture_output=True, text=True, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import pyarrow.dataset as pads

    rows = pads.dataset(tmp_path / "run" / "episodes.parquet").to_table().to_pylist()
    assert [(r["agent"], r["interface"], r["entity_f1"]) for r in rows] == [
        ("informed:openai/fake-model", "tool_use", 1.0)]
