"""Placeholder: the splitwise app is being built (tables, seed and tools land here)."""

from mmtsb.apps.base import App

APP = App(name="splitwise", tables=())
