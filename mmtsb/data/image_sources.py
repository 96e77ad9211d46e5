"""The eight image sources of the released benchmark (SPEC.md §8 ``download_images.py``), each saving images
under the paths the scenario files use, with the reference's filtering, naming and re-encoding:

- ``hiertext/images/test/``: HierText's test archive (``test.tgz`` in the Open Images bucket), its files as
  they are;
- ``omnidocbench/images/``: hub ``opendatalab/OmniDocBench``; pages whose language is Chinese or mixed are
  dropped, the rest numbered from 0 in metadata order as ``NNNNNN.jpg``; re-encoded;
- ``docvqa/images/``, ``infographicvqa/images/``: hub ``lmms-lab/DocVQA``, configs ``DocVQA`` and
  ``InfographicVQA``, split test; each distinct image (by the SHA-256 of its re-encoding) named after the
  ``questionId`` of its first row, ``<questionId>.jpg``; re-encoded;
- ``chartmuseum/images/``: hub ``lytang/ChartMuseum``, its ``images/`` files as they are;
- ``chartqapro/images/``: hub ``ahmed-masry/ChartQAPro``, split test, ``chart_NNNN.jpg`` by row number from
  0; re-encoded;
- ``screenspotpro/images/``: hub ``likaixin/ScreenSpot-Pro``, its ``images/`` files (with their app
  folders) as they are;
- ``worldvqa/images/`` and ``worldvqa/labels/``: hub ``moonshotai/WorldVQA``, ``WorldVQA.tsv``, rows whose
  language is ``non-zh``, ``<index>.jpg`` re-encoded from the base64 cell, and a label JSON per image.

"Re-encoded" is RGB JPEG quality 95 (:func:`mmtsb.data.files.reencode_jpeg`). Each fetch takes ``wanted``, the
image paths (relative to the image root) to produce, or None for every image of the source; it returns how
many it saved. Rows are read in the source's order (the names depend on it) and reading stops once every
wanted image is saved, so the default fetch downloads no more parquet shards than it needs.
"""

from __future__ import annotations

import base64
import csv
import fnmatch
import json
import sys
import tarfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import pyarrow.parquet as pq

from mmtsb.data.context import FetchContext, parse_with
from mmtsb.data.files import reencode_jpeg, sha256_bytes, sha256_file
from mmtsb.data.http import download
from mmtsb.data.hub import HubError

Wanted = set[str] | None
DEFAULT_HIERTEXT_URL = "https://open-images-dataset.s3.amazonaws.com/ocr/test.tgz"


@dataclass(frozen=True)
class ImageSource:
    """One source: its name (the ``--sources`` value and the image folder), what it is, and its fetch."""

    name: str
    title: str
    fetch: Callable[[FetchContext, Wanted], int]


class _Tracker:
    """Counts saved images of one fetch against ``wanted``, so reading can stop once everything is there."""

    def __init__(self, ctx: FetchContext, source: str, wanted: Wanted) -> None:
        self.ctx, self.source, self.wanted = ctx, source, wanted
        self.left = set(wanted) if wanted is not None else None
        self.saved = 0
        self.advance = ctx.progress.files(f"{source}: images", len(wanted) if wanted is not None else None)

    def wants(self, rel: str) -> bool:
        return self.left is None or rel in self.left

    @property
    def done(self) -> bool:
        return self.left is not None and not self.left

    def hub_file(self, repo: str, name: str, convert: Callable[[bytes], bytes]) -> bytes | None:
        """A repository file's bytes through ``convert``; None (the problem noted, the others go on) when the
        file cannot be had or read."""
        try:
            return convert(self.ctx.hub.download(repo, name, quiet=True).read_bytes())
        except HubError as exc:   # names the file already
            self.ctx.problem(self.source, str(exc))
        except (OSError, ValueError) as exc:   # PIL's UnidentifiedImageError is an OSError
            self.ctx.problem(self.source, f"{repo}/{name}: not a readable image ({exc})")
        return None

    def save(self, rel: str, data: bytes) -> None:
        self.ctx.save_image(rel, data, self.source)
        self.saved += 1
        if self.left is not None:
            self.left.discard(rel)
        self.advance(1)


