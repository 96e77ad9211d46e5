"""A judge's evidence rebuilt from a stored trajectory, so any judge can decide again without replaying the
episode.

What the loop hands judges (:class:`~mmtsb.protocol.evidence.EpisodeEvidence`) is rebuilt from the typed
trajectory (:class:`~mmtsb.protocol.trajectory.Trajectory`) and the scenario file it names: the messages, the
world diff (row level, every table), the entity diff's headline and unexpected writes, the end reason, the
message budget, the tool history, the UI state (UI mode) and the images. Scenario images are read again from
the scenario's image paths and checked against the hashes the trajectory recorded; an image derived during
the episode (a crop, a plot, a UI render) is attached only when the run folder keeps its bytes (see
:class:`RunImages`), else the judge is told it could not be attached and why (never silently dropped).
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.protocol.evidence import EpisodeEvidence
from mmtsb.protocol.messages import Message, ToolCall
from mmtsb.protocol.trajectory import Trajectory
from mmtsb.scenarios.images import ImagesMode, load_images
from mmtsb.scenarios.loader import ScenarioError, load_scenario
from mmtsb.scenarios.model import Scenario
from mmtsb.scenarios.script import parse_user_script
from mmtsb.vision.store import MIME_BY_FORMAT, ImageStore, StoredImage
from mmtsb.world.diff import RowUpdate, TableDiff, WorldDiff

#: where a run folder may keep the bytes of images by content (``<sha256>`` or ``<sha256>.<ext>``)
IMAGE_FOLDERS = ("images",)


class EvidenceError(ValueError):
    """A trajectory whose evidence cannot be rebuilt (its scenario file is gone or unreadable)."""


class ImageUnavailable(ValueError):
    """An image of the episode that cannot be shown to the judge; the message says why."""


@dataclass
class StoredEntityDiff:
    """What judges read of the entity diff (its headline F1 and the writes no spec expected), from the
    trajectory's JSON form."""

    f1: float
    unexpected_writes: list[Any] = field(default_factory=list)


@dataclass
class RunImages:
    """The images of one episode for a judge: the scenario's own (read again, checked against the recorded
    sha256) and derived ones kept by content in the run folder. ``get`` raises with the reason when an image
    cannot be had, which the judge's image plan states."""

    images: dict[int, StoredImage]
    missing: dict[int, str]

    def get(self, image_id: int) -> StoredImage:
        if image_id in self.images:
            return self.images[image_id]
        raise ImageUnavailable(self.missing.get(image_id, f"image id {image_id} is not an image of this episode"))

    def ids(self) -> list[int]:
        return sorted(self.images)


def messages_of(trajectory: Trajectory) -> list[Message]:
    """The conversation as the loop held it (the protocol's messages), from the typed records."""
    return [Message(index=m.index, sender=m.sender, recipient=m.recipient, content=m.content,  # type: ignore[arg-type]
                    image_ids=list(m.image_ids),
                    tool_calls=[ToolCall(c.id, c.name, dict(c.arguments), c.raw_arguments, c.parse_error)
                                for c in m.tool_calls],
                    tool_call_id=m.tool_call_id, tool_name=m.tool_name, is_error=m.is_error,
                    visible_to=tuple(m.visible_to), conversation_active=m.conversation_active, meta=dict(m.meta))
            for m in trajectory.messages]


def world_diff_of(trajectory: Trajectory) -> WorldDiff:
    """The recorded world diff (``WorldDiff.to_dict`` form: updated rows keep only their changed columns,
    which is all a judge is shown of them)."""
    tables: dict[str, TableDiff] = {}
    for key, d in (trajectory.world_diff or {}).items():
        updated = [RowUpdate(u.get("key"), {c: v.get("old") for c, v in (u.get("changed") or {}).items()},
                             {c: v.get("new") for c, v in (u.get("changed") or {}).items()})
                   for u in d.get("updated") or []]
        table = TableDiff(d.get("table") or key, list(d.get("added") or []), updated, list(d.get("deleted") or []))
        if not table.empty:
            tables[key] = table
    return WorldDiff(tables)


def entity_diff_of(trajectory: Trajectory) -> StoredEntityDiff | None:
    ed = trajectory.entity_diff
    if not ed:
        return None
    f1 = ed.get("f1", trajectory.entity_f1)
    return StoredEntityDiff(float(f1 or 0.0), list(ed.get("unexpected_writes") or []))


def ui_state_of(trajectory: Trajectory) -> Any:
    """The final UI state as judges read it (renders, what was shown, the user's interactions), UI mode only."""
    if not trajectory.ui_mode or trajectory.ui is None:
        return None
    from mmtsb.ui.state import UIState

    ui = trajectory.ui
    return UIState(renders=list(ui.get("renders") or []), shown=list(ui.get("shown") or []),
                   history=list(ui.get("interactions") or []))


