"""Which code produced a run: the git commit of the mmtsb checkout and whether it had uncommitted changes.

Recorded in every run folder (``provenance.json``: one entry per execution, since a resumed run may run newer
code) and in every results row (``code_commit``, ``code_dirty``), so a number can always be traced to the code
that computed it. Outside a git checkout (an installed wheel) the commit is null and the package version tells.
"""

from __future__ import annotations

import functools
import json
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

PROVENANCE_FILE = "provenance.json"


@functools.cache
def code_provenance() -> dict[str, Any]:
    """``{"code_commit", "code_dirty", "mmtsb_version"}`` of the running code (computed once per process)."""
    source = Path(__file__).resolve().parents[2]
    commit = _git(source, "rev-parse", "HEAD")
    status = _git(source, "status", "--porcelain", "--untracked-files=no") if commit else None
    try:
        version = metadata.version("mmtsb")
    except metadata.PackageNotFoundError:
        version = None
    return {"code_commit": commit, "code_dirty": None if commit is None else bool(status), "mmtsb_version": version}


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=10,
                             check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def record_provenance(run_dir: Path, config_hash: str) -> dict[str, Any]:
    """Append this execution's provenance to the run folder's ``provenance.json``; returns the entry."""
    entry = {**code_provenance(), "config_hash": config_hash, "started_at": time.time(),
             "python": sys.version.split()[0], "platform": platform.platform()}
    target = Path(run_dir) / PROVENANCE_FILE
    try:
        runs = json.loads(target.read_text(encoding="utf-8")).get("executions", [])
    except (OSError, ValueError, AttributeError):
        runs = []
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({**entry, "executions": [*runs, entry]}, indent=2) + "\n", encoding="utf-8")
    tmp.replace(target)
    return entry
