"""The viewer's rows cache: primed by the runner at the end of a run, read instead of every part file, and
never wrong: a part added, rewritten or removed since is read again; no cache at all still gives the rows."""

from __future__ import annotations

import shutil
from pathlib import Path

from mmtsb.report.data import RunData
from mmtsb.runner.results import RunLayout
from mmtsb.view.rowcache import CACHE_DIR, CACHE_FILE, read_rows_cached


def _facts(rows: list[dict]) -> list[tuple]:
    return [(r["episode_id"], r["scenario"], r["agent_pass"], r["entity_f1"], r["end_reason"]) for r in rows]


def test_a_finished_run_has_its_rows_cache_and_it_gives_the_same_rows(runs):
    assert (runs["a"] / CACHE_DIR / CACHE_FILE).is_file()          # primed by execute_run as the run ended
    assert _facts(read_rows_cached(runs["a"])) == _facts(RunData.load(runs["a"]).rows)


def test_parts_changed_added_or_removed_since_are_read_again(runs, tmp_path: Path):
    run = tmp_path / "run"
    shutil.copytree(runs["a"], run)
    before = read_rows_cached(run)
    layout = RunLayout(run)
    first, second = before[0], before[1]
    layout.write_row(first["episode_id"], {**first, "agent_pass": False, "end_reason": "max_steps"})
    layout.part_path(second["episode_id"]).unlink()
    layout.write_row("extra__r0__x", {**second, "episode_id": "extra__r0__x"})
    after = {r["episode_id"]: r for r in read_rows_cached(run)}
    assert after[first["episode_id"]]["agent_pass"] is False and after[first["episode_id"]]["end_reason"] == "max_steps"
    assert second["episode_id"] not in after and "extra__r0__x" in after
    assert _facts(read_rows_cached(run)) == _facts(RunData.load(run).rows)


def test_without_a_usable_cache_the_rows_are_still_read(runs, tmp_path: Path):
    run = tmp_path / "run"
    shutil.copytree(runs["a"], run)
    shutil.rmtree(run / CACHE_DIR)
    (run / CACHE_DIR).write_text("not a folder")                     # the cache cannot be written here
    assert _facts(read_rows_cached(run)) == _facts(RunData.load(run).rows)
    (run / CACHE_DIR).unlink()
    (run / CACHE_DIR).mkdir()
    (run / CACHE_DIR / CACHE_FILE).write_text("{broken")             # a damaged cache is ignored and rewritten
    assert _facts(read_rows_cached(run)) == _facts(RunData.load(run).rows)
    assert (run / CACHE_DIR / CACHE_FILE).read_text().startswith('{"version":1')
