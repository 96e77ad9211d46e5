"""``mmtsb report --paper``: the paper's Section 6 tables and figures from runs the tests make with the real
runner (oracle runs in three settings, a model agent against the fake OpenAI-compatible server, a UI-mode run)
and from a ``mmtsb run --multirun`` sweep folder; numbers checked against the runs' own rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from paperkit import make_runs
from PIL import Image

from mmtsb.report.taxonomy import CATEGORIES
from testkit import REPO

MMTSB = [sys.executable, "-m", "mmtsb.cli"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def paper(runs, tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("paper")
    done = subprocess.run([*MMTSB, "report", "--paper", *map(str, runs.values()), "--out", str(out)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, json.loads((out / "paper.json").read_text())


def table(result: dict, key: str) -> dict[str, list]:
    t = result["tables"][key]
    return {str(row[0]): dict(zip(t["header"], row)) for row in t["rows"]}


def rows(run: Path) -> list[dict]:
    return pq.read_table(run / "episodes.parquet").to_pylist()


def test_table2_is_the_main_setting_with_each_models_numbers(runs, paper):
    out, result = paper
    # tool_use/full is the setting most models ran (the oracle and the fake model)
    assert result["main_setting"] == ["tool_use", "full"]
    t2 = table(result, "table2")
    assert list(t2) == ["oracle [tool_use, full]", "openai/fake-model"]
    for label, run in (("oracle [tool_use, full]", runs["oracle_tu_full"]), ("openai/fake-model", runs["fake_tu_full"])):
        r = rows(run)
        assert t2[label]["Agent Success Rate ↑"] == f"{sum(x['agent_pass'] for x in r) / len(r):.3f}"
        assert t2[label]["Avg. Steps ↓"] == f"{sum(x['steps'] for x in r) / len(r):.1f}"
        assert t2[label]["Entity F1 ↑"] == f"{sum(x['entity_f1_micro'] for x in r) / len(r):.3f}"
    assert t2["openai/fake-model"]["Agent Success Rate ↑"] == "0.000"
    text = (out / "paper.md").read_text()
    for heading in ("Table 2: Main results (interface tool_use, toolbox full)", "Table 3: Failure root-cause taxonomy",
                    "Table 4: UI mode", "Table 11: Tool discovery", "Table 12: Agent SR by image source category",
                    "Interface ablation (Figure 6b)", "Toolbox ablation (Figure 6c)"):
        assert f"## {heading}" in text, heading


def test_table3_counts_each_models_failures_by_root_cause(runs, paper):
    _, result = paper
    t3 = result["tables"]["table3"]
    fake = next(row for row in t3["rows"] if row[0].startswith("openai/fake-model"))
    assert fake[0] == "openai/fake-model (3)"
    counts = [int(cell.split(" ")[0]) for cell in fake[1:]]
    assert sum(counts) == 3 and len(counts) == len(CATEGORIES)
    summary = next(r["summary"] for r in result["runs"] if r["label"] == "openai/fake-model")
    assert counts == [summary["failure_taxonomy"]["counts"][c] for c in CATEGORIES]


def test_table4_holds_the_ui_runs_only(runs, paper):
    _, result = paper
    t4 = table(result, "table4")
    assert list(t4) == ["oracle (UI)"]
    r = rows(runs["oracle_ui"])
    assert t4["oracle (UI)"]["UI SR"] == f"{sum(x['ui_pass'] for x in r) / len(r):.3f}"
    assert t4["oracle (UI)"]["Episodes"] == len(r)


def test_tables_11_and_12_tool_discovery_and_image_categories(runs, paper):
    _, result = paper
    t11 = table(result, "table11")
    oracle = rows(runs["oracle_tu_full"])
    mean = sum(x["invoked_tool_recall"] for x in oracle) / len(oracle)
    assert t11["oracle [tool_use, full]"]["Invoked recall"] == f"{mean:.3f}"
    assert t11["openai/fake-model"]["Invoked recall"] == "0.000"
    t12 = table(result, "table12")
    assert t12["Overall"]["n"] == 3 and t12["Overall"]["openai/fake-model"] == "0.000"
    assert set(t12) - {"Overall"} <= {"Natural (text-rich)", "Natural (less text)", "Docs/Charts/Tables", "UI",
                                      "Other", "unknown"}


def test_ablations_compare_a_model_across_interfaces_and_toolbox_levels(paper):
    _, result = paper
    interfaces = table(result, "interface_ablation")
    assert list(interfaces) == ["oracle"]
    assert interfaces["oracle"]["code_exec SR / steps"].startswith("1.000 / ")
    assert interfaces["oracle"]["tool_use SR / steps"].startswith("1.000 / ")
    levels = table(result, "toolbox_ablation")
    assert list(levels) == ["oracle"] and set(levels["oracle"]) == {"Model", "full SR / steps", "mini SR / steps"}


def test_every_figure_is_drawn(paper):
    out, result = paper
    assert set(result["figures"]) == {"fig5", "fig5_image_source", "fig6a", "fig6b", "fig6c", "fig7"}
    for rel in result["figures"].values():
        with Image.open(out / rel) as img:
            assert img.format == "PNG" and img.size[0] > 300
        assert f"]({rel})" in (out / "paper.md").read_text()


def test_a_sweep_folder_counts_as_its_runs(tmp_path):
    sweep = tmp_path / "sweep"
    args = ["--multirun", "model=oracle", "interface=code_exec,tool_use", "runner=inprocess", "dataset.limit=2",
            f"hydra.sweep.dir={sweep}"]
    code = f"import sys; sys.argv = ['mmtsb run', *{args!r}]; from mmtsb.config.app import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HYDRA_FULL_ERROR": "0"})
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "paper"
    done = subprocess.run([*MMTSB, "report", "--paper", str(sweep), "--out", str(out)], capture_output=True,
                          text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads((out / "paper.json").read_text())
    assert sorted(r["label"] for r in result["runs"]) == ["oracle [code_exec, full]", "oracle [tool_use, full]"]
    assert result["main_setting"] == ["code_exec", "full"]    # a tie: the paper's setting
    assert list(table(result, "interface_ablation")) == ["oracle"]


def test_a_folder_without_runs_is_one_line_and_exit_2(tmp_path):
    done = subprocess.run([*MMTSB, "report", "--paper", str(tmp_path), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 2 and "no run folder" in done.stderr and "Traceback" not in done.stderr


def test_the_wandb_form_logs_every_table_and_figure_offline(runs, paper, tmp_path):
    """``--paper --wandb`` (logging on) logs the same tables and figures as one offline W&B run."""
    pytest.importorskip("wandb")
    _, result = paper
    out = tmp_path / "paper"
    env = {k: v for k, v in os.environ.items() if k != "WANDB_API_KEY"}
    env.update(WANDB_MODE="offline", WANDB_DIR=str(tmp_path / "wb"), WANDB_SILENT="true")
    done = subprocess.run([*MMTSB, "report", "--paper", *map(str, runs.values()), "--out", str(out), "--wandb"],
                          capture_output=True, text=True, cwd=REPO, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    where = Path(done.stdout.strip().splitlines()[-1].removeprefix("wandb: "))
    (wb_run,) = list((tmp_path / "wb" / "wandb").glob("offline-run-*"))
    assert where.is_relative_to(wb_run)
    media = wb_run / "files" / "media"
    tables = {p.name.split("_", 1)[0] for p in (media / "table" / "paper").glob("*.table.json")}
    assert {"table2", "table3", "table4", "table11", "table12"} <= tables, tables
    assert len(list((media / "images" / "paper").glob("*.png"))) == len(result["figures"])
    record = next(wb_run.glob("run-*.wandb")).read_bytes()
    assert b"runs/openai/fake-model/agent_sr" in record
