"""A run folder keeps every image its episodes saw or made (scenario images, crops, rendered UI screens) in
``images/<sha256>.<ext>``, each written once, so viewers show what the agent saw and showed."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from PIL import Image
from runkit import NOMINAL, STARTERS, rows, settings, trajectory

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.runner.execute import execute_run
from mmtsb.runner.results import IMAGES_DIR, image_name
from mmtsb.testing import FakeLLMServer


def _images_of(run_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (run_dir / IMAGES_DIR).iterdir()}


def test_every_image_of_every_episode_is_saved_once_under_its_hash(tmp_path: Path):
    run_dir = tmp_path / "run"
    execute_run(settings(run_dir, scenarios=STARTERS, repeats=2), progress=False)
    saved = _images_of(run_dir)
    named: set[str] = set()
    for row in rows(run_dir):
        for image in trajectory(run_dir, row)["images"]:
            name = image_name(image["sha256"], image["mime_type"])
            assert hashlib.sha256(saved[name]).hexdigest() == image["sha256"]
            named.add(name)
        assert row["image_sources"].startswith('["images/')
    assert set(saved) == named                       # nothing else, and each shared image once (2 repeats)
    assert not any(p.name.startswith(".tmp") for p in (run_dir / IMAGES_DIR).iterdir())


def test_an_image_the_agents_code_makes_is_saved_with_the_episode(tmp_path: Path):
    """A code-exec model agent crops a receipt: the crop (a new image id, source crop_image(0)) is in the folder."""
    crop = "```python\npiece = crop_image(image_id=0, left=0, upper=0, right=500, lower=250)\nprint(piece)\n```"
    with FakeLLMServer(script=[crop], default="Done.") as server:
        episode: EpisodeConfig = apply_overrides(EpisodeConfig(), [
            "agent=code_exec", "agent_model.model=openai/fake-model", f"agent_model.api_base={server.base_url}",
            "agent_model.max_retries=1"])
        run_dir = tmp_path / "run"
        execute_run(settings(run_dir, scenarios=[NOMINAL / "mmtsb_nominal_001.json"], episode=episode), progress=False)
    (row,) = rows(run_dir)
    t = trajectory(run_dir, row)
    (made,) = [i for i in t["images"] if i["source"] == "crop_image(0)"]
    assert made["image_id"] == 3                      # after the scenario's three receipts
    data = (run_dir / IMAGES_DIR / image_name(made["sha256"], made["mime_type"])).read_bytes()
    original = Image.open(io.BytesIO((run_dir / IMAGES_DIR / image_name(t["images"][0]["sha256"], "image/png"))
                                     .read_bytes()))
    with Image.open(io.BytesIO(data)) as piece:
        assert piece.size == (original.width // 2, original.height // 4)
    assert any(3 in m["image_ids"] or "ImageResult(image_id=3)" in m["content"] for m in t["messages"])
