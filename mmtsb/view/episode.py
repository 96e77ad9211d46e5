"""One episode's page data: its typed trajectory (read with :meth:`RunData.record`), where each of its images is
in the run folder, the scenario texts its judges read (completion criteria, the user's instructions) together
with each judge's rubric, so the episode and annotation pages show what the judge saw, and the verdicts other
judges gave the same trajectory (``mmtsb rejudge``: every label and judge repeat, criteria with their analysis).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from mmtsb.protocol import registry
from mmtsb.protocol.trajectory import Trajectory
from mmtsb.runner.results import IMAGES_DIR, image_name
from mmtsb.view.runs import RunEntry, failing_criteria

log = logging.getLogger("mmtsb.view")
#: row fields the episode header shows (the rest is in the trajectory)
ROW_FIELDS = ("episode_id", "scenario", "repeat", "agent_model", "user_model", "judge_model", "interface", "toolbox",
              "dataset", "config_hash", "attempts", "failure_class", "infra_failure", "entity_f1_macro",
              "selected_flow_type", "image_arrival", "challenge_type", "dataset_type", "num_images", "agent_cost_usd",
              "user_cost_usd", "agent_total_tokens", "user_total_tokens", "invoked_tool_recall", "surfaced_tool_recall")


class EpisodeNotFound(KeyError):
    """No such episode in the run (or its trajectory cannot be read)."""


def image_files(run_dir: Path, record: Trajectory) -> dict[str, dict[str, Any]]:
    """Each image of the episode by id: its file in the run folder (``images/<sha256>.<ext>``, None when not
    saved: runs written before images were saved), source and MIME type."""
    out: dict[str, dict[str, Any]] = {}
    for image in record.images:
        name = image_name(image.sha256, image.mime_type) if image.sha256 else None
        saved = name is not None and (run_dir / IMAGES_DIR / name).is_file()
        out[str(image.image_id)] = {"file": f"{IMAGES_DIR}/{name}" if saved else None, "source": image.source,
                                    "mime_type": image.mime_type, "sha256": image.sha256}
    return out


def scenario_texts(record: Trajectory) -> dict[str, Any]:
    """What the judges read from the scenario file beside the trajectory: the completion criteria and the
    simulated user's instructions (``error`` says why they are missing when the file cannot be read)."""
    path = record.scenario_file
    if not path:
        return {"error": "the trajectory names no scenario file"}
    from mmtsb.scenarios.loader import ScenarioError, load_scenario

    try:
        scenario = load_scenario(Path(path))
    except (ScenarioError, OSError, ValueError) as e:
        return {"file": path, "error": f"cannot read the scenario file: {e}"}
    return {"file": path, "completion_criteria": scenario.task_completion_criteria,
            "user_instructions": scenario.user_script.replace("{{USER_INSTRUCTION}}", "").strip(),
            "max_messages": scenario.max_messages}


def rubrics(record: Trajectory) -> dict[str, dict[str, Any]]:
    """Per judged party with a verdict in the episode: its criteria and the rubric its LLM judge is given (the
    system prompt; None for a party whose judge has no built-in rubric)."""
    from mmtsb.roles.judges import prompts

    out: dict[str, dict[str, Any]] = {}
    for name, party in registry.judged_parties().items():
        if record.judges.get(name) is None:
            continue
        try:
            text: str | None = prompts.system_prompt(name, party.criteria, ui=record.ui_mode and name == "user")
        except KeyError:
            text = None
        out[name] = {"criteria": list(party.criteria), "description": party.description, "rubric": text}
    return out


def rejudged(run_dir: Path, episode_id: str) -> list[dict[str, Any]]:
    """The episode's verdicts under each re-judged label of the run (``rejudge/<label>/``), one entry per label
    and judge repeat: the label, the judge's name, the repeat and every party's verdict in full. A verdict file
    that cannot be read is listed with its error (the page says so) instead of failing the page."""
    from mmtsb.judging.store import StoreError, VerdictStore, labels

    out: list[dict[str, Any]] = []
    for label in labels(run_dir):
        store = VerdictStore(run_dir, label)
        try:
            record = store.judge()
        except StoreError as e:
            out.append({"label": label, "judge": label, "judge_repeat": 0, "verdicts": {}, "error": str(e)})
            continue
        name = record.name if record is not None else label
        for repeat in range(record.judge_repeats if record is not None else 1):
            try:
                row = store.read(episode_id, repeat)
                verdicts = json.loads(row.get("verdicts") or "{}") if row is not None else None
            except (OSError, ValueError) as e:
                log.warning("%s: verdict of %s (repeat %d) unreadable: %s", store.folder, episode_id, repeat, e)
                out.append({"label": label, "judge": name, "judge_repeat": repeat, "verdicts": {},
                            "error": f"{store.folder.name}: verdict unreadable ({e})"})
                continue
            if verdicts is not None:
                out.append({"label": label, "judge": name, "judge_repeat": repeat, "verdicts": verdicts})
    return out


def judge_requests_payload(entry: RunEntry, episode_id: str,
                           images: tuple[str, str | None] | None = None) -> dict[str, Any]:
    """What each model judge reads of the episode, word for word (see :mod:`mmtsb.view.judge_view`; ``images``
    as :func:`~mmtsb.view.judge_view.judge_requests` takes it)."""
    from mmtsb.view.judge_view import judge_requests

    row = entry.row(episode_id)
    if row is None:
        raise EpisodeNotFound(f"no episode {episode_id!r} in run {entry.run_id}")
    record = entry.data().record(row)
    if record is None:
        return {"error": f"the trajectory of {episode_id} is missing or unreadable (see the viewer's log)"}
    return judge_requests(entry.run_dir, record, images)


def episode_payload(entry: RunEntry, episode_id: str) -> dict[str, Any]:
    """Everything the episode page shows, as JSON-ready data."""
    row = entry.row(episode_id)
    if row is None:
        raise EpisodeNotFound(f"no episode {episode_id!r} in run {entry.run_id}")
    record = entry.data().record(row)
    base: dict[str, Any] = {"run": entry.run_id, "episode_id": episode_id,
                            "labels_run": entry.run_dir.resolve().name,   # the labels' run column (mmtsb.view.labels)
                            "row": {k: row.get(k) for k in ROW_FIELDS if k in row},
                            "failing": failing_criteria(row)}
    if record is None:
        return {**base, "trajectory": None,
                "error": f"the trajectory of {episode_id} is missing or unreadable (see the viewer's log)"}
    return {**base, "trajectory": record.to_dict(), "images": image_files(entry.run_dir, record),
            "scenario_texts": scenario_texts(record), "rubrics": rubrics(record),
            "rejudged": rejudged(entry.run_dir, episode_id)}
