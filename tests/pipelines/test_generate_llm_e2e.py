"""``mmtsb generate backend=llm`` through the real command against the fake OpenAI server on 127.0.0.1: every
model-backed stage asks the server (a responder answering each stage's prompt with structured JSON, the first
stage-1 reply malformed so the repair loop runs inside the pipeline), and the pipeline turns three images into
one validated, gold-checked, oracle-solved scenario with tokens, prompt hashes and call counts in its tables; a
fourth file, not an image, is rejected at stage 1 naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pyarrow.parquet as pq
import pytest
from PIL import Image, ImageDraw

from mmtsb.config.paths import find_project_root
from mmtsb.eval.similarity import EXACT, ROUGE_L
from mmtsb.scenarios.validate import gold_check_file, validate_file
from mmtsb.testing.fake_llm import FakeLLMServer
from mmtsb.tools.toolbox import full_registry
from pipelines.items import ARRIVALS, CRITERIA, FLOWS

pytestmark = pytest.mark.e2e

ROOT = find_project_root()
TINY = str(ROOT / "pipelines" / "clip_configs" / "tiny-vit.json")
TITLE, BODY = "Offsite receipts", "Cafe: $12.50\nTaxi: $30.00\nPrints: $8.25\nTotal: $50.75"

VERDICT = {"actionable": True, "needs_visual_extraction": True, "needs_tool_call": True, "domains": ["simple_note"],
           "tools": [{"tool": "simple_note_create_note", "reason": "note the total"}], "facts": ["a receipt total"],
           "reason": "a receipt to file"}
VIABILITY = {"flows": {f: 3 if f == "aggregate" else 0 for f in FLOWS},
             "arrivals": {a: 3 if a == "upfront" else 0 for a in ARRIVALS}, "reason": "receipts add up"}
DRAFT = {"title": "Offsite receipts", "description": "Brenda files three receipts in a note.", "persona": "an organiser",
         "user_id": 50, "goal": f"a note '{TITLE}' listing each receipt and the total",
         "rounds": [{"provide": [1, 2, 3], "query": "Here are the three receipts from the offsite: please put them "
                     "in a note with the total.", "instructions": "Share the receipts; never state amounts.",
                     "transition": "the note exists"},
                    {"provide": [], "query": "Thanks! That is all for now.", "instructions": "End the conversation.",
                     "transition": ""}],
         "preexisting": [], "criteria": f"A note titled '{TITLE}' lists the three receipts and the total."}
ENTITIES = {"appworld_entities": {}, "agentsandbox_entities": {},
            "entity_diff_specs": [{"operation": "create", "source": "appworld", "table": "simple_note.notes",
                                   "entity_data": {"user_id": 50, "title": TITLE, "content": BODY},
                                   "column_similarity_measure": {"user_id": EXACT, "title": ROUGE_L,
                                                                 "content": ROUGE_L}}],
            "solution": [[{"tool": "simple_note_create_note", "arguments": {"title": TITLE, "content": BODY}}], []],
            "replies": [f"I created the note '{TITLE}'.", "You're welcome!"]}
CRITIQUE = {"criteria": {c: {"passed": True, "reason": "fine"} for c in CRITERIA}}

STAGE_OF = {"You screen candidate images": ("associate", VERDICT), "You plan multi-image": ("viability", VIABILITY),
            "You write test conversations": ("expand", DRAFT), "You build the world state": ("entities", ENTITIES),
            "You are a strict reviewer": ("critique", CRITIQUE)}


class Responder:
    """Answers each stage's request; the very first stage-1 request gets malformed JSON."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: dict[str, int] = {}

    def __call__(self, body: dict) -> str:
        system = body["messages"][0]["content"]
        system = system if isinstance(system, str) else " ".join(p.get("text", "") for p in system)
        stage, reply = next(v for k, v in STAGE_OF.items() if system.startswith(k))
        with self.lock:
            self.seen[stage] = self.seen.get(stage, 0) + 1
            first = stage == "associate" and self.seen[stage] == 1
        return '{"actionable": true, "domains": [' if first else "```json\n" + json.dumps(reply) + "\n```"


def test_llm_backend_runs_every_stage_through_the_model(tmp_path):
    images = tmp_path / "images"
    images.mkdir()
    for i, (vendor, total) in enumerate([("Cafe", "12.50"), ("Taxi", "30.00"), ("Prints", "8.25")]):
        im = Image.new("RGB", (160, 200), "white")
        draw = ImageDraw.Draw(im)
        draw.text((10, 10), f"{vendor} receipt #{i}", fill="black")
        draw.text((10, 150), f"TOTAL ${total}", fill="black")
        im.save(images / f"receipt_{i}.png")
    (images / "torn.png").write_text("not an image")   # rejected at stage 1, naming the file; the run goes on
    responder = Responder()
    with FakeLLMServer(responder=responder, usage={"prompt_tokens": 100, "completion_tokens": 20}) as server:
        per_stage = [f"models.{s}.{k}={v}" for s in ("associate", "viability", "expand", "entities", "critique")
                     for k, v in (("model", "openai/fake-model"), ("api_base", server.base_url),
                                  ("max_retries", 1))]
        run = tmp_path / "run"
        args = ["generate", "backend=llm", "source.kind=folder", f"source.path={images}", "n_scenarios=1",
                f"clip.model={TINY}", "progress=false", "rounds_min=2", "rounds_max=2", "balance.challenge.goal_change=0", "balance.challenge.error_correction=0",
                "balance.challenge.state_mutation=0",
                "oracle.agent=oracle", "oracle.judge=static", f"hydra.run.dir={run}",
                *per_stage]
        env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0"}
        proc = subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert set(responder.seen) == {"associate", "viability", "expand", "entities", "critique"}
    (scenario,) = sorted((run / "scenarios").glob("*.json"))
    assert validate_file(scenario, full_registry()).ok and gold_check_file(scenario)["passed"]
    stage1 = pq.read_table(run / "stages" / "1_associate.parquet").to_pylist()
    (torn,) = [r for r in stage1 if r["path"].endswith("torn.png")]
    assert not torn["passed"] and torn["reason"].startswith(f"unreadable_image: {images / 'torn.png'} (")
    stage1.remove(torn)
    assert all(r["passed"] and r["model"] == "openai/fake-model" and len(r["prompt_hash"]) == 16 for r in stage1)
    assert sorted(r["calls"] for r in stage1) == [1, 1, 2]  # the malformed reply was repaired at the call
    repaired = next(r for r in stage1 if r["calls"] == 2)
    assert json.loads(repaired["call_errors"])[0].startswith("malformed_json")
    assert sum(r["prompt_tokens"] for r in stage1) == 400
    funnel = json.loads((run / "funnel.json").read_text())
    assert funnel["final"] == 1 and funnel["tokens"]["prompt"] >= 800  # every stage's calls are counted
    assert funnel["stages"][0]["in"] == 4 and funnel["stages"][0]["rejected"] == {"unreadable_image": 1}
    quality = pq.read_table(run / "stages" / "6_quality.parquet").to_pylist()
    assert quality[0]["critic_passed"] and quality[0]["oracle_f1"] == 1.0 and quality[0]["final"]
    assert "sk-" not in (run / "config.yaml").read_text()
