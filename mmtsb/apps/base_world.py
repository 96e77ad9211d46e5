"""Build the base world every scenario starts from: base people in every app, the main user's profile,
device defaults, and auto-login to the nine apps (as the reference's ``auto_login``)."""

from __future__ import annotations

from datetime import datetime
from random import Random

from mmtsb.apps import all_apps, all_tables
from mmtsb.apps.accounts import code_tables, identity_column
from mmtsb.apps.base import BaseContext
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.people import Person, base_people
from mmtsb.world.world import World


def world_tables() -> list:
    """Every table a World holds: harness bookkeeping plus every app's tables."""
    return [*device.core_tables(), *code_tables(), *all_tables()]


def build_base_world(main_email: str, main_user_id: int, reference_time: datetime | str, *, frozen_clock: bool = True,
                     seed: int = 0, auto_login: bool = True) -> World:
    """A fresh World with the base state (SPEC.md §2.3-2.4) for the given main user."""
    clock = Clock.at(reference_time, frozen=frozen_clock)
    world = World(world_tables(), clock, seed=seed)
    people = base_people(main_email, main_user_id)
    main = next(p for p in people if p.id == main_user_id)
    ctx = BaseContext(people=people, main_user=main, reference_time=clock.reference_time, rng=Random(seed))
    for app in all_apps():
        if app.seed is not None:
            app.seed(world, ctx)
    world.metadata.update({"main_user_id": main_user_id, "main_user_email": main_email})
    if auto_login:
        login_all(world, main)
    return world


def login_all(world: World, main: Person) -> None:
    """Open sessions for the main user in every auto-login app that has a users table."""
    for app in device.AUTO_LOGIN_APPS:
        if world.has_table(f"{app}.users"):
            ident = identity_column(app)
            device.login(world, app, getattr(main, ident))