# ------------------------------------------------------------------------------------------------ HierText
def fetch_hiertext(ctx: FetchContext, wanted: Wanted) -> int:
    """The test archive over HTTP (resumable), then the wanted members of its ``test/`` folder."""
    url = ctx.urls["hiertext"]
    archive = ctx.cache / "hiertext" / "test.tgz"
    if ctx.manifest.sources.get("hiertext", {}).get("archive_url") not in (None, url):
        archive.unlink(missing_ok=True)   # another source URL: its archive, not the cached one
    if not archive.is_file():
        download(ctx.http, url, archive, attempts=ctx.attempts, wait_s=ctx.wait_s,
                 on_bytes=ctx.progress.bytes("hiertext: test.tgz"))
    ctx.manifest.mark_source("hiertext", archive_url=url, archive_sha256=sha256_file(archive),
                             archive_size=archive.stat().st_size)
    track = _Tracker(ctx, "hiertext", wanted)
    try:
        with tarfile.open(archive, "r|gz") as tar:   # streamed: one pass, stopping once all are found
            for member in tar:
                parts = PurePosixPath(member.name).parts
                parts = parts[1:] if parts[:1] == (".",) else parts
                if not member.isfile() or len(parts) != 2 or parts[0] != "test":
                    continue
                rel = f"hiertext/images/test/{parts[1]}"
                if track.wants(rel):
                    fh = tar.extractfile(member)
                    if fh is not None:
                        track.save(rel, fh.read())
                if track.done:
                    break
    except (tarfile.TarError, EOFError, OSError) as exc:
        archive.unlink(missing_ok=True)   # a broken archive is fetched again next time
        raise ValueError(f"{url}: the archive cannot be read ({type(exc).__name__}: {exc}); removed, run again "
                         "to download it anew") from None
    return track.saved


# ------------------------------------------------------------------------------------------------ OmniDocBench
OMNIDOC_REPO = "opendatalab/OmniDocBench"


def omnidocbench_pages(metadata: list[dict[str, Any]]) -> Iterator[tuple[int, str | None]]:
    """(number, source image path) of the pages kept: Chinese and mixed-language pages dropped, numbers
    counted over the kept entries in metadata order (an entry without an image path still takes a number)."""
    kept = 0
    for entry in metadata:
        info = entry.get("page_info") if isinstance(entry, dict) else None
        language = str(((info or {}).get("page_attribute") or {}).get("language", "")).lower()
        if "chinese" in language or "en_ch_mixed" in language:
            continue
        yield kept, (info or {}).get("image_path")
        kept += 1


def fetch_omnidocbench(ctx: FetchContext, wanted: Wanted) -> int:
    meta_file = ctx.hub.download(OMNIDOC_REPO, "OmniDocBench.json")
    metadata = parse_with("JSON list", f"{OMNIDOC_REPO}/OmniDocBench.json",
                          json.loads, meta_file.read_text(encoding="utf-8"))
    track = _Tracker(ctx, "omnidocbench", wanted)
    todo = [(f"omnidocbench/images/{n:06d}.jpg", src) for n, src in omnidocbench_pages(metadata) if src]
    todo = [(rel, src) for rel, src in todo if track.wants(rel)]

    def one(item: tuple[str, str]) -> tuple[str, bytes | None]:
        rel, src = item
        return rel, track.hub_file(OMNIDOC_REPO, f"images/{src}", reencode_jpeg)

    for rel, data in ctx.parallel(one, todo):
        if data is not None:
            track.save(rel, data)
    return track.saved


# ------------------------------------------------------------------------------------------------ parquet sources
def image_bytes(cell: Any) -> bytes | None:
    """The encoded image of a parquet cell: a ``datasets`` Image struct ({bytes, path}) or raw bytes."""
    if isinstance(cell, dict):
        cell = cell.get("bytes")
    return bytes(cell) if isinstance(cell, (bytes, bytearray, memoryview)) else None


def parquet_rows(ctx: FetchContext, repo: str, config: str, split: str, columns: list[str]) -> Iterator[dict]:
    """The rows of a split in order, each shard downloaded only when reading reaches it."""
    for name in ctx.hub.split_files(repo, config, split):
        path = ctx.hub.download(repo, name)
        parquet = parse_with("parquet file", f"{repo}/{name}", pq.ParquetFile, path)
        present = [c for c in columns if c in parquet.schema_arrow.names]
        for batch in parquet.iter_batches(batch_size=64, columns=present):
            yield from batch.to_pylist()


DOCVQA_REPO = "lmms-lab/DocVQA"


def _vqa_fetcher(folder: str, config: str) -> Callable[[FetchContext, Wanted], int]:
    def fetch(ctx: FetchContext, wanted: Wanted) -> int:
        """Distinct images of the test split by the SHA-256 of their re-encoding, each named after the
        question id of its first row."""
        track = _Tracker(ctx, folder, wanted)
        seen: set[str] = set()
        for index, row in enumerate(parquet_rows(ctx, DOCVQA_REPO, config, "test",
                                                 ["image", "questionId", "question_id"])):
            data = image_bytes(row.get("image"))
            if data is None:
                continue
            jpeg = reencode_jpeg(data)
            digest = sha256_bytes(jpeg)
            if digest in seen:
                continue
            seen.add(digest)
            qid = row.get("questionId", row.get("question_id"))
            rel = f"{folder}/images/{qid if qid is not None else f'test_{index}'}.jpg"
            if track.wants(rel):
                track.save(rel, jpeg)
            if track.done:
                break
        return track.saved
    return fetch


CHARTQAPRO_REPO = "ahmed-masry/ChartQAPro"


