"""In-app notifications, shared by the apps that have them (todoist, splitwise, venmo): each app declares its
own tools (names, signatures, docstrings) and they all behave alike through :class:`NotificationBox`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from mmtsb.apps.common import api_error, current_user_id, paginate
from mmtsb.world.world import World


def _count(n: int) -> str:
    return f"{n} notification{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class NotificationBox:
    """The notifications of one app: its table, the app whose login owns them, and how a row is shown."""

    app: str
    table: str
    view: Callable[[dict[str, Any]], dict[str, Any]]

    def mine(self, world: World, read: bool | None = None) -> list[dict[str, Any]]:
        """The logged-in user's notifications, newest first (optionally only read or unread ones)."""
        rows = world.select(self.table, "user_id = ?", (current_user_id(world, self.app),),
                            order_by="created_at DESC, id DESC")
        return rows if read is None else [r for r in rows if bool(r.get("read")) == read]

    def own(self, world: World, notification_id: int) -> dict[str, Any]:
        row = world.get(self.table, notification_id)
        if row is None or row.get("user_id") != current_user_id(world, self.app):
            raise api_error(f"Notification with notification_id={notification_id} does not exist.")
        return row

    def show(self, world: World, read: bool | None, page_index: int | None,
             page_limit: int | None) -> list[dict[str, Any]]:
        return [self.view(r) for r in paginate(self.mine(world, read), page_index, page_limit)]

    def count(self, world: World, read: bool | None) -> dict[str, int]:
        return {"notifications_count": len(self.mine(world, read))}

    def delete_all(self, world: World) -> dict[str, str]:
        rows = self.mine(world)
        for r in rows:
            world.delete(self.table, r["id"])
        return {"message": f"Deleted {_count(len(rows))}."}

    def mark_all(self, world: World, read: bool) -> dict[str, str]:
        rows = [r for r in self.mine(world) if bool(r.get("read")) != read]
        for r in rows:
            world.update(self.table, r["id"], {"read": read})
        return {"message": f"Marked {_count(len(rows))} as {'read' if read else 'unread'}."}

    def delete_one(self, world: World, notification_id: int) -> dict[str, str]:
        self.own(world, notification_id)
        world.delete(self.table, notification_id)
        return {"message": "Notification deleted."}

    def mark_one(self, world: World, notification_id: int, read: bool) -> dict[str, str]:
        self.own(world, notification_id)
        world.update(self.table, notification_id, {"read": read})
        return {"message": f"Notification marked as {'read' if read else 'unread'}."}
