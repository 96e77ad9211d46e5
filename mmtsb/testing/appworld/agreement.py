"""Run the same call sequences on AppWorld's apps and ours, and measure how often they agree.

AppWorld runs in its own virtual environment (its licence keeps its code out of ours, and its pins clash
with ours): :func:`appworld_python` finds that interpreter, :func:`run_appworld` feeds it the plan over a pipe
and reads its results live. Nothing it answers is stored. Agreement is counted per AppWorld app:

* outcome: the share of calls where both sides succeed or both fail;
* table change: among calls where either side changed something, the share where both changed the same tables
  (AppWorld's table names mapped to ours by :data:`TABLE_NAMES`).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.testing.appworld import ours
from mmtsb.testing.appworld.plan import Sequence, to_plan

#: where the AppWorld interpreter is looked for when MMTSB_APPWORLD_PYTHON is not set
DEFAULT_APPWORLD_PYTHON = "/work/appworld-venv/bin/python"
SIDE_SCRIPT = Path(__file__).with_name("appworld_side.py")
#: AppWorld table -> ours, where the names differ
TABLE_NAMES = {"todoist.attachments": "todoist.task_comment_attachments", "amazon.product_returns": "amazon.returns",
               "amazon.promos": "amazon.promo_codes", "spotify.user_artist_followings": "spotify.artist_followers",
               "spotify.user_downloaded_songs": "spotify.downloaded_songs"}


def appworld_python() -> str | None:
    """The AppWorld virtual environment's interpreter (``MMTSB_APPWORLD_PYTHON``, else the default path), or
    None when it is not there or has no unpacked apps (``appworld install`` not run)."""
    path = os.environ.get("MMTSB_APPWORLD_PYTHON") or DEFAULT_APPWORLD_PYTHON
    if not Path(path).exists():
        return None
    probe = subprocess.run([path, "-c", "import appworld.apps.simple_note.apis"], capture_output=True, timeout=120)
    return path if probe.returncode == 0 else None


def run_appworld(python: str, sequences: list[Sequence], *, timeout: float = 1800) -> list[dict[str, Any]]:
    """Play ``sequences`` on AppWorld's apps in the interpreter ``python``; one result per step."""
    done = subprocess.run([python, str(SIDE_SCRIPT)], input=json.dumps(to_plan(sequences)), capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"the AppWorld side ({python} {SIDE_SCRIPT.name}) failed with exit code "
                           f"{done.returncode}:\n{done.stderr[-4000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


@dataclass
class AppAgreement:
    """Counts for one app."""

    calls: int = 0
    same_outcome: int = 0
    changing: int = 0
    same_tables: int = 0
    disagreements: list[str] = field(default_factory=list)

    @property
    def outcome(self) -> float:
        return self.same_outcome / self.calls if self.calls else 1.0

    @property
    def tables(self) -> float:
        return self.same_tables / self.changing if self.changing else 1.0


@dataclass
class Agreement:
    apps: dict[str, AppAgreement]
    harness_errors: list[str]

    def table(self) -> str:
        """A Markdown table of the agreement per app."""
        lines = ["| app | calls | outcome agreement | calls changing tables | table-change agreement |",
                 "|---|---:|---:|---:|---:|"]
        for name, a in sorted(self.apps.items()):
            lines.append(f"| {name} | {a.calls} | {a.outcome:.1%} | {a.changing} | {a.tables:.1%} |")
        return "\n".join(lines)


def compare(sequences: list[Sequence], theirs: list[dict[str, Any]], mine: list[dict[str, Any]]) -> Agreement:
    """Agreement per app of two sides' results for ``sequences`` (results in step order)."""
    steps = [(q, i, s) for q in sequences for i, s in enumerate(q.steps)]
    theirs_at = {(r["sequence"], r["index"]): r for r in theirs}
    mine_at = {(r["sequence"], r["index"]): r for r in mine}
    apps: dict[str, AppAgreement] = defaultdict(AppAgreement)
    errors: list[str] = []
    for q, i, s in steps:
        a, b = theirs_at.get((q.name, i)), mine_at.get((q.name, i))
        where = f"{q.name}#{i} {s.tool}"
        if s.tool is None:
            continue
        if a is None or b is None or "error" in a:
            errors.append(f"{where}: {(a or {}).get('error', 'no result')}")
            continue
        agg = apps[s.app]
        agg.calls += 1
        if a["ok"] == b["ok"]:
            agg.same_outcome += 1
        else:
            agg.disagreements.append(f"{where}: AppWorld {'ok' if a['ok'] else 'failed'} ({a.get('message')!r}), "
                                     f"ours {'ok' if b['ok'] else 'failed'} ({b.get('message')!r})")
        theirs_changed = {TABLE_NAMES.get(t, t) for t in a["changed"]}
        mine_changed = set(b["changed"])
        if theirs_changed or mine_changed:
            agg.changing += 1
            if theirs_changed == mine_changed:
                agg.same_tables += 1
            else:
                agg.disagreements.append(f"{where}: tables AppWorld {sorted(theirs_changed)} ours "
                                         f"{sorted(mine_changed)}")
    return Agreement(dict(apps), errors)


def measure(sequences: list[Sequence], python: str) -> Agreement:
    """Play ``sequences`` on both sides and compare them."""
    return compare(sequences, run_appworld(python, sequences), ours.play(sequences))
