"""The run report (funnel, composition, figure) and the review pages / import of edited scenarios."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from mmtsb.protocol.trajectory import MessageRecord, ToolCallRecord, Trajectory
from mmtsb.runner.results import RunLayout
from pipelines.report import composition, write_report
from pipelines.review import import_reviewed, write_review

NOMINAL = Path(__file__).resolve().parents[2] / "scenarios" / "nominal"
FINAL = ("mmtsb_nominal_001", "mmtsb_nominal_002", "mmtsb_nominal_003")
FAILED = "gen_failed0001"
ODD_QUERY = "Compare <b>these</b> & tell me \"which\" is cheaper"


def _copy_scenario(name: str, target_dir: Path, *, new_name: str | None = None, domain: str = "finance") -> dict:
    data = json.loads((NOMINAL / f"{name}.json").read_text())
    (target_dir / "images").mkdir(parents=True, exist_ok=True)
    for p in data["image_paths"]:
        shutil.copy(NOMINAL / p, target_dir / p)
    data["name"] = new_name or name
    data["metadata"]["generation"] = {"scenario_id": data["name"], "outline_id": f"o-{data['name']}",
                                      "cluster_id": "c-1", "image_ids": [], "domain": domain,
                                      "title": f"Title of {data['name']}", "persona": "p", "goal": "g"}
    return data


def _write_stage(run: Path, stage: str, rows: list[dict[str, Any]]) -> None:
    common = {"model": "fake-model", "prompt_hash": "h", "calls": 1, "cached_calls": 0, "prompt_tokens": 100,
              "completion_tokens": 10, "cost": 0.01, "payload": "{}"}
    pq.write_table(pa.Table.from_pylist([{**common, **r} for r in rows]), run / "stages" / f"{stage}.parquet")


@pytest.fixture
def run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    scen = run / "scenarios"
    scen.mkdir(parents=True)
    (run / "stages").mkdir()
    for i, name in enumerate(FINAL):
        data = _copy_scenario(name, scen, domain="finance" if i < 2 else "travel")
        if name == "mmtsb_nominal_001":
            msg = data["messages"][0]
            old = msg["content"].split("Query: ", 1)[1].split("\n", 1)[0]
            msg["content"] = msg["content"].replace(old, ODD_QUERY)
        (scen / f"{name}.json").write_text(json.dumps(data, indent=2))
    failed = _copy_scenario("mmtsb_nominal_004", scen, new_name=FAILED)

    _write_stage(run, "1_associate", [{"image_id": f"img-{i}", "path": "", "dataset_type": "synthetic_document",
                                       "domain": "finance", "passed": i < 8,
                                       "reason": "" if i < 8 else "not actionable"} for i in range(10)])
    _write_stage(run, "5_entities", [
        {"scenario_id": n, "passed": True, "reason": "", "attempts": 2, "schema_failures": 1, "validation_errors": 0,
         "scenario": json.dumps(d)}
        for n, d in [*((n, json.loads((scen / f"{n}.json").read_text())) for n in FINAL), (FAILED, failed)]])
    critique = json.dumps({"criteria": {"visual_realism": {"passed": True, "reason": "looks real"},
                                        "plausibility": {"passed": True, "reason": "ok"}}})
    quality = [{"scenario_id": n, "passed": True, "reason": "", "critic_passed": True, "critique": critique,
                "selected": True, "oracle_f1": 1.0, "oracle_judge_pass": True, "oracle_episode_id": f"ep-{n}",
                "solvable": True, "final": True} for n in FINAL]
    quality.append({"scenario_id": FAILED, "passed": False, "reason": "entity F1 0.5 < 1.0", "critic_passed": True,
                    "critique": critique, "selected": True, "oracle_f1": 0.5, "oracle_judge_pass": False,
                    "oracle_episode_id": f"ep-{FAILED}", "solvable": False, "final": False})
    _write_stage(run, "6_quality", quality)
    funnel = {"stages": [{"stage": "1_associate", "unit": "image", "in": 10, "out": 8,
                          "rejected": {"not actionable": 2}},
                         {"stage": "6_quality", "unit": "scenario", "in": 4, "out": 3,
                          "rejected": {"oracle unsolvable": 1}}],
              "final": 3, "cost": 0.06, "tokens": {"prompt": 600, "completion": 60}}
    (run / "funnel.json").write_text(json.dumps(funnel))

    layout = RunLayout(run / "oracle" / "run")
    layout.prepare()
    traj = Trajectory(scenario=FAILED, end_reason="user_ended", steps=2, messages=[
        MessageRecord(index=0, sender="USER", recipient="AGENT", content="Here <are> the posters", image_ids=[0]),
        MessageRecord(index=1, sender="AGENT", recipient="EXECUTION_ENVIRONMENT", content="",
                      tool_calls=[ToolCallRecord(id="c1", name="calendar_create_event", arguments={"title": "x"})])])
    layout.write_trajectory(f"ep-{FAILED}", traj.to_json())
    return run


def test_composition_counts(run: Path) -> None:
    comp = composition(sorted((run / "scenarios").glob("*.json")))
    assert comp["scenarios"] == 3
    assert comp["flow"] == {"aggregate": 1, "filter": 1, "compare": 1}
    assert comp["arrival"] == {"upfront": 1, "progressive": 1, "mixed": 1}
    assert comp["challenge"] == {"none": 1, "error_correction": 1, "goal_change": 1}
    assert comp["domain"] == {"finance": 2, "travel": 1}
    assert comp["num_images"] == {"3": 1, "4": 1, "5": 1}
    assert comp["num_rounds"] == {"2": 1, "3": 1, "4": 1}
    assert comp["flow_x_arrival"]["filter"] == {"progressive": 1}
    assert comp["images"] == 12


def test_report_has_funnel_composition_and_figure(run: Path) -> None:
    path = write_report(run)
    text = path.read_text()
    assert path == run / "report.md"
    assert "| 1_associate | image | 10 | 8 | not actionable (2) |" in text
    assert "oracle unsolvable (1)" in text and "Final scenarios: **3**" in text
    assert "| aggregate | 1 | 0 | 0 | 0 | 1 |" in text              # flow x arrival row (upfront first)
    assert "| **total** | 1 | 1 | 0 | 1 | 3 |" in text              # upfront, progressive, late, mixed, total
    assert "| finance | 2 |" in text and "| travel | 1 |" in text
    assert "| synthetic_document | 1 |" in text
    assert "4 schema failure(s)" in text                             # 1 per stage 5 row
    assert "| scenarios checked | 4 |" in text and "| solvable | 3 |" in text
    assert "| mean oracle F1 | 0.875 |" in text
    assert "| 6_quality | fake-model | 4 | 0 | 400 | 40 | 0.0400 |" in text
    png = run / "figures" / "distribution.png"
    with Image.open(png) as im:
        im.verify()
        assert im.format == "PNG" and im.size[0] > 500


def test_report_on_an_empty_run(tmp_path: Path) -> None:
    text = write_report(tmp_path).read_text()
    assert "The final set is empty" in text and "No funnel recorded." in text
    with Image.open(tmp_path / "figures" / "distribution.png") as im:
        assert im.format == "PNG"


def test_review_pages(run: Path) -> None:
    paths = write_review(run)
    names = {p.name for p in paths}
    assert names == {"index.html", *(f"{n}.html" for n in FINAL), f"{FAILED}.html"}
    page = (run / "review" / "mmtsb_nominal_001.html").read_text()
    assert "Compare &lt;b&gt;these&lt;/b&gt; &amp; tell me &quot;which&quot; is cheaper" in page
    assert ODD_QUERY not in page
    assert 'src="data:image/png;base64,' in page
    assert "visual_realism" in page and "simple_note.notes" in page and "simple_note_create_note" in page
    failed = (run / "review" / f"{FAILED}.html").read_text()
    assert "Here &lt;are&gt; the posters" in failed and "calendar_create_event" in failed
    assert "oracle failed" in (run / "review" / "index.html").read_text()


def test_import_accepts_valid_and_rejects_broken(run: Path, tmp_path: Path) -> None:
    edits = tmp_path / "edits"
    edits.mkdir()
    good = json.loads((run / "scenarios" / "mmtsb_nominal_002.json").read_text())
    good["description"] = "Edited by a reviewer."
    (edits / "good.json").write_text(json.dumps(good))
    original = (run / "scenarios" / "mmtsb_nominal_003.json").read_bytes()
    broken = json.loads(original)
    broken["entity_diff_specs"][0]["table"] = "nowhere.table"
    (edits / "broken.json").write_text(json.dumps(broken))
    seen: list[list[Path]] = []

    def check(paths: list[Path]) -> dict[str, dict[str, Any]]:
        seen.append(paths)
        return {json.loads(p.read_text())["name"]: {"solvable": True, "oracle_f1": 1.0} for p in paths}

    records = import_reviewed(run, [edits / "good.json", edits / "broken.json"], check=check)
    by_file = {Path(r["file"]).name: r for r in records}
    assert by_file["good.json"]["accepted"] and by_file["good.json"]["oracle"]["oracle_f1"] == 1.0
    assert len(seen) == 1 and len(seen[0]) == 1                      # only the valid file is checked
    saved = json.loads((run / "scenarios" / "mmtsb_nominal_002.json").read_text())
    assert saved["description"] == "Edited by a reviewer." and saved["image_paths"][0].startswith("images/")
    bad = by_file["broken.json"]
    assert not bad["valid"] and not bad["accepted"] and any("entity_diff_specs[0]" in e for e in bad["errors"])
    assert (run / "scenarios" / "mmtsb_nominal_003.json").read_bytes() == original
    log = [json.loads(line) for line in (run / "review" / "imports.jsonl").read_text().splitlines()]
    assert [Path(r["file"]).name for r in log] == ["good.json", "broken.json"]


def test_import_keeps_the_original_when_the_oracle_fails(run: Path, tmp_path: Path) -> None:
    original = (run / "scenarios" / "mmtsb_nominal_001.json").read_bytes()
    edited = json.loads(original)
    edited["description"] = "changed"
    (tmp_path / "e.json").write_text(json.dumps(edited))
    records = import_reviewed(run, [tmp_path / "e.json"],
                              check=lambda paths: {"mmtsb_nominal_001": {"solvable": False, "oracle_reason": "F1 0"}})
    assert records[0]["valid"] and not records[0]["accepted"] and "F1 0" in records[0]["errors"][-1]
    assert (run / "scenarios" / "mmtsb_nominal_001.json").read_bytes() == original
