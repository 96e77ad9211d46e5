"""In-app notifications, shared by the apps that have them (todoist, splitwise, venmo).

Each of those apps offers the same six tools under its own name (``<app>_show_notifications``,
``<app>_delete_notifications``, ``<app>_mark_notifications``, ``<app>_show_notifications_count``,
``<app>_delete_notification`` and ``<app>_mark_notification``). They are written once, in
:meth:`NotificationBox.add_tools`, as plain typed functions over the box's behaviour; an app's
``tools_notifications`` module makes its box and calls ``add_tools`` with the app's wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping

from mmtsb.apps.common import api_error, current_user_id, paginate, register_tool, tool_doc
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

#: the tools, in the order an app's module lists them
TOOLS = ("show_notifications", "delete_notifications", "mark_notifications", "show_notifications_count",
         "delete_notification", "mark_notification")


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

    # ------------------------------------------------------------------------------------------ the tools
    def add_tools(self, namespace: dict[str, Any], title: str, *, data: str = "",
                  notification_id: str = "the notification's id.", wording: Mapping[str, str] | None = None) -> None:
        """Register the app's six notification tools in the module whose ``globals()`` is ``namespace``.

        ``title`` is the app as the docs name it; ``data`` says, after the listing's result, what a
        notification's ``data`` holds in this app; ``notification_id`` describes that parameter; ``wording``
        replaces the standard summary of the tools it names (names of :data:`TOOLS`).
        """
        say = dict(wording or {})
        unknown = sorted(set(say) - set(TOOLS))
        if unknown:
            raise ValueError(f"{self.app}: wording for unknown notification tools {unknown}; tools: {', '.join(TOOLS)}")
        authed = Requirements(network=True, auth=self.app)

        def add(fn: Callable[..., Any], summary: str, args: dict[str, str], returns: str, mutates: bool) -> None:
            kind = fn.__name__
            register_tool(fn, f"{self.app}_{kind}", namespace, tool_doc(say.get(kind, summary), args=args,
                                                                          returns=returns),
                          domain=self.app, mutates=mutates, requires=authed, tables=(self.table,))

        def show_notifications(world: World, read: bool | None = None, page_index: int | None = 0,
                               page_limit: int | None = 5) -> list[dict[str, Any]]:
            return self.show(world, read, page_index, page_limit)

        def delete_notifications(world: World) -> dict[str, str]:
            return self.delete_all(world)

        def mark_notifications(world: World, read: bool) -> dict[str, str]:
            return self.mark_all(world, read)

        def show_notifications_count(world: World, read: bool | None = None) -> dict[str, int]:
            return self.count(world, read)

        def delete_notification(world: World, notification_id: int) -> dict[str, str]:
            return self.delete_one(world, notification_id)

        def mark_notification(world: World, notification_id: int, read: bool) -> dict[str, str]:
            return self.mark_one(world, notification_id, read)

        add(show_notifications, f"Lists your {title} notifications, newest first.",
            {"read": "only read (true) or unread (false) notifications; all when omitted.",
             "page_index": "the page to return, from 0.", "page_limit": "notifications per page, 1 to 20."},
            "list[{notification_id, type, title, message, read, created_at, data}]" + data, mutates=False)
        add(delete_notifications, f"Deletes all your {title} notifications.", {}, "{message}", mutates=True)
        add(mark_notifications, f"Marks every one of your {title} notifications as read or unread.",
            {"read": "true marks them read, false unread."}, "{message}", mutates=True)
        add(show_notifications_count, f"Counts your {title} notifications, optionally only read or unread ones.",
            {"read": "count only read (true) or unread (false) notifications; all when omitted."},
            "{notifications_count}", mutates=False)
        add(delete_notification, f"Deletes one of your {title} notifications.",
            {"notification_id": notification_id}, "{message}", mutates=True)
        add(mark_notification, f"Marks one of your {title} notifications as read or unread.",
            {"notification_id": notification_id, "read": "true marks it read, false unread."}, "{message}",
            mutates=True)
