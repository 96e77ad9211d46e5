"""Phone: the AppWorld phone app split into four tool domains that share one ``phone`` schema and the phone
login token: ``phone`` (account), ``contacts``, ``messages`` (text and voice) and ``alarms``."""

from mmtsb.apps.base import App
from mmtsb.apps.phone.schema import COMPANIONS, TABLES
from mmtsb.apps.phone.seed import seed

APP = App(name="phone", tables=TABLES,
          tool_modules=tuple(f"mmtsb.apps.phone.{m}" for m in (
              "tools_account", "tools_contacts", "tools_messages", "tools_alarms")),
          seed=seed, companions=COMPANIONS, login_username="phone_number")

__all__ = ["APP"]
