"""``mmtsb generate`` end to end through the real command: the offline default writes scenario files that
validate, gold-check at F1 = 1 and are solved by ``mmtsb run``; every stage has its table with lineage; the
funnel counts every stage; a rerun resumes; a run killed with SIGKILL mid-way finishes on rerun with the same
set; impossible configs are refused naming the key."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image

from mmtsb.config.paths import find_project_root
from mmtsb.scenarios.validate import gold_check_file, validate_file
from mmtsb.tools.toolbox import full_registry

pytestmark = pytest.mark.e2e

ROOT = find_project_root()
TINY = str(ROOT / "pipelines" / "clip_configs" / "tiny-vit.json")
ARGS = ["n_scenarios=4", f"clip.model={TINY}", "progress=false"]
STAGES = ["1_associate", "2_cluster", "3_outline", "4_scenario", "5_entities", "6_quality"]


def mmtsb(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    return subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    run = tmp_path_factory.mktemp("gen") / "run"
    proc = mmtsb("generate", *ARGS, f"hydra.run.dir={run}")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return run


def final_names(run: Path) -> list[str]:
    return sorted(p.stem for p in (run / "scenarios").glob("*.json"))


def test_default_run_writes_valid_gold_checked_solvable_scenarios(generated, tmp_path):
    files = sorted((generated / "scenarios").glob("*.json"))
    assert len(files) == 4
    registry = full_registry()
    for f in files:
        report = validate_file(f, registry)
        assert report.ok, (f, report.errors, report.missing_tools)
        assert gold_check_file(f)["passed"], f
        data = json.loads(f.read_text())
        meta = data["metadata"]
        assert meta["reference_solution"]["rounds"] and meta["generation"]["outline_id"].startswith("ol-")
        assert 3 <= meta["scenario_metadata"]["num_images"] <= 6
    play = mmtsb("run", f"dataset.path={generated / 'scenarios'}", "runner=inprocess",
                 f"hydra.run.dir={tmp_path / 'play'}")
    assert play.returncode == 0, play.stderr[-3000:]
    summary = json.loads((tmp_path / "play" / "summary.json").read_text())
    assert summary["n_episodes"] == 4 and summary["agent_sr"] == 1.0 and summary["entity_f1"] == 1.0


def test_every_stage_has_its_table_with_lineage_and_the_funnel_counts_them(generated):
    tables = {s: pq.read_table(generated / "stages" / f"{s}.parquet").to_pylist() for s in STAGES}
    images = {r["image_id"] for r in tables["1_associate"]}
    groups = {r["cluster_id"]: r for r in tables["2_cluster"]}
    outlines = {r["outline_id"]: r for r in tables["3_outline"]}
    for g in groups.values():
        assert set(g["image_ids"]) <= images and 3 <= len(g["image_ids"]) <= 6
    for o in outlines.values():
        assert o["cluster_id"] in groups
    final = [r for r in tables["6_quality"] if r["final"]]
    assert sorted(r["scenario_id"] for r in final) == final_names(generated)
    for r in final:  # image -> cluster -> outline -> scenario, all the way back
        assert r["outline_id"] in outlines and r["solvable"] and r["oracle_f1"] >= 0.9
        meta = json.loads((generated / "scenarios" / f"{r['scenario_id']}.json").read_text())["metadata"]
        assert meta["generation"]["cluster_id"] == outlines[r["outline_id"]]["cluster_id"]
    for s in STAGES:
        assert {"passed", "reason"} <= set(tables[s][0]), s
    for s in ("1_associate", "2_cluster", "4_scenario", "5_entities"):
        assert {"model", "prompt_hash", "prompt_tokens", "completion_tokens", "cost"} <= set(tables[s][0]), s
    funnel = json.loads((generated / "funnel.json").read_text())
    assert [s["stage"] for s in funnel["stages"]] == STAGES and funnel["final"] == 4
    first = funnel["stages"][0]
    assert first["in"] == len(tables["1_associate"]) and first["out"] == sum(r["passed"] for r in tables["1_associate"])
    assert sum(first["rejected"].values()) == first["in"] - first["out"] and "not actionable" in first["rejected"]
    assert "## Funnel" in (generated / "report.md").read_text()
    assert (generated / "figures" / "distribution.png").stat().st_size > 1000
    assert (generated / "review" / "index.html").exists()


def test_a_rerun_resumes_without_redoing_any_stage(generated):
    before = {s: (generated / "stages" / f"{s}.parquet").stat().st_mtime_ns for s in STAGES[:5]}
    proc = mmtsb("generate", *ARGS, f"hydra.run.dir={generated}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert {s: (generated / "stages" / f"{s}.parquet").stat().st_mtime_ns for s in STAGES[:5]} == before
    assert "already recorded" in proc.stderr + proc.stdout
    assert len(final_names(generated)) == 4


def test_a_run_killed_mid_way_finishes_on_rerun_with_the_same_set(generated, tmp_path):
    run = tmp_path / "killed"
    env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.cli", "generate", *ARGS, f"hydra.run.dir={run}"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 400
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if (run / "stages" / "1_associate.parquet").exists():  # stage 1 done, stage 2 under way
                break
            time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (run / "stages" / "1_associate.parquet").exists() and not (run / "funnel.json").exists()
    again = mmtsb("generate", *ARGS, f"hydra.run.dir={run}")
    assert again.returncode == 0, again.stderr[-3000:]
    assert final_names(run) == final_names(generated)
    for s in STAGES:
        keys = [r.get("scenario_id") or r.get("outline_id") or r.get("cluster_id") or r.get("image_id")
                for r in pq.read_table(run / "stages" / f"{s}.parquet").to_pylist()]
        assert len(keys) == len(set(keys)), s  # nothing done twice


@pytest.mark.parametrize(("override", "message"), [
    ("n_scenarios=0", "n_scenarios must be >= 1"),
    ("backend=llm", "backend=llm needs a model for stage associate"),
    ("source.kind=folder", "source.path is required for source.kind=folder"),
])
def test_impossible_configs_exit_2_naming_the_key(tmp_path, override, message):
    proc = mmtsb("generate", override, f"hydra.run.dir={tmp_path / 'run'}", timeout=120)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr[-2000:]


def test_resuming_with_other_settings_is_refused_naming_them(generated):
    before = sorted(p.name for p in (generated / "stages").iterdir())
    proc = mmtsb("generate", "n_scenarios=3", f"clip.model={TINY}", f"hydra.run.dir={generated}", timeout=120)
    assert proc.returncode == 2 and "other settings (n_scenarios differ)" in proc.stderr, proc.stderr[-2000:]
    assert sorted(p.name for p in (generated / "stages").iterdir()) == before


def test_an_impossible_run_folder_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    proc = mmtsb("generate", f"hydra.run.dir={tmp_path / 'file' / 'run'}", timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "is not a folder" in proc.stderr


def test_a_source_that_cannot_be_read_is_one_line_and_the_folder_stays_usable(tmp_path):
    run = tmp_path / "run"
    missing = mmtsb("generate", "source.kind=folder", f"source.path={tmp_path / 'nowhere'}",
                    f"hydra.run.dir={run}", timeout=120)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr, missing.stderr[-2000:]
    assert f"source error: source.path: {tmp_path / 'nowhere'} is not a folder" in missing.stderr
    manifest = tmp_path / "m.jsonl"
    manifest.write_text('{"image_paths": ["a.png"], "meta_data": {}}\n{not json\n', encoding="utf-8")
    Image.new("RGB", (8, 8)).save(tmp_path / "a.png")
    broken = mmtsb("generate", "source.kind=manifest", f"source.path={manifest}", f"hydra.run.dir={run}",
                   timeout=120)   # other settings than the failed start: allowed, that start made nothing
    assert broken.returncode == 2 and f"source error: {manifest}:2: not JSON" in broken.stderr, broken.stderr[-2000:]


def test_a_typo_fails_before_anything_runs(tmp_path):
    proc = mmtsb("generate", "n_scenarioz=3", f"hydra.run.dir={tmp_path / 'run'}", timeout=120)
    assert proc.returncode == 1 and "n_scenarioz" in proc.stderr and not (tmp_path / "run").exists()


def test_review_and_import_commands(generated, tmp_path):
    review = mmtsb("generate", "review", str(generated), timeout=120)
    assert review.returncode == 0, review.stderr[-2000:]
    pages = sorted((generated / "review").glob("gen_*.html"))
    assert len(pages) >= 4 and (generated / "review" / "index.html").exists()
    name = final_names(generated)[0]
    edited = json.loads((generated / "scenarios" / f"{name}.json").read_text())
    edited["description"] = "Reviewed: " + edited["description"]
    (tmp_path / f"{name}.json").write_text(json.dumps(edited))
    broken = dict(edited, name=name + "_broken", entity_diff_specs="not a list")
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    result = mmtsb("generate", "import", str(generated), str(tmp_path / f"{name}.json"), str(tmp_path / "broken.json"))
    assert result.returncode == 1  # one of the two files was refused
    assert f"{name}.json: accepted" in result.stdout and "broken.json: rejected" in result.stdout
    taken = json.loads((generated / "scenarios" / f"{name}.json").read_text())
    assert taken["description"].startswith("Reviewed: ") and not (generated / "scenarios" / f"{name}_broken.json").exists()
    log = [json.loads(line) for line in (generated / "review" / "imports.jsonl").read_text().splitlines()]
    assert [r["accepted"] for r in log[-2:]] == [True, False]


def test_wandb_logging_of_a_run_offline(generated, tmp_path, monkeypatch):
    from mmtsb.config.schema import LoggingConf
    from pipelines.wandb_log import log_generation

    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_DIR", str(tmp_path))
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    where = log_generation(generated, {"model": {"api_key": "sk-secret-value"}, "n_scenarios": 4},
                           LoggingConf(wandb=True, project="mmtsb-test"))
    assert Path(where).exists()
    (record,) = list(tmp_path.rglob("*.wandb"))  # the offline run: config, tables, figure, artifact
    data = record.read_bytes()
    assert b"n_scenarios" in data and b"sk-secret-value" not in data
    tables = {p.name.split("_0_")[0] for p in tmp_path.rglob("*.table.json")}
    assert {"1_associate", "5_entities", "6_quality", "funnel"} <= tables and "2_embeddings" not in tables
    assert list(tmp_path.rglob("distribution_*.png"))
