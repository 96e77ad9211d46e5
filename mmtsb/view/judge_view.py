"""What a model judge reads of an episode, word for word: the request the registry's LLM judge of each party
would send for this trajectory (its rubric and its evidence text, each attached image after its label), rebuilt
from the typed trajectory as ``mmtsb rejudge`` rebuilds it (:func:`mmtsb.judging.evidence.evidence_from_trajectory`).

The annotation page shows it so an annotator reads exactly what the judge read. Nothing is sent: the judges are
made with a placeholder model id only to build their request; image bytes are replaced by a line naming the
image (the page shows the images themselves in the conversation).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mmtsb.protocol import registry
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.trajectory import Trajectory

log = logging.getLogger("mmtsb.view")
#: the judge backend whose requests are shown (the model judges; the static judges read no prompt)
BACKEND = "llm"
#: a model id for building requests only (never called)
PLACEHOLDER_MODEL = "openai/annotation-view"


def _user_text(content: Any) -> str:
    """The user message as the judge reads it: text parts in order, each image part as one line."""
    if isinstance(content, str):
        return content
    out = []
    for part in content or []:
        if part.get("type") == "text":
            out.append(str(part.get("text", "")))
        else:
            out.append("(image attached)")
    return "\n".join(out)


def _not_encoded(image: Any) -> dict[str, Any]:
    """Stands in for the judge client's image encoding: the request is only read, never sent."""
    return {"type": "image_url"}


def images_setting(run_dir: Path) -> tuple[str, str | None]:
    """Where the run's scenario images are (``images``, ``image_root``), from its config.yaml."""
    from mmtsb.judging.rejudge import RejudgeOptions, run_images_setting

    return run_images_setting(run_dir, RejudgeOptions(images="placeholder"))


def judge_requests(run_dir: Path, record: Trajectory,
                   images: tuple[str, str | None] | None = None) -> dict[str, Any]:
    """Per judged party of the episode (those with a verdict), the model judge's system prompt and user message
    text; ``error`` instead when the evidence cannot be rebuilt (its scenario file is gone, say). ``images``:
    the run's :func:`images_setting`, read from its config when not given (an export reads it once per run)."""
    from mmtsb.judging.evidence import EvidenceError, evidence_from_trajectory

    images, image_root = images if images is not None else images_setting(run_dir)
    try:
        evidence = evidence_from_trajectory(record, run_dir, image_root=image_root, images=images)  # type: ignore[arg-type]
    except (EvidenceError, OSError, ValueError) as e:
        return {"error": f"the judges' evidence cannot be rebuilt: {e}"}
    settings = ModelSettings(model=PLACEHOLDER_MODEL)
    request = registry.RoleRequest(EpisodeConfig(judge=BACKEND, judge_model=settings, ui=record.ui_mode),
                                   settings, {})
    parties: dict[str, Any] = {}
    for name in registry.judged_parties():
        make = registry.judge_maker(BACKEND, name)
        if make is None or record.judges.get(name) is None:
            continue
        judge = make(request)
        judge.client.image_part = _not_encoded   # type: ignore[attr-defined, method-assign]
        try:
            system, user = judge.build_messages(evidence)
        except (OSError, ValueError) as e:
            log.warning("%s: the %s judge's request cannot be built: %s", record.scenario, name, e)
            parties[name] = {"error": f"the {name} judge's request cannot be built: {e}"}
            continue
        parties[name] = {"system": system["content"], "text": _user_text(user["content"])}
    return {"parties": parties}
