"""``mmtsb data fetch reference``: the released benchmark's scenario files and the images they name.

Layout of the fetch folder (default ``data/ml-mmtoolsandbox``, where ``dataset=reference`` looks)::

    scenarios/nominal/*.json, scenarios/ui/*.json   the public repository's scenario files
    images/<source>/images/...                      the images, under the paths the files name
    images/all_images.jsonl                         an index of the images, as the reference writes one
    manifest.json                                   SHA-256 and size of every file, per-source provenance
    .cache/                                         raw downloads (the scenario archive, HierText's test.tgz)

By default only the images some scenario file names are fetched; ``everything=True`` fetches every image of
each source, as the reference's own download does. A second run verifies every file against the manifest and
downloads only what is missing or altered. A source that fails is reported and the others go on.
"""

from __future__ import annotations

import json
import tarfile
import zipfile
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from mmtsb.data.context import (
    SCENARIOS_DIR, FetchContext, FetchProgress, http_client, image_key, parse_with,
)
from mmtsb.data.files import sha256_file
from mmtsb.data.http import DownloadError, download
from mmtsb.data.hub import HubError
from mmtsb.data.image_sources import DEFAULT_HIERTEXT_URL, IMAGE_SOURCES, hub_repos, source_of
from mmtsb.data.manifest import Manifest

DEFAULT_DEST = Path("data/ml-mmtoolsandbox")
SCENARIO_REPO = "apple/ml-mmtoolsandbox"
DEFAULT_SCENARIOS_URL = f"https://codeload.github.com/{SCENARIO_REPO}/tar.gz/refs/heads/main"
SCENARIO_PARTS = ("nominal", "ui")
SOURCES = ("scenarios", *IMAGE_SOURCES)


@dataclass
class FetchOptions:
    """What to fetch and from where (every URL and the hub endpoint can point at a mirror)."""

    dest: Path = DEFAULT_DEST
    sources: tuple[str, ...] = SOURCES
    everything: bool = False
    scenarios_url: str = DEFAULT_SCENARIOS_URL
    hiertext_url: str = DEFAULT_HIERTEXT_URL
    hf_endpoint: str | None = None
    hf_cache_dir: Path | None = None
    attempts: int = 5
    wait_s: float = 1.0
    jobs: int = 8
    progress: bool = True

    def __post_init__(self) -> None:
        unknown = [s for s in self.sources if s not in SOURCES]
        if unknown:
            raise ValueError(f"unknown source(s) {', '.join(unknown)}; choose from {', '.join(SOURCES)}")


@dataclass
class SourceReport:
    """One source's outcome: images wanted, already verified, saved now, still missing, or its error."""

    name: str
    wanted: int | None = 0
    verified: int = 0
    saved: int = 0
    missing: list[str] = field(default_factory=list)
    error: str | None = None
    skipped: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and not self.missing


@dataclass
class FetchReport:
    dest: str
    image_root: str
    scenario_files: int = 0
    sources: dict[str, SourceReport] = field(default_factory=dict)
    unknown_images: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.sources.values()) and not self.unknown_images

    def to_dict(self) -> dict[str, Any]:
        return {"dest": self.dest, "image_root": self.image_root, "scenario_files": self.scenario_files,
                "ok": self.ok, "unknown_images": self.unknown_images,
                "sources": {k: {**asdict(v), "ok": v.ok} for k, v in self.sources.items()}}


# ------------------------------------------------------------------------------------------------ scenarios
def _archive_members(archive: Path) -> list[tuple[str, bytes]]:
    """(path inside the repository, bytes) of the scenario files in a tar or zip archive of the repository
    (its first folder, ``<repo>-<ref>/``, dropped)."""
    def wanted(name: str) -> str | None:
        parts = PurePosixPath(name).parts[1:]
        if len(parts) == 3 and parts[0] == SCENARIOS_DIR and parts[1] in SCENARIO_PARTS and parts[2].endswith(".json"):
            return "/".join(parts)
        return None

    out: list[tuple[str, bytes]] = []
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if (rel := wanted(info.filename)) and not info.is_dir():
                    out.append((rel, zf.read(info)))
        return out
    with tarfile.open(archive, "r:*") as tar:
        for member in tar:
            if member.isfile() and (rel := wanted(member.name)):
                fh = tar.extractfile(member)
                if fh is not None:
                    out.append((rel, fh.read()))
    return out


def fetch_scenarios(ctx: FetchContext, url: str) -> int:
    """Download the repository archive and save its ``scenarios/{nominal,ui}/*.json`` (each must be JSON)."""
    archive = ctx.cache / "ml-mmtoolsandbox.archive"
    archive.unlink(missing_ok=True)   # a branch archive changes: always the current one
    download(ctx.http, url, archive, attempts=ctx.attempts, wait_s=ctx.wait_s,
             on_bytes=ctx.progress.bytes("scenarios: repository archive"))
    members = parse_with("tar or zip archive", url, _archive_members, archive)
    if not members:
        raise ValueError(f"{url}: the archive holds no scenarios/nominal/*.json or scenarios/ui/*.json")
    for rel, data in members:
        parse_with("JSON scenario file", f"{url}: {rel}", json.loads, data)
    for old in ctx.manifest.files_of("scenarios"):   # files the repository no longer has are dropped
        if old not in {rel for rel, _ in members}:
            (ctx.dest / old).unlink(missing_ok=True)
            ctx.manifest.files.pop(old, None)
    for rel, data in members:
        ctx.save(rel, data, "scenarios")
    ctx.manifest.mark_source("scenarios", url=url, archive_sha256=sha256_file(archive), files=len(members))
    return len(members)


def scenario_files(dest: Path) -> list[Path]:
    return sorted(p for part in SCENARIO_PARTS for p in (dest / SCENARIOS_DIR / part).glob("*.json"))


