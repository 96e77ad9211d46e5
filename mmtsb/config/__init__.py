"""Hydra configuration of a run: the structured configs behind ``conf/`` (:mod:`.schema`), the mapping to
the runner's RunSettings (:mod:`.build`) and the ``mmtsb run`` application (:mod:`.app`).

Nothing heavy is imported here, so ``mmtsb run --help`` and config errors answer at once."""

from __future__ import annotations

from typing import Any

__all__ = ["RunConfigError", "build_run_settings", "conf_dir", "find_project_root"]


def __getattr__(name: str) -> Any:
    if name in ("RunConfigError", "build_run_settings"):
        from mmtsb.config import build

        return getattr(build, name)
    if name in ("conf_dir", "find_project_root"):
        from mmtsb.config import paths

        return getattr(paths, name)
    raise AttributeError(f"module 'mmtsb.config' has no attribute {name!r}")
