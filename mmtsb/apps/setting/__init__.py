"""Device settings (ToolSandbox ``setting`` domain) and the device-side namespaces without tools.

Owns the ``SETTING`` row (network, location, battery, locale, time zone, position) and the ``CONTACT``,
``MESSAGING`` and ``NOTES`` namespaces, which have no tools in the catalog but which scenario files may
seed through ``agentsandbox_entities``.
"""

from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.setting.schema import BASE_SETTING_ROW, TABLES
from mmtsb.world.world import World


def seed(world: World, base: BaseContext) -> None:
    """The base device state (SPEC.md §2.3): one SETTING row; CONTACT, MESSAGING and NOTES start empty."""
    world.insert("SETTING", dict(BASE_SETTING_ROW))


APP = App(name="setting", tables=TABLES, tool_modules=("mmtsb.apps.setting.tools",), seed=seed)