def scenario_of(trajectory: Trajectory, run_dir: Path) -> tuple[Scenario, Path]:
    """The scenario file the episode played (its recorded path: absolute, or relative to the run folder)."""
    if not trajectory.scenario_file:
        raise EvidenceError(f"episode {episode_label(trajectory)}: the trajectory names no scenario file")
    raw = Path(trajectory.scenario_file)
    candidates = [raw] if raw.is_absolute() else [run_dir / raw, Path.cwd() / raw]
    path = next((c for c in candidates if c.is_file()), None)
    if path is None:
        raise EvidenceError(f"episode {episode_label(trajectory)}: scenario file {trajectory.scenario_file} not "
                            "found (the judge needs its criteria and script)")
    try:
        return load_scenario(path), path
    except ScenarioError as e:
        raise EvidenceError(f"episode {episode_label(trajectory)}: {e}") from None


def episode_label(trajectory: Trajectory) -> str:
    return str(trajectory.run.get("episode_id") or trajectory.scenario)


def run_images(trajectory: Trajectory, scenario: Scenario, scenario_path: Path, run_dir: Path, *,
               image_root: str | Path | None, images: ImagesMode) -> RunImages:
    """The episode's images for a judge (see :class:`RunImages`)."""
    recorded = {i.image_id: i for i in trajectory.images}
    found: dict[int, StoredImage] = {}
    missing: dict[int, str] = {}
    root = Path(image_root) if image_root else scenario_path.parent
    try:
        loaded = list(load_images(scenario.image_paths, root, images))
    except (OSError, ValueError) as e:
        loaded = []
        for i in range(len(scenario.image_paths)):
            missing[i] = f"the scenario's image could not be read again ({e})"
    scenario_images = ImageStore()   # ids 0..n-1 in image_paths order, as the episode's world numbered them
    for raw, data in loaded:
        scenario_images.add_bytes(data, source=raw)
    for image_id in scenario_images.ids():
        image = scenario_images.get(image_id)
        raw = image.source
        want = recorded.get(image_id)
        if want is not None and want.sha256 and want.sha256 != image.sha256:
            missing[image_id] = (f"the file {raw} now differs from the image the episode saw (sha256 "
                                 f"{want.sha256[:12]}...)")
            continue
        found[image_id] = image
    for image_id, record in recorded.items():
        if image_id in found or image_id in missing:
            continue
        data = _kept_bytes(run_dir, record.sha256)
        if data is None:
            missing[image_id] = (f"made during the episode ({record.source or 'derived'}); the run folder keeps no "
                                 "copy of its bytes")
            continue
        found[image_id] = StoredImage(image_id, data, record.mime_type or _mime_of(data), source=record.source or "")
    return RunImages(found, missing)


def _kept_bytes(run_dir: Path, sha256: str | None) -> bytes | None:
    """The bytes of an image kept by content in the run folder, checked against their hash."""
    if not sha256:
        return None
    for folder in IMAGE_FOLDERS:
        base = run_dir / folder
        if not base.is_dir():
            continue
        for path in [base / sha256, *sorted(base.glob(f"{sha256}.*"))]:
            if path.is_file():
                data = path.read_bytes()
                if hashlib.sha256(data).hexdigest() == sha256:
                    return data
    return None


def _mime_of(data: bytes) -> str:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as probe:
        return MIME_BY_FORMAT.get(probe.format or "", "application/octet-stream")


def evidence_from_trajectory(trajectory: Trajectory, run_dir: str | Path, *, image_root: str | Path | None = None,
                             images: ImagesMode = "require") -> EpisodeEvidence:
    """What a judge saw at the end of the episode, rebuilt from its trajectory (see the module docstring)."""
    run_dir = Path(run_dir)
    scenario, path = scenario_of(trajectory, run_dir)
    try:
        script = parse_user_script(scenario.user_script)
    except ValueError as e:
        raise EvidenceError(f"episode {episode_label(trajectory)}: the scenario's user script: {e}") from None
    store = run_images(trajectory, scenario, path, run_dir, image_root=image_root, images=images)
    return EpisodeEvidence(
        scenario, script, messages_of(trajectory), world_diff_of(trajectory),
        entity_diff_of(trajectory),  # type: ignore[arg-type]  (the fields judges read)
        trajectory.end_reason,
        image_ids=sorted({i.image_id for i in trajectory.images} | set(store.ids())),
        images=store,  # type: ignore[arg-type]  (an ImageSource: get/ids)
        max_messages=trajectory.budgets.max_messages or scenario.max_messages,
        rows=trajectory.budgets.rows or 0,
        ui=trajectory.ui_mode,
        ui_state=ui_state_of(trajectory),
        tool_history=list(trajectory.tool_calls),
    )
