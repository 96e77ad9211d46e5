"""Plays call sequences against the real AppWorld apps, in-process, on empty in-memory databases.

This file runs in AppWorld's own virtual environment (``python appworld_side.py < plan.json``), never in
ours: it imports only ``appworld`` and the standard library, and never mmtsb. It reads a plan (people and
sequences, already translated to AppWorld app and API names by :mod:`mmtsb.testing.appworld.plan`) on stdin
and writes one JSON line per step on stdout: whether the call succeeded (HTTP status below 300), the tables
whose rows changed, and the response message (for a person reading disagreements; it is never stored).

Nothing AppWorld ships is copied here; its apps are driven through their public request interface, with
people inserted through the apps' own models (verified accounts), as its databases would hold them.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import warnings
from datetime import datetime, timedelta
from typing import Any

warnings.filterwarnings("ignore")

CODE = re.compile(r"code is:?\s*([A-Za-z0-9]+)")
APPS = ("gmail", "phone", "amazon", "file_system", "simple_note", "splitwise", "spotify", "todoist", "venmo")


def resolve(value: Any, results: dict[str, Any], lookup: Any) -> Any:
    """A step's argument with its references filled in: ``"$label.field"`` from an earlier step's result,
    ``"$code:<email>"`` and ``"$token:<app>"`` from the side (``lookup("code", email)``: the newest mailed code;
    ``lookup("token", app)``: the acting person's access token of that app). Shared with our side."""
    for kind in ("code", "token"):
        if isinstance(value, str) and value.startswith(f"${kind}:"):
            return lookup(kind, value.removeprefix(f"${kind}:"))
    if isinstance(value, str) and value.startswith("$") and "|" in value:
        # "$a.x|$a.y": the first that resolves (where the two sides name a result's field differently)
        found = (resolve(v, results, lookup) for v in value.split("|"))
        return next((v for v in found if v is not None), None)
    if isinstance(value, str) and value.startswith("$"):
        label, *path = value[1:].split(".")    # "$n.list.0.notification_id": a field of a listed item
        got: Any = results.get(label)
        for part in path:
            if isinstance(got, list) and part.isdigit() and int(part) < len(got):
                got = got[int(part)]
            elif isinstance(got, dict):
                got = got.get(part)
            else:
                return None
        return got
    if isinstance(value, list):
        return [resolve(v, results, lookup) for v in value]
    if isinstance(value, dict):
        return {k: resolve(v, results, lookup) for k, v in value.items()}
    return value


class AppWorldSide:
    """One sequence's AppWorld: fresh in-memory databases, frozen time, the plan's people."""

    def __init__(self, start: datetime, people: list[dict[str, Any]], namespace: str, card_balance: float = 0,
                 catalog: dict[str, list[dict[str, Any]]] | None = None) -> None:
        from appworld.apps.api_lib import import_models_module
        from appworld.requester import Requester

        self.models = import_models_module
        self.now = start
        self.requester = Requester(to_db_home_path=f":memory:{namespace}", from_db_home_path=f":memory:{namespace}",
                                   date_and_time=start, create_db=True, max_num_requests=None)
        self.people = {p["key"]: p for p in people}
        self.tokens: dict[tuple[str, str], str] = {}
        self.results: dict[str, Any] = {}
        from appworld.apps.api_lib import CompanyNotifier
        from appworld.common.utils import import_apis_module

        for app in APPS:
            # logged-out tokens are kept per process; a sequence starts with none (its tokens may be equal to
            # an earlier sequence's, made at the same frozen instant)
            import_apis_module(app).logging_manager.blacklisted_tokens.clear()
            CompanyNotifier(app).create_accounts(skip_if_exists=True)
        #: per app, the ids of AppWorld's company accounts (the senders of its automatic emails, which keep
        #: a receipt in their own file system before attaching it): their rows are plumbing no agent sees
        self.company_ids = {app: [u.id for u in self.models(app).User.find_all()] for app in APPS}
        self.card_balance = card_balance
        for p in people:
            self._create_person(p)
        for key, rows in (catalog or {}).items():
            self._insert_catalog(key, rows)

    def _create_person(self, p: dict[str, Any]) -> None:
        """Sign the person up in every app through its own API (Gmail and Phone first, as they deliver the
        codes), then mark the accounts verified, as the people of AppWorld's databases are."""
        for app in APPS:
            identity = {"phone_number": p["phone_number"]} if app == "phone" else {"email": p["email"]}
            response = self.requester._request(app, "signup", track=False, first_name=p["first_name"],
                                               last_name=p["last_name"], password=p["password"], **identity)
            if response.status_code >= 300:
                raise RuntimeError(f"setup: {app} signup of {p['key']} failed: {response.text}")
            user = self.models(app).User.find_one(**identity)
            if hasattr(user, "verified"):
                user.verified = True
                user.save()
        if p.get("card"):
            self._register_card(p)

    def _insert_catalog(self, key: str, rows: list[dict[str, Any]]) -> None:
        """Insert catalogue rows through the app's own models (the fields each model has); the tables start empty
        and the rows are numbered 1, 2, ... as their ids say."""
        app, table = key.split(".", 1)
        module = self.models(app)
        model = next(m for m in vars(module).values() if isinstance(m, type) and issubclass(m, module.SQLModel)
                     and getattr(m, "table_name", None) == table)
        for row in rows:
            values = {k: (datetime.fromisoformat(v) if k.endswith(("_at", "_date")) and isinstance(v, str) else v)
                      for k, v in row.items() if k in model.__fields__ and k != "id"}
            record = model.create(**values)
            record.save()
            if record.id != row["id"]:
                raise RuntimeError(f"setup: {key} row {row['id']} got id {record.id}")

    def _register_card(self, p: dict[str, Any]) -> None:
        """Put the person's real card in AppWorld's bank (its admin records), which the apps ask to validate,
        debit and credit cards."""
        admin = self.models("admin")
        holder = admin.MainUser.create(first_name=p["first_name"], last_name=p["last_name"], email=p["email"],
                                       phone_number=p["phone_number"], birthday="1990-01-01", sex="female")
        holder.save()
        admin.PaymentCard.create(main_user_id=holder.id, owner_name=f"{p['first_name']} {p['last_name']}",
                                 balance=self.card_balance, **p["card"]).save()

    # ------------------------------------------------------------------------------------------ state
    def fingerprints(self) -> dict[str, str]:
        """``app.table`` -> a hash of its rows (search-index shadow tables and the company accounts' rows left
        out)."""
        out: dict[str, str] = {}
        for app in APPS:
            con = self.models(app).SQLModel.db.connection
            names = [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")
                     if not n.startswith("sqlite") and "_fts" not in n]
            for name in names:
                columns = {c[1] for c in con.execute(f'PRAGMA table_info("{name}")')}
                company = self.company_ids.get(app) if "user_id" in columns and name != "users" else None
                where = f"WHERE user_id NOT IN ({','.join(map(str, company))})" if company else ""
                rows = con.execute(f'SELECT * FROM "{name}" {where} ORDER BY rowid').fetchall()
                out[f"{app}.{name}"] = hashlib.sha1(repr(rows).encode()).hexdigest()
        return out

    def latest_code(self, email: str) -> str:
        """The code in the newest email delivered to ``email`` (what a person reads to verify or reset)."""
        con = self.models("gmail").SQLModel.db.connection
        for (body,) in con.execute("SELECT body FROM emails ORDER BY id DESC"):
            found = CODE.search(body or "")
            if found and email:
                return found.group(1)
        return "no-code"

    def advance(self, minutes: float) -> None:
        from appworld.apps.api_lib import set_local_date_and_time, unset_local_date_and_time

        unset_local_date_and_time(self.requester.time_freezer_or_id)
        self.now = self.now + timedelta(minutes=minutes)
        self.requester.time_freezer_or_id = set_local_date_and_time(self.now)

    # ------------------------------------------------------------------------------------------ steps
    def token(self, person: str, app: str) -> str:
        """A token for the person in the app, from the app's own login (cached until a logout)."""
        key = (person, app)
        if key not in self.tokens:
            p = self.people[person]
            identity = p["phone_number"] if app == "phone" else p["email"]
            user = self.models(app).User.find_one(**({"phone_number": identity} if app == "phone"
                                                     else {"email": identity}))
            response = self.requester._request(app, "login", track=False, username=identity,
                                               password=user.password if user is not None else "")
            self.tokens[key] = response.json().get("access_token", "no-account") if response.status_code < 300 \
                else "no-account"
        return self.tokens[key]

    def step(self, step: dict[str, Any]) -> dict[str, Any]:
        if "advance_minutes" in step:
            self.advance(step["advance_minutes"])
            return {"skip": True}
        app, api = step["app"], step["api"]
        args = resolve(step.get("args", {}), self.results,
                       lambda kind, arg: self.latest_code(arg) if kind == "code" else self.token(step.get("as"), arg))
        from appworld.requester import _get_api_name_to_doc

        docs = _get_api_name_to_doc(app, include_private_apis=False)
        if api not in docs:
            return {"error": f"AppWorld's {app} app has no API {api!r}"}
        known = {p["name"] for p in docs[api]["parameters"]}
        unknown = sorted(set(args) - known)
        if unknown:
            return {"error": f"{app}.{api} has no parameter(s) {unknown}; it takes {sorted(known)}"}
        if step.get("as") and "access_token" in known:
            args["access_token"] = self.token(step["as"], app)
        before = self.fingerprints()
        try:
            response = self.requester._request(app, api, track=False, **args)
        except Exception as exc:  # noqa: BLE001 - an API that raises (e.g. a model's own validation) has failed
            return {"ok": False, "status": 500, "message": f"{type(exc).__name__}: {exc}",
                    "changed": sorted(k for k, v in self.fingerprints().items() if v != before.get(k))}
        after = self.fingerprints()
        try:
            body = response.json()
        except ValueError:
            body = {"message": getattr(response, "text", "")}
        ok = response.status_code < 300
        if step.get("label") and ok:
            self.results[step["label"]] = body if isinstance(body, dict) else {"list": body}
        if ok and api == "logout":
            self.tokens.pop((step.get("as"), app), None)
        if ok and api == "login" and step.get("as"):
            self.tokens[(step["as"], app)] = body["access_token"]
        message = body.get("message") if isinstance(body, dict) else None
        return {"ok": ok, "status": response.status_code, "changed": sorted(k for k in after if after[k] != before.get(k)),
                "message": message}


def main() -> None:
    plan = json.load(sys.stdin)
    start = datetime.fromisoformat(plan["start"])
    for n, sequence in enumerate(plan["sequences"]):
        side = AppWorldSide(start, plan["people"], f"seq{n}", plan.get("card_balance", 0), plan.get("catalog"))
        for i, step in enumerate(sequence["steps"]):
            try:
                out = side.step(step)
            except Exception as exc:  # noqa: BLE001 - a crash of the harness is reported, not raised
                out = {"error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps({"sequence": sequence["name"], "index": i, **out}, default=str), flush=True)
        side.requester.close()


if __name__ == "__main__":
    main()
