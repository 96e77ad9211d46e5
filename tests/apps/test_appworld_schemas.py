"""Schemas and base seeds of amazon, spotify, splitwise, venmo and file_system.

The released scenario files are the contract: every table and column they use must exist (STATS.md §4,
their ``appworld_entities`` rows and their diff specs), and their rows must load into a base world.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, REFERENCE, REFERENCE_TIME

from mmtsb.apps import app
from mmtsb.apps.amazon import refresh_expired_cards
from mmtsb.apps.amazon.schema import CATALOG_ALIASES as AMAZON_ALIASES
from mmtsb.apps.base_world import build_base_world
from mmtsb.apps.file_system import drop_shadowed_seed_directories, home_path
from mmtsb.apps.spotify.schema import CATALOG_ALIASES as SPOTIFY_ALIASES
from mmtsb.apps.venmo import starting_balance
from mmtsb.world.world import World

APPS = ("amazon", "spotify", "splitwise", "venmo", "file_system")
CATALOG_ALIASES = {**AMAZON_ALIASES, **SPOTIFY_ALIASES}
STATS_PATH = REFERENCE / "STATS.md"
CATALOG_PATH = REFERENCE / "tool_catalog.json"
SCENARIO_FILES = sorted((REFERENCE / "scenarios").glob("*/*.json"))
#: tables only the diff specs name (rows the agent creates), STATS.md §4 end
SPEC_ONLY_TABLES = ("amazon.cart_entries", "spotify.playlist_likes")


def _ours(key: str) -> bool:
    return any(t.key == key for name in APPS for t in app(name).tables)


def _columns(key: str) -> set[str]:
    return {c for name in APPS for t in app(name).tables if t.key == key for c in t.column_names}


def _stats_tables() -> dict[str, list[str]]:
    """STATS.md §4 lines ``- `app.table` (n/n/ids): col, col, ...`` for our apps."""
    found: dict[str, list[str]] = {}
    for line in STATS_PATH.read_text().splitlines():
        m = re.match(r"- `(\w+)\.(\w+)` \([^)]*\): ([\w, ]+)", line)
        if m and m.group(1) in APPS:
            found[f"{m.group(1)}.{m.group(2)}"] = [c.strip() for c in m.group(3).split(",")]
    return found


def _is_ours(key: str) -> bool:
    return key.split(".", 1)[0] in APPS


@pytest.fixture
def base() -> World:
    w = build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)
    yield w
    w.close()


# ------------------------------------------------------------------------------------------ declared tables
@pytest.mark.skipif(not STATS_PATH.exists(), reason="reference STATS.md is absent")
def test_every_stats_table_and_column_exists():
    stats = _stats_tables()
    assert len(stats) >= 20, "STATS.md §4 was not parsed"
    for key, cols in stats.items():
        assert _ours(key), f"missing table {key}"
        assert set(cols) <= _columns(key), f"{key} lacks {sorted(set(cols) - _columns(key))}"
    for key in SPEC_ONLY_TABLES:
        assert _ours(key), f"missing table {key}"


@pytest.mark.skipif(not CATALOG_PATH.exists(), reason="reference tool_catalog.json is absent")
def test_every_catalog_table_exists_or_has_an_alias():
    catalog = json.loads(CATALOG_PATH.read_text())
    named = {t for entry in catalog if entry["domain"] in APPS for t in entry["tables"]}
    assert len(named) > 50
    for key in sorted(named):
        target = CATALOG_ALIASES.get(key, key)
        assert _ours(target), f"catalog table {key} has no table (alias target {target})"
    for alias, target in CATALOG_ALIASES.items():
        assert not _ours(alias), f"{alias} is an alias of {target}, not a second table"


def test_column_types_where_files_rely_on_them():
    from mmtsb.apps.amazon.schema import TABLES as AMAZON
    from mmtsb.apps.splitwise.schema import TABLES as SPLITWISE
    from mmtsb.apps.spotify.schema import TABLES as SPOTIFY

    types = {f"{t.key}.{c.name}": c.type for t in (*AMAZON, *SPOTIFY, *SPLITWISE) for c in t.columns}
    assert types["spotify.music_players.queue_song_ids"] == "json"
    assert types["spotify.songs.artist_ids"] == "json"
    assert types["splitwise.expenses.debtor_ids"] == "json"
    assert types["splitwise.expenses.participant_ids"] == "json"
    assert types["amazon.products.has_variations"] == "bool"
    assert types["amazon.orders.created_at"] == "datetime"
    assert types["amazon.products.price"] == "float"
    assert types["amazon.orders.payment_card_digits"] == "str"


# ------------------------------------------------------------------------------------------ real files
@pytest.mark.skipif(not SCENARIO_FILES, reason="reference scenario files are absent")
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_rows_load_and_spec_columns_exist(path: Path):
    scenario = json.loads(path.read_text())
    world = build_base_world(scenario["device_state_id"], MAIN_ID, scenario["reference_time"])
    try:
        for key, rows in scenario["appworld_entities"].items():
            if not _is_ours(key):
                continue
            for row in rows:
                pk = world.insert(key, row, replace=True)
                stored = world.get(key, pk)
                assert {k: stored[k] for k in row} == row, f"{key} row {pk} does not read back as written"
        for spec in scenario["entity_diff_specs"]:
            key = spec.get("table")
            if spec.get("source") != "appworld" or not key or not _is_ours(key):
                continue
            used = {*(spec.get("entity_data") or {}), *(spec.get("expected_fields") or {}),
                    *(spec.get("column_similarity_measure") or {})}
            assert used <= _columns(key), f"{path.name}: {key} lacks {sorted(used - _columns(key))}"
            if spec["operation"] == "create":  # what the agent's tools must be able to write
                pk = world.insert(key, spec["entity_data"])
                assert world.get(key, pk) is not None
    finally:
        world.close()


# ------------------------------------------------------------------------------------------ seeds
def test_every_base_person_is_a_user_of_each_app(base: World):
    for name in APPS:
        users = base.rows(f"{name}.users")
        assert [u["id"] for u in users][:110] == list(range(1, 111)), name
        main = base.get(f"{name}.users", MAIN_ID)
        assert main["email"] == MAIN_EMAIL and main["verified"] is True
    assert base.get("amazon.users", MAIN_ID)["track_browsing_history"] is True
    assert base.get("amazon.users", MAIN_ID)["is_prime"] is False
    assert base.get("spotify.users", MAIN_ID)["is_premium"] is False


def test_amazon_main_user_has_an_address_a_card_and_return_carriers(base: World):
    (address,) = base.select("amazon.addresses", "user_id = ?", (MAIN_ID,))
    assert address["name"] == "Home" and address["country"] == "United States" and address["zip_code"]
    (card,) = base.select("amazon.payment_cards", "user_id = ?", (MAIN_ID,))
    assert card["owner_name"] == "Brenda Webster" and len(card["card_number"]) == 16
    assert card["expiry_year"] >= 2026
    assert [d["name"] for d in base.rows("amazon.deliverers")] == ["UPS", "FedEx", "USPS", "DHL"]
    assert base.count("amazon.cart_entries") == 0 and base.count("amazon.orders") == 0


def test_spotify_and_venmo_seeds(base: World):
    assert base.select("spotify.payment_cards", "user_id = ?", (MAIN_ID,))
    assert base.select("venmo.payment_cards", "user_id = ?", (MAIN_ID,))
    assert base.count("spotify.music_players") == 0
    balance = base.get("venmo.users", MAIN_ID)["venmo_balance"]
    assert balance == starting_balance(MAIN_ID) and 20 <= balance <= 2000
    assert starting_balance(7) == starting_balance(7) != starting_balance(8)


def test_file_system_home_tree(base: World):
    dirs = {d["tilde_path"]: d["path"] for d in base.select("file_system.directories", "user_id = ?", (MAIN_ID,))}
    assert dirs == {"~/": "/home/brenda/", "~/documents/": "/home/brenda/documents/",
                    "~/downloads/": "/home/brenda/downloads/", "~/photos/": "/home/brenda/photos/"}
    assert home_path("Mary Ann") == "/home/maryann/"
    assert base.count("file_system.files") == 0


def test_seeds_are_deterministic():
    a = build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)
    b = build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)
    try:
        for key in ("amazon.payment_cards", "amazon.addresses", "venmo.users", "file_system.directories"):
            assert a.rows(key) == b.rows(key)
    finally:
        a.close()
        b.close()


# ------------------------------------------------------------------------------------------ loader hooks
def test_refresh_expired_cards_pushes_old_years_forward(base: World):
    base.insert("amazon.payment_cards", {"id": 900, "user_id": MAIN_ID, "card_name": "Old", "owner_name": "B W",
                                         "card_number": "4000000000001234", "expiry_year": 2024,
                                         "expiry_month": 3, "cvv_number": "123"})
    base.insert("amazon.payment_cards", {"id": 901, "user_id": MAIN_ID, "card_name": "This year",
                                         "card_number": "4000000000005678", "expiry_year": 2026,
                                         "expiry_month": 1, "cvv_number": "456"})
    assert refresh_expired_cards(base) == 1
    assert base.get("amazon.payment_cards", 900)["expiry_year"] == 2028
    assert base.get("amazon.payment_cards", 901)["expiry_year"] == 2026
    assert refresh_expired_cards(base) == 0


def test_scenario_directory_replaces_the_seeded_twin(base: World):
    base.insert("file_system.directories", {"id": 3600, "path": "/home/brenda/documents/",
                                            "tilde_path": "~/documents/", "user_id": MAIN_ID}, replace=True)
    base.insert("file_system.directories", {"id": 3601, "path": "/home/brenda/trips/",
                                            "tilde_path": "~/trips/", "user_id": MAIN_ID}, replace=True)
    assert drop_shadowed_seed_directories(base) == 1
    paths = [d["path"] for d in base.rows("file_system.directories")]
    assert sorted(paths) == sorted(set(paths)) and len(paths) == 5
    assert base.get("file_system.directories", 3600) is not None and base.get("file_system.directories", 2) is None


# ------------------------------------------------------------------------------------------ app metadata
def test_id_offsets_and_companions_name_real_tables(base: World):
    offsets = {k: v for name in APPS for k, v in app(name).id_offsets.items()}
    known = {"file_system.directories": 3500, "file_system.files": 25900, "amazon.addresses": 300,
             "amazon.orders": 3200, "amazon.product_reviews": 16000, "spotify.playlists": 700}
    assert {k: offsets.get(k) for k in known} == known  # the offsets the released files reveal
    for name in APPS:
        a = app(name)
        assert a.seed is not None
        for key, others in a.companions.items():
            assert base.has_table(key), key  # an app may declare side effects on another app's table
            assert others and all(base.has_table(o) and o != key for o in others), key
    assert "amazon.order_items" in app("amazon").companions["amazon.orders"]
    assert "amazon.cart_entries" in app("amazon").companions["amazon.orders"]
    assert app("splitwise").companions["splitwise.groups"][0] == "splitwise.group_members"
    assert "splitwise.expense_shares" in app("splitwise").companions["splitwise.expenses"]
    assert "spotify.playlist_songs" in app("spotify").companions["spotify.playlists"]
