"""Turning a scenario's entity rows into database rows exactly as the reference does (SPEC.md §2.4).

- ``appworld_entities`` rows are upserted (INSERT OR REPLACE) after the Amazon cart is emptied.
- Id-like columns (``id``, ``*_id``, ``*_ids``) holding reference strings such as ``gmail_email_100`` are
  coerced to integers: the prefix names a table (longest prefix wins); numbers below 200 get that
  table's offset (default 47900); numbers of 200 or more are used as they are.
- ``agentsandbox_entities`` rows go into the device namespaces; relative-time cells are resolved against
  the reference time.
- The main user's numeric id is learned from the file (the owner of seeded private rows and the author
  of expected creations), since files only give its email.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from typing import Any

from mmtsb.apps import all_apps
from mmtsb.scenarios.model import Scenario
from mmtsb.text import plural_stem
from mmtsb.world.people import fallback_main_user_id, id_for_email

DEFAULT_ID_OFFSET = 47900
_REF = re.compile(r"^([A-Za-z_]+?)_(\d+)$")
_OWNER_COLUMNS = ("user_id", "sender_id", "payer_id")
_RELATIVE_KEYS = {"years", "months", "weeks", "days", "hours", "minutes", "seconds", "year", "month", "day", "hour",
                  "minute", "second", "weekday"}


def reference_prefixes() -> dict[str, str]:
    """Reference-string prefix -> table key (``gmail_email`` and ``gmail_emails`` -> ``gmail.emails``)."""
    out: dict[str, str] = {}
    for app in all_apps():
        for t in app.tables:
            if "." not in t.key:
                continue
            out[f"{t.schema}_{t.name}"] = t.key
            out[f"{t.schema}_{plural_stem(t.name)}"] = t.key
    return out


def id_offsets() -> dict[str, int]:
    return {k: v for app in all_apps() for k, v in app.id_offsets.items()}


def coerce_reference(value: Any, prefixes: dict[str, str], offsets: dict[str, int]) -> Any:
    """``"gmail_email_100"`` -> 5100; anything that is not a reference string is returned unchanged."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    m = _REF.match(text)
    if not m:
        return value
    number = int(m.group(2))
    candidates = [p for p in prefixes if text.startswith(p + "_")]
    if not candidates:
        return value
    table_key = prefixes[max(candidates, key=len)]  # the longest matching prefix wins
    return number if number >= 200 else number + offsets.get(table_key, DEFAULT_ID_OFFSET)


def coerce_row_ids(row: dict[str, Any], prefixes: dict[str, str], offsets: dict[str, int]) -> dict[str, Any]:
    out = {}
    for col, v in row.items():
        if col == "id" or col.endswith("_id"):
            out[col] = coerce_reference(v, prefixes, offsets)
        elif col.endswith("_ids") and isinstance(v, list):
            out[col] = [coerce_reference(x, prefixes, offsets) for x in v]
        else:
            out[col] = v
    return out


def is_relative_cell(value: Any) -> bool:
    """A relative-time cell: a dict (or JSON text of one) of relativedelta-style fields."""
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return False
    return isinstance(value, dict) and bool(value) and set(value) <= _RELATIVE_KEYS


def resolve_relative_cells(row: dict[str, Any], reference_time: datetime) -> dict[str, Any]:
    if not any(is_relative_cell(v) for v in row.values()):
        return row
    from mmtsb.apps.calendar.relative import resolve_relative

    return {k: (resolve_relative(v, reference_time) if is_relative_cell(v) else v) for k, v in row.items()}


def learn_main_user_id(scenario: Scenario) -> int:
    """The main user's numeric id: voted from the file's own rows, else the known mapping, else a stable hash."""
    votes: Counter[int] = Counter()
    for key, rows in scenario.appworld_entities.items():
        if key.endswith(".users"):
            continue
        for row in rows:
            uid = row.get("user_id")
            if isinstance(uid, int):
                votes[uid] += 1
    for spec in scenario.entity_diff_specs:
        data = spec.entity_data or {}
        for col in _OWNER_COLUMNS:
            if isinstance(data.get(col), int):
                votes[data[col]] += 2  # the author of expected creations is the strongest signal
    known = id_for_email(scenario.device_state_id)
    if known is not None and (votes[known] or not votes):
        return known
    if votes:
        return votes.most_common(1)[0][0]
    return fallback_main_user_id(scenario.device_state_id)
