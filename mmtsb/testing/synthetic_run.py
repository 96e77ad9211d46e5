"""A large run folder made from a small real one, for the viewer's tests and benchmark.

:func:`replicate_run` takes a run folder that really played (its rows, trajectories and images) and writes
``n_episodes`` episodes into a new folder through the runner's own :class:`~mmtsb.runner.results.RunLayout`:
each row is a real row with a new episode id and repeat, design-axis values, verdicts, failing criteria, F1
and end reason drawn from a seeded generator (so filters have something to select); each trajectory file is
a hard link to its template's (no extra disk), and the images are linked the same way.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from mmtsb.protocol import registry
from mmtsb.report.data import RunData
from mmtsb.runner.results import IMAGES_DIR, RunLayout

FLOWS = ("aggregate", "compare", "compute", "filter", "validate", "lookup_chain", "cross_reference")
ARRIVALS = ("upfront", "progressive", "mixed", "late")
CHALLENGES = ("none", "error_correction", "goal_change", "state_mutation")
END_REASONS = ("user_ended", "user_ended", "user_ended", "max_steps", "max_messages")


def _link(src: Path, dst: Path) -> None:
    if dst.exists():
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def replicate_run(template_dir: Path, out_dir: Path, n_episodes: int, *, seed: int = 0) -> Path:
    """Write a run of ``n_episodes`` episodes into ``out_dir`` from the run in ``template_dir``."""
    template = RunData.load(Path(template_dir))
    bases = [r for r in template.rows if template.trajectory_path(r) is not None]
    if not bases:
        raise ValueError(f"{template_dir}: no episode with a trajectory to replicate")
    rng = random.Random(seed)
    layout = RunLayout(out_dir)
    layout.prepare()
    for image in (Path(template_dir) / IMAGES_DIR).glob("*"):
        _link(image, layout.images_dir / image.name)
    agent = registry.judged_parties()["agent"]
    for i in range(n_episodes):
        base = bases[i % len(bases)]
        repeat = i // len(bases)
        eid = f"{base['scenario']}__r{repeat}__synthetic{seed}"
        source = template.trajectory_path(base)
        assert source is not None
        _link(source, layout.trajectory_path(eid))
        passed = rng.random() < 0.6
        failing = set() if passed else set(rng.sample(agent.criteria[:4], rng.randint(1, 2)))
        row = {**base, "episode_id": eid, "repeat": repeat,
               "trajectory_path": layout.trajectory_relpath(eid),
               "selected_flow_type": rng.choice(FLOWS), "image_arrival": rng.choice(ARRIVALS),
               "challenge_type": rng.choice(CHALLENGES), "agent_pass": passed,
               "entity_f1": 1.0 if passed else round(rng.random(), 3),
               "end_reason": "user_ended" if passed else rng.choice(END_REASONS),
               **{agent.column(c): (c not in failing) for c in agent.criteria[:4]}}
        layout.write_row(eid, row)
    return Path(out_dir)
