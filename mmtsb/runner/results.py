"""The results layout of a run folder, written as episodes finish and read back for summaries and resume.

- ``episodes.parquet/<episode_id>.parquet``: one single-row part file per finished episode (a parquet
  dataset directory; ``pyarrow.parquet.read_table(dir)`` reads it all);
- ``trajectories/<episode_id>.json``: the episode's trajectory, written BEFORE its part file;
- ``images/<sha256>.<ext>``: every image of the run's episodes (scenario images, crops, plots, rendered UI
  screens), content-addressed: a trajectory names its images by hash (``images[].sha256``), and each distinct
  image is written once, before the trajectory that names it (:func:`image_name`).

Every file is written to a hidden temp name (``.tmp_*``, ignored by pyarrow's dataset discovery) and renamed
into place, so a reader (or a resumed run) never sees half a file, even after ``kill -9``. An episode is done
exactly when its part file exists: that is the resume rule.

Nothing secret is written: every string of a row and the trajectory text pass through
:func:`mmtsb.config.secrets.scrub_text` (URL userinfo such as ``http://user:password@host`` always; the run's
own secret values when the layout is given them), so an error message that quotes an endpoint or a key never
reaches the results, the report built from them or W&B.

Part files share one arrow schema (:func:`row_schema`), so the dataset reads without type conflicts whether a
column is null in one episode and set in the next.
"""

from __future__ import annotations

import functools
import json
import os
import uuid
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from mmtsb.config.secrets import scrub_text
from mmtsb.protocol import registry
from mmtsb.runner.rows import role_keys

EPISODES_DIR = "episodes.parquet"
TRAJECTORIES_DIR = "trajectories"
IMAGES_DIR = "images"
#: file extensions of saved images by MIME type (others: ``.bin``)
IMAGE_EXTENSIONS = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
                    "image/bmp": ".bmp", "image/tiff": ".tiff"}
SUMMARY_FILE = "summary.json"
TMP_PREFIX = ".tmp_"
PART_SUFFIX = ".parquet"
#: a one-row part needs no statistics, dictionary or compression (about 9 KB instead of 24 KB)
PART_OPTIONS: dict[str, Any] = {"compression": "none", "write_statistics": False, "store_schema": False,
                                "use_dictionary": False}

def image_name(sha256: str, mime_type: str | None) -> str:
    """The file name of a saved image in ``images/``: its hash and the extension of its MIME type."""
    return sha256 + IMAGE_EXTENSIONS.get(mime_type or "", ".bin")


def known_column_types() -> dict[str, pa.DataType]:
    """The fixed arrow type of every known results column (the judged parties' columns from the registry)."""
    return _known_column_types(tuple(registry.judged_parties()))


@functools.lru_cache(maxsize=8)
def _known_column_types(party_names: tuple[str, ...]) -> dict[str, pa.DataType]:
    parties = [registry.judged_parties()[name] for name in party_names]
    roles = role_keys()
    bools = {"infra_failure", "require_disambiguation", "code_dirty", *(f"{r}_cost_known" for r in roles),
             *(f"{p.name}_pass" for p in parties),
             *(p.column(c) for p in parties for c in p.criteria)}
    ints = {"unexpected_writes", "steps", "agent_steps", "rows", "num_images", "num_user_rounds", "repeat", "seed",
            "attempts",
            *(f"{r}_{k}" for r in roles for k in ("prompt_tokens", "completion_tokens", "total_tokens", "api_calls"))}
    floats = {"entity_f1", "entity_f1_micro", "entity_f1_macro", "entity_f1_reference", "duration_s",
              "invoked_tool_recall", "surfaced_tool_recall", "finished_at", *(f"{r}_cost_usd" for r in roles)}
    return {**dict.fromkeys(bools, pa.bool_()), **dict.fromkeys(ints, pa.int64()),
            **dict.fromkeys(floats, pa.float64())}


def column_type(name: str, value: Any, known: dict[str, pa.DataType] | None = None) -> pa.DataType:
    """The arrow type of a results column: fixed for every known column (``known``: :func:`known_column_types`,
    looked up once per row by the caller), else from the value (None: string)."""
    fixed = (known if known is not None else known_column_types()).get(name)
    if fixed is not None:
        return fixed
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    return pa.string()


def _cell(value: Any, typ: pa.DataType) -> Any:
    if value is None:
        return None
    if typ == pa.bool_():
        return bool(value)
    if typ == pa.int64():
        return int(value)
    if typ == pa.float64():
        return float(value)
    return value if isinstance(value, str) else json.dumps(value, default=str)


def row_schema(row: dict[str, Any]) -> pa.Schema:
    known = known_column_types()
    return pa.schema([pa.field(k, column_type(k, v, known)) for k, v in row.items()])


