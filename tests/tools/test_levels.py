"""Toolbox levels: membership and counts, generated signatures, routing of every route, translation, errors,
the §11.4 choices (follow the FULL tools), auth and rollback through a level tool, and discovery."""

from __future__ import annotations

import dataclasses
import enum
import json
import typing
from typing import Any

import pytest
from testkit import REFERENCE, call_err, call_ok

from mmtsb.tools.levels import (
    LEVELS,
    REDUCED_LEVELS,
    UnreachableToolError,
    expected_count,
    framework_tools,
    level_of,
    registry_for_level,
    to_level_call,
)
from mmtsb.tools.levels.data import table
from mmtsb.tools.levels.dispatch import build_level_spec
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession, WorkingSet, validate_arguments
from mmtsb.tools.spec import Requirements, ToolSpec
from mmtsb.tools.toolbox import full_registry
from mmtsb.tools.types import NOT_GIVEN, ImageId
from mmtsb.world import device

FULL_COUNT = 511


def _members_without_tools(level: str) -> list[str]:
    """Members of a level that cannot exist yet because none of their FULL tools is registered."""
    full = full_registry()
    t = table(level)
    out = []
    for name in t.members:
        d = t.defs.get(name)
        covered = d.covers if d is not None else (name,)
        if not any(c in full for c in covered):
            out.append(name)
    return out


# ------------------------------------------------------------------------------------------ data and counts
def test_shipped_tables_have_the_reference_counts():
    assert {lv: expected_count(lv) for lv in LEVELS} == {"full": 511, "medium": 276, "compact": 165, "mini": 29}
    assert {lv: len(table(lv).members) for lv in LEVELS} == {"full": 511, "medium": 276, "compact": 165, "mini": 29}
    assert len(table("medium").defs) == 68 and len(table("mini").defs) == 25
    # COMPACT: its 49 own tools plus the MEDIUM consolidated tools it inherits
    assert len([d for d in table("compact").defs.values() if d.level == "compact"]) == 49
    for level in LEVELS:
        assert set(framework_tools()) <= set(table(level).members)


@pytest.mark.skipif(not (REFERENCE / "toolbox_levels.json").exists(), reason="../shared/reference not present")
def test_levels_json_is_what_the_generator_writes():
    from mmtsb.tools.levels import build_levels
    from mmtsb.tools.levels.data import DATA_FILE

    src = json.loads((REFERENCE / "toolbox_levels.json").read_text())
    cat = json.loads((REFERENCE / "tool_catalog.json").read_text())
    assert build_levels.build(src, cat) == json.loads(DATA_FILE.read_text())


@pytest.mark.parametrize("level", LEVELS)
def test_level_registry_counts(level):
    registry = registry_for_level(level)
    assert level_of(registry) == level
    missing = _members_without_tools(level)
    assert len(registry) == expected_count(level) - len(missing)
    assert set(registry.names()) | set(missing) == set(table(level).members)
    if len(full_registry()) == FULL_COUNT:
        assert len(registry) == {"full": 511, "medium": 276, "compact": 165, "mini": 29}[level]
    assert registry_for_level(level.upper()) is registry  # cached, case-insensitive


def test_unknown_level_is_named():
    with pytest.raises(ValueError, match="unknown toolbox level 'huge'.*full, medium, compact, mini"):
        registry_for_level("huge")


@pytest.mark.parametrize("level", REDUCED_LEVELS)
def test_passthrough_members_are_the_full_specs(level):
    full = full_registry()
    registry = registry_for_level(level)
    for spec in registry:
        if spec.name not in table(level).defs:
            assert spec is full.get(spec.name)


# ------------------------------------------------------------------------------------------ generated specs
def _level_specs(level: str) -> list[tuple[Any, ToolSpec]]:
    registry = registry_for_level(level)
    return [(d, registry.get(n)) for n, d in table(level).defs.items() if n in registry]


