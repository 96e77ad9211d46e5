"""The account tools written once (mmtsb.apps.account_tools) and the shared-tool helpers they use."""

import inspect

import pytest

from mmtsb.apps.account_tools import KINDS, AccountApp, Wording
from mmtsb.apps.common import tool_doc
from mmtsb.tools.spec import spec_of
from mmtsb.tools.toolbox import full_registry

#: the apps whose account tools come from mmtsb.apps.account_tools, and the module each registers them in
KIT_APPS = {"amazon": "mmtsb.apps.amazon.tools_account", "file_system": "mmtsb.apps.file_system.tools_account",
            "gmail": "mmtsb.apps.gmail.tools_account", "simple_note": "mmtsb.apps.simple_note.tools",
            "splitwise": "mmtsb.apps.splitwise.tools_account", "spotify": "mmtsb.apps.spotify.tools_account",
            "todoist": "mmtsb.apps.todoist.tools_account", "venmo": "mmtsb.apps.venmo.tools_account"}


def _written_out(world, email: str | None = None) -> dict:
    """Says what it does.

    A second paragraph that runs on
    to a second line.

    Args:
        email: the user's email; when omitted, the one of the
            logged-in user.

    Returns:
        {first_name, last_name} for the
        user.
    """
    return {}


def test_tool_doc_lays_a_docstring_out_as_written():
    built = tool_doc("Says what it does.", "A second paragraph that runs on\nto a second line.",
                     args={"email": "the user's email; when omitted, the one of the\nlogged-in user."},
                     returns="{first_name, last_name} for the\nuser.")
    assert built == _written_out.__doc__
    assert tool_doc("Logs out.", returns="{message}") == "Logs out.\n\n    Returns:\n        {message}\n    "


def test_account_tools_are_registered_in_each_app_module_in_order():
    registry = full_registry()
    for app, module in KIT_APPS.items():
        names = [s.name for s in registry if s.fn.__module__ == module and s.name[len(app) + 1:] in KINDS]
        expected = [f"{app}_{k}" for k in KINDS if f"{app}_{k}" in names]
        assert names == expected, app
        assert f"{app}_login" in names and f"{app}_logout" in names
        for name in names:
            fn = registry.get(name).fn
            assert fn.__name__ == fn.__qualname__ == name
            assert spec_of(fn) is registry.get(name)
            assert inspect.getdoc(fn).splitlines()[0] == registry.get(name).summary


def test_wording_for_a_tool_the_app_does_not_get_is_rejected():
    with pytest.raises(ValueError, match="does not get from here"):
        AccountApp("x", "X", wording={"log_in": Wording("Logs in.")})
    with pytest.raises(ValueError, match=r"\['verify_account'\]"):
        AccountApp("x", "X", verification=False, wording={"verify_account": Wording("Verifies.")})
    assert "search_users" in AccountApp("x", "X", user_search=True).kinds
    assert "show_profile" not in AccountApp("x", "X", profile=False).kinds
