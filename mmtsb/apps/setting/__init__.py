"""Device settings (ToolSandbox ``setting`` domain) and the device-side namespaces without tools.

Owns the ``SETTING`` row (network, location, battery, locale, time zone, position) and the ``CONTACT``,
``MESSAGING`` and ``NOTES`` namespaces, which have no tools in the catalog but which scenario files may
seed through ``agentsandbox_entities``.
"""

from mmtsb.apps.base import App
from mmtsb.apps.setting.schema import TABLES
from mmtsb.apps.setting.seed import seed

APP = App(name="setting", tables=TABLES, tool_modules=("mmtsb.apps.setting.tools",), seed=seed)

__all__ = ["APP"]