@pytest.mark.parametrize("level", REDUCED_LEVELS)
def test_level_specs_are_generated_from_the_full_tools(level):
    full = full_registry()
    for defn, spec in _level_specs(level):
        routes = [r for r in defn.routes if r.tool in full]
        targets = {r.tool: full.get(r.tool) for r in routes}
        assert set(spec.absorbs) == set(targets), spec.name
        assert spec.mutates == any(t.mutates for t in targets.values())
        assert spec.requires.network == all(t.requires.network for t in targets.values())
        assert spec.requires.auth is None  # checked per routed tool at call time
        domains = {t.domain for t in targets.values()}
        assert spec.domain == (domains.pop() if len(domains) == 1 else "cross_app")
        # dispatch parameters first among their peers, each listing its values
        for key in defn.dispatch:
            p = spec.param(key)
            if not any(key in r.values for r in routes):
                assert p is None
                continue
            values = {r.values[key] for r in routes if key in r.values}
            assert p.required == all(key in r.values for r in routes)
            if p.core_type is bool:
                assert values <= {True, False}
            else:
                assert set(typing.get_args(p.core_type)) == values
                assert all(repr(v) in p.description for v in values)
        # the union of the FULL parameters; required only where every route requires it
        union = {p.name for t in targets.values() for p in t.params}
        assert set(spec.param_names) == union | {k for k in defn.dispatch if spec.param(k) is not None}
        for name in union:
            want = all(targets[r.tool].param(name) is not None and targets[r.tool].param(name).required
                       for r in routes)
            assert spec.param(name).required == want, (spec.name, name)
            if not want:
                assert spec.param(name).default is NOT_GIVEN
        names = spec.param_names
        assert names == [p.name for p in spec.params if p.required] + [p.name for p in spec.params if not p.required]
        schema = spec.openai_schema()["function"]
        assert schema["name"] == spec.name and set(schema["parameters"]["properties"]) == set(names)
        assert spec.description.startswith(spec.summary) and "Operations" in spec.description


def test_a_description_lists_every_operation_with_its_parameters():
    spec = registry_for_level("mini").get("device_settings")
    assert "action='get_location' -> get_current_location" in spec.description
    assert "action='set', setting='cellular' -> set_cellular_service_status" in spec.description
    assert "Parameters: on*" in spec.description
    assert spec.param("setting").description.endswith("Used with: action in ('get', 'set').")
    medium = registry_for_level("medium").get("manage_wifi")
    assert [p.name for p in medium.params] == ["action", "on"] and medium.param("on").required is False


# ------------------------------------------------------------------------------------------ routing
def _sample(t: Any) -> Any:
    """A valid value of a parameter type (for routing checks only)."""
    if t is ImageId or t is int:
        return 1
    if t is float:
        return 1.5
    if t is bool:
        return True
    if t is str:
        return "x"
    if isinstance(t, type) and issubclass(t, enum.Enum):
        return next(iter(t)).value
    origin = typing.get_origin(t)
    if origin is typing.Literal:
        return typing.get_args(t)[0]
    if origin is list:
        (inner,) = typing.get_args(t) or (str,)
        return [_sample(inner)]
    if origin is dict or t is dict:
        return {}
    args = typing.get_args(t)
    if args:
        return _sample(args[0])
    return "x"


def _required_args(spec: ToolSpec) -> dict[str, Any]:
    return {p.name: _sample(p.core_type) for p in spec.params if p.required}


@pytest.fixture(scope="module")
def recording_full():
    """The FULL specs with functions that record (name, arguments) and no device requirements."""
    calls: list[tuple[str, dict[str, Any]]] = []

    def recorder(name: str):
        def fn(_target, **kwargs):
            calls.append((name, kwargs))
            return name
        return fn

    specs = [dataclasses.replace(s, fn=recorder(s.name), requires=Requirements())
             for s in full_registry()]
    return ToolRegistry(specs), calls


