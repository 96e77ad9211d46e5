"""Build a scenario's initial world: base state, images, then the file's entities (SPEC.md §1 load order)."""

from __future__ import annotations

import copy
import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from mmtsb.apps.base_world import build_base_world, world_tables
from mmtsb.scenarios.entities import (coerce_row_ids, id_offsets, learn_main_user_id, reference_prefixes,
                                      resolve_relative_cells)
from mmtsb.scenarios.images import ImagePathError, ImagesMode, MissingImagesError, load_images
from mmtsb.scenarios.loader import ScenarioError
from mmtsb.scenarios.model import AGENTSANDBOX_NAMESPACES, Scenario
from mmtsb.vision.store import StoredImage
from mmtsb.world.clock import Clock
from mmtsb.world.templates import WorldCache
from mmtsb.world.world import Snapshot, UnknownTableError, World

@dataclass
class ScenarioWorld:
    """A scenario's world right before play, with the snapshot that scoring compares against."""

    scenario: Scenario
    world: World
    initial: Snapshot
    main_user_id: int
    warnings: list[str] = field(default_factory=list)


def build_world(scenario: Scenario, *, image_root: str | Path | None = None, images: ImagesMode = "require",
                file: str | Path = "<memory>", frozen_clock: bool = True, seed: int = 0,
                auto_login: bool = True, cache: WorldCache | None = None) -> ScenarioWorld:
    """Load everything a scenario needs into a fresh World; raises ScenarioError listing every problem.

    With a ``cache`` (the caller's :class:`~mmtsb.world.templates.WorldCache`), the first build of a scenario's
    content is kept as a template when nothing in it drew from the world's id generator; later builds
    (repeats, other seeds) copy it, which skips the base state, the image files and the entity injection."""
    root = Path(image_root) if image_root is not None else Path(file).parent
    key = _state_key(scenario, root, images, auto_login) if cache is not None else None
    kept = cache.scenarios.get(key) if cache is not None else None
    if kept is not None:
        return kept.copy(scenario, frozen_clock=frozen_clock, seed=seed)
    built = _build_world(scenario, root, images, file, frozen_clock=frozen_clock, seed=seed, auto_login=auto_login,
                         cache=cache)
    if cache is not None and built.world.rng_state == Random(seed).getstate():   # seed-independent: keep it
        cache.scenarios.put(key, _BuiltState.of(built))
    return built


@dataclass(frozen=True)
class _BuiltState:
    """A built scenario world as data: its tables (without change triggers), images and metadata."""

    template: Snapshot
    images: tuple[StoredImage, ...]
    metadata: dict[str, Any]
    main_user_id: int
    warnings: tuple[str, ...]

    @classmethod
    def of(cls, built: ScenarioWorld) -> _BuiltState:
        return cls(built.initial, built.world.images.snapshot(), copy.deepcopy(built.world.metadata),
                   built.main_user_id, tuple(built.warnings))

    def copy(self, scenario: Scenario, *, frozen_clock: bool, seed: int) -> ScenarioWorld:
        world = World(world_tables(), Clock.at(scenario.reference_time, frozen=frozen_clock), seed=seed,
                      template=self.template)
        world.images.extend(self.images)
        world.metadata.update(copy.deepcopy(self.metadata))
        assert world.created_from is not None
        return ScenarioWorld(scenario, world, world.created_from, self.main_user_id, list(self.warnings))


def _state_key(scenario: Scenario, root: Path, images: str, auto_login: bool) -> str:
    """Everything a build depends on: the scenario's name, main user, time, images and entities."""
    content = [scenario.name, scenario.device_state_id, str(scenario.reference_time), scenario.image_paths,
               scenario.agentsandbox_entities, scenario.appworld_entities, str(root.resolve()), images, auto_login]
    return hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()


