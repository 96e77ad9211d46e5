"""Calling tools through a ToolSession: validation errors name the tool and parameter, failures are
observations (never crashes), writes of failing calls are rolled back, device state is enforced."""

from __future__ import annotations

from testkit import call_err, call_ok
from mmtsb.tools.session import ToolSession, WorkingSet
from mmtsb.tools.spec import tool
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.types import NOT_GIVEN, NotGiven
from mmtsb.world import device


def test_unknown_tool_suggests_close_names(session):
    err = call_err(session, "simple_note_create_notes", title="a", content="b")
    assert err.type == "UnknownToolError" and "simple_note_create_note" in err.message


def test_argument_errors_name_tool_and_parameter(session):
    err = call_err(session, "simple_note_create_note", title="a")
    assert "simple_note_create_note" in err.message and "'content'" in err.message and "missing" in err.message
    err = call_err(session, "simple_note_create_note", title="a", content="b", colour="red")
    assert "'colour'" in err.message and "title, content, tags, pinned" in err.message
    err = call_err(session, "simple_note_show_note", note_id="seven")
    assert "'note_id'" in err.message and "int" in err.message
    err = call_err(session, "simple_note_create_note", title=None, content="b")
    assert "'title'" in err.message and "null" in err.message
    out = session.call("simple_note_show_note", ["not", "a", "dict"])
    assert not out.ok and "JSON object" in out.error.message


def test_lax_coercion_of_numeric_strings(session):
    nid = call_ok(session, "simple_note_create_note", title="a", content="b")["note_id"]
    assert call_ok(session, "simple_note_show_note", note_id=str(nid))["note_id"] == nid


def test_network_and_auth_requirements(session, world):
    device_id = device.settings(world)["device_id"]
    world.update("SETTING", device_id, {"wifi": False, "cellular": False})
    err = call_err(session, "simple_note_search_notes")
    assert err.type == "ConnectionError" and "Network is not available" in err.message
    world.update("SETTING", device_id, {"cellular": True})
    call_ok(session, "simple_note_search_notes")
    device.logout(world, "simple_note")
    err = call_err(session, "simple_note_search_notes")
    assert err.type == "PermissionError" and "simple_note_login" in err.message


def _tiny_registry():
    @tool(domain="test", mutates=True)
    def boom(world, text: str, flag: bool | NotGiven = NOT_GIVEN) -> str:
        """Writes a note then fails.

        Args:
            text: note text.
            flag: not given means the default behaviour.
        """
        world.insert("simple_note.notes", {"user_id": 50, "title": text, "content": ""})
        raise RuntimeError(f"exploded after writing (flag={flag!r})")

    @tool(domain="test", visible_to=("user",))
    def only_user(world) -> str:
        """A user-only tool."""
        return "hi"

    return ToolRegistry(s for s in (boom.__mmtsb_tool__, only_user.__mmtsb_tool__))


def test_failing_tool_is_rolled_back_and_reported(world):
    s = ToolSession(world, _tiny_registry())
    before = world.snapshot()
    out = s.call("boom", {"text": "x"})
    assert out.error.type == "RuntimeError" and "flag=NOT_GIVEN" in out.error.message
    assert world.diff(before).empty
    assert s.history[-1] is out and out.duration_s >= 0


def test_role_visibility(world):
    s = ToolSession(world, _tiny_registry())
    assert "not available to the agent" in s.call("only_user", {}).error.message
    assert s.call("only_user", {}, role="user").value == "hi"


def test_working_set_is_an_lru_with_pinned_tools():
    ws = WorkingSet(capacity=3, pinned=["search"])
    assert ws.touch(["a", "b"]) == []
    assert ws.touch(["c"]) == ["a"]          # search is pinned, a is the least recent
    ws.touch(["b"])                           # refresh b
    assert ws.touch(["d"]) == ["c"]
    assert "search" in ws and ws.names()[-1] == "d"


def test_tool_use_agent_may_only_call_tools_in_its_working_set(world):
    from mmtsb.tools.toolbox import full_registry

    s = ToolSession(world, full_registry(), working_set=WorkingSet(pinned=["api_docs_search_api_docs"]))
    err = s.call("simple_note_search_notes", {}).error
    assert err.type == "PermissionError" and "api_docs_search_api_docs" in err.message
    assert s.call("api_docs_search_api_docs", {"query": "search notes"}).ok
    assert s.call("simple_note_search_notes", {}).ok
