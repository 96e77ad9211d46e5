"""Build the base world every scenario starts from: base people in every app, the main user's profile,
device defaults, and auto-login to the nine apps (as the reference's ``auto_login``)."""

from __future__ import annotations

import copy
from datetime import datetime
from random import Random

from mmtsb.apps import account_apps, all_apps, all_tables
from mmtsb.apps.accounts import identity_column
from mmtsb.apps.base import BaseContext
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.people import Person, base_people
from mmtsb.world.templates import WorldCache
from mmtsb.world.world import Snapshot, World


def world_tables() -> list:
    """Every table a World holds: harness bookkeeping plus every app's tables."""
    return [*device.core_tables(), *all_tables()]


def build_base_world(main_email: str, main_user_id: int, reference_time: datetime | str, *, frozen_clock: bool = True,
                     seed: int = 0, auto_login: bool = True, cache: WorldCache | None = None) -> World:
    """A fresh World with the base state (SPEC.md §2.3-2.4) for the given main user.

    The first build for a (main user, reference time, seed, auto-login) combination seeds every app; later
    ones copy that template (a few ms instead of ~70): repeats, sweeps and sibling episodes of one actor
    share it. The copy is a new, independent World with the same rows, ids and id-generator state. Templates
    are kept in ``cache`` (the caller's; without one, nothing is kept and every call seeds afresh).
    """
    ref = reference_time if isinstance(reference_time, str) else reference_time.isoformat()
    key = (main_email, main_user_id, ref, auto_login)
    kept = cache.base.get(key) if cache is not None else None
    if kept is None:
        kept = _template(main_email, main_user_id, ref, auto_login)
        if cache is not None:
            cache.base.put(key, kept)
    template, used_rng, metadata = kept
    if used_rng:  # seeding drew from the id generator, so the template depends on the seed: build afresh
        return _seed_base_world(main_email, main_user_id, reference_time, seed=seed, auto_login=auto_login,
                                frozen_clock=frozen_clock)
    world = World(world_tables(), Clock.at(reference_time, frozen=frozen_clock), seed=seed, template=template)
    world.metadata.update(copy.deepcopy(metadata))
    return world


def _template(main_email: str, main_user_id: int, reference_time: str, auto_login: bool) -> tuple[Snapshot, bool, dict]:
    """The seeded base world as an immutable snapshot (pure data, never mutated, so a cache may keep it), and
    whether seeding drew from the world's id generator (then copies could not take an episode's own seed)."""
    world = _seed_base_world(main_email, main_user_id, reference_time, seed=0, auto_login=auto_login)
    try:
        used_rng = world.rng_state != Random(0).getstate()
        world.forget_tracking()   # copies install change triggers only for the tables they write
        return world.snapshot(), used_rng, copy.deepcopy(world.metadata)
    finally:
        world.close()


def _seed_base_world(main_email: str, main_user_id: int, reference_time: datetime | str, *, seed: int,
                     auto_login: bool, frozen_clock: bool = True) -> World:
    clock = Clock.at(reference_time, frozen=frozen_clock)
    world = World(world_tables(), clock, seed=seed)
    people = base_people(main_email, main_user_id)
    main = next(p for p in people if p.id == main_user_id)
    ctx = BaseContext(people=people, main_user=main, reference_time=clock.reference_time, rng=Random(seed))
    with world.untracked_writes():   # the base state is where every diff starts: nothing to log
        for app in all_apps():
            if app.seed is not None:
                app.seed(world, ctx)
        world.metadata.update({"main_user_id": main_user_id, "main_user_email": main_email})
        if auto_login:
            login_all(world, main)
    return world


def login_all(world: World, main: Person) -> None:
    """Open sessions for the main user in every auto-login app that has a users table."""
    for app in account_apps():
        if world.has_table(f"{app}.users"):
            ident = identity_column(app)
            device.login(world, app, getattr(main, ident))
