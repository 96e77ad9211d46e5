"""``mmtsb view --export DIR``: the viewer's pages as a static folder that opens from disk (``file://``).

Browsers refuse ``fetch`` on ``file://``, so every API answer the pages need is written as a script,
``data/<key>.js``, that hands its payload to ``MMTSB_DATA(key, payload)`` (the front end loads these instead of
``api/<key>.json`` when it runs from disk). Each run's images and figures are copied beside them
(``runs/<run>/images/``, ``runs/<run>/figures/``), so the folder can be zipped and shared as is. Labels made
on the annotation page of an export stay in that browser and are downloaded as the annotator's CSV file.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mmtsb.jsonio import dumps
from mmtsb.report.data import RunDataError
from mmtsb.runner.results import IMAGES_DIR
from mmtsb.view.episode import episode_payload, judge_requests_payload
from mmtsb.view.judge_view import images_setting
from mmtsb.view.runs import RunCatalog, RunEntry
from mmtsb.view.server import STATIC_DIR

log = logging.getLogger("mmtsb.view")
DATA_DIR = "data"
MARKER = ".mmtsb_view_export"


class ExportError(ValueError):
    """The export folder cannot be used (names the folder and why)."""


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise ExportError(f"{out}: not empty and not an earlier export; choose a new or empty folder")


def write_data(out: Path, key: str, payload: Any) -> Path:
    """``data/<key>.js`` holding ``MMTSB_DATA(key, payload)``."""
    target = out / DATA_DIR / f"{key}.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"MMTSB_DATA({json.dumps(key)}, {dumps(payload)});\n", encoding="utf-8")
    return target


def _copy_folder(src: Path, dst: Path) -> int:
    """Copy the files of ``src`` into ``dst`` (hard links where the file system allows); returns the count."""
    if not src.is_dir():
        return 0
    dst.mkdir(parents=True, exist_ok=True)
    n = 0
    for f in src.iterdir():
        if not f.is_file() or f.name.startswith("."):
            continue
        target = dst / f.name
        if not target.exists():
            try:
                os.link(f, target)
            except OSError:
                shutil.copy2(f, target)
        n += 1
    return n


def _export_run(out: Path, entry: RunEntry, progress: Callable[[str], None]) -> dict[str, int]:
    index = entry.index()
    write_data(out, f"runs/{entry.run_id}/index", index)
    ids = [row[0] for row in index["rows"]]
    images_where = images_setting(entry.run_dir)   # the run's config, read once for all its episodes
    for n, eid in enumerate(ids, start=1):
        write_data(out, f"runs/{entry.run_id}/episodes/{eid}", episode_payload(entry, eid))
        write_data(out, f"runs/{entry.run_id}/judge_requests/{eid}", judge_requests_payload(entry, eid, images_where))
        if n % 500 == 0:
            progress(f"{entry.run_id}: {n}/{len(ids)} episodes written")
    images = _copy_folder(entry.run_dir / IMAGES_DIR, out / "runs" / entry.run_id / IMAGES_DIR)
    figures = _copy_folder(entry.run_dir / "figures", out / "runs" / entry.run_id / "figures")
    return {"episodes": len(ids), "images": images, "figures": figures}


def export_static(catalog: RunCatalog, out: Path, progress: Callable[[str], None] = log.info) -> dict[str, Any]:
    """Write the static copy of ``catalog``'s runs into ``out``; returns what was written per run."""
    out = Path(out)
    _check_target(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by mmtsb view --export\n", encoding="utf-8")
    shutil.copytree(STATIC_DIR, out / "static", dirs_exist_ok=True)
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    (out / "index.html").write_text(page.replace('<html lang="en">', '<html lang="en" data-static="1">', 1),
                                    encoding="utf-8")
    summaries = catalog.summaries()
    write_data(out, "runs", summaries)
    written: dict[str, Any] = {}
    for rid, entry in catalog.runs.items():
        try:
            written[rid] = _export_run(out, entry, progress)
        except RunDataError as e:
            written[rid] = {"error": str(e)}
            log.warning("run %s not exported: %s", rid, e)
    return {"out": str(out), "index": str(out / "index.html"), "runs": written}
