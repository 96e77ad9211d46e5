"""Resumable HTTP downloads of plain files (the HierText archive, the scenario repository's archive).

A download goes to ``<target>.part``; an interrupted one continues from the bytes already there with a
``Range`` request (a server that ignores the range sends the whole file, which then replaces the part).
Transient failures (connection errors, timeouts, HTTP 429 and 5xx, a body cut short) are retried with
exponential backoff; other HTTP errors fail at once, naming the URL and the status.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import httpx
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential

OnBytes = Callable[[int, int | None], None]   # (bytes so far, total or None)
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")


class DownloadError(RuntimeError):
    """A download that failed for good (after its retries, or at once for a non-transient status)."""


class IncompleteBody(httpx.TransportError):
    """The server closed the response before the announced length."""


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code == 429 or exc.response.status_code >= 500
    return isinstance(exc, httpx.TransportError)


def retrying(attempts: int, wait_s: float) -> Retrying:
    """The retry policy of every fetch request: ``attempts`` tries, exponential backoff from ``wait_s``."""
    return Retrying(stop=stop_after_attempt(max(1, attempts)), retry=retry_if_exception(is_transient),
                    wait=wait_exponential(multiplier=wait_s, max=60), reraise=True)


def download(client: httpx.Client, url: str, target: Path, *, attempts: int = 5, wait_s: float = 1.0,
             on_bytes: OnBytes | None = None) -> Path:
    """Download ``url`` to ``target`` (resuming a ``.part`` left by an earlier try or run); returns ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    try:
        for attempt in retrying(attempts, wait_s):
            with attempt:
                _fetch_into(client, url, part, on_bytes)
    except httpx.HTTPStatusError as exc:
        raise DownloadError(f"{url}: HTTP {exc.response.status_code}") from None
    except httpx.TransportError as exc:
        raise DownloadError(f"{url}: {type(exc).__name__}: {exc} (after {attempts} attempt(s); run again to "
                            f"resume from the {part.stat().st_size if part.exists() else 0} bytes kept)") from None
    part.replace(target)
    return target


def _fetch_into(client: httpx.Client, url: str, part: Path, on_bytes: OnBytes | None) -> None:
    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    with client.stream("GET", url, headers=headers) as response:
        if response.status_code == 416 and have:   # the part already holds the whole file
            return
        response.raise_for_status()
        total = _total(response, have)
        if response.status_code != 206:
            have = 0    # the server sent the whole file: start over
        mode = "ab" if have else "wb"
        with open(part, mode) as fh:
            for block in response.iter_bytes():   # as they arrive: a cut body keeps every byte received
                fh.write(block)
                have += len(block)
                if on_bytes is not None:
                    on_bytes(have, total)
    if total is not None and have != total:
        raise IncompleteBody(f"{url}: got {have} of {total} bytes")


def _total(response: httpx.Response, have: int) -> int | None:
    """The full file size, from Content-Range (206) or Content-Length (200), if the server says."""
    if response.status_code == 206:
        match = _CONTENT_RANGE.match(response.headers.get("Content-Range", ""))
        if match and match.group(3) != "*":
            return int(match.group(3))
        length = response.headers.get("Content-Length")
        return have + int(length) if length else None
    length = response.headers.get("Content-Length")
    return int(length) if length else None
