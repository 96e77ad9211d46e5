"""Device-side tables (ToolSandbox namespaces) that belong to the phone itself rather than to an app.

All device namespaces share the connection's main SQL schema (SQLite attaches at most 10 further
databases, which the ten AppWorld-style apps use); their table keys are the namespace names that
scenario files use (``SETTING``, ``CONTACT``, ...). Columns follow SPEC.md §2.2 (the reference's
``sandbox_message_index`` bookkeeping column is not needed: our snapshots are whole-world copies).
"""

from __future__ import annotations

from typing import Any

from mmtsb.world.schema import table

DEVICE_SCHEMA = "main"

#: the device's time zone as an offset from UTC (UTC-7, Pacific daylight time)
DEVICE_UTC_OFFSET_SECONDS = -25200

#: the single SETTING row of the base world (SPEC.md §2.3); the id is our own, in the reference's style
BASE_SETTING_ROW: dict[str, Any] = {
    "device_id": "04640c30-8f3b-4e27-a1d6-3c9b5e7f2d41",
    "cellular": True,
    "wifi": True,
    "location_service": True,
    "low_battery_mode": False,
    "locale": "en_US",
    "utc_offset_seconds": DEVICE_UTC_OFFSET_SECONDS,
    "latitude": 37.2439,
    "longitude": -122.0308,
    "place_id": None,
    "formatted_address": "15400 Montalvo Rd, Saratoga, CA 95070, USA",
}

SETTING = table(DEVICE_SCHEMA, "setting", {
    "device_id": "str", "cellular": "bool", "wifi": "bool", "location_service": "bool", "low_battery_mode": "bool",
    "locale": "str", "utc_offset_seconds": "int", "latitude": "float", "longitude": "float", "place_id": "str",
    "formatted_address": "str",
}, primary_key="device_id", key="SETTING")

CONTACT = table(DEVICE_SCHEMA, "contact", {
    "person_id": "str", "name": "str", "phone_number": "str", "relationship": "str", "is_self": "bool",
}, primary_key="person_id", key="CONTACT")

MESSAGING = table(DEVICE_SCHEMA, "messaging", {
    "message_id": "str", "sender_person_id": "str", "sender_phone_number": "str", "recipient_person_id": "str",
    "recipient_phone_number": "str", "content": "str", "creation_timestamp": "float", "image_ids": "json",
}, primary_key="message_id", key="MESSAGING")

NOTES = table(DEVICE_SCHEMA, "notes", {
    "note_id": "str", "content": "str", "modification_timestamp": "float", "image_ids": "json",
}, primary_key="note_id", key="NOTES")

TABLES = (SETTING, CONTACT, MESSAGING, NOTES)
