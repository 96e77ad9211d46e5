"""The moments every shipped scenario shares: reference time, in-episode timestamp, device offset, seed time."""

from __future__ import annotations

__all__ = ["NOW", "REFERENCE_TIME", "SEED_TIME", "TZ"]

#: the scenario's reference time: Thursday 16 April 2026, 4:51 PM on the device (UTC-7)
REFERENCE_TIME = "2026-04-16T23:51:15.674412+00:00"
#: the AppWorld-side timestamp of rows created during the episode (a placeholder: specs ignore it)
NOW = "2026-04-16T23:51:15"
#: the device's UTC offset: calendar and reminder times in reference solutions are written with it
TZ = "-07:00"
#: the creation time of seeded rows (a week before the reference time)
SEED_TIME = "2026-04-10T09:00:00"
