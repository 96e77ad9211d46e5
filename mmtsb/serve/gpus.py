"""Which GPUs a vLLM server gets: the ones this process is allowed to use, never more.

Order of precedence:
1. ``serve.gpus`` (explicit indices) when set;
2. inside a Ray task or actor that was given GPUs (``num_gpus=...``), ``ray.get_gpu_ids()``;
3. ``CUDA_VISIBLE_DEVICES`` of this process (SLURM and Ray set it for the GPUs they granted);
4. otherwise nothing is set and vLLM sees every GPU of the machine.

When the visible set is known it must hold ``tensor_parallel_size * data_parallel_size`` GPUs; the server gets
the first that many (so a second server can use the rest).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from mmtsb.serve.errors import ServeError


@dataclass(frozen=True)
class GpuAssignment:
    """``cuda_visible_devices`` to export (None: inherit the environment unchanged) and where it came from."""

    cuda_visible_devices: str | None
    source: str


def ray_gpu_ids() -> list[str]:
    """GPU ids Ray granted the current task/actor; [] outside Ray or when Ray is not imported at all."""
    ray = sys.modules.get("ray")
    if ray is None:
        return []
    try:
        if not ray.is_initialized():
            return []
        return [str(g) for g in ray.get_gpu_ids()]
    except Exception:  # noqa: BLE001 - no Ray worker context (e.g. the driver): treat as "not in Ray"
        return []


def assign_gpus(needed: int, explicit: list[int] | None = None,
                environ: Mapping[str, str] | None = None) -> GpuAssignment:
    """Choose the GPUs for a server needing ``needed`` of them (see module docstring)."""
    environ = os.environ if environ is None else environ
    if explicit:
        visible, source = [str(g) for g in explicit], "serve.gpus"
    elif ids := ray_gpu_ids():
        visible, source = ids, "ray.get_gpu_ids()"
    elif "CUDA_VISIBLE_DEVICES" in environ:
        visible = [g.strip() for g in environ["CUDA_VISIBLE_DEVICES"].split(",") if g.strip()]
        source = "CUDA_VISIBLE_DEVICES"
    else:
        return GpuAssignment(None, "all GPUs of the machine (no CUDA_VISIBLE_DEVICES, not in a Ray GPU task)")
    if len(visible) < needed:
        raise ServeError(f"vLLM needs tensor_parallel_size * data_parallel_size = {needed} GPU(s), but only "
                         f"{len(visible)} are available from {source}: {','.join(visible) or '(none)'}")
    return GpuAssignment(",".join(visible[:needed]), source)