@pytest.mark.parametrize("level", REDUCED_LEVELS)
def test_every_route_reaches_its_full_tool(level, recording_full, world):
    fake_full, calls = recording_full
    routed = 0
    for defn in table(level).defs.values():
        spec = build_level_spec(defn, fake_full)
        if spec is None:
            continue
        for route in defn.routes:
            if route.tool not in fake_full:
                continue
            target = fake_full.get(route.tool)
            full_args = _required_args(target)
            args = {**route.values, **full_args}
            kwargs = validate_arguments(spec, args)
            calls.clear()
            assert spec.fn(world, **kwargs) == route.tool, (spec.name, route)
            name, got = calls[-1]
            assert name == route.tool
            assert {k: v for k, v in got.items() if v is not NOT_GIVEN} == {
                k: v for k, v in validate_arguments(target, full_args).items() if v is not NOT_GIVEN}
            routed += 1
    assert routed >= {"medium": 250, "compact": 380, "mini": 450}[level]


@pytest.mark.parametrize("level", LEVELS)
def test_to_level_call_inverts_the_dispatch(level, recording_full, world):
    """Every FULL tool reachable at a level, translated, lands on itself with the same arguments."""
    fake_full, calls = recording_full
    registry = registry_for_level(level)
    specs = {n: (build_level_spec(d, fake_full) if n in registry else None) for n, d in table(level).defs.items()}
    unreachable = []
    for full_spec in full_registry():
        args = _required_args(full_spec)
        try:
            name, level_args = to_level_call(level, full_spec.name, args)
        except UnreachableToolError:
            unreachable.append(full_spec.name)
            continue
        assert name in table(level).members
        if name == full_spec.name:
            assert level_args == args
            continue
        spec = specs[name]
        calls.clear()
        assert spec.fn(world, **validate_arguments(spec, level_args)) == full_spec.name
    registered = set(full_registry().names())
    expected = {n for n in table("full").members if table(level).level_tool_for(n) is None} & registered
    assert set(unreachable) == expected
    if level == "mini":
        # the reference's 30 FULL tools that MINI cannot reach (vision, UI, phone, three more)
        assert {"view_image", "web_search_serper", "gmail_show_thread", "phone_login",
                "amazon_add_product_to_browsing_history"} <= set(unreachable)
    elif level != "full":
        assert unreachable == []


def test_translation_adds_the_dispatch_values():
    assert to_level_call("medium", "alarms_create_alarm", {"time": "07:00"}) == (
        "alarms_manage_alarm", {"action": "create", "time": "07:00"})
    assert to_level_call("mini", "spotify_unlike_song", {"song_id": 3}) == (
        "spotify_manage", {"domain": "like", "entity_type": "song", "like": False, "song_id": 3})
    assert to_level_call("mini", "gmail_show_drafts", {}) == ("gmail_read", {"domain": "drafts"})
    assert to_level_call("mini", "gmail_show_draft", {"draft_id": 4}) == ("gmail_read", {"domain": "drafts",
                                                                                          "draft_id": 4})
    assert to_level_call("compact", "todoist_show_tasks", {}) == ("todoist_manage_task", {"action": "list"})
    assert to_level_call("medium", "todoist_show_tasks", {"query": "a"}) == ("todoist_show_tasks", {"query": "a"})
    assert to_level_call("full", "todoist_show_tasks", {}) == ("todoist_show_tasks", {})
    with pytest.raises(UnreachableToolError, match="'view_image' is not reachable at toolbox level 'mini'"):
        to_level_call("mini", "view_image", {"image_id": 0})


# ------------------------------------------------------------------------------------------ calling
@pytest.fixture
def mini(world):
    return ToolSession(world, registry_for_level("mini"))


@pytest.fixture
def medium(world):
    return ToolSession(world, registry_for_level("medium"))


