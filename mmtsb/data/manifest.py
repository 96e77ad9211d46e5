"""The checksum manifest of a fetch folder (``manifest.json``): every file written, with its SHA-256, size and
source, and per source what was fetched (default set or everything) from which revision.

A second fetch verifies the files against it and downloads only what is missing or does not match.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.data.files import sha256_file, write_bytes_atomic

MANIFEST_NAME = "manifest.json"
VERSION = 1


class ManifestError(ValueError):
    """The manifest file cannot be read (named with the reason)."""


@dataclass
class Manifest:
    """Files (paths relative to the fetch folder) and sources. Thread-safe: sources are fetched with several
    download threads."""

    root: Path
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def path(self) -> Path:
        return self.root / MANIFEST_NAME

    @classmethod
    def load(cls, root: Path) -> Manifest:
        manifest = cls(Path(root))
        if not manifest.path.is_file():
            return manifest
        try:
            data = json.loads(manifest.path.read_text(encoding="utf-8"))
            if data.get("version") != VERSION:
                raise ManifestError(f"version {data.get('version')!r}, expected {VERSION}")
            manifest.files = dict(data["files"])
            manifest.sources = dict(data["sources"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ManifestError(f"{manifest.path}: cannot read the checksum manifest ({exc}); move it away to "
                                "fetch again from scratch") from None
        return manifest

    def save(self) -> None:
        with self._lock:
            data = {"version": VERSION, "sources": self.sources,
                    "files": dict(sorted(self.files.items()))}
        write_bytes_atomic(self.path, json.dumps(data, indent=1).encode("utf-8"))

    def record(self, rel: str, sha256: str, size: int, source: str) -> None:
        with self._lock:
            self.files[rel] = {"sha256": sha256, "size": size, "source": source}

    def verified(self, rel: str, cache: dict[str, bool] | None = None) -> bool:
        """Whether ``rel`` exists and matches its recorded size and SHA-256 (``cache`` keeps answers of one run)."""
        if cache is not None and rel in cache:
            return cache[rel]
        entry = self.files.get(rel)
        path = self.root / rel
        ok = (entry is not None and path.is_file() and path.stat().st_size == entry["size"]
              and sha256_file(path) == entry["sha256"])
        if cache is not None:
            cache[rel] = ok
        return ok

    def files_of(self, source: str) -> list[str]:
        with self._lock:
            return sorted(rel for rel, e in self.files.items() if e["source"] == source)

    def mark_source(self, source: str, **info: Any) -> None:
        with self._lock:
            self.sources[source] = {**self.sources.get(source, {}), **info,
                                    "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
