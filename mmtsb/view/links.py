"""Viewer addresses of runs and episodes: what report.md links to, and what the front end's routes are.

A run's id is its folder's last two path parts joined by ``_`` (Hydra names run folders by date and time, so
``outputs/2026-05-01/12-00-00`` is ``2026-05-01_12-00-00``), cleaned to URL-safe characters: it survives
moving the folder, and the report can name it without asking a running viewer. Two folders with the same id
in one viewer get ``-2``, ``-3``... in the order given.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

DEFAULT_PORT = 8765
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def run_id(run_dir: str | Path) -> str:
    """The viewer's id of a run folder (see the module docstring)."""
    parts = Path(run_dir).resolve().parts[-2:]
    slug = _UNSAFE.sub("-", "_".join(p for p in parts if p not in ("/", ""))).strip("-")
    return slug or "run"


def run_url(run_dir: str | Path, port: int = DEFAULT_PORT) -> str:
    """Where ``mmtsb view RUN_DIR`` (default port) shows the run's episode list."""
    return f"http://127.0.0.1:{port}/#/run/{quote(run_id(run_dir))}"


def episode_url(run_dir: str | Path, episode_id: str, port: int = DEFAULT_PORT) -> str:
    """Where ``mmtsb view RUN_DIR`` (default port) shows one episode."""
    return f"{run_url(run_dir, port)}/episode/{quote(str(episode_id), safe='')}"
