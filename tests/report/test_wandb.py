"""W&B logging: offline only (never network), secrets scrubbed, table/figures/artifact written; wandb optional."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from mmtsb.report.wandb_log import WandbUnavailable, flatten, import_wandb, log_wandb, resolve_mode, scrub
from mmtsb.runner.settings import LoggingSettings


def test_scrub_removes_secrets_but_keeps_counts() -> None:
    cfg = {"model": {"name": "gpt", "api_key": "sk-1", "OPENAI_API_KEY": "sk-2", "extra_headers":
                     {"Authorization": "Bearer x"}},
           "budgets": {"max_tokens": 1000, "total_tokens": 5}, "hf_token": "hf_abc", "token": "t",
           "list": [{"password": "p", "user": "u"}], "empty_key": {"api_key": None}}
    out = scrub(cfg)
    assert out["model"] == {"name": "gpt", "api_key": "***", "OPENAI_API_KEY": "***",
                            "extra_headers": {"Authorization": "***"}}
    assert out["budgets"] == {"max_tokens": 1000, "total_tokens": 5}
    assert out["hf_token"] == "***" and out["token"] == "***"
    assert out["list"] == [{"password": "***", "user": "u"}] and out["empty_key"] == {"api_key": None}
    assert cfg["model"]["api_key"] == "sk-1"          # the input is not modified


def test_flatten_and_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    assert flatten({"a": {"b": 1, "ci": [0.1, 0.9], "none": None}, "s": "x"}) == \
        {"a/b": 1, "a/ci_lo": 0.1, "a/ci_hi": 0.9, "s": "x"}
    monkeypatch.delenv("WANDB_MODE", raising=False)
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    assert resolve_mode("auto") == "offline"
    monkeypatch.setenv("WANDB_API_KEY", "k")
    assert resolve_mode("auto") == "online" and resolve_mode("offline") == "offline"


def test_missing_wandb_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wandb", None)    # import wandb -> ImportError
    with pytest.raises(WandbUnavailable, match=r"pip install 'mmtsb\[wandb\]'"):
        import_wandb()


def test_wandb_is_imported_lazily() -> None:
    """No module of mmtsb.report imports wandb at module level (it is an optional dependency)."""
    import ast

    import mmtsb.report

    for path in Path(mmtsb.report.__file__).parent.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "wandb" for n in names), path


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_log_wandb_offline(tmp_path: Path, run_a: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("wandb")
    run = tmp_path / "run"
    shutil.copytree(run_a, run)
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_DIR", str(tmp_path / "wb"))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    settings = SimpleNamespace(logging=LoggingSettings(wandb=True, project="mmtsb-test", group="sweep-7"),
                               resolved_config={"model": {"name": "oracle", "api_key": "sk-secret-123"}})
    where = Path(log_wandb(run, settings))
    runs = list((tmp_path / "wb" / "wandb").glob("offline-run-*"))
    assert len(runs) == 1 and where.is_relative_to(runs[0])
    record = next(runs[0].glob("run-*.wandb")).read_bytes()
    assert b"sk-secret-123" not in record and b"***" in record      # config logged, secret scrubbed
    assert b"sweep-7" in record                                      # sweep group
    assert b"breakdowns/image_arrival/upfront/agent_sr" in record    # flattened summary metrics
    assert b"trajectories-run-cfgA" in record                        # the trajectories artifact
    media = runs[0] / "files" / "media"
    table = json.loads(next((media / "table").glob("episodes_*.table.json")).read_text())
    assert len(table["data"]) == 10 and "failure_category" in table["columns"]
    cats = {row[table["columns"].index("episode_id")]: row[table["columns"].index("failure_category")]
            for row in table["data"]}
    assert cats["s2__r0__cfgA"] == "factual_error" and cats["s1__r0__cfgA"] is None
    assert {p.name.split("_0_")[0] for p in (media / "images" / "figures").glob("*.png")} == \
        {"fig5_breakdowns", "image_source_category", "fig7_failure_taxonomy", "pass_k"}
