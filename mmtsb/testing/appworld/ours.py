"""Plays the harness's call sequences against our apps, as :mod:`.appworld_side` plays them against AppWorld's.

Each sequence gets a fresh World with every table and no rows, where the people of :data:`.plan.PEOPLE`
sign up to every app through our own signup tools and are then marked verified, as on the AppWorld side, and the
rows of :data:`.plan.CATALOG` are inserted.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from mmtsb.apps.accounts import identity_column
from mmtsb.apps.base_world import world_tables
from mmtsb.testing.appworld.appworld_side import CODE, resolve
from mmtsb.testing.appworld.plan import APPS, CATALOG, PEOPLE, START, Sequence, Step
from mmtsb.tools.session import ToolSession
from mmtsb.tools.toolbox import full_registry
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.world import World

#: sign-up order: the apps that deliver codes first, as on the AppWorld side
SIGNUP_ORDER = ("gmail", "phone", "amazon", "file_system", "simple_note", "splitwise", "spotify", "todoist", "venmo")


class OurSide:
    """One sequence's world on our side."""

    def __init__(self) -> None:
        self.world = World(world_tables(), Clock.at(START))
        self.session = ToolSession(self.world, full_registry())
        self.people = {p["key"]: p for p in PEOPLE}
        self.results: dict[str, Any] = {}
        for p in PEOPLE:
            self._create_person(p)
        for key, rows in CATALOG.items():
            table = self.world.table(key)
            for row in rows:
                self.world.insert(key, {k: v for k, v in row.items() if table.has(k)})
        for app in APPS:
            device.logout(self.world, app)

    def _create_person(self, p: dict[str, str]) -> None:
        for app in SIGNUP_ORDER:
            ident = identity_column(app)
            out = self.session.call(f"{app}_signup", {"first_name": p["first_name"], "last_name": p["last_name"],
                                                      ident: p[ident], "password": p["password"]})
            if not out.ok:
                raise RuntimeError(f"setup: {app}_signup of {p['key']} failed: {out.error}")
            table = self.world.table(f"{app}.users")
            if table.has("verified"):
                user = self.world.select(f"{app}.users", f'"{ident}" = ?', (p[ident],))[0]
                self.world.update(f"{app}.users", user["id"], {"verified": True})

    def close(self) -> None:
        self.world.close()

    # ------------------------------------------------------------------------------------------ steps
    def latest_code(self, email: str) -> str:
        for row in sorted(self.world.rows("gmail.emails"), key=lambda r: r["id"], reverse=True):
            found = CODE.search(row.get("body") or "")
            if found and email:
                return found.group(1)
        return "no-code"

    def token(self, person: str | None, app: str) -> str:
        """``person``'s access token of ``app`` (logging them in there, as the AppWorld side does)."""
        if person is None:
            return "no-account"
        ident = identity_column(app)
        wanted = self.people[person][ident]
        session = device.session_of(self.world, app)
        if session is None or session["username"] != wanted:
            return device.login(self.world, app, wanted)["access_token"]
        return session["access_token"]

    def _act_as(self, step: Step) -> None:
        """Log ``step.as_`` into the step's app (or log out when nobody acts), unless already so."""
        if step.as_ is None:
            device.logout(self.world, step.app)
            return
        ident = identity_column(step.app)
        wanted = self.people[step.as_][ident]
        session = device.session_of(self.world, step.app)
        if session is None or session["username"] != wanted:
            if self.world.select(f"{step.app}.users", f'"{ident}" = ?', (wanted,)):
                device.login(self.world, step.app, wanted)

    def step(self, step: Step) -> dict[str, Any]:
        if step.tool is None:
            self.world.clock.reference_time += timedelta(minutes=step.advance_minutes or 0)
            return {"skip": True}
        if step.api not in ("login",):
            self._act_as(step)
        before = self.world.snapshot()
        args = resolve(step.args, self.results,
                       lambda kind, arg: self.latest_code(arg) if kind == "code" else self.token(step.as_, arg))
        out = self.session.call(step.tool, args)
        changed = sorted(k for k in self.world.diff(before).tables if k.split(".", 1)[0] in APPS)
        if step.label and out.ok:
            self.results[step.label] = out.value if isinstance(out.value, dict) else {"list": out.value}
        return {"ok": out.ok, "changed": changed,
                "message": (out.error.message if out.error else (out.value or {}).get("message")
                            if isinstance(out.value, dict) else None)}


def play(sequences: list[Sequence]) -> list[dict[str, Any]]:
    """One result per step of every sequence, in order (as the AppWorld side prints them)."""
    results: list[dict[str, Any]] = []
    for q in sequences:
        side = OurSide()
        try:
            for i, s in enumerate(q.steps):
                results.append({"sequence": q.name, "index": i, **side.step(s)})
        finally:
            side.close()
    return results