def fetch_chartqapro(ctx: FetchContext, wanted: Wanted) -> int:
    """Every row of the test split, ``chart_NNNN.jpg`` by its number (no de-duplication)."""
    track = _Tracker(ctx, "chartqapro", wanted)
    for index, row in enumerate(parquet_rows(ctx, CHARTQAPRO_REPO, "default", "test", ["image"])):
        rel = f"chartqapro/images/chart_{index:04d}.jpg"
        data = image_bytes(row.get("image"))
        if data is not None and track.wants(rel):
            track.save(rel, reencode_jpeg(data))
        if track.done:
            break
    return track.saved


# ------------------------------------------------------------------------------------------------ repository files
def _files_fetcher(folder: str, repo: str) -> Callable[[FetchContext, Wanted], int]:
    def fetch(ctx: FetchContext, wanted: Wanted) -> int:
        """The repository's ``images/`` files, saved unchanged under ``<folder>/images/``."""
        track = _Tracker(ctx, folder, wanted)
        if wanted is None:
            names = [f for f in ctx.hub.files(repo) if fnmatch.fnmatchcase(f, "images/*")]
        else:
            names = sorted(rel[len(folder) + 1:] for rel in wanted)

        def one(name: str) -> tuple[str, bytes | None]:
            return f"{folder}/{name}", track.hub_file(repo, name, lambda data: data)

        for rel, data in ctx.parallel(one, names):
            if data is not None:
                track.save(rel, data)
        return track.saved
    return fetch


# ------------------------------------------------------------------------------------------------ WorldVQA
WORLDVQA_REPO = "moonshotai/WorldVQA"
WORLDVQA_LABEL_FIELDS = ("index", "question", "answer", "difficulty", "category")


def _decode_base64_jpeg(cell: str) -> bytes:
    return reencode_jpeg(base64.b64decode(cell))


def fetch_worldvqa(ctx: FetchContext, wanted: Wanted) -> int:
    """The ``non-zh`` rows of WorldVQA.tsv: ``<index>.jpg`` (re-encoded from the base64 cell) and
    ``worldvqa/labels/<index>.json``."""
    tsv = ctx.hub.download(WORLDVQA_REPO, "WorldVQA.tsv")
    track = _Tracker(ctx, "worldvqa", wanted)
    csv.field_size_limit(sys.maxsize)
    with open(tsv, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row.get("language") != "non-zh":
                continue
            index = str(row["index"])
            rel = f"worldvqa/images/{index}.jpg"
            if not track.wants(rel):
                continue
            data = parse_with("base64 image", f"{WORLDVQA_REPO}/WorldVQA.tsv row {index}",
                              _decode_base64_jpeg, row["image"])
            label = {"index": index, **{k: row.get(k) for k in WORLDVQA_LABEL_FIELDS[1:]}}
            ctx.save_image(f"worldvqa/labels/{index}.json", json.dumps(label, indent=4).encode(), "worldvqa")
            track.save(rel, data)
            if track.done:
                break
    return track.saved


IMAGE_SOURCES: dict[str, ImageSource] = {s.name: s for s in (
    ImageSource("hiertext", "HierText test split (Open Images bucket, test.tgz)", fetch_hiertext),
    ImageSource("omnidocbench", f"OmniDocBench (hub {OMNIDOC_REPO})", fetch_omnidocbench),
    ImageSource("docvqa", f"DocVQA test split (hub {DOCVQA_REPO}, config DocVQA)", _vqa_fetcher("docvqa", "DocVQA")),
    ImageSource("infographicvqa", f"InfographicVQA test split (hub {DOCVQA_REPO}, config InfographicVQA)",
                _vqa_fetcher("infographicvqa", "InfographicVQA")),
    ImageSource("chartmuseum", "ChartMuseum (hub lytang/ChartMuseum, images/)",
                _files_fetcher("chartmuseum", "lytang/ChartMuseum")),
    ImageSource("chartqapro", f"ChartQAPro test split (hub {CHARTQAPRO_REPO})", fetch_chartqapro),
    ImageSource("screenspotpro", "ScreenSpot-Pro (hub likaixin/ScreenSpot-Pro, images/)",
                _files_fetcher("screenspotpro", "likaixin/ScreenSpot-Pro")),
    ImageSource("worldvqa", f"WorldVQA non-zh rows (hub {WORLDVQA_REPO}, WorldVQA.tsv)", fetch_worldvqa),
)}


def source_of(rel: str) -> str | None:
    """The source an image path belongs to (its first folder), or None."""
    head = PurePosixPath(rel).parts[0] if rel else ""
    return head if head in IMAGE_SOURCES else None


def hub_repos() -> dict[str, str]:
    """Source name -> hub repository (for the manifest's provenance)."""
    return {"omnidocbench": OMNIDOC_REPO, "docvqa": DOCVQA_REPO, "infographicvqa": DOCVQA_REPO,
            "chartmuseum": "lytang/ChartMuseum", "chartqapro": CHARTQAPRO_REPO,
            "screenspotpro": "likaixin/ScreenSpot-Pro", "worldvqa": WORLDVQA_REPO}

