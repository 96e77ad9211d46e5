"""Play one scenario file end to end: build its world, make the roles from the config, run the loop, write
the trajectory (one JSON file per episode)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.episode.context import EpisodeContext
from mmtsb.episode.loop import EpisodeResult, EpisodeRunner
from mmtsb.protocol import registry
from mmtsb.protocol.trajectory import Trajectory
from mmtsb.eval.entity_diff import EvalOptions
from mmtsb.roles.factory import RoleFactory
from mmtsb.sandbox.scratch import ScratchFolder
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import load_scenario
from mmtsb.tools.levels import registry_for_level
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession, WorkingSet
from mmtsb.ui.mode import AGENT_UI_TOOLS
from mmtsb.world.templates import WorldCache

async def play_scenario(path: str | Path, cfg: EpisodeConfig, *, factory: RoleFactory | None = None,
                        worlds: WorldCache | None = None, trajectory_dir: str | Path | None = None) -> EpisodeResult:
    """Play one scenario file with the configured roles; the trajectory is written when a folder is given.

    A process that plays many episodes passes its ``factory`` (shared model clients, the sandbox server) and its
    ``worlds`` (kept world templates); without them the episode makes its own and releases them at the end."""
    if factory is None:
        own = RoleFactory()
        try:
            return await play_scenario(path, cfg, factory=own, worlds=worlds, trajectory_dir=trajectory_dir)
        finally:
            await own.aclose()
    path = Path(path)
    scenario = load_scenario(path)
    built = build_world(scenario, image_root=cfg.image_root, images=cfg.images, file=path, seed=cfg.seed,
                        cache=worlds)
    world = built.world
    corpus = scenario.metadata.model_extra.get("web_corpus") if scenario.metadata.model_extra else None
    if corpus:
        world.metadata["web_corpus"] = str((path.parent / corpus).resolve())
    # the scratch folder (the sandbox's files, files tools write) is removed when the episode ends, however it
    # ends, unless MMTSB_KEEP_SCRATCH=1 keeps it (logged)
    scratch_folder = ScratchFolder(f"mmtsb_{scenario.name}_", label=scenario.name)
    scratch = str(scratch_folder)
    try:
        world.metadata["scratch_dir"] = scratch
        tools = registry_for_level(cfg.toolbox)
        spec = registry.interface(cfg.interface)
        session = ToolSession(world, tools, mode="tool_use" if discovers_tools(cfg) else "code_exec",
                              working_set=working_set_for(cfg, tools))
        ctx = EpisodeContext(built=built, registry=tools, session=session, interface=cfg.interface,
                             budgets=cfg.budgets, seed=cfg.seed, ui=cfg.ui)
        agent, user = factory.agent(cfg), factory.user(cfg)
        judges = factory.judges(cfg)
        code_runner = StartingRunner(lambda: factory.code_runner(cfg, session, scratch)) if spec.runs_code else None
        if code_runner is not None:
            session.code_runner = code_runner
        runner = EpisodeRunner(ctx, agent, user, judges=judges, code_runner=code_runner,
                               eval_options=EvalOptions(strict_reference=cfg.strict_reference))
        try:
            result = await runner.run()
        finally:
            for closeable in (agent, user, *judges.values()):
                await closeable.close()
            if code_runner is not None:
                code_runner.close()
            world.close()
    finally:
        scratch_folder.close()
    result.record.scenario_file = str(path)
    result.record.toolbox = cfg.toolbox
    if trajectory_dir is not None:
        write_trajectory(result.record, Path(trajectory_dir) / f"{scenario.name}.json")
    return result


def discovers_tools(cfg: EpisodeConfig) -> bool:
    """Whether the agent gets its tools through discovery (a working set of function-call tools): a tool-call
    interface played by an agent kind that discovers (not the oracle, which knows its solution's tools)."""
    return registry.interface(cfg.interface).tool_calls and registry.agent(cfg.agent).discovery


def working_set_for(cfg: EpisodeConfig, tools: ToolRegistry) -> WorkingSet | None:
    """The discovery working set of a tool-call agent: the interface's pinned tools (and the agent's UI tools in
    UI mode, SPEC.md §1) are never evicted; None when the agent does not discover its tools."""
    if not discovers_tools(cfg):
        return None
    pinned = registry.interface(cfg.interface).pinned_tools
    if cfg.ui:
        pinned = (*pinned, *AGENT_UI_TOOLS)
    return WorkingSet(pinned=[t for t in pinned if t in tools])


class StartingRunner:
    """A code runner (sandbox interpreter) starting in a thread of its own; its first ``run`` waits for it.

    Why: spawning a sandbox waits ~15 ms for its greeting. Done before the episode, with hundreds of episodes
    starting at once, that delayed every episode's first model call; started aside, it overlaps that call.
    A failed start raises from the first ``run`` (the episode then ends with an error, as before)."""

    def __init__(self, start: Callable[[], Any]) -> None:
        self._deadline: float | None = None   # time.monotonic() at which the episode's wall clock runs out
        self._runner: Any = None
        self._error: BaseException | None = None
        self._done = threading.Event()
        threading.Thread(target=self._start, args=(start,), name="mmtsb-sandbox-start", daemon=True).start()

    def _start(self, start: Callable[[], Any]) -> None:
        try:
            self._runner = start()
        except BaseException as e:  # noqa: BLE001 (re-raised by the first run)
            self._error = e
        finally:
            self._done.set()

    def ready(self) -> Any:
        """The started runner (waits for it); raises what its start raised."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._runner

    def set_deadline(self, deadline: float | None) -> None:
        """No run may outlast ``deadline`` (``time.monotonic()``): the episode's wall clock."""
        self._deadline = deadline

    def run(self, code: str) -> Any:
        """Run ``code``; with a deadline, the run is stopped when the episode's wall clock runs out (the code
        run by the loop and ``execute_code`` calls alike)."""
        runner = self.ready()
        if self._deadline is None:
            return runner.run(code)
        return runner.run(code, timeout=max(0.001, self._deadline - time.monotonic()))

    def close(self) -> None:
        self._done.wait()
        if self._runner is not None and hasattr(self._runner, "close"):
            self._runner.close()


def write_trajectory(trajectory: Trajectory, target: Path) -> Path:
    """Write atomically (temp file + rename) so a killed run never leaves half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp_", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(trajectory.to_json())
    os.replace(tmp, target)
    return target