def _build_world(scenario: Scenario, root: Path, images: ImagesMode, file: str | Path, *, frozen_clock: bool,
                 seed: int, auto_login: bool, cache: WorldCache | None) -> ScenarioWorld:
    main_id = learn_main_user_id(scenario)
    world = build_base_world(scenario.device_state_id, main_id, scenario.reference_time, frozen_clock=frozen_clock,
                             seed=seed, auto_login=auto_login, cache=cache)
    problems: list[str] = []
    warnings: list[str] = []
    try:
        for raw, data in load_images(scenario.image_paths, root, images):
            world.images.add_bytes(data, source=raw)
    except (MissingImagesError, ImagePathError) as e:
        problems.append(f"image_paths: {e}")
    with world.untracked_writes():   # the scenario's rows are the initial state: nothing to log
        problems += inject_agentsandbox(world, scenario, warnings)
        problems += inject_appworld(world, scenario)
    if problems:
        world.close()
        raise ScenarioError(file, problems)
    world.metadata.update({"scenario": scenario.name, "main_user_id": main_id})
    world.forget_tracking()   # the initial state carries no change triggers: copies install their own
    return ScenarioWorld(scenario, world, world.snapshot(), main_id, warnings)


def inject_agentsandbox(world: World, scenario: Scenario, warnings: list[str]) -> list[str]:
    """Device-namespace rows (``agentsandbox_entities``); unknown keys are reported as warnings."""
    problems = []
    for key, rows in scenario.agentsandbox_entities.items():
        namespace = AGENTSANDBOX_NAMESPACES.get(key.lower())
        if namespace is None or not world.has_table(namespace):
            warnings.append(f"agentsandbox_entities[{key!r}]: unknown namespace, skipped (the reference skips it "
                            f"too); known: {', '.join(AGENTSANDBOX_NAMESPACES)}")
            continue
        for i, row in enumerate(rows):
            where = f"agentsandbox_entities[{key!r}][{i}]"
            clean = {k: v for k, v in row.items() if k != "sandbox_message_index"}
            if not clean or all(v is None for v in clean.values()):
                problems.append(f"{where}: an entirely empty row is not allowed")
                continue
            clean = resolve_relative_cells(clean, scenario.reference_time)
            problems += _write(world, namespace, clean, where, merge_single=namespace == "SETTING")
    return problems


def inject_appworld(world: World, scenario: Scenario) -> list[str]:
    """App rows (``appworld_entities``): empty the Amazon cart, then upsert with id coercion."""
    problems = []
    if world.has_table("amazon.cart_entries"):
        world.db.execute('DELETE FROM "amazon"."cart_entries"')
    prefixes, offsets = reference_prefixes(), id_offsets()
    for key, rows in scenario.appworld_entities.items():
        if not world.has_table(key) or "." not in key:
            problems.append(f"appworld_entities[{key!r}]: unknown table; tables are written 'app.table', e.g. "
                            f"'gmail.emails'")
            continue
        for i, row in enumerate(rows):
            where = f"appworld_entities[{key!r}][{i}]"
            clean = resolve_relative_cells(coerce_row_ids(row, prefixes, offsets), scenario.reference_time)
            problems += _write(world, key, clean, where)
    from mmtsb.apps.amazon import refresh_expired_cards
    from mmtsb.apps.file_system import drop_shadowed_seed_directories

    refresh_expired_cards(world)
    drop_shadowed_seed_directories(world)
    return problems


def _write(world: World, key: str, row: dict, where: str, *, merge_single: bool = False) -> list[str]:
    table = world.table(key)
    unknown = [c for c in row if not table.has(c)]
    if unknown:
        return [f"{where}: unknown column(s) {unknown} for table {key}; its columns are {table.column_names}"]
    try:
        existing = world.rows(key) if merge_single else []
        if merge_single and len(existing) == 1:
            world.update(key, existing[0][table.primary_key], row)
        else:
            world.insert(key, row, replace=True)
    except (sqlite3.Error, UnknownTableError, ValueError, TypeError) as e:
        return [f"{where}: cannot insert into {key}: {e}"]
    return []
