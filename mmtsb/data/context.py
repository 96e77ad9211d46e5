"""What every source's fetch shares: the folders, the manifest, the HTTP and hub clients, the progress display."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
from rich.console import Console
from rich.filesize import decimal
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from mmtsb.data.files import sha256_bytes, write_bytes_atomic
from mmtsb.data.hub import HubClient
from mmtsb.data.manifest import Manifest

T = TypeVar("T")
R = TypeVar("R")
IMAGES_DIR = "images"
SCENARIOS_DIR = "scenarios"
CACHE_DIR = ".cache"


class FetchProgress:
    """Progress bars on stderr (files per source, bytes of large downloads); silent when ``enabled`` is false."""

    def __init__(self, enabled: bool = True) -> None:
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[amount]}"),
                                  TimeRemainingColumn(), console=Console(stderr=True), disable=not enabled)

    def __enter__(self) -> FetchProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def files(self, description: str, total: int | None) -> Callable[[int], None]:
        """A bar counting files; returns ``advance(n)``."""
        task = self._progress.add_task(description, total=total, amount=f"0/{total if total is not None else '?'}")
        done = [0]

        def advance(n: int = 1) -> None:
            done[0] += n
            self._progress.update(task, advance=n, amount=f"{done[0]}/{total if total is not None else '?'}")
        return advance

    def bytes(self, description: str) -> Callable[[int, int | None], None]:
        """A bar counting bytes of one download; returns ``update(done, total)``."""
        task = self._progress.add_task(description, total=None, amount="")

        def update(done: int, total: int | None) -> None:
            amount = decimal(done) + (f" / {decimal(total)}" if total else "")
            self._progress.update(task, completed=done, total=total, amount=amount)
        return update


@dataclass
class FetchContext:
    """One fetch into ``dest``: images under ``dest/images``, raw downloads under ``dest/.cache``."""

    dest: Path
    manifest: Manifest
    http: httpx.Client
    progress: FetchProgress
    urls: dict[str, str]
    hf_endpoint: str | None = None
    hf_cache_dir: Path | None = None
    attempts: int = 5
    wait_s: float = 1.0
    jobs: int = 8
    problems: dict[str, list[str]] = field(default_factory=dict)
    _hub: HubClient | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def image_root(self) -> Path:
        return self.dest / IMAGES_DIR

    @property
    def cache(self) -> Path:
        return self.dest / CACHE_DIR

    @property
    def hub(self) -> HubClient:
        with self._lock:
            if self._hub is None:
                self._hub = HubClient(self.hf_endpoint, self.hf_cache_dir, self.attempts, self.wait_s)
            return self._hub

    def hub_commit(self, repo: str) -> str | None:
        """The commit a hub repository was read at in this fetch (None: not read)."""
        return self._hub.pinned(repo) if self._hub is not None else None

    def problem(self, source: str, text: str) -> None:
        """A file of ``source`` that could not be had; the source goes on with its other files."""
        with self._lock:
            self.problems.setdefault(source, []).append(text)

    def save(self, rel: str, data: bytes, source: str) -> None:
        """Write a file under the fetch folder (``rel`` relative to it) and record it in the manifest."""
        write_bytes_atomic(self.dest / rel, data)
        self.manifest.record(rel, sha256_bytes(data), len(data), source)

    def save_image(self, rel: str, data: bytes, source: str) -> None:
        """An image, ``rel`` relative to the image root (as scenario files name it)."""
        self.save(f"{IMAGES_DIR}/{rel}", data, source)

    def parallel(self, func: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``func`` over ``items`` on ``jobs`` threads (downloads wait on the network, not the CPU)."""
        with ThreadPoolExecutor(max_workers=max(1, self.jobs), thread_name_prefix="fetch") as pool:
            yield from pool.map(func, items)


@contextmanager
def http_client(timeout_s: float = 60.0) -> Iterator[httpx.Client]:
    with httpx.Client(timeout=httpx.Timeout(timeout_s, connect=20.0), follow_redirects=True,
                      headers={"User-Agent": "mmtsb-fetch"}) as client:
        yield client


def image_key(rel: str) -> str:
    """The manifest key of an image named ``rel`` by a scenario file."""
    return f"{IMAGES_DIR}/{rel}"


def parse_with(kind: str, name: str, parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)`` over downloaded data, its failure turned into an error naming the file."""
    try:
        return parse(*args)
    except Exception as exc:  # noqa: BLE001 (any parser failure: the file is not what the source should hold)
        raise ValueError(f"{name}: not a readable {kind} ({type(exc).__name__}: {exc})") from None
