"""The shape every app follows: its tables, its tool modules, and how it seeds the base world.

Every app package has one layout (``tests/apps/test_app_layout.py`` checks it):

* ``schema.py``: its tables;
* ``seed.py``: its base rows for the base people (and fix-ups after a scenario's entities), when it has any;
* ``core.py``: the helpers its tool modules share, when it has several;
* ``tools.py`` (one module) or ``tools_<area>.py`` (several): the ``@tool`` functions, and only there;
  any other module is a helper named for what it holds (``catalogue.py``, ``views.py``);
* ``__init__.py``: ``APP = App(...)`` and, in ``__all__``, the names other modules import from the package.

Adding an app is mechanical: create the package, then list it in :data:`mmtsb.apps.APP_PACKAGES`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from random import Random
from typing import TYPE_CHECKING
from collections.abc import Callable

from mmtsb.world.schema import Table

if TYPE_CHECKING:
    from mmtsb.world.people import Person
    from mmtsb.world.world import World


@dataclass(frozen=True)
class BaseContext:
    """What app seeds need to build the base world before a scenario's entities are injected."""

    people: tuple["Person", ...]          # base users, ids 1..110 (the main user among them)
    main_user: "Person"
    reference_time: datetime
    rng: Random

    def person(self, user_id: int) -> "Person":
        return next(p for p in self.people if p.id == user_id)


@dataclass(frozen=True)
class App:
    """One simulated app (or device-side domain).

    Attributes:
        name: the app name, also the SQL schema of its tables (``gmail``) except for device tables.
        tables: its tables.
        tool_modules: dotted module paths whose ``@tool`` functions belong to this app.
        seed: fills base rows (users, defaults) into a fresh World.
        companions: table key -> other tables that the same user actions write as side effects
            (e.g. sending an email also writes thread rows); guardrails do not count those writes.
        id_offsets: table key -> offset added to small numbers in reference strings (``gmail_email_5``).
        login_username: how the app's login identifies the main user: ``email`` or ``phone_number``.
    """

    name: str
    tables: tuple[Table, ...]
    tool_modules: tuple[str, ...] = ()
    seed: Callable[["World", BaseContext], None] | None = None
    companions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    id_offsets: dict[str, int] = field(default_factory=dict)
    login_username: str = "email"

    @property
    def has_accounts(self) -> bool:
        """Whether the app has user accounts (a ``<name>.users`` table) that a user logs into."""
        return any(t.key == f"{self.name}.users" for t in self.tables)
