"""Seed the device settings: one ``SETTING`` row; the ``CONTACT``, ``MESSAGING`` and ``NOTES`` namespaces
start empty."""

from __future__ import annotations

from mmtsb.apps.base import BaseContext
from mmtsb.apps.setting.schema import BASE_SETTING_ROW
from mmtsb.world.world import World


def seed(world: World, base: BaseContext) -> None:
    """The base device state (SPEC.md §2.3): one SETTING row; CONTACT, MESSAGING and NOTES start empty."""
    world.insert("SETTING", dict(BASE_SETTING_ROW))
