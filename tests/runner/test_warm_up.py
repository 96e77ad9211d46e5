"""Episode processes pay their one-time costs (imports, toolbox, base-world templates) before the first episode."""

from __future__ import annotations

import asyncio
import json

from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.runner.execute import plan_episodes
from mmtsb.runner.worker import WarmUp, warm_up_process
from runkit import STARTERS, settings


def test_warm_up_lists_each_scenario_once_in_plan_order(tmp_path):
    tasks = plan_episodes(settings(tmp_path, scenarios=STARTERS[:2], repeats=3))
    warm = WarmUp.for_tasks(tasks)
    assert warm is not None and warm.paths == [str(p) for p in STARTERS[:2]]
    assert WarmUp.for_tasks(tasks, max_scenarios=1).paths == [str(STARTERS[0])]
    assert WarmUp.for_tasks([]) is None


def test_warm_up_builds_the_worlds_and_skips_a_broken_scenario(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"name": "broken"}))
    done = asyncio.run(warm_up_process(WarmUp(cfg=EpisodeConfig(), paths=[str(STARTERS[0]), str(broken)])))
    assert done["worlds"] == 1 and done["cpu_s"] >= 0
