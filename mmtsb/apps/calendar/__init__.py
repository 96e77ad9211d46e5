"""Calendar (ToolSandbox ``calendar`` domain): calendars and events, including recurring series.

Tables live in the shared ``device`` schema under the namespace keys ``CALENDARS``, ``CALENDAR_EVENTS``
and ``CALENDAR_EVENTS_RECURRENCE_STAGING``. The base world has a Personal and a Work calendar and 15
demo events placed relative to the scenario's reference time (:mod:`mmtsb.apps.calendar.seed`).
"""

from mmtsb.apps.base import App
from mmtsb.apps.calendar.schema import TABLES
from mmtsb.apps.calendar.seed import seed

APP = App(name="calendar", tables=TABLES, tool_modules=("mmtsb.apps.calendar.tools",), seed=seed)

__all__ = ["APP"]
