"""Placeholder: the todoist app is being built (tables, seed and tools land here)."""

from mmtsb.apps.base import App

APP = App(name="todoist", tables=())
