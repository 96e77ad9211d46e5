"""A run's results rows, read fast: the part files of ``episodes.parquet/`` (one per episode) are read once, in
threads, and kept in ``RUN_DIR/.view_cache/rows.json`` with each part's size and modification time; later
opens read that one file and only the parts added or changed since.

Why: a run of 10,000 episodes is 10,000 part files, and opening each costs about a millisecond or two, so
reading them all is most of the time to open a large run (``benchmarks/viewer.py`` measures both). The
cache is only an accelerator: when it is missing, stale, unreadable or cannot be written (a read-only run
folder), the rows are read from the parts as :func:`mmtsb.report.data.read_rows` reads them. The runner primes
the cache when a run ends (:func:`prime_rows_cache`, from the rows it reads for its summary anyway), so the
first open of a finished run is already fast.
"""

from __future__ import annotations

import contextlib
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from mmtsb.jsonio import dumps_bytes
from mmtsb.report.data import PARQUET_DIR, Row, read_rows

log = logging.getLogger("mmtsb.view")
CACHE_DIR = ".view_cache"
CACHE_FILE = "rows.json"
CACHE_VERSION = 1
READ_THREADS = 4


def part_stamps(parts_dir: Path) -> dict[str, list[int]]:
    """Each part file's name -> [size, mtime_ns] (hidden and ``_`` files are not parts)."""
    out: dict[str, list[int]] = {}
    with os.scandir(parts_dir) as it:
        for e in it:
            if e.name.endswith(".parquet") and not e.name.startswith((".", "_")) and e.is_file():
                st = e.stat()
                out[e.name] = [st.st_size, st.st_mtime_ns]
    return out


def _read_part(path: Path) -> list[Row]:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).read().to_pylist()


def _load_cache(path: Path) -> dict[str, Any]:
    try:
        cache = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(cache, dict) or cache.get("version") != CACHE_VERSION:
        return {}
    return cache


def _save_cache(path: Path, stamps: dict[str, list[int]], rows: dict[str, list[Row]]) -> None:
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(dumps_bytes({"version": CACHE_VERSION, "parts": stamps, "rows": rows}))
        os.replace(tmp, path)
    except OSError as e:   # a read-only run folder: no cache, the rows are still right
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        log.info("rows cache of %s not written (%s)", path.parent.parent, e)


def prime_rows_cache(run_dir: Path, rows: list[Row]) -> None:
    """Write the rows cache of a run from rows already read (each part file holds the row of its episode id);
    parts with no row here are left for the next open to read. Never raises for an unwritable folder."""
    parts_dir = Path(run_dir) / PARQUET_DIR
    if not parts_dir.is_dir():
        return
    stamps = part_stamps(parts_dir)
    by_part: dict[str, list[Row]] = {}
    for row in rows:
        name = f"{row.get('episode_id')}.parquet"
        if name in stamps:
            by_part.setdefault(name, []).append(row)
    _save_cache(Path(run_dir) / CACHE_DIR / CACHE_FILE, {n: stamps[n] for n in by_part}, by_part)


def read_rows_cached(run_dir: Path) -> list[Row]:
    """Every results row of a run, sorted as :func:`mmtsb.report.data.read_rows` sorts them."""
    run_dir = Path(run_dir)
    parts_dir = run_dir / PARQUET_DIR
    if not parts_dir.is_dir():   # one consolidated file, or a legacy episodes.jsonl
        return read_rows(run_dir)
    stamps = part_stamps(parts_dir)
    cache_path = run_dir / CACHE_DIR / CACHE_FILE
    cache = _load_cache(cache_path)
    cached_stamps, cached_rows = cache.get("parts") or {}, cache.get("rows") or {}
    rows = {name: cached_rows[name] for name, stamp in stamps.items()
            if cached_stamps.get(name) == stamp and name in cached_rows}
    missing = [name for name in stamps if name not in rows]
    if missing:
        with ThreadPoolExecutor(READ_THREADS) as pool:
            for name, part_rows in zip(missing, pool.map(_read_part, (parts_dir / n for n in missing))):
                rows[name] = part_rows
    if missing or len(rows) != len(cached_rows):
        _save_cache(cache_path, stamps, rows)
    out = [r for part in rows.values() for r in part]
    out.sort(key=lambda r: (str(r.get("episode_id") or ""), str(r.get("scenario") or ""), r.get("repeat") or 0))
    return out
