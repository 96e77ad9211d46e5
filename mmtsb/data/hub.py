"""Hugging Face Hub access for the fetch, through ``huggingface_hub``: one pinned commit per repository,
file lists, resumable cached downloads with retries, and the parquet files of a dataset config's split.

The endpoint is huggingface_hub's own setting (``HF_ENDPOINT``, or ``endpoint=``), so a mirror or a local
test hub is reached the same way. Downloads land in huggingface_hub's cache (``HF_HOME`` / ``cache_dir``),
where an interrupted file resumes from its ``.incomplete`` part on the next call.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml
from huggingface_hub import HfApi, hf_hub_download
from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, RepositoryNotFoundError
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential
from tqdm.auto import tqdm

REPO_TYPE = "dataset"


class HubError(RuntimeError):
    """A repository or file the fetch needs cannot be had (named, with the reason)."""


class QuietBar(tqdm):  # type: ignore[misc]
    """huggingface_hub's per-file bar, silenced for the many small image files (the fetch shows its own)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["disable"] = True
        super().__init__(*args, **kwargs)


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, (RepositoryNotFoundError, EntryNotFoundError)):
        return False
    if isinstance(exc, HfHubHTTPError):
        status = exc.response.status_code if exc.response is not None else None
        return status is None or status == 429 or status >= 500
    return isinstance(exc, (httpx.TransportError, ConnectionError, TimeoutError))


@dataclass
class HubClient:
    """Dataset repositories on one hub endpoint, each read at the commit its ``main`` had on first use."""

    endpoint: str | None = None
    cache_dir: Path | None = None
    attempts: int = 5
    wait_s: float = 1.0
    _commits: dict[str, str] = field(default_factory=dict)
    _files: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
            raise HubError("HF_HUB_OFFLINE is set: the fetch needs the hub (unset HF_HUB_OFFLINE, or use "
                           "--sources to fetch only the plain-HTTP sources)")
        self.api = HfApi(endpoint=self.endpoint)

    def _retry(self, what: str, call: Any) -> Any:
        try:
            for attempt in Retrying(stop=stop_after_attempt(max(1, self.attempts)), reraise=True,
                                    retry=retry_if_exception(_transient),
                                    wait=wait_exponential(multiplier=self.wait_s, max=60)):
                with attempt:
                    return call()
        except (RepositoryNotFoundError, EntryNotFoundError) as exc:
            raise HubError(f"{what}: not found on {self.api.endpoint} ({type(exc).__name__})") from None
        except (HfHubHTTPError, httpx.HTTPError, OSError) as exc:
            raise HubError(f"{what}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from None

    def commit(self, repo: str) -> str:
        """The commit every file of ``repo`` is read at (resolved once per run, recorded in the manifest)."""
        if repo not in self._commits:
            info = self._retry(f"dataset {repo}", lambda: self.api.dataset_info(repo, revision="main"))
            self._commits[repo] = str(info.sha)
        return self._commits[repo]

    def pinned(self, repo: str) -> str | None:
        """The commit ``repo`` was read at in this run, if it was read."""
        return self._commits.get(repo)

    def files(self, repo: str) -> list[str]:
        """Every file path of the repository, sorted."""
        if repo not in self._files:
            commit = self.commit(repo)
            entries = self._retry(f"dataset {repo} (file list)", lambda: list(self.api.list_repo_tree(
                repo, recursive=True, revision=commit, repo_type=REPO_TYPE)))
            self._files[repo] = sorted(e.path for e in entries if hasattr(e, "size") and hasattr(e, "blob_id"))
        return self._files[repo]

    def download(self, repo: str, filename: str, *, quiet: bool = False) -> Path:
        """A file of ``repo`` in the local cache (downloaded, or resumed, when not there yet)."""
        commit = self.commit(repo)
        return Path(self._retry(f"{repo}/{filename}", lambda: hf_hub_download(
            repo, filename, repo_type=REPO_TYPE, revision=commit, endpoint=self.endpoint, cache_dir=self.cache_dir,
            tqdm_class=QuietBar if quiet else None)))

    def split_files(self, repo: str, config: str, split: str) -> list[str]:
        """The data files of a config's split as ``datasets`` would resolve them: the ``configs`` block of the
        dataset card (README.md) when it names them, else the usual layouts (``<config>/<split>-*``,
        ``data/<split>-*``, ``<split>-*``). Sorted, as ``datasets`` reads them."""
        files = self.files(repo)
        patterns = self._card_patterns(repo, config, split) if "README.md" in files else []
        patterns = patterns or [f"{config}/{split}-*", f"{config}/{split}/*", f"data/{split}-*", f"data/{split}/*",
                                f"{split}-*"]
        for pattern in patterns:
            found = sorted(f for f in files if fnmatch.fnmatchcase(f, pattern) and f.endswith(".parquet"))
            if found:
                return found
        raise HubError(f"{repo}: no parquet files for config {config!r}, split {split!r} (looked for "
                       f"{', '.join(patterns)})")

    def _card_patterns(self, repo: str, config: str, split: str) -> list[str]:
        text = self.download(repo, "README.md", quiet=True).read_text(encoding="utf-8", errors="replace")
        if not text.startswith("---"):
            return []
        try:
            card = yaml.safe_load(text.split("---", 2)[1]) or {}
        except yaml.YAMLError:
            return []
        for entry in card.get("configs") or []:
            if not isinstance(entry, dict) or entry.get("config_name", "default") != config:
                continue
            data_files = entry.get("data_files")
            if isinstance(data_files, list):
                out: list[str] = []
                for item in data_files:
                    if isinstance(item, dict) and item.get("split") == split:
                        path = item.get("path")
                        out += path if isinstance(path, list) else [str(path)]
                return out
        return []
