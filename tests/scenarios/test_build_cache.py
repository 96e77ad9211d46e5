"""A scenario's built state is kept in the caller's WorldCache: later builds are equal, independent copies;
without a cache nothing is kept."""

from __future__ import annotations

from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import load_scenario
from mmtsb.world.templates import WorldCache
from testkit import REPO

SCENARIO = REPO / "scenarios" / "nominal" / "mmtsb_nominal_003.json"


def all_rows(world) -> dict:
    return {key: world.rows(key) for key in sorted(world.tables) if not world.tables[key].internal}


def test_a_second_build_is_an_equal_independent_copy():
    scenario = load_scenario(SCENARIO)
    cache = WorldCache()
    first = build_world(scenario, file=SCENARIO, seed=1, cache=cache)
    second = build_world(scenario, file=SCENARIO, seed=2, cache=cache)
    assert (cache.scenarios.hits, len(cache.scenarios), len(cache.base)) == (1, 1, 1)
    assert all_rows(first.world) == all_rows(second.world)
    assert [i.sha256 for i in map(first.world.images.get, first.world.images.ids())] == \
        [i.sha256 for i in map(second.world.images.get, second.world.images.ids())]
    assert second.world.metadata == first.world.metadata and second.main_user_id == first.main_user_id
    # writes to one copy show in its own diff only
    key = next(k for k in sorted(second.world.tables) if k.startswith("simple_note."))
    second.world.insert(key, {"title": "only in the second", "content": "x"})
    diff = second.world.diff(second.initial)
    assert [r["title"] for r in diff[key].added] == ["only in the second"]
    assert first.world.diff(first.initial).empty
    third = build_world(scenario, file=SCENARIO, seed=3, cache=cache)
    assert third.world.diff(third.initial).empty and all_rows(third.world) == all_rows(first.world)


def test_a_changed_scenario_is_built_again():
    scenario = load_scenario(SCENARIO)
    cache = WorldCache()
    base = build_world(scenario, file=SCENARIO, cache=cache)
    changed = scenario.model_copy(deep=True)
    table = next(iter(changed.appworld_entities))
    changed.appworld_entities[table] = changed.appworld_entities[table][:-1]
    rebuilt = build_world(changed, file=SCENARIO, cache=cache)
    assert len(cache.scenarios) == 2 and cache.base.hits == 1   # built again, on the same base template
    assert rebuilt.world.count(table) == base.world.count(table) - 1


def test_without_a_cache_nothing_is_kept_and_two_caches_never_share():
    scenario = load_scenario(SCENARIO)
    one, two = WorldCache(), WorldCache()
    build_world(scenario, file=SCENARIO, cache=one)
    build_world(scenario, file=SCENARIO)                       # no cache: built afresh, kept nowhere
    build_world(scenario, file=SCENARIO, cache=two)
    assert (one.scenarios.misses, one.scenarios.hits) == (two.scenarios.misses, two.scenarios.hits) == (1, 0)
