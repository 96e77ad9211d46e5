"""Where the Hydra config tree lives, and where the project's relative paths (scenarios/) are resolved.

``conf/`` is kept at the repository root (the layout the project fixes), not inside the package. It is found,
in order: ``$MMTSB_CONF_DIR``; the first folder above this package that holds ``conf/config.yaml`` (an
editable install or a checkout); the first such folder above the working directory.
"""

from __future__ import annotations

import os
from pathlib import Path

CONF_ENV = "MMTSB_CONF_DIR"


class ConfNotFoundError(RuntimeError):
    """The config tree cannot be located."""


def _has_conf(folder: Path) -> bool:
    return (folder / "conf" / "config.yaml").is_file()


def find_project_root(start: Path | None = None) -> Path | None:
    """The first folder at or above ``start`` (default: this package, then the working directory) that holds
    ``conf/config.yaml``; None when there is none."""
    starts = [start] if start is not None else [Path(__file__).resolve().parent, Path.cwd().resolve()]
    for s in starts:
        for folder in (s, *s.parents):
            if _has_conf(folder):
                return folder
    return None


def conf_dir() -> Path:
    """The config tree's folder; a clear error says how to point at it when it cannot be found."""
    explicit = os.environ.get(CONF_ENV)
    if explicit:
        path = Path(explicit).expanduser().resolve()
        if not (path / "config.yaml").is_file():
            raise ConfNotFoundError(f"{CONF_ENV}={explicit}: no config.yaml in {path}")
        return path
    root = find_project_root()
    if root is None:
        raise ConfNotFoundError(
            "cannot find the Hydra config tree (conf/config.yaml) above the mmtsb package or the working "
            f"directory: run from a checkout of the project, or set {CONF_ENV} to the conf/ folder")
    return root / "conf"


def resolve_project_path(raw: str | Path, *, cwd: Path | None = None) -> tuple[Path, list[Path]]:
    """An absolute path for a configured path: absolute as given; relative, the first existing of
    ``cwd/raw`` and ``<project root>/raw`` (``cwd/raw`` when neither exists). Also returns the candidates."""
    path = Path(raw).expanduser()
    if path.is_absolute():
        return path, [path]
    candidates = [(cwd or Path.cwd()) / path]
    root = find_project_root()
    if root is not None and root / path not in candidates:
        candidates.append(root / path)
    for c in candidates:
        if c.exists():
            return c.resolve(), candidates
    return candidates[0].resolve(), candidates
