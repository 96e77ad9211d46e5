"""World templates kept for reuse within one process: :class:`WorldCache`, owned by whoever plays many episodes
(the episode worker, a warm-up, a benchmark) and passed down explicitly; without one, every world is built
afresh.

Why an object, not a module cache: the design keeps no global state. Two workers in one process (tests) then
never share templates, a test can start from an empty cache, and the owner decides how much is kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")

#: base-world templates kept (one per main user, reference time and auto-login)
BASE_TEMPLATES_KEPT = 64
#: built scenario states kept (one per scenario content and image settings)
SCENARIO_STATES_KEPT = 64


class BoundedStore(Generic[T]):
    """Immutable values by key, the least recently used dropped beyond ``max_items``."""

    def __init__(self, max_items: int) -> None:
        self.max_items = max_items
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> T | None:
        value = self._items.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return value

    def put(self, key: Hashable, value: T) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.max_items:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class WorldCache:
    """The templates one process keeps: seeded base worlds (``base``, see :func:`mmtsb.apps.base_world.
    build_base_world`) and built scenario states (``scenarios``, see :func:`mmtsb.scenarios.build.build_world`).
    Values are pure data (database images, image bytes, metadata), never mutated: worlds are copies."""

    def __init__(self, *, base_kept: int = BASE_TEMPLATES_KEPT, scenarios_kept: int = SCENARIO_STATES_KEPT) -> None:
        self.base: BoundedStore = BoundedStore(base_kept)
        self.scenarios: BoundedStore = BoundedStore(scenarios_kept)