def test_bad_dispatch_values_are_named_with_the_allowed_ones(mini):
    err = call_err(mini, "todoist_manage", entity="project", action="explode")
    assert err.type == "ArgumentError" and "'action'" in err.message and "'create'" in err.message
    err = call_err(mini, "todoist_manage", entity="project", action="assign")
    assert "action='assign' is not valid for entity='project'" in err.message
    assert "allowed values: 'create', 'show', 'update', 'delete', 'list'" in err.message
    err = call_err(mini, "todoist_manage", entity="project")
    assert "missing required parameter(s) 'action'" in err.message
    err = call_err(mini, "spotify_manage", domain="like", entity_type="song", song_id=1)
    assert "parameter 'like' is required for domain='like', entity_type='song'; one of: True, False" in err.message
    err = call_err(mini, "device_settings", action="get_location", setting="wifi")
    assert "'setting' do(es) not apply to action='get_location'" in err.message


def test_parameters_that_do_not_apply_to_the_action_are_errors(mini, medium):
    err = call_err(mini, "todoist_manage", entity="project", action="list", title="x")
    assert err.type == "ArgumentError"
    assert "'title' do(es) not apply to entity='project', action='list' (todoist_show_projects)" in err.message
    err = call_err(medium, "manage_wifi", action="get", on=True)
    assert "'on' do(es) not apply to action='get' (get_wifi_status)" in err.message
    # explicit nulls for parameters the operation does not have are ignored (models send them)
    assert call_ok(mini, "device_settings", action="get_location", setting=None)["latitude"]
    assert call_ok(medium, "manage_wifi", action="get", on=None) is True
    err = call_err(medium, "manage_wifi", action="set")  # the routed tool's own validation
    assert "get_wifi_status" not in err.message and "'on'" in err.message


def test_level_calls_change_the_world_like_the_full_tools(mini, medium, world):
    assert call_ok(medium, "manage_wifi", action="get") is True
    call_ok(medium, "manage_wifi", action="set", on=False)
    assert device.settings(world)["wifi"] is False
    projects = call_ok(mini, "todoist_manage", entity="project", action="list")
    created = call_ok(mini, "todoist_manage", entity="task", action="create", project_id=projects[0]["project_id"],
                      title="Level task", priority="high")
    task = call_ok(mini, "todoist_manage", entity="task", action="show", task_id=created["task_id"])
    assert task["title"] == "Level task" and task["priority"] == "high"


def test_reference_wrapper_disagreements_follow_the_full_tools(mini):
    """TOOLS.md §11.4: where the reference's level wrappers differ, the FULL tools' values apply."""
    projects = call_ok(mini, "todoist_manage", entity="project", action="list")
    err = call_err(mini, "todoist_manage", entity="task", action="create", project_id=projects[0]["project_id"],
                   title="t", priority="urgent")
    assert "urgent" in err.message
    spec = registry_for_level("mini").get("todoist_manage")
    assert "'minutes', 'hours' or 'days'" in spec.param("duration_unit").description
    assert "0 (muted) to 10" in registry_for_level("mini").get("spotify_player").param("volume").description
    err = call_err(mini, "spotify_player", action="set_volume", volume=50)
    assert "volume" in err.message
    finances = registry_for_level("compact").get("venmo_manage_finances")
    assert "card_to_venmo" in finances.param("transfer_type").description
    err = call_err(mini, "app_account", app="amazon", action="search_users")
    assert "action='search_users' is not valid for app='amazon'" in err.message
    status = registry_for_level("compact").get("venmo_show_payment_requests").param("status")
    assert "cancelled" not in status.description


def test_auth_is_checked_for_the_routed_tool(mini, world):
    device.logout(world, "spotify")
    err = call_err(mini, "spotify_manage", domain="like", entity_type="song", like=True, song_id=1)
    assert err.type == "PermissionError" and "Not authenticated to spotify" in err.message
    # another app behind the same kind of tool still works
    assert isinstance(call_ok(mini, "app_account", app="gmail", action="show_account"), dict)


