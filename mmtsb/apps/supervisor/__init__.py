"""Supervisor: the device owner's profile, addresses, payment cards and app passwords (read-only tools)."""

from mmtsb.apps.base import App
from mmtsb.apps.supervisor.schema import TABLES
from mmtsb.apps.supervisor.seed import seed

APP = App(name="supervisor", tables=TABLES, tool_modules=("mmtsb.apps.supervisor.tools",), seed=seed)

__all__ = ["APP"]
