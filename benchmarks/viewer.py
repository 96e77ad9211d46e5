"""How fast `mmtsb view` opens a large run and pages through it.

Builds a run of N episodes (default 10,000) from a real oracle run on the starter scenarios
(mmtsb.testing.synthetic_run: real rows with varied design axes and verdicts, trajectories hard-linked), then
measures, printing each figure:

- opening the run in the viewer's catalog (its rows read and its episode index built): cold (every part file
  read: a run written before the cache existed), warm (the rows cache, RUN_DIR/.view_cache/rows.json, read
  instead), and right after `mmtsb run` (whose end primes the cache from the rows it reads anyway);
- the served API: runs.json, the index (and its size), an episode page's data (median of 20 episodes);
- in headless Chromium (when found): the run's first page drawn (index fetched, parsed, filtered, 50 rows
  drawn), paging through 20 pages (median per page), a filter applied, an episode page drawn.

    .venv/bin/python benchmarks/viewer.py [--episodes 10000] [--json] [--no-browser] [--keep DIR]

The last line is JSON with every figure (seconds).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import urlopen

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mmtsb.protocol.episode_config import EpisodeConfig  # noqa: E402
from mmtsb.runner.execute import execute_run  # noqa: E402
from mmtsb.runner.settings import RunnerSettings, RunSettings  # noqa: E402
from mmtsb.testing.synthetic_run import replicate_run  # noqa: E402
from mmtsb.runner.results import RunLayout  # noqa: E402
from mmtsb.view.rowcache import CACHE_DIR, prime_rows_cache  # noqa: E402
from mmtsb.view.runs import RunCatalog  # noqa: E402
from mmtsb.view.server import BackgroundViewer  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def timed(fn, *args):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def get(url: str) -> bytes:
    with urlopen(url, timeout=300) as r:
        return r.read()


def build(root: Path, n: int) -> Path:
    template = root / "template"
    scenarios = sorted((REPO / "scenarios" / "nominal").glob("*.json"))
    execute_run(RunSettings(run_dir=template, scenarios=scenarios, episode=EpisodeConfig(),
                            runner=RunnerSettings(kind="inprocess"), resolved_config={"bench": "viewer"}),
                progress=False)
    return replicate_run(template, root / "big" / "run", n, seed=1)


def open_catalog(run_dir: Path) -> float:
    def go() -> int:
        entry = next(iter(RunCatalog.from_paths([run_dir]).runs.values()))
        entry.summary()
        return len(entry.index()["rows"])

    seconds, _ = timed(go)
    return seconds


def browser_figures(base: str, rid: str, n_episodes: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    drawn = "document.body.dataset.route === (location.hash || '#/')"
    out: dict[str, float] = {}
    profile = tempfile.mkdtemp(prefix="mmtsb_bench_chromium_")
    try:
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(profile, executable_path=shutil.which("chromium") or
                                                       "/usr/bin/chromium", headless=True, args=CHROMIUM_FLAGS)
            page = ctx.new_page()
            t0 = time.perf_counter()
            page.goto(base + f"#/run/{rid}")
            page.wait_for_function(drawn, timeout=300_000)
            out["browser_open_run_s"] = time.perf_counter() - t0
            pages = []
            for _ in range(min(20, (n_episodes - 1) // 50)):
                t0 = time.perf_counter()
                page.locator("#next-page").click()
                page.wait_for_function(drawn, timeout=60_000)
                pages.append(time.perf_counter() - t0)
            out["browser_page_median_s"] = statistics.median(pages)
            out["browser_page_max_s"] = max(pages)
            t0 = time.perf_counter()
            page.locator("select[name=flow]").select_option("compare")
            page.wait_for_function(drawn, timeout=60_000)
            out["browser_filter_s"] = time.perf_counter() - t0
            eid = page.locator("#episode-list tbody tr").first.get_attribute("data-episode")
            t0 = time.perf_counter()
            page.goto(base + f"#/run/{rid}/episode/{eid}")
            page.wait_for_function(drawn, timeout=60_000)
            out["browser_episode_s"] = time.perf_counter() - t0
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=10_000)
    ap.add_argument("--json", action="store_true", help="print only the JSON line")
    ap.add_argument("--no-browser", action="store_true", help="skip the headless Chromium figures")
    ap.add_argument("--keep", type=Path, help="build the run in this folder and keep it")
    args = ap.parse_args()
    say = (lambda *a: None) if args.json else print
    root = args.keep or Path(tempfile.mkdtemp(prefix="mmtsb_bench_viewer_"))
    figures: dict[str, float | int] = {"episodes": args.episodes}
    try:
        figures["build_s"], run_dir = timed(build, root, args.episodes)
        say(f"built a run of {args.episodes} episodes in {figures['build_s']:.1f} s ({run_dir})")
        shutil.rmtree(run_dir / CACHE_DIR, ignore_errors=True)
        figures["open_cold_s"] = open_catalog(run_dir)
        say(f"open the run, cold (every part file read): {figures['open_cold_s']:.2f} s")
        figures["open_warm_s"] = open_catalog(run_dir)
        say(f"open the run, warm (rows cache): {figures['open_warm_s']:.2f} s")
        shutil.rmtree(run_dir / CACHE_DIR, ignore_errors=True)
        prime_rows_cache(run_dir, RunLayout(run_dir).read_rows())   # what execute_run does as a run ends
        figures["open_after_run_s"] = open_catalog(run_dir)
        say(f"open the run right after `mmtsb run` (its end primed the cache): {figures['open_after_run_s']:.2f} s")
        catalog = RunCatalog.from_paths([run_dir])
        rid = next(iter(catalog.runs))
        with BackgroundViewer(catalog) as base:
            figures["api_runs_s"], _ = timed(get, base + "api/runs.json")
            figures["api_index_s"], body = timed(get, base + f"api/runs/{rid}/index.json")
            figures["index_bytes"] = len(body)
            ids = [r[0] for r in json.loads(body)["rows"]]
            step = max(1, len(ids) // 20)
            episode_times = [timed(get, base + f"api/runs/{rid}/episodes/{e}.json")[0] for e in ids[::step][:20]]
            figures["api_episode_median_s"] = statistics.median(episode_times)
            say(f"API: runs.json {figures['api_runs_s']:.2f} s, index {figures['api_index_s']:.2f} s "
                f"({figures['index_bytes'] / 1e6:.1f} MB), an episode {figures['api_episode_median_s'] * 1000:.0f} ms")
            if not args.no_browser:
                figures.update(browser_figures(base, rid, args.episodes))
                say(f"Chromium: run page drawn {figures['browser_open_run_s']:.2f} s, next page "
                    f"{figures['browser_page_median_s'] * 1000:.0f} ms median ({figures['browser_page_max_s'] * 1000:.0f} "
                    f"max), a filter {figures['browser_filter_s'] * 1000:.0f} ms, an episode page "
                    f"{figures['browser_episode_s'] * 1000:.0f} ms")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()}))


if __name__ == "__main__":
    main()
