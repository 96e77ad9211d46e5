"""Fixtures: real oracle runs on the starter scenarios (made once per session), a large synthetic run, the
viewer serving them, and a headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewkit import NOMINAL, UI, chromium, oracle_run


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``a``: nominal 001-004 through code; ``b``: nominal 003-005 through tool calls (two shared scenarios);
    ``ui``: a UI scenario in UI mode (rendered screens); ``big``: 120 episodes replicated from ``a``. ``a`` is
    judged again by the static judges twice (``mmtsb rejudge`` label ``again``, judge_repeats=2)."""
    import asyncio

    from mmtsb.judging.rejudge import RejudgeOptions, compose_judge, rejudge
    from mmtsb.testing.synthetic_run import replicate_run

    root = tmp_path_factory.mktemp("view_runs")
    out = {
        "a": oracle_run(root / "2026-01-01" / "run-a", [NOMINAL / f"mmtsb_nominal_00{i}.json" for i in (1, 2, 3, 4)]),
        "b": oracle_run(root / "2026-01-01" / "run-b", [NOMINAL / f"mmtsb_nominal_00{i}.json" for i in (3, 4, 5)],
                        interface="tool_use"),
        "ui": oracle_run(root / "2026-01-01" / "run-ui", [UI / "mmtsb_ui_001.json"], ui=True),
    }
    asyncio.run(rejudge(out["a"], compose_judge(["judge=static"]),
                        RejudgeOptions(label="again", judge_repeats=2, report=False)))
    out["big"] = replicate_run(out["a"], root / "2026-01-02" / "run-big", 120, seed=3)
    return out


@pytest.fixture(scope="session")
def run_ids(runs: dict[str, Path]) -> dict[str, str]:
    from mmtsb.view.links import run_id

    return {k: run_id(v) for k, v in runs.items()}


@pytest.fixture(scope="session")
def viewer(runs: dict[str, Path]):
    """The viewer over the four runs, served from this process; yields its base URL."""
    from mmtsb.view.runs import RunCatalog
    from mmtsb.view.server import BackgroundViewer

    with BackgroundViewer(RunCatalog.from_paths(list(runs.values()))) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module, closed when the module's tests end: playwright's sync API keeps an event
    loop running in this thread while it is open, and other tests of this process call asyncio.run()."""
    with chromium() as context:
        yield context


@pytest.fixture
def page(browser):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
