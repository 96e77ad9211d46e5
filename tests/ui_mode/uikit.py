"""Helpers of the UI-mode tests: the shipped UI set, playing one of its scenarios (or an edited copy) with
the oracle and the scripted user, and editing a scenario's reference solution."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.episode.loop import EpisodeResult
from mmtsb.episode.play import play_scenario
from mmtsb.llm import flush_litellm_logging
from testkit import REPO

UI_DIR = REPO / "scenarios" / "ui"
UI_FILES = sorted(UI_DIR.glob("*.json"))
GLEN = UI_DIR / "mmtsb_ui_001.json"


def ui_config(*overrides: str) -> EpisodeConfig:
    """UI mode, oracle over tool calls, scripted user, static judges; images looked up in scenarios/ui."""
    return apply_overrides(EpisodeConfig(), ["ui=true", "interface=tool_use", f"image_root={UI_DIR}", *overrides])


def play(path: Path, *overrides: str, cfg: EpisodeConfig | None = None, **kw: Any) -> EpisodeResult:
    """Play one scenario in a fresh event loop; litellm's logging worker is drained before the loop closes (a
    worker left bound to a closed loop breaks the next test's model calls)."""
    async def main() -> EpisodeResult:
        try:
            return await play_scenario(path, cfg or ui_config(*overrides), **kw)
        finally:
            await flush_litellm_logging()

    return asyncio.run(main())


def load(path: Path = GLEN) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def with_round(data: dict[str, Any], number: int, *, steps: list[dict[str, Any]] | None = None,
               after_steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A copy of a scenario whose reference-solution round ``number`` has other steps (part 0 and/or after_user)."""
    out = copy.deepcopy(data)
    r = out["metadata"]["reference_solution"]["rounds"][number - 1]
    if steps is not None:
        r["steps"] = steps
    if after_steps is not None:
        r["after_user"]["steps"] = after_steps
    return out


def write(tmp_path: Path, data: dict[str, Any], name: str | None = None) -> Path:
    path = tmp_path / f"{name or data['name']}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def screen_step(ui_json: list[dict[str, Any]]) -> dict[str, Any]:
    return {"tool": "render_ui_screen", "arguments": {"ui_json": ui_json}}


SHOW = {"tool": "show_ui_to_user", "arguments": {}}


def glen_email_step(data: dict[str, Any]) -> dict[str, Any]:
    """The scenario's own email step with a literal recipient (independent of the UI choice)."""
    step = copy.deepcopy(data["metadata"]["reference_solution"]["rounds"][1]["after_user"]["steps"][0])
    step["arguments"]["email_addresses"] = ["gl.moore@gmail.com"]
    return step
