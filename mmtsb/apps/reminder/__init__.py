"""Reminders (ToolSandbox ``reminder`` domain): timed, optionally located reminders on the device.

The ``REMINDER`` namespace starts empty; scenario files may seed it through ``agentsandbox_entities``.
"""

from mmtsb.apps.base import App
from mmtsb.apps.reminder.schema import TABLES

APP = App(name="reminder", tables=TABLES, tool_modules=("mmtsb.apps.reminder.tools",))

__all__ = ["APP"]
