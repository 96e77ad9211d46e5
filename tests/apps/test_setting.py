"""Device settings: base state, getters/setters, the low-battery rules and the location requirement."""

import pytest
from testkit import call_err, call_ok

SWITCHES = [("cellular_service", "cellular"), ("wifi", "wifi"), ("location_service", "location_service")]


def test_base_setting_row(world):
    (row,) = world.rows("SETTING")
    assert row["cellular"] and row["wifi"] and row["location_service"] and not row["low_battery_mode"]
    assert (row["locale"], row["utc_offset_seconds"], row["latitude"], row["longitude"]) == \
        ("en_US", -25200, 37.2439, -122.0308)
    assert row["formatted_address"] == "15400 Montalvo Rd, Saratoga, CA 95070, USA"
    assert world.count("CONTACT") == world.count("MESSAGING") == world.count("NOTES") == 0


@pytest.mark.parametrize("tool_name, column", SWITCHES)
def test_switch_off_and_on(session, world, tool_name, column):
    assert call_ok(session, f"get_{tool_name}_status") is True
    call_ok(session, f"set_{tool_name}_status", on=False)
    assert world.rows("SETTING")[0][column] is False
    assert call_ok(session, f"get_{tool_name}_status") is False
    assert "already off" in call_err(session, f"set_{tool_name}_status", on=False).message
    call_ok(session, f"set_{tool_name}_status", on=True)
    assert call_ok(session, f"get_{tool_name}_status") is True
    err = call_err(session, f"set_{tool_name}_status", on=True)
    assert err.type == "ValueError" and "already on" in err.message


def test_low_battery_mode_switches_radios_off_and_blocks_them(session, world):
    assert call_ok(session, "get_low_battery_mode_status") is False
    assert "already off" in call_err(session, "set_low_battery_mode_status", on=False).message
    call_ok(session, "set_low_battery_mode_status", on=True)
    row = world.rows("SETTING")[0]
    assert row["low_battery_mode"] and not (row["cellular"] or row["wifi"] or row["location_service"])
    for tool_name, _ in SWITCHES:
        err = call_err(session, f"set_{tool_name}_status", on=True)
        assert err.type == "PermissionError" and "low battery mode" in err.message
    call_ok(session, "set_low_battery_mode_status", on=False)
    assert call_ok(session, "get_wifi_status") is False  # stays off until turned on again
    call_ok(session, "set_wifi_status", on=True)
    assert call_ok(session, "get_wifi_status") is True


def test_get_current_location_needs_location_service(session):
    assert call_ok(session, "get_current_location") == {"latitude": 37.2439, "longitude": -122.0308}
    call_ok(session, "set_location_service_status", on=False)
    err = call_err(session, "get_current_location")
    assert err.type == "PermissionError" and "Location service is off" in err.message