def row_table(row: dict[str, Any]) -> pa.Table:
    """One results row as a one-row arrow table with the canonical column types."""
    schema = row_schema(row)
    return pa.table({f.name: pa.array([_cell(row[f.name], f.type)], type=f.type) for f in schema}, schema=schema)


def scrub_row(row: dict[str, Any], secrets: tuple[str, ...] = ()) -> dict[str, Any]:
    """A copy of a results row whose strings (nested ones too) hold no URL userinfo and none of ``secrets``."""
    return {k: _scrubbed(v, secrets) for k, v in row.items()}


def _scrubbed(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        return scrub_text(value, secrets)
    if isinstance(value, dict):
        return {k: _scrubbed(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrubbed(v, secrets) for v in value]
    return value


class RunLayout:
    """Paths and atomic writers of one run folder. ``secrets``: the run's secret values
    (:func:`mmtsb.config.secrets.collect_secrets` of its settings), removed from every row and trajectory
    written; URL userinfo is removed in any case."""

    def __init__(self, run_dir: str | Path, secrets: tuple[str, ...] | list[str] = ()) -> None:
        self.run_dir = Path(run_dir)
        self.secrets = tuple(secrets)
        self.episodes_dir = self.run_dir / EPISODES_DIR
        self.trajectories_dir = self.run_dir / TRAJECTORIES_DIR
        self.images_dir = self.run_dir / IMAGES_DIR
        self.summary_path = self.run_dir / SUMMARY_FILE

    def prepare(self) -> None:
        """Create the folders and remove temp files a killed run may have left behind."""
        for d in (self.episodes_dir, self.trajectories_dir, self.images_dir):
            d.mkdir(parents=True, exist_ok=True)
            for stale in d.glob(TMP_PREFIX + "*"):
                stale.unlink(missing_ok=True)

    def part_path(self, episode_id: str) -> Path:
        return self.episodes_dir / f"{episode_id}{PART_SUFFIX}"

    def trajectory_path(self, episode_id: str) -> Path:
        return self.trajectories_dir / f"{episode_id}.json"

    def trajectory_relpath(self, episode_id: str) -> str:
        return f"{TRAJECTORIES_DIR}/{episode_id}.json"

    def done_ids(self) -> set[str]:
        """Episode ids whose part file exists (finished episodes, agent or infrastructure failures alike)."""
        if not self.episodes_dir.is_dir():
            return set()
        return {p.name[: -len(PART_SUFFIX)] for p in self.episodes_dir.iterdir()
                if p.name.endswith(PART_SUFFIX) and not p.name.startswith((".", "_"))}

    def write_trajectory(self, episode_id: str, trajectory_json: str) -> Path:
        target = self.trajectory_path(episode_id)
        text = scrub_text(trajectory_json, self.secrets)
        _atomic_write(target, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
        return target

    def write_images(self, images: list[dict[str, Any]]) -> int:
        """Save images (``{"sha256", "mime_type", "data"}`` each) not saved yet; returns how many were written."""
        written = 0
        for image in images:
            target = self.images_dir / image_name(image["sha256"], image.get("mime_type"))
            if not target.exists():
                data = image["data"]
                _atomic_write(target, lambda tmp, data=data: Path(tmp).write_bytes(data))
                written += 1
        return written

    def write_row(self, episode_id: str, row: dict[str, Any]) -> Path:
        target = self.part_path(episode_id)
        table = row_table(scrub_row(row, self.secrets))
        _atomic_write(target, lambda tmp: pq.write_table(table, tmp, **PART_OPTIONS))
        return target

    def read_table(self) -> pa.Table | None:
        """Every recorded row (schemas unified, so parts written by older row versions still read)."""
        files = sorted(str(self.part_path(i)) for i in self.done_ids())
        if not files:
            return None
        schemas = [pq.read_schema(f) for f in files]
        schema = pa.unify_schemas(schemas, promote_options="permissive")
        return pads.dataset(files, format="parquet", schema=schema).to_table()

    def read_rows(self) -> list[dict[str, Any]]:
        table = self.read_table()
        return table.to_pylist() if table is not None else []

    def write_summary(self, summary: dict[str, Any]) -> Path:
        text = json.dumps(summary, indent=2, default=str)
        _atomic_write(self.summary_path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
        return self.summary_path


def _atomic_write(target: Path, write: Any) -> None:
    """Write through a hidden temp file in the target's folder, then rename it into place (the temp file is
    created with ``open(..., "x")`` so it gets the usual umask permissions)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.parent / f"{TMP_PREFIX}{os.getpid()}_{uuid.uuid4().hex[:12]}{target.suffix}"
    try:
        with open(tmp, "x"):
            pass
        write(str(tmp))
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