def test_a_failing_level_call_rolls_back(world):
    """The routed FULL function runs inside the level call's savepoint: a failure after a write undoes it."""
    real = full_registry().get("simple_note_create_note")

    def create_then_fail(w, **kwargs):
        real.fn(w, **kwargs)
        raise RuntimeError("failed after writing")

    fake = ToolRegistry([dataclasses.replace(real, fn=create_then_fail)])
    spec = build_level_spec(table("medium").defs["simple_note_manage_note"], fake)
    assert spec is not None and spec.absorbs == ("simple_note_create_note",)  # only the registered route
    session = ToolSession(world, ToolRegistry([spec]))
    before = world.snapshot()
    err = call_err(session, "simple_note_manage_note", action="create", title="T", content="c")
    assert err.type == "RuntimeError"
    assert world.diff(before).empty
    err = call_err(session, "simple_note_manage_note", action="delete", title="T", content="c")
    assert "'action'" in err.message and "'create'" in err.message and "'delete'" in err.message


# ------------------------------------------------------------------------------------------ discovery
@pytest.mark.parametrize("level", REDUCED_LEVELS)
@pytest.mark.parametrize("method", ["bm25", "reference"])
def test_search_for_an_absorbed_full_name_finds_its_level_tool(level, method):
    registry = registry_for_level(level)
    misses = []
    for spec in full_registry():
        name = table(level).level_tool_for(spec.name)
        if name is None or name == spec.name or name not in registry or "agent" not in spec.visible_to:
            continue
        top = [s.name for s in registry.search_index.search(spec.name, method=method, limit=3)]
        if name not in top:
            misses.append((spec.name, name, top))
    assert misses == []


@pytest.mark.parametrize("level", REDUCED_LEVELS)
def test_search_for_a_passthrough_name_finds_it_the_reference_way(level):
    registry = registry_for_level(level)
    for spec in registry:
        if spec.name in table(level).defs or "agent" not in spec.visible_to or spec.name == "api_docs_search_api_docs":
            continue
        top = [s.name for s in registry.search_index.search(spec.name, method="reference", limit=3)]
        assert spec.name in top, (spec.name, top)


def test_discovery_tool_registers_level_tools(world):
    session = ToolSession(world, registry_for_level("mini"), mode="tool_use",
                          working_set=WorkingSet(pinned=["api_docs_search_api_docs"]))
    out = call_ok(session, "api_docs_search_api_docs", query="todoist_create_task")
    assert "todoist_manage" in out and "todoist_manage" in session.working_set


def test_recall_maps_a_level_tool_to_the_full_tools_it_absorbs():
    """Issue 13: at a reduced level, a level tool found by search surfaces every FULL tool it absorbs, and a
    level call counts as the FULL tool its dispatch values select."""
    from mmtsb.runner.rows import episode_row

    search = {"tool": "api_docs_search_api_docs", "arguments": {"query": "notes"}, "ok": True,
              "value": "Successfully registered 1 tools: ['simple_note']"}
    call = {"tool": "simple_note", "arguments": {"action": "create", "title": "x"}, "ok": True,
            "full_tool": "simple_note_create_note"}
    trajectory = {"schema_version": 4, "scenario": "s", "toolbox": "mini", "tool_calls": [search, call],
                  "expected_tools": ["simple_note_create_note", "simple_note_update_note", "gmail_send_email"]}
    row = episode_row(trajectory)
    assert row["invoked_tool_recall"] == pytest.approx(1 / 3)
    assert row["surfaced_tool_recall"] == pytest.approx(2 / 3)
    assert json.loads(row["invoked_tools"]) == ["simple_note_create_note"]


def test_a_level_call_records_the_full_tool_it_ran():
    from mmtsb.tools.levels import registry_for_level

    spec = registry_for_level("mini").get("simple_note")
    assert spec.route({"action": "update", "note_id": 1, "content": "x"}) == "simple_note_update_note"
