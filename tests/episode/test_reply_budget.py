"""One reply cannot outrun the message budget: a reply with 300 tool calls under ``max_messages=20`` runs only
as many calls as rows are left, answers the rest as not run, and the episode ends on its budget."""

from __future__ import annotations

import asyncio
import json

from mmtsb.episode.play import play_scenario
from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.testing.fake_llm import FakeLLMServer
from testkit import REPO

SCENARIO = REPO / "scenarios" / "nominal" / "mmtsb_nominal_001.json"
FLOOD = {"tool_calls": [{"id": f"c{i}", "name": "api_docs_search_api_docs", "arguments": {"query": f"note {i}"}}
                        for i in range(300)]}


def test_a_flood_of_tool_calls_in_one_reply_is_bounded_by_the_budget(tmp_path):
    with FakeLLMServer(default=FLOOD) as server:
        cfg = apply_overrides(EpisodeConfig(), ["agent=tool_use", "agent_model.model=openai/fake-model",
                                                f"agent_model.api_base={server.base_url}", "agent_model.max_retries=0",
                                                "budgets.max_messages=20"])
        result = asyncio.run(play_scenario(SCENARIO, cfg, trajectory_dir=tmp_path))
        assert server.request_count == 1  # the budget was spent within the first reply
    assert result.end_reason == "max_messages"
    t = json.loads((tmp_path / f"{SCENARIO.stem}.json").read_text())
    executed = [c for c in t["tool_calls"] if c.get("tool") == "api_docs_search_api_docs"]
    assert 0 < len(executed) <= 20
    skipped = [m for m in t["messages"] if "was not run: the episode's message budget (20) is used up" in m["content"]]
    assert len(executed) + len(skipped) == 300  # every call id got its answer
