"""Synthetic run folders for the report tests (imported as `reportkit`): hand-made trajectories turned
into rows by ``episode_row`` and written as one parquet part file per episode (as the runner writes
them), so every expected metric can be computed by hand.

Run A (10 episodes: scenarios s1..s4 twice each, s5 twice as infrastructure failures):

| episode | pass | user | micro | macro(ref) | steps | root cause |
| s1 r0   | yes  | yes  | 1.0   | 1.0        | 4     |            |
| s1 r1   | yes  | yes  | 1.0   | 1.0        | 6     |            |
| s2 r0   | no   | yes  | 0.5   | 0.6        | 10    | factual (evidence: wrong value in a matched row) |
| s2 r1   | yes  | yes  | 1.0   | 1.0        | 8     |            |
| s3 r0   | no   | no   | 0.0   | 0.0        | 20    | task failure (evidence: max_steps, nothing produced) |
| s3 r1   | no   | yes  | 0.8   | 1.0        | 5     | uncontrolled (evidence: an unexpected write) |
| s4 r0   | no   | yes  | 0.9   | 0.8        | 7     | incomplete (rubric: IF fails) |
| s4 r1   | no   | yes  | 0.7   | 0.75       | 9     | factual (rubric: IA fails) |
| s5 r0   | infra: end_reason "error"                                 |
| s5 r1   | infra: runner flag infra_failure after retries (agent_pass False) |
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from mmtsb.runner.rows import episode_row

EXPECTED = ["simple_note_create_note", "gmail_send_email"]
TAXONOMY = {
    "s1": dict(image_arrival="upfront", num_images=3, selected_flow_type="aggregate", challenge_type="none",
               dataset_type="hiertext", require_disambiguation=False, num_user_rounds=2),
    "s2": dict(image_arrival="progressive", num_images=4, selected_flow_type="filter",
               challenge_type="error_correction", dataset_type="docvqa", require_disambiguation=True,
               num_user_rounds=3),
    "s3": dict(image_arrival="upfront", num_images=6, selected_flow_type="compare", challenge_type="state_mutation",
               dataset_type="screenspotpro", require_disambiguation=False, num_user_rounds=2),
    "s4": dict(image_arrival="late", num_images=3, selected_flow_type="aggregate", challenge_type="goal_change",
               dataset_type="worldvqa", require_disambiguation=False, num_user_rounds=2),
    "s5": dict(image_arrival="mixed", num_images=5, selected_flow_type="validate", challenge_type="none",
               dataset_type="chartqapro", require_disambiguation=False, num_user_rounds=2),
}
IMAGES = {
    "s1": ["hiertext/images/test/a1.jpg", "hiertext/images/test/a2.jpg"],
    "s2": ["docvqa/images/d1.png", "hiertext/images/test/b1.jpg"],
    "s3": ["screenspotpro/images/vivado_windows/screenshot_1.png"],
    "s4": [],   # no images recorded: the category comes from dataset_type (worldvqa)
    "s5": ["chartqapro/images/c1.png"],
}


def call(tool: str, ok: bool = True, value: Any = None) -> dict[str, Any]:
    return {"tool": tool, "arguments": {}, "ok": ok, "value": value, "error": None if ok else "boom",
            "images": [], "duration_s": 0.001}


def column(name: str, expected: Any, actual: Any, score: float) -> dict[str, Any]:
    return {"column": name, "function": "column_rouge_l_similarity", "expected": expected, "actual": actual,
            "score": score, "counted": True}


def matched(columns: list[dict[str, Any]], score: float = 1.0) -> dict[str, Any]:
    return {"spec_index": 0, "expected": {}, "score": score, "matched_key": 1, "matched_row": {}, "columns": columns,
            "reason": None, "closest_key": None, "closest_columns": []}


MISSING = {"spec_index": 0, "expected": {}, "score": 0.0, "matched_key": None, "matched_row": None, "columns": [],
           "reason": "no actual row to match", "closest_key": None, "closest_columns": []}


def judge(kind: str, name: str, criteria: dict[str, bool], error: str | None = None) -> dict[str, Any]:
    return {"kind": kind, "judge": name, "criteria": [{"criterion": k, "passed": v, "analysis": "", "evidence": ""}
                                                      for k, v in criteria.items()],
            "error": error, "passed": error is None and all(criteria.values()), "usage": {}}


def static_agent(tc: bool = True, if_: bool = True, tuv: bool = True, nse: bool = True) -> dict[str, Any]:
    return judge("agent", "static", {"task_completion": tc, "instruction_following": if_,
                                     "tool_use_validity": tuv, "no_side_effects": nse})


def llm_agent(**failed: bool) -> dict[str, Any]:
    crit = {c: True for c in ("task_completion", "instruction_following", "tool_use_validity", "no_side_effects",
                              "information_accuracy")}
    crit.update(failed)
    return judge("agent", "sonnet-judge", crit)


def trajectory(scenario: str, *, agent_pass: bool | None, user_pass: bool | None, micro: float, ref: float,
               steps: int, end_reason: str = "user_ended", error: str | None = None,
               groups: list[dict[str, Any]] | None = None, unexpected: int = 0,
               tools: list[dict[str, Any]] | None = None, agent_judge: dict[str, Any] | None = None,
               replies: tuple[str, ...] = ("Which one do you mean?", "All done."),
               tokens: int = 100, cost: float = 0.01) -> dict[str, Any]:
    messages = [{"index": 0, "sender": "USER", "recipient": "AGENT", "content": "please help", "meta": {}}]
    for i, text in enumerate(replies, start=1):
        messages.append({"index": i, "sender": "AGENT", "recipient": "USER", "content": text, "meta": {}})
    if tools is None:
        tools = [call(t) for t in EXPECTED]
    usage = {"prompt_tokens": tokens - 10, "completion_tokens": 10, "total_tokens": tokens, "api_calls": 2,
             "cost_usd": cost}
    return {
        "schema_version": 4, "agent_steps": steps,
        "scenario": scenario, "scenario_file": f"scenarios/{scenario}.json", "interface": "code_exec",
        "roles": {"agent": "oracle", "user": "scripted", "agent_judge": "static", "user_judge": "static"},
        "taxonomy": TAXONOMY[scenario], "categories": ["APPWORLD"], "expected_tools": EXPECTED,
        "messages": messages, "tool_calls": tools,
        "images": [{"image_id": i, "source": s} for i, s in enumerate(IMAGES[scenario])],
        "usage": {"agent": usage, "user": usage, "agent_judge": {}, "user_judge": {}},
        "timing": {"duration_s": 1.0}, "budgets": {"rows": steps * 2, "max_messages": 100},
        "steps": steps, "end_reason": end_reason, "error": error,
        "entity_diff": {"f1": micro, "micro_f1": micro, "macro_f1": ref, "reference_f1": ref,
                        "unexpected_writes": [{"table": "gmail.drafts", "operation": "create", "key": 9}] * unexpected,
                        "groups": groups if groups is not None else
                        [{"table_key": "simple_note.notes", "operation": "create", "entities": [matched([])],
                          "unmatched_actual_keys": []}]},
        "judges": {"agent": agent_judge if agent_judge is not None else static_agent(),
                   "user": judge("user", "static", {"request_fidelity": bool(user_pass),
                                                    "tool_channel_correctness": True})},
        "agent_pass": agent_pass, "user_pass": user_pass, "entity_f1": micro,
    }


def run_a_trajectories() -> list[tuple[str, int, dict[str, Any], dict[str, Any]]]:
    """(scenario, repeat, trajectory, extra run fields) of run A."""
    wrong = [{"table_key": "simple_note.notes", "operation": "create", "unmatched_actual_keys": [],
              "entities": [matched([column("title", "Offsite", "Offsite", 1.0),
                                    column("content", "Total: $161.31", "Total: $116.31", 0.5)], score=0.5)]}]
    nothing = [{"table_key": "simple_note.notes", "operation": "create", "entities": [MISSING],
                "unmatched_actual_keys": []}]
    search = call("api_docs_search_api_docs", value=[{"tool_name": "simple_note_create_note"}])
    return [
        ("s1", 0, trajectory("s1", agent_pass=True, user_pass=True, micro=1.0, ref=1.0, steps=4), {}),
        ("s1", 1, trajectory("s1", agent_pass=True, user_pass=True, micro=1.0, ref=1.0, steps=6), {}),
        ("s2", 0, trajectory("s2", agent_pass=False, user_pass=True, micro=0.5, ref=0.6, steps=10, groups=wrong,
                             tools=[search, call("simple_note_create_note")], agent_judge=static_agent(if_=False),
                             replies=("Done! I've created the note.",)), {}),
        ("s2", 1, trajectory("s2", agent_pass=True, user_pass=True, micro=1.0, ref=1.0, steps=8), {}),
        ("s3", 0, trajectory("s3", agent_pass=False, user_pass=False, micro=0.0, ref=0.0, steps=20,
                             end_reason="max_steps", groups=nothing, tools=[search, call("x_bad_tool", ok=False)],
                             agent_judge=static_agent(tc=False, if_=False)), {}),
        ("s3", 1, trajectory("s3", agent_pass=False, user_pass=True, micro=0.8, ref=1.0, steps=5, unexpected=1,
                             agent_judge=static_agent(nse=False)), {}),
        ("s4", 0, trajectory("s4", agent_pass=False, user_pass=True, micro=0.9, ref=0.8, steps=7,
                             agent_judge=llm_agent(instruction_following=False)), {}),
        ("s4", 1, trajectory("s4", agent_pass=False, user_pass=True, micro=0.7, ref=0.75, steps=9,
                             agent_judge=llm_agent(information_accuracy=False, no_side_effects=False)), {}),
        ("s5", 0, trajectory("s5", agent_pass=None, user_pass=None, micro=0.0, ref=0.0, steps=2, end_reason="error",
                             error="ConnectionError: provider unreachable\ntraceback...", tools=[]), {"attempts": 3}),
        ("s5", 1, trajectory("s5", agent_pass=False, user_pass=False, micro=0.0, ref=0.0, steps=3, tools=[],
                             agent_judge=static_agent(tc=False)),
         {"infra_failure": True, "attempts": 3, "error": "actor died"}),
    ]


def write_run(run_dir: Path, episodes: list[tuple[str, int, dict[str, Any], dict[str, Any]]], *,
              agent_model: str = "oracle", toolbox: str = "full", cfg: str = "cfgA") -> Path:
    """A run folder as the runner writes it: trajectories/<id>.json and episodes.parquet/<id>.parquet."""
    (run_dir / "episodes.parquet").mkdir(parents=True)
    (run_dir / "trajectories").mkdir()
    for scenario, repeat, traj, extra in episodes:
        eid = f"{scenario}__r{repeat}__{cfg}"
        (run_dir / "trajectories" / f"{eid}.json").write_text(json.dumps(traj))
        fields = dict(episode_id=eid, repeat=repeat, seed=repeat + 1, config_hash=cfg, dataset="synthetic",
                      toolbox=toolbox, agent_model=agent_model, user_model="scripted", judge_model="static",
                      attempts=1, infra_failure=False, trajectory_path=f"trajectories/{eid}.json")
        fields.update(extra)
        row = episode_row(traj, **fields)
        pq.write_table(pa.Table.from_pylist([row]), run_dir / "episodes.parquet" / f"{eid}.parquet")
    return run_dir
