"""The main users and the money format the starter scenarios share."""

from __future__ import annotations

from mmtsb.authoring.model import known_user

__all__ = ["BRENDA", "CHRISTINA", "SIMONE", "THOMAS", "money"]

BRENDA = known_user(50)
CHRISTINA = known_user(13)
SIMONE = known_user(105)
THOMAS = known_user(8)


def money(x: float) -> str:
    """A dollar amount as printed on the images and in the texts: ``$1,234.50``."""
    return f"${x:,.2f}"
