"""Helpers for the viewer tests: oracle runs on the starter scenarios, headless Chromium, screenshot checks."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.request import urlopen

from testkit import REPO

NOMINAL = REPO / "scenarios" / "nominal"
UI = REPO / "scenarios" / "ui"
#: headless Chromium as the tests launch it (root in CI and here: no sandbox; nothing reaches the network)
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: screenshots of the browser tests (test artifacts): MMTSB_TEST_ARTIFACTS, else outputs/test-artifacts/viewer
ARTIFACTS = Path(os.environ.get("MMTSB_TEST_ARTIFACTS") or REPO / "outputs" / "test-artifacts") / "viewer"


def oracle_run(run_dir: Path, scenarios: list[Path], *, interface: str = "code_exec", ui: bool = False) -> Path:
    """Play ``scenarios`` with the oracle, the scripted user and the static judges, in this process."""
    from mmtsb.protocol.episode_config import EpisodeConfig
    from mmtsb.runner.execute import execute_run
    from mmtsb.runner.settings import RunnerSettings, RunSettings

    cfg = EpisodeConfig()
    cfg.interface, cfg.ui = interface, ui
    execute_run(RunSettings(run_dir=run_dir, scenarios=scenarios, episode=cfg, runner=RunnerSettings(kind="inprocess"),
                            resolved_config={"run": str(run_dir), "interface": interface, "ui": ui},
                            dataset="ui" if ui else "nominal"), progress=False)
    return run_dir


def chromium_path() -> str:
    """Debian's chromium (``make install`` installs it), or MMTSB_CHROMIUM."""
    path = os.environ.get("MMTSB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).is_file():
        raise RuntimeError(f"no Chromium at {path}: run `make install` (installs Debian's chromium package) "
                           "or set MMTSB_CHROMIUM to a Chromium executable")
    return path


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser context (system Chromium through playwright; no browser is downloaded)."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="mmtsb_chromium_")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS,
                viewport={"width": 1400, "height": 1000})
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def open_route(page: Any, url: str) -> None:
    """Go to a viewer URL (``.../#/route``) and wait until the route's page is drawn."""
    page.goto(url)
    page.wait_for_function("document.body.dataset.route === (location.hash || '#/')", timeout=30_000)
    errors = page.locator("#page-error")
    assert errors.count() == 0, errors.inner_text()


def wait_route(page: Any) -> None:
    page.wait_for_function("document.body.dataset.route === (location.hash || '#/')", timeout=30_000)


def screenshot(page: Any, name: str, selector: str | None = None) -> Path:
    """Save a screenshot (of the page, or of one element) as a test artifact and check it shows something:
    a real PNG of the element's size, not a blank area."""
    from PIL import Image

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if selector:
        page.locator(selector).first.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=True)
    with Image.open(path) as img:
        assert img.format == "PNG" and img.width > 50 and img.height > 50, (path, img.size)
        colors = img.convert("RGB").resize((200, 200)).getcolors(maxcolors=200 * 200)
        assert colors is not None and len(colors) > 20, f"{path} looks blank ({len(colors or [])} colours)"
    return path


def images_loaded(page: Any, selector: str) -> list[int]:
    """naturalWidth of every image matching ``selector``, once each has finished loading."""
    page.wait_for_function(f"[...document.querySelectorAll({json.dumps(selector)})].every(i => i.complete)",
                           timeout=30_000)
    return page.eval_on_selector_all(selector, "els => els.map(e => e.naturalWidth)")


def get_json(url: str) -> Any:
    with urlopen(url, timeout=30) as r:
        return json.loads(r.read())
