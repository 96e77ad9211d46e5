"""The viewer's JSON API and files over real oracle runs: runs, the episode index, episode pages, images."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
from viewkit import get_json

from mmtsb.report.data import RunData
from mmtsb.view.runs import INDEX_COLUMNS


def test_runs_lists_each_run_with_its_summary(viewer, run_ids):
    runs = {r["id"]: r for r in get_json(viewer + "api/runs.json")}
    assert set(runs) == set(run_ids.values())
    a = runs[run_ids["a"]]
    assert a["n_episodes"] == 4 and a["agent_sr"] == 1.0 and a["label"] == "oracle / code_exec / full"
    assert a["scenarios"] == [f"mmtsb_nominal_00{i}" for i in (1, 2, 3, 4)]
    assert runs[run_ids["b"]]["config"]["interface"] == "tool_use"


def test_index_has_one_record_per_episode_with_the_filter_fields(viewer, runs, run_ids):
    index = get_json(viewer + f"api/runs/{run_ids['a']}/index.json")
    assert index["columns"] == list(INDEX_COLUMNS)
    rows = [dict(zip(index["columns"], r)) for r in index["rows"]]
    data = RunData.load(runs["a"])
    assert sorted(r["id"] for r in rows) == sorted(r["episode_id"] for r in data.rows)
    by_scenario = {r["scenario"]: r for r in rows}
    # the fields come from the rows: taxonomy of the scenario files, verdicts, categories from image sources
    s4 = by_scenario["mmtsb_nominal_004"]
    assert (s4["flow"], s4["arrival"], s4["challenge"]) == ("compute", "late", "state_mutation")
    assert s4["agent_pass"] is True and s4["failing"] == [] and s4["end_reason"] == "user_ended"
    assert s4["categories"] and all(isinstance(c, str) for c in s4["categories"])
    big = get_json(viewer + f"api/runs/{run_ids['big']}/index.json")
    failing = [dict(zip(big["columns"], r)) for r in big["rows"] if r[big["columns"].index("agent_pass")] is False]
    assert failing and all(r["failing"] and all(c.startswith("agent.") for c in r["failing"]) for r in failing)


def test_episode_page_data_comes_from_the_trajectory_and_its_images_are_files_of_the_run(viewer, runs, run_ids):
    index = get_json(viewer + f"api/runs/{run_ids['a']}/index.json")
    eid = next(r[0] for r in index["rows"] if r[1] == "mmtsb_nominal_004")
    ep = get_json(viewer + f"api/runs/{run_ids['a']}/episodes/{eid}.json")
    t = ep["trajectory"]
    assert t["scenario"] == "mmtsb_nominal_004" and t["messages"][0]["sender"] == "SYSTEM"
    delivered = [i for m in t["messages"] for i in m["image_ids"]]
    assert delivered == [0, 1, 2]
    for info in ep["images"].values():
        assert info["file"] == f"images/{info['sha256']}.png"
        body = urlopen(viewer + f"runs/{run_ids['a']}/{info['file']}").read()
        assert hashlib.sha256(body).hexdigest() == info["sha256"]   # content-addressed: the bytes the agent saw
    assert ep["scenario_texts"]["completion_criteria"].startswith("The 'Household budget - April' note")
    assert set(ep["rubrics"]) == {"agent", "user"} and "task_completion" in ep["rubrics"]["agent"]["rubric"]
    groups = t["entity_diff"]["groups"]
    assert {g["table_key"] for g in groups} == {"simple_note.notes", "todoist.tasks"}
    assert all(c["score"] == 1.0 for g in groups for e in g["entities"] for c in e["columns"])


def test_episode_page_data_holds_the_verdicts_of_every_rejudged_label_and_repeat(viewer, runs, run_ids):
    from mmtsb.judging.store import VerdictStore

    index = get_json(viewer + f"api/runs/{run_ids['a']}/index.json")
    eid = next(r[0] for r in index["rows"] if r[1] == "mmtsb_nominal_002")
    ep = get_json(viewer + f"api/runs/{run_ids['a']}/episodes/{eid}.json")
    store = VerdictStore(runs["a"], "again")
    assert [(e["label"], e["judge"], e["judge_repeat"]) for e in ep["rejudged"]] == [("again", "static", 0),
                                                                                     ("again", "static", 1)]
    for e in ep["rejudged"]:
        assert e["verdicts"] == json.loads(store.read(eid, e["judge_repeat"])["verdicts"])
        assert set(e["verdicts"]) == {"agent", "user"}
        assert [c["criterion"] for c in e["verdicts"]["agent"]["criteria"]][0] == "task_completion"
    # a run never re-judged has none
    other = get_json(viewer + f"api/runs/{run_ids['b']}/index.json")["rows"][0][0]
    assert get_json(viewer + f"api/runs/{run_ids['b']}/episodes/{other}.json")["rejudged"] == []


def test_judge_requests_are_the_model_judges_own_words_for_the_stored_trajectory(viewer, runs, run_ids):
    """The annotation page's "word for word" text is the LLM judge's request for this trajectory, as the judge
    builds it (here built again from the same evidence)."""
    from mmtsb.judging.evidence import evidence_from_trajectory
    from mmtsb.protocol import registry
    from mmtsb.protocol.episode_config import EpisodeConfig
    from mmtsb.protocol.model_settings import ModelSettings

    data = RunData.load(runs["a"])
    row = next(r for r in data.rows if r["scenario"] == "mmtsb_nominal_004")
    got = get_json(viewer + f"api/runs/{run_ids['a']}/judge_requests/{row['episode_id']}.json")
    assert set(got["parties"]) == {"agent", "user"}
    settings = ModelSettings(model="openai/any")
    request = registry.RoleRequest(EpisodeConfig(judge="llm", judge_model=settings), settings, {})
    evidence = evidence_from_trajectory(data.record(row), runs["a"], images="placeholder")
    for party in ("agent", "user"):
        system, user = registry.judge_maker("llm", party)(request).build_messages(evidence)
        texts = [p["text"] for p in user["content"] if p["type"] == "text"]
        shown = got["parties"][party]["text"]
        assert got["parties"][party]["system"] == system["content"]
        assert shown.startswith(texts[0]) and all(t in shown for t in texts)
        assert shown.count("(image attached)") == sum(1 for p in user["content"] if p["type"] != "text") == 3
    assert "## Task completion criteria" in got["parties"]["agent"]["text"]
    assert "## Round Query Delivery Check" in got["parties"]["user"]["text"]


def test_unknown_runs_episodes_and_file_names_are_404s_never_files_outside_the_run(viewer, run_ids):
    rid = run_ids["a"]
    for path in ("api/runs/nope/index.json", f"api/runs/{rid}/episodes/nope.json",
                 f"api/runs/{rid}/judge_requests/nope.json",
                 f"runs/{rid}/images/{'0' * 64}.png", f"runs/{rid}/images/..%2Fsummary.json",
                 f"runs/{rid}/figures/..%2F..%2Fconfig.yaml", f"runs/{rid}/images/summary.json"):
        with pytest.raises(HTTPError) as e:
            urlopen(viewer + path)
        assert e.value.code == 404, path
    with pytest.raises(HTTPError) as e:
        urlopen(viewer + f"api/runs/{rid}/episodes/nope.json")
    assert "no episode 'nope'" in json.loads(e.value.read())["error"]


def test_mmtsb_view_serves_from_the_command_line(runs):
    """`mmtsb view RUN_DIR --port 0` prints its address and serves the run until stopped."""
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.cli", "view", str(runs["a"]), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        assert "1 run(s) at http://127.0.0.1:" in line, line
        url = line.split(" at ", 1)[1].split()[0]
        assert [r["n_episodes"] for r in get_json(url + "api/runs.json")] == [4]
        assert b"mmtsb viewer" in urlopen(url).read()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_mmtsb_view_refuses_a_folder_without_runs(tmp_path: Path):
    out = subprocess.run([sys.executable, "-m", "mmtsb.cli", "view", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 2 and "no run folder" in out.stderr
