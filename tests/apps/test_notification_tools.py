"""The notification tools written once (NotificationBox.add_tools) and registered by todoist, splitwise and venmo."""

import pytest

from mmtsb.apps.notifications import TOOLS, NotificationBox
from mmtsb.tools.toolbox import full_registry


@pytest.mark.parametrize("app", ["todoist", "splitwise", "venmo"])
def test_each_app_registers_the_six_tools_in_its_module_in_order(app):
    module = f"mmtsb.apps.{app}.tools_notifications"
    names = [s.name for s in full_registry() if s.fn.__module__ == module]
    assert names == [f"{app}_{t}" for t in TOOLS]
    for name in names:
        spec = full_registry().get(name)
        assert spec.fn.__name__ == spec.fn.__qualname__ == name
        assert spec.tables == (f"{app}.notifications",) and spec.requires.auth == app


def test_wording_for_an_unknown_tool_is_rejected():
    box = NotificationBox("x", "x.notifications", dict)
    with pytest.raises(ValueError, match="unknown notification tools"):
        box.add_tools({"__name__": "x"}, "X", wording={"show_notification": "Lists."})
