"""Device settings tools (ToolSandbox ``setting`` domain): cellular, wifi, location service, low-battery mode.

Rules (TOOLS.md §5): setting a value to its current state is an error (ValueError); turning low-battery
mode on also switches cellular, wifi and location service off; cellular, wifi and location service
cannot be turned on while low-battery mode is on (PermissionError).
"""

from __future__ import annotations

from mmtsb.apps.setting.core import SETTING, setting_row
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

DOMAIN = "setting"
LOCATED = Requirements(location=True)

#: column -> how messages name it
_LABELS = {"low_battery_mode": "Low battery mode", "location_service": "Location service",
           "cellular": "Cellular service", "wifi": "Wifi"}
#: what low-battery mode switches off
_POWER_HUNGRY = ("cellular", "wifi", "location_service")


def _get(world: World, column: str) -> bool:
    return bool(setting_row(world)[column])


def _set(world: World, column: str, on: bool) -> None:
    """Change one boolean setting, enforcing the low-battery and no-op rules."""
    row = setting_row(world)
    label = _LABELS[column]
    if on and column in _POWER_HUNGRY and row["low_battery_mode"]:
        raise PermissionError(f"{label} cannot be turned on while low battery mode is on. "
                              "Turn off low battery mode first (set_low_battery_mode_status(on=False)).")
    if bool(row[column]) == on:
        raise ValueError(f"{label} is already {'on' if on else 'off'}.")
    fields = {column: on}
    if column == "low_battery_mode" and on:
        fields.update({c: False for c in _POWER_HUNGRY})
    world.update(SETTING, row["device_id"], fields)


@tool(domain=DOMAIN, mutates=True, tables=(SETTING,))
def set_low_battery_mode_status(world: World, on: bool) -> None:
    """Turns low battery mode on or off.

    Turning it on also turns off cellular service, wifi and location service (they stay off when low
    battery mode is turned off again). Fails with ValueError if low battery mode is already in the
    requested state.

    Args:
        on: True to turn low battery mode on, False to turn it off.

    Returns:
        None
    """
    _set(world, "low_battery_mode", on)


@tool(domain=DOMAIN, tables=(SETTING,))
def get_low_battery_mode_status(world: World) -> bool:
    """Reports whether low battery mode is on.

    Returns:
        True if low battery mode is on, else False.
    """
    return _get(world, "low_battery_mode")


@tool(domain=DOMAIN, mutates=True, tables=(SETTING,))
def set_location_service_status(world: World, on: bool) -> None:
    """Turns the location service on or off.

    Fails with PermissionError when turning it on while low battery mode is on, and with ValueError
    if the location service is already in the requested state.

    Args:
        on: True to turn the location service on, False to turn it off.

    Returns:
        None
    """
    _set(world, "location_service", on)


@tool(domain=DOMAIN, tables=(SETTING,))
def get_location_service_status(world: World) -> bool:
    """Reports whether the location service is on.

    Returns:
        True if the location service is on, else False.
    """
    return _get(world, "location_service")


@tool(domain=DOMAIN, mutates=True, tables=(SETTING,))
def set_cellular_service_status(world: World, on: bool) -> None:
    """Turns cellular service on or off.

    Fails with PermissionError when turning it on while low battery mode is on, and with ValueError
    if cellular service is already in the requested state.

    Args:
        on: True to turn cellular service on, False to turn it off.

    Returns:
        None
    """
    _set(world, "cellular", on)


@tool(domain=DOMAIN, tables=(SETTING,))
def get_cellular_service_status(world: World) -> bool:
    """Reports whether cellular service is on.

    Returns:
        True if cellular service is on, else False.
    """
    return _get(world, "cellular")


@tool(domain=DOMAIN, mutates=True, tables=(SETTING,))
def set_wifi_status(world: World, on: bool) -> None:
    """Turns wifi on or off.

    Fails with PermissionError when turning it on while low battery mode is on, and with ValueError
    if wifi is already in the requested state.

    Args:
        on: True to turn wifi on, False to turn it off.

    Returns:
        None
    """
    _set(world, "wifi", on)


@tool(domain=DOMAIN, tables=(SETTING,))
def get_wifi_status(world: World) -> bool:
    """Reports whether wifi is on.

    Returns:
        True if wifi is on, else False.
    """
    return _get(world, "wifi")


@tool(domain=DOMAIN, requires=LOCATED, tables=(SETTING,))
def get_current_location(world: World) -> dict[str, float]:
    """Returns the device's current coordinates.

    Needs the location service on (PermissionError otherwise; see set_location_service_status).

    Returns:
        {latitude: float, longitude: float}
    """
    row = setting_row(world)
    if not row["location_service"]:
        raise PermissionError("Location service is off. Turn on location service first.")
    return {"latitude": row["latitude"], "longitude": row["longitude"]}