def wanted_images(dest: Path) -> tuple[dict[str, set[str]], list[str]]:
    """Image paths named by the fetched scenario files, per source, and those no source provides."""
    per_source: dict[str, set[str]] = defaultdict(set)
    unknown: list[str] = []
    for path in scenario_files(dest):
        data = parse_with("JSON scenario file", str(path), json.loads, path.read_text(encoding="utf-8"))
        for raw in data.get("image_paths") or [] if isinstance(data, dict) else []:
            rel = str(raw)
            pure = PurePosixPath(rel)
            source = source_of(rel) if not pure.is_absolute() and ".." not in pure.parts else None
            if source is None:
                unknown.append(f"{path.name}: {rel}")
            else:
                per_source[source].add(rel)
    return per_source, unknown


# ------------------------------------------------------------------------------------------------ the fetch
def _fetch_source(ctx: FetchContext, name: str, wanted: set[str] | None, everything: bool) -> SourceReport:
    report = SourceReport(name, wanted=None if everything else len(wanted or ()))
    cache: dict[str, bool] = {}
    if everything:
        done = ctx.manifest.sources.get(name, {}).get("complete") == "all"
        have = ctx.manifest.files_of(name)
        if done and have and all(ctx.manifest.verified(k, cache) for k in have):
            report.verified, report.skipped = len(have), "every image verified"
            return report
        todo: set[str] | None = None
    else:
        if not wanted:
            report.skipped = "no scenario file names an image of this source"
            return report
        todo = {rel for rel in wanted if not ctx.manifest.verified(image_key(rel), cache)}
        report.verified = len(wanted) - len(todo)
        if not todo:
            report.skipped = "every wanted image verified"
            return report
    try:
        report.saved = IMAGE_SOURCES[name].fetch(ctx, todo)
    except (HubError, DownloadError, ValueError, OSError) as exc:
        report.error = str(exc)
    problems = ctx.problems.pop(name, [])
    if todo is not None:
        report.missing = sorted(rel for rel in todo if not (ctx.dest / image_key(rel)).is_file())
    if (report.missing or problems) and report.error is None:
        report.error = (f"{len(report.missing)} image(s) not found in the source" if report.missing else
                        f"{len(problems)} file(s) could not be had")
        report.error += "".join(f"; {p}" for p in problems[:5]) + ("; ..." if len(problems) > 5 else "")
    provenance: dict[str, Any] = {"complete": "all" if everything and report.error is None else "wanted"}
    repo = hub_repos().get(name)
    if repo and (commit := ctx.hub_commit(repo)):
        provenance.update(repo=repo, commit=commit)
    ctx.manifest.mark_source(name, **provenance)
    return report


def write_index(ctx: FetchContext) -> Path:
    """``images/all_images.jsonl``: one line per image {image_paths: [absolute path], meta_data, dataset_type}
    (WorldVQA's label as meta_data), sources in the reference's order."""
    lines = []
    for name in IMAGE_SOURCES:
        for key in ctx.manifest.files_of(name):
            if "/labels/" in key or not (ctx.dest / key).is_file():
                continue
            meta: dict[str, Any] = {}
            if name == "worldvqa":
                image = PurePosixPath(key)
                label = ctx.dest / image.parent.parent / "labels" / f"{image.stem}.json"
                if label.is_file():
                    meta = json.loads(label.read_text(encoding="utf-8"))
            lines.append(json.dumps({"image_paths": [str((ctx.dest / key).resolve())], "meta_data": meta,
                                     "dataset_type": name}))
    index = ctx.image_root / "all_images.jsonl"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return index


def fetch_reference(options: FetchOptions) -> FetchReport:
    """Fetch the scenario files and their images into ``options.dest`` (see the module docstring)."""
    dest = Path(options.dest)
    dest.mkdir(parents=True, exist_ok=True)
    manifest = Manifest.load(dest)
    report = FetchReport(str(dest), str(dest / "images"))
    with http_client() as client, FetchProgress(options.progress) as progress:
        ctx = FetchContext(dest, manifest, client, progress, {"hiertext": options.hiertext_url},
                           options.hf_endpoint, options.hf_cache_dir, options.attempts, options.wait_s, options.jobs)
        if "scenarios" in options.sources:
            report.sources["scenarios"] = _scenarios_step(ctx, options.scenarios_url)
            manifest.save()
        report.scenario_files = len(scenario_files(dest))
        per_source, report.unknown_images = ({}, []) if options.everything else wanted_images(dest)
        if not options.everything and not report.scenario_files:
            scenarios = report.sources.setdefault("scenarios", SourceReport("scenarios"))
            scenarios.error = scenarios.error or (f"no scenario files in {dest / SCENARIOS_DIR}: fetch them "
                                                  "first (--sources scenarios), or pass --all for every image")
        for name in IMAGE_SOURCES:
            if name in options.sources:
                report.sources[name] = _fetch_source(ctx, name, per_source.get(name), options.everything)
                manifest.save()
        write_index(ctx)
    return report


def _scenarios_step(ctx: FetchContext, url: str) -> SourceReport:
    report = SourceReport("scenarios")
    have = ctx.manifest.files_of("scenarios")
    cache: dict[str, bool] = {}
    if have and ctx.manifest.sources.get("scenarios", {}).get("url") == url and \
            all(ctx.manifest.verified(k, cache) for k in have):
        report.wanted, report.verified, report.skipped = len(have), len(have), "every scenario file verified"
        return report
    try:
        report.saved = fetch_scenarios(ctx, url)
        report.wanted = report.saved
    except (DownloadError, ValueError, OSError) as exc:
        report.error = str(exc)
    return report
