"""``mmtsb data fetch reference`` against a fake hub (through HF_ENDPOINT) and a plain HTTP server on
127.0.0.1, with tiny sources laid out as the real ones: the reference's filtering, naming and re-encoding,
the checksum manifest, a second run that verifies and skips, resumed and retried downloads, per-source
failures, and ``dataset=reference`` playing the fetched files with images=require and the default image root."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from fetchkit import (
    EXPECTED_DEFAULT, EXTRA_WITH_ALL, HIERTEXT_ARCHIVE, NEVER, SCENARIOS, copy_scenarios,
    fetch_args, fetch_env, scenario_archive,
)

from mmtsb.config.paths import find_project_root
from mmtsb.data.files import sha256_file
from mmtsb.testing import FakeLLMServer

ROOT = find_project_root()
DEFAULT_DEST = Path("data/ml-mmtoolsandbox")


def mmtsb(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, dict, str]:
    done = subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **env})
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    return done.returncode, (json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}), done.stderr


@pytest.fixture(scope="module")
def first(sources, tmp_path_factory):
    """The default fetch, run once from a fresh working directory with the default --dest."""
    hub, files = sources
    cwd = tmp_path_factory.mktemp("project")
    env = fetch_env(hub, tmp_path_factory.mktemp("hf"))
    code, report, err = mmtsb(fetch_args(hub, files, None), cwd, env)
    assert code == 0, (report, err[-3000:])
    return cwd, env, report


def test_default_fetch_saves_the_named_images_as_the_reference_names_and_encodes_them(sources, first):
    hub, files = sources
    cwd, _, report = first
    dest = cwd / DEFAULT_DEST
    assert report["ok"] and report["scenario_files"] == 3 and report["dest"] == str(DEFAULT_DEST)
    for rel, data in SCENARIOS.items():
        assert json.loads((dest / rel).read_text()) == data
    assert not (dest / "scenarios" / "README.md").exists()
    for rel, data in EXPECTED_DEFAULT.items():
        assert (dest / "images" / rel).read_bytes() == data, rel
    for rel in EXTRA_WITH_ALL + NEVER:
        assert not (dest / "images" / rel).exists(), rel
    label = json.loads((dest / "images" / "worldvqa/labels/3.json").read_text())
    assert label == {"index": "3", "question": "q3", "answer": "a3", "difficulty": "easy", "category": "place"}
    # only the shards reading had to reach: the validation split is never downloaded
    assert not hub.gets("validation-")
    assert hub.gets("DocVQA/test-00001-of-00002.parquet")
    # the manifest: every file with its checksum and size, the hub commit each source was read at
    manifest = json.loads((dest / "manifest.json").read_text())
    for rel in [*SCENARIOS, *(f"images/{r}" for r in EXPECTED_DEFAULT)]:
        entry = manifest["files"][rel]
        assert entry["sha256"] == sha256_file(dest / rel) and entry["size"] == (dest / rel).stat().st_size
    assert manifest["sources"]["docvqa"]["commit"] == hub.commit("lmms-lab/DocVQA")
    assert manifest["sources"]["hiertext"]["archive_sha256"] == sha256_file(dest / ".cache/hiertext/test.tgz")
    index = [json.loads(line) for line in (dest / "images/all_images.jsonl").read_text().splitlines()]
    assert len(index) == len(EXPECTED_DEFAULT)
    worldvqa = next(e for e in index if e["dataset_type"] == "worldvqa")
    assert worldvqa["meta_data"]["answer"] == "a3" and Path(worldvqa["image_paths"][0]).is_file()


def test_a_second_run_verifies_every_file_and_downloads_nothing(sources, first):
    hub, files = sources
    cwd, env, _ = first
    before = (len(hub.requests), len(files.requests))
    code, report, err = mmtsb(fetch_args(hub, files, None), cwd, env)
    assert code == 0, err[-3000:]
    assert (len(hub.requests), len(files.requests)) == before
    assert all(s["skipped"] and s["saved"] == 0 for s in report["sources"].values()), report
    assert report["sources"]["docvqa"]["verified"] == 2


def test_an_altered_image_is_noticed_and_fetched_again_alone(sources, first, tmp_path):
    hub, files = sources
    cwd, env, _ = first
    dest = cwd / DEFAULT_DEST
    damaged = dest / "images" / "docvqa/images/13.jpg"
    damaged.write_bytes(b"not the image")
    code, report, err = mmtsb(fetch_args(hub, files, None), cwd, env)
    assert code == 0, err[-3000:]
    assert damaged.read_bytes() == EXPECTED_DEFAULT["docvqa/images/13.jpg"]
    assert report["sources"]["docvqa"]["saved"] == 1 and report["sources"]["docvqa"]["verified"] == 1
    assert all(s["skipped"] for k, s in report["sources"].items() if k != "docvqa"), report


def test_the_fetched_benchmark_runs_with_images_require_and_the_default_image_root(first, tmp_path):
    cwd, _, _ = first
    run_dir = tmp_path / "run"
    args = ["dataset=reference", "images=require", "dataset.glob=nominal/*.json", "dataset.limit=1",
            "model=gpt_5_4_none", "model.model=openai/fake-model", "model.api_key_env=null", "model.max_retries=1",
            "interface=tool_use", "runner=inprocess", f"hydra.run.dir={run_dir}"]
    with FakeLLMServer(default="Saved the note.") as llm:
        code = f"import sys; sys.argv = ['mmtsb run', *{[*args, f'model.api_base={llm.base_url}']!r}]; " \
               "from mmtsb.config.app import main; sys.exit(main())"
        done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "HYDRA_FULL_ERROR": "0"})
        requests = llm.requests
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = pq.read_table(run_dir / "episodes.parquet").to_pylist()
    assert row["scenario"] == "scenario_0001" and row["failure_class"] is None, row.get("error")
    first_prompt = json.dumps(requests[0]["messages"])
    assert first_prompt.count("data:image/") == len(SCENARIOS["scenarios/nominal/scenario_0001.json"]["image_paths"])


def test_interrupted_and_failing_downloads_are_resumed_and_retried(sources, tmp_path):
    hub, files = sources
    files.fail_next(HIERTEXT_ARCHIVE, "503", "cut", "cut")
    hub.fail_next_file("likaixin/ScreenSpot-Pro", "images/word_mac/screenshot_1.png", "503")
    dest = tmp_path / "bench"
    start = len(files.requests)
    code, report, err = mmtsb(fetch_args(hub, files, dest, "--sources", "scenarios", "hiertext", "screenspotpro"),
                              tmp_path, fetch_env(hub, tmp_path / "hf"))
    assert code == 0, (report, err[-3000:])
    ranges = [r for m, p, r in files.requests[start:] if p == HIERTEXT_ARCHIVE and m == "GET"]
    # 503, then a body cut half-way, then the rest asked for from where the part file ends (cut again), then
    # the rest of the rest
    assert len(ranges) == 4 and ranges[:2] == [None, None], ranges
    offsets = [int(r.split("=")[1].rstrip("-")) for r in ranges[2:]]
    assert 0 < offsets[0] < offsets[1], ranges
    assert (dest / "images/hiertext/images/test/aa11.jpg").read_bytes() == EXPECTED_DEFAULT[
        "hiertext/images/test/aa11.jpg"]
    assert (dest / "images/screenspotpro/images/word_mac/screenshot_1.png").is_file()
    assert set(report["sources"]) == {"scenarios", "hiertext", "screenspotpro"}


def test_all_fetches_every_image_with_the_reference_filtering_and_then_skips(sources, tmp_path):
    hub, files = sources
    dest = tmp_path / "bench"
    env = fetch_env(hub, tmp_path / "hf")
    code, report, err = mmtsb(fetch_args(hub, files, dest, "--all"), tmp_path, env)
    assert code == 0, (report, err[-3000:])
    for rel in [*EXPECTED_DEFAULT, *EXTRA_WITH_ALL]:
        assert (dest / "images" / rel).is_file(), rel
    for rel in NEVER:
        assert not (dest / "images" / rel).exists(), rel
    assert (dest / "images/omnidocbench/images/000002.jpg").read_bytes() != (
        dest / "images/omnidocbench/images/000001.jpg").read_bytes()
    before = len(hub.requests)
    code, report, _ = mmtsb(fetch_args(hub, files, dest, "--all"), tmp_path, env)
    assert code == 0 and len(hub.requests) == before
    assert all(s["skipped"] for s in report["sources"].values()), report


def test_sources_are_chosen_and_a_failing_source_does_not_stop_the_others(sources, tmp_path):
    hub, files = sources
    scenarios = copy_scenarios()
    scenarios["scenarios/nominal/scenario_0002.json"]["image_paths"] += [
        "docvqa/images/999.jpg", "elsewhere/x.jpg", "screenspotpro/images/word_mac/gone.png"]
    files.files["/other/main.tar.gz"] = scenario_archive(scenarios)
    dest = tmp_path / "bench"
    args = fetch_args(hub, files, dest, "--sources", "scenarios", "docvqa", "worldvqa", "screenspotpro")
    args[args.index("--scenarios-url") + 1] = files.url("/other/main.tar.gz")
    saved = hub.datasets.pop("moonshotai/WorldVQA")
    try:
        code, report, err = mmtsb(args, tmp_path, fetch_env(hub, tmp_path / "hf"))
    finally:
        hub.add_dataset("moonshotai/WorldVQA", saved)
    assert code == 1, err[-3000:]
    assert set(report["sources"]) == {"scenarios", "docvqa", "worldvqa", "screenspotpro"}
    screens = report["sources"]["screenspotpro"]
    assert screens["saved"] == 1 and screens["missing"] == ["screenspotpro/images/word_mac/gone.png"]
    assert "likaixin/ScreenSpot-Pro/images/word_mac/gone.png: " in screens["error"] and "not found" in screens["error"]
    docvqa, worldvqa = report["sources"]["docvqa"], report["sources"]["worldvqa"]
    assert docvqa["saved"] == 2 and docvqa["missing"] == ["docvqa/images/999.jpg"] and not docvqa["ok"]
    assert "moonshotai/WorldVQA" in worldvqa["error"] and "not found" in worldvqa["error"]
    assert report["unknown_images"] == ["scenario_0002.json: elsewhere/x.jpg"]
    assert (dest / "images/docvqa/images/12.jpg").is_file() and not (dest / "images/chartmuseum").exists()


def test_bad_input_is_one_line_naming_the_problem(sources, tmp_path):
    hub, files = sources
    dest = tmp_path / "bench"
    dest.mkdir()
    (dest / "manifest.json").write_text("{broken")
    code, _, err = mmtsb(fetch_args(hub, files, dest), tmp_path, fetch_env(hub, tmp_path / "hf"))
    assert code == 2 and "manifest.json: cannot read the checksum manifest" in err
    files.files["/not-an-archive"] = b"plain text"
    args = fetch_args(hub, files, tmp_path / "b2", "--sources", "scenarios")
    args[args.index("--scenarios-url") + 1] = files.url("/not-an-archive")
    code, report, _ = mmtsb(args, tmp_path, fetch_env(hub, tmp_path / "hf"))
    assert code == 1 and "not a readable tar or zip archive" in report["sources"]["scenarios"]["error"]


def test_a_terminal_shows_a_bar_per_source_and_for_large_downloads(sources, tmp_path):
    """Without --json and with stderr on a terminal (a pseudo-terminal here), the fetch draws progress bars:
    files per image source and bytes of the archive downloads."""
    import pty
    import threading

    hub, files = sources
    args = [a for a in fetch_args(hub, files, tmp_path / "bench", "--sources", "scenarios", "hiertext", "docvqa")
            if a != "--json"]
    leader, follower = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:     # the terminal's other end is closed: everything has been read
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = {**os.environ, **fetch_env(hub, tmp_path / "hf"), "COLUMNS": "160", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    done = subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                          stderr=follower, text=True, timeout=300, env=env)
    os.close(follower)
    reader.join(timeout=30)
    os.close(leader)
    shown = b"".join(chunks).decode(errors="replace")
    assert done.returncode == 0, (done.stdout, shown[-3000:])
    assert "Traceback" not in shown
    for bar in ("scenarios: repository archive", "hiertext: test.tgz", "hiertext: images", "docvqa: images"):
        assert bar in shown, (bar, shown[-3000:])
    assert "2/2" in shown     # docvqa's two wanted images, counted
    assert "ok   docvqa" in done.stdout and "wanted 2, verified 0, saved 2" in done.stdout, done.stdout
