"""Playing a scenario offline: oracle agent + scripted user + static judges, through the real loop and CLI."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys

import pytest

from testkit import REPO
from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig, apply_overrides
from mmtsb.episode.play import play_scenario

SCRIPT = ("{{USER_INSTRUCTION}}ROUND 1 [provide: image_1]\nQuery: Make a packing list note and update my trip note.\n"
          "Instructions: Ask for both changes.\n\nROUND 2\nQuery: Also remove my plant reminder.\n"
          "Instructions: Ask to remove it, then end.\n\nYou have 1 images available to share with the agent using "
          "the send_message_with_image tool.\n")

SCENARIO = {
    "name": "episode_test_001", "base_scenario": "base", "description": "Notes and a reminder.",
    "device_state_id": "brenda.webe@gmail.com", "reference_time": "2026-04-16T23:51:15+00:00",
    "agentsandbox_entities": {"reminder": [{"reminder_id": "reminder_1", "content": "water plants",
                                            "creation_datetime": "2026-04-15T09:00:00+00:00",
                                            "reminder_datetime": "2026-04-18T09:00:00+00:00"}]},
    "appworld_entities": {"simple_note.notes": [
        {"id": 3200, "user_id": 50, "title": "Trip", "content": "pack", "tags": [], "pinned": False,
         "created_at": "2026-04-01T10:00:00", "updated_at": "2026-04-01T10:00:00"}]},
    "image_paths": ["receipts/r1.png"],
    "messages": [{"sender": "SYSTEM", "recipient": "USER", "content": SCRIPT},
                 {"sender": "USER", "recipient": "AGENT",
                  "content": "Make a packing list note and update my trip note.", "image_ids": [0]}],
    "entity_diff_specs": [
        {"operation": "create", "source": "appworld", "table": "simple_note.notes",
         "entity_data": {"user_id": 50, "title": "Packing list", "content": "passport, charger"},
         "column_similarity_measure": {"user_id": "column_exact_match_similarity",
                                       "title": "column_rouge_l_similarity", "content": "column_rouge_l_similarity"}},
        {"operation": "update", "source": "appworld", "table": "simple_note.notes", "entity_id_column": "id",
         "entity_id_value": 3200, "expected_fields": {"content": "pack the tent"},
         "column_similarity_measure": {"id": "column_exact_match_similarity",
                                       "content": "column_rouge_l_similarity"}},
        {"operation": "delete", "source": "agentsandbox", "namespace": "REMINDER",
         "entity_id_column": "reminder_id", "entity_id_value": "reminder_1",
         "column_similarity_measure": {"reminder_id": "column_exact_match_similarity"}},
    ],
    "task_completion_criteria": "A packing list note exists, the trip note says to pack the tent, the reminder is gone.",
    "categories": ["APPWORLD", "MULTIPLE_USER_TURN"], "max_messages": 100,
    "metadata": {"expected_tools": ["simple_note_create_note", "simple_note_update_note", "remove_reminder"],
                 "scenario_metadata": {"num_images": 1, "num_user_rounds": 2, "challenge_type": "none"},
                 "reference_solution": {"version": 1, "rounds": [
                     {"round": 1, "steps": [
                         {"tool": "simple_note_create_note",
                          "arguments": {"title": "Packing list", "content": "passport, charger"}, "save_as": "note"},
                         {"tool": "simple_note_show_note", "arguments": {"note_id": "$note.note_id"}},
                         {"tool": "simple_note_update_note", "arguments": {"note_id": 3200, "content": "pack the tent"}}],
                      "reply": "Done: packing list created and the trip note updated."},
                     {"round": 2, "steps": [{"tool": "remove_reminder", "arguments": {"reminder_id": "reminder_1"}}],
                      "reply": "The plant reminder is removed."}]}},
}


@pytest.mark.parametrize("interface", ["code_exec", "tool_use"])
def test_oracle_scripted_static_passes(scenario_file, tmp_path, interface):
    cfg = apply_overrides(EpisodeConfig(), [f"interface={interface}", "images=placeholder"])
    result = asyncio.run(play_scenario(scenario_file, cfg, trajectory_dir=tmp_path / "traj"))
    assert result.end_reason == "user_ended", result.error
    assert result.entity_f1 == 1.0 and result.agent_pass is True and result.user_pass is True
    t = json.loads((tmp_path / "traj" / "episode_test_001.json").read_text())
    senders = [(m["sender"], m["recipient"]) for m in t["messages"]]
    assert senders[0] == ("SYSTEM", "USER") and senders[-1] == ("EXECUTION_ENVIRONMENT", "USER")
    assert t["messages"][-1]["conversation_active"] is False
    assert t["entity_diff"]["micro_f1"] == 1.0 and t["world_diff"]["simple_note.notes"]["added"]
    assert {c["tool"] for c in t["tool_calls"]} >= {"simple_note_create_note", "remove_reminder", "end_conversation"}
    assert t["judges"]["agent"]["static"] is True and "Static approximation" in t["judges"]["agent"]["reasoning"]


def test_wrong_solution_lowers_f1_and_fails_the_judge(scenario_file, tmp_path):
    data = copy.deepcopy(SCENARIO)
    data["metadata"]["reference_solution"]["rounds"][1]["steps"] = []  # never removes the reminder
    scenario_file.write_text(json.dumps(data))
    cfg = apply_overrides(EpisodeConfig(), ["images=placeholder", "interface=tool_use"])
    result = asyncio.run(play_scenario(scenario_file, cfg))
    assert result.entity_f1 < 1.0 and result.agent_pass is False


def test_budget_ends_the_episode(scenario_file):
    cfg = apply_overrides(EpisodeConfig(), ["images=placeholder", "interface=tool_use", "budgets.max_steps=2"])
    result = asyncio.run(play_scenario(scenario_file, cfg))
    assert result.end_reason == "max_steps" and result.steps == 2


def test_bad_overrides_are_named():
    with pytest.raises(ConfigError, match="unknown setting 'agentt'"):
        apply_overrides(EpisodeConfig(), ["agentt=oracle"])
    with pytest.raises(ConfigError, match="needs a model"):
        apply_overrides(EpisodeConfig(), ["agent=tool_use"])
    with pytest.raises(ConfigError, match="not one of"):
        apply_overrides(EpisodeConfig(), ["user=robot"])


def test_episode_cli_json_summary(scenario_file, tmp_path):
    r = subprocess.run([sys.executable, "-m", "mmtsb.cli", "episode", str(scenario_file), "--json", "--images",
                        "placeholder", "--output-dir", str(tmp_path / "out")], capture_output=True, text=True,
                       cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary == {"scenario": "episode_test_001", "agent_pass": True, "entity_f1": 1.0,
                       "steps": summary["steps"], "agent_steps": summary["agent_steps"], "end_reason": "user_ended"}
    assert summary["steps"] > summary["agent_steps"] > 0   # the paper's count has the user's messages too
    assert (tmp_path / "out" / "episode_test_001.json").exists()


def test_run_command_streams_results_and_resumes(scenario_file, tmp_path):
    """`mmtsb run` (the Hydra app) on a folder of scenarios: parquet rows, trajectories, summary; rerun = no-op."""
    second = tmp_path / "episode_test_002.json"
    second.write_text(json.dumps({**SCENARIO, "name": "episode_test_002"}))
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "mmtsb.cli", "run", "runner=inprocess", f"dataset.path={tmp_path}", "images=placeholder",
           f"hydra.run.dir={out}"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    import pyarrow.parquet as pq

    rows = pq.read_table(out / "episodes.parquet").to_pylist()
    assert sorted(x["scenario"] for x in rows) == ["episode_test_001", "episode_test_002"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_episodes"] == 2 and summary["agent_sr"] == 1.0 and summary["infra_failures"] == 0
    assert len(list((out / "trajectories").glob("*.json"))) == 2 and (out / "report.md").exists()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)  # nothing left to do
    assert r.returncode == 0 and len(pq.read_table(out / "episodes.parquet").to_pylist()) == 2


def test_starter_scenario_through_the_sandbox(tmp_path):
    """The default episode (oracle, code-exec interface: code runs in the sandbox) on a shipped scenario."""
    starter = REPO / "scenarios" / "nominal" / "mmtsb_nominal_001.json"
    r = subprocess.run([sys.executable, "-m", "mmtsb.cli", "episode", str(starter), "--json", "--output-dir",
                        str(tmp_path)], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["agent_pass"] is True and summary["entity_f1"] == 1.0
    t = json.loads((tmp_path / "mmtsb_nominal_001.json").read_text())
    assert t["code_runs"] and all(run["error"] is None and run["blocked"] is None for run in t["code_runs"])
    assert len(t["images"]) >= 3 and t["images"][0]["mime_type"] == "image/png"
