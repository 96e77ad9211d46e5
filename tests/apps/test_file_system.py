"""File system: every tool on its happy path and on a failure path; paths, per-user trees, archives."""

from __future__ import annotations

import pytest

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok, mailed_code

FILES = "file_system.files"
DIRS = "file_system.directories"
HOME = "/home/brenda"


def _file(world, path):
    rows = world.select(FILES, "path = ? AND user_id = ?", (path, MAIN_ID))
    return rows[0] if rows else None


def _dir(world, path):
    rows = world.select(DIRS, "path = ? AND user_id = ?", (path, MAIN_ID))
    return rows[0] if rows else None


@pytest.fixture
def tree(session):
    """~/trips/ with two files and a nested directory."""
    call_ok(session, "file_system_create_directory", directory_path="~/trips/rome/", recursive=True)
    call_ok(session, "file_system_create_file", file_path="~/trips/plan.txt", content="Day 1: Louvre")
    call_ok(session, "file_system_create_file", file_path="~/trips/rome/hotel.txt", content="Hotel Roma")
    return session


# ------------------------------------------------------------------------------------------ files
def test_create_show_update_delete_file(session, world):
    out = call_ok(session, "file_system_create_file", file_path="~/documents/todo.txt", content="milk")
    assert out["file_path"] == f"{HOME}/documents/todo.txt"
    row = _file(world, out["file_path"])
    assert row["tilde_path"] == "~/documents/todo.txt" and row["user_id"] == MAIN_ID and row["id"] >= 26000
    assert row["compressed_data"] == [] and row["created_at"] == world.clock.now_str()
    assert _dir(world, f"{HOME}/documents/")["updated_at"] == world.clock.now_str()  # the parent is stamped
    shown = call_ok(session, "file_system_show_file", file_path=f"{HOME}/documents/todo.txt")
    assert shown == {"file_id": row["id"], "path": f"{HOME}/documents/todo.txt", "content": "milk",
                     "created_at": row["created_at"], "updated_at": row["updated_at"]}
    call_ok(session, "file_system_update_file", file_path="~/documents/../documents/todo.txt", content="eggs")
    assert _file(world, out["file_path"])["content"] == "eggs"
    assert call_ok(session, "file_system_file_exists", file_path="~/documents/todo.txt") == {"exists": True}
    assert "must have an extension" in call_err(session, "file_system_file_exists", file_path="~/documents/").message
    call_ok(session, "file_system_create_file", file_path="~/documents/todo.txt", content="new", overwrite=True)
    assert _file(world, out["file_path"])["content"] == "new" and _file(world, out["file_path"])["id"] > row["id"]
    call_ok(session, "file_system_delete_file", file_path="~/documents/todo.txt")
    assert _file(world, out["file_path"]) is None
    assert call_ok(session, "file_system_file_exists", file_path="~/documents/todo.txt") == {"exists": False}


def test_file_failures(session, world):
    call_ok(session, "file_system_create_file", file_path="~/a.txt", content="x")
    assert "already exists" in call_err(session, "file_system_create_file", file_path="~/a.txt").message
    call_ok(session, "file_system_create_file", file_path="~/nope/deeper/a.txt")  # parents made, as AppWorld
    assert call_ok(session, "file_system_directory_exists", directory_path="~/nope/deeper") == {"exists": True}
    assert call_ok(session, "file_system_create_file", file_path="a.txt")["file_path"] == "/a.txt"  # from the root
    assert "extension" in call_err(session, "file_system_create_file", file_path="~/photos").message
    assert "does not exist" in call_err(session, "file_system_show_file", file_path="~/missing.txt").message
    assert "must have an extension" in call_err(session, "file_system_show_file", file_path="~/photos/").message
    assert "does not exist" in call_err(session, "file_system_update_file", file_path="~/b.txt", content="").message
    before = world.snapshot()
    assert "does not exist" in call_err(session, "file_system_delete_file", file_path="~/b.txt").message
    assert world.diff(before).empty
    assert "must not be empty" in call_err(session, "file_system_file_exists", file_path="").message


def test_case_slip_gets_a_suggestion(session):
    call_ok(session, "file_system_create_directory", directory_path="~/dinner_plan")
    call_ok(session, "file_system_create_file", file_path="~/dinner_plan/guest_list.txt", content="VIP")
    err = call_err(session, "file_system_show_file", file_path="~/Dinner_Plan/guest_list.txt")
    assert f"Did you mean '{HOME}/dinner_plan/guest_list.txt'" in err.message
    err = call_err(session, "file_system_show_directory", directory_path="~/Dinner_Plan")
    assert f"'{HOME}/dinner_plan/'" in err.message


def test_copy_and_move_file(tree, world):
    session = tree
    out = call_ok(session, "file_system_copy_file", source_file_path="~/trips/plan.txt",
                  destination_file_path="~/documents/")
    assert out["destination_file_path"] == f"{HOME}/documents/plan.txt"
    copy, src = _file(world, f"{HOME}/documents/plan.txt"), _file(world, f"{HOME}/trips/plan.txt")
    assert copy["content"] == "Day 1: Louvre" and copy["id"] != src["id"]
    world.update(FILES, src["id"], {"created_at": "2020-01-01T00:00:00", "updated_at": "2020-01-02T00:00:00"})
    call_ok(session, "file_system_copy_file", source_file_path="~/trips/plan.txt",
            destination_file_path="~/documents/plan.txt", overwrite=True, retain_dates=True)
    assert _file(world, f"{HOME}/documents/plan.txt")["created_at"] == "2020-01-01T00:00:00"
    assert "overwrite" in call_err(session, "file_system_copy_file", source_file_path="~/trips/plan.txt",
                                   destination_file_path="~/documents/plan.txt").message
    assert "same file" in call_err(session, "file_system_copy_file", source_file_path="~/trips/plan.txt",
                                   destination_file_path="~/trips/").message
    moved = call_ok(session, "file_system_move_file", source_file_path="~/trips/plan.txt",
                    destination_file_path="~/trips/rome/itinerary.txt", retain_dates=True)
    assert moved["destination_file_path"] == f"{HOME}/trips/rome/itinerary.txt"
    assert _file(world, f"{HOME}/trips/plan.txt") is None
    assert _file(world, f"{HOME}/trips/rome/itinerary.txt")["updated_at"] == "2020-01-02T00:00:00"
    assert "does not exist" in call_err(session, "file_system_move_file", source_file_path="~/trips/plan.txt",
                                        destination_file_path="~/x.txt").message
    assert "does not exist" in call_err(session, "file_system_move_file",
                                        source_file_path="~/trips/rome/hotel.txt",
                                        destination_file_path="~/nowhere/").message


# ------------------------------------------------------------------------------------------ directories
def test_create_directory_rules(session, world):
    call_ok(session, "file_system_create_directory", directory_path="~/work")
    row = _dir(world, f"{HOME}/work/")
    assert row["tilde_path"] == "~/work/" and row["user_id"] == MAIN_ID and row["id"] >= 3600
    assert "already exists" in call_ok(session, "file_system_create_directory", directory_path="~/work/")["message"]
    assert "already exists" in call_err(session, "file_system_create_directory", directory_path="~/work",
                                        allow_if_exists=False).message
    assert "parent directory" in call_err(session, "file_system_create_directory", directory_path="~/a/b").message
    call_ok(session, "file_system_create_directory", directory_path="~/a/b/c", recursive=True)
    assert _dir(world, f"{HOME}/a/") and _dir(world, f"{HOME}/a/b/") and _dir(world, f"{HOME}/a/b/c/")
    call_ok(session, "file_system_create_directory", directory_path="/srv/data", recursive=True)
    assert _dir(world, "/srv/data/")["tilde_path"] == "/srv/data/"  # outside the home: absolute tilde_path
    assert call_ok(session, "file_system_directory_exists", directory_path="/home/") == {"exists": True}
    assert call_ok(session, "file_system_directory_exists", directory_path="~/a/b") == {"exists": True}
    assert call_ok(session, "file_system_directory_exists", directory_path="~/zzz") == {"exists": False}
    assert call_ok(session, "file_system_directory_exists", directory_path="srv/data") == {"exists": True}


def test_show_directory_filters(tree):
    session = tree
    everything = call_ok(session, "file_system_show_directory", directory_path="~/trips")
    assert everything == [f"{HOME}/trips/plan.txt", f"{HOME}/trips/rome/", f"{HOME}/trips/rome/hotel.txt"]
    assert call_ok(session, "file_system_show_directory", directory_path="~/trips/", recursive=False) == [
        f"{HOME}/trips/plan.txt", f"{HOME}/trips/rome/"]
    assert call_ok(session, "file_system_show_directory", directory_path="~/trips/", entry_type="files") == [
        f"{HOME}/trips/plan.txt", f"{HOME}/trips/rome/hotel.txt"]
    assert call_ok(session, "file_system_show_directory", directory_path="~/", substring="ROME",
                   entry_type="directories") == [f"{HOME}/trips/rome/"]
    root = call_ok(session, "file_system_show_directory", recursive=False)
    assert root == ["/home/"]
    assert f"{HOME}/photos/" in call_ok(session, "file_system_show_directory")
    assert "entry_type" in call_err(session, "file_system_show_directory", entry_type="links").message
    assert "must not have an extension" in call_err(session, "file_system_show_directory",
                                                    directory_path="~/trips/plan.txt").message


def test_copy_move_delete_directory(tree, world):
    session = tree
    out = call_ok(session, "file_system_copy_directory", source_directory_path="~/trips",
                  destination_directory_path="~/backup")
    assert out["destination_directory_path"] == f"{HOME}/backup/"
    assert _file(world, f"{HOME}/backup/rome/hotel.txt")["content"] == "Hotel Roma"
    assert _file(world, f"{HOME}/trips/rome/hotel.txt") is not None
    assert "overwrite" in call_err(session, "file_system_copy_directory", source_directory_path="~/trips",
                                   destination_directory_path="~/backup").message
    assert "inside" in call_err(session, "file_system_copy_directory", source_directory_path="~/trips",
                                destination_directory_path="~/trips/rome/copy").message
    call_ok(session, "file_system_move_directory", source_directory_path="~/backup",
            destination_directory_path="~/documents/backup")
    assert _dir(world, f"{HOME}/backup/") is None and _file(world, f"{HOME}/backup/plan.txt") is None
    assert _file(world, f"{HOME}/documents/backup/plan.txt")["tilde_path"] == "~/documents/backup/plan.txt"
    call_ok(session, "file_system_copy_directory", source_directory_path="~/trips/rome",
            destination_directory_path="~/documents/backup", overwrite=True)
    assert call_ok(session, "file_system_show_directory", directory_path="~/documents/backup") == [
        f"{HOME}/documents/backup/hotel.txt"]
    assert "home directory" in call_err(session, "file_system_move_directory", source_directory_path="~",
                                        destination_directory_path="/tmp/me").message
    call_ok(session, "file_system_delete_directory", directory_path="~/trips")
    assert not world.select(FILES, "path LIKE ?", (f"{HOME}/trips/%",))
    assert not world.select(DIRS, "path LIKE ?", (f"{HOME}/trips/%",))
    assert "does not exist" in call_err(session, "file_system_delete_directory", directory_path="~/trips").message
    assert "home directory" in call_err(session, "file_system_delete_directory", directory_path="~/").message


def test_compress_and_decompress(tree, world):
    session = tree
    out = call_ok(session, "file_system_compress_directory", directory_path="~/trips")
    assert out["compressed_file_path"] == f"{HOME}/trips.zip"
    archive = _file(world, f"{HOME}/trips.zip")
    assert archive["content"] == "" and [e["path"] for e in archive["compressed_data"]] == [
        "trips/", "trips/rome/", "trips/plan.txt", "trips/rome/hotel.txt"]
    assert "overwrite" in call_err(session, "file_system_compress_directory", directory_path="~/trips").message
    assert ".zip or .tar" in call_err(session, "file_system_compress_directory", directory_path="~/trips",
                                      compressed_file_path="~/trips.rar").message
    assert "outside" in call_err(session, "file_system_compress_directory", directory_path="~/trips",
                                 compressed_file_path="~/trips/t.tar").message
    call_ok(session, "file_system_compress_directory", directory_path="~/trips",
            compressed_file_path="~/documents/trips.tar", delete_directory=True)
    assert _dir(world, f"{HOME}/trips/") is None and _file(world, f"{HOME}/documents/trips.tar")
    assert "already exists" not in call_ok(session, "file_system_decompress_file",
                                           compressed_file_path="~/trips.zip")["message"]
    assert _file(world, f"{HOME}/trips/rome/hotel.txt")["content"] == "Hotel Roma"
    assert "overwrite" in call_err(session, "file_system_decompress_file", compressed_file_path="~/trips.zip").message
    out = call_ok(session, "file_system_decompress_file", compressed_file_path="~/documents/trips.tar",
                  decompressed_directory_path="~/restored", retain_dates=False, delete_compressed_file=True)
    assert out["decompressed_directory_path"] == f"{HOME}/restored/"   # the archived directory goes inside it
    assert _file(world, f"{HOME}/restored/trips/plan.txt")["created_at"] == world.clock.now_str()
    assert _dir(world, f"{HOME}/restored/trips/rome/")
    assert _file(world, f"{HOME}/documents/trips.tar") is None
    call_ok(session, "file_system_create_file", file_path="~/plain.zip", content="not an archive")
    assert "no archived entries" in call_err(session, "file_system_decompress_file",
                                             compressed_file_path="~/plain.zip").message
    assert ".zip or .tar" in call_err(session, "file_system_decompress_file",
                                      compressed_file_path="~/restored/trips/plan.txt").message


def test_trees_are_per_user(session, world):
    world.insert(FILES, {"path": "/home/brenda/secret.txt", "tilde_path": "~/secret.txt", "user_id": 7,
                         "content": "not yours", "compressed_data": []})
    assert call_ok(session, "file_system_file_exists", file_path="~/secret.txt") == {"exists": False}
    call_ok(session, "file_system_create_file", file_path="~/secret.txt", content="mine")
    assert len(world.select(FILES, "path = ?", ("/home/brenda/secret.txt",))) == 2


# ------------------------------------------------------------------------------------------ accounts
def test_account_tools(session, world):
    acct = call_ok(session, "file_system_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["verified"] is True
    assert call_ok(session, "file_system_show_profile", email=MAIN_EMAIL)["first_name"] == "Brenda"
    assert "No file_system user" in call_err(session, "file_system_show_profile", email="nobody@x.com").message
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    call_ok(session, "file_system_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in call_err(session, "file_system_signup", first_name="Ann", last_name="Lee",
                                        email="ann@lee.com", password="secret1").message
    assert "Invalid credentials" in call_err(session, "file_system_login", username="ann@lee.com",
                                             password="wrong").message
    call_ok(session, "file_system_send_verification_code", email="ann@lee.com")
    assert "Invalid verification code" in call_err(session, "file_system_verify_account", email="ann@lee.com",
                                 verification_code="000").message
    code = mailed_code(world, "file_system", "ann@lee.com", "verify")
    call_ok(session, "file_system_verify_account", email="ann@lee.com", verification_code=code)
    assert world.select("file_system.users", "email = ?", ("ann@lee.com",))[0]["verified"] is True
    call_ok(session, "file_system_send_password_reset_code", email="ann@lee.com")
    assert "Invalid password reset code" in call_err(session, "file_system_reset_password", email="ann@lee.com",
                                 password_reset_code="1", new_password="abcdef").message
    code = mailed_code(world, "file_system", "ann@lee.com", "reset")
    call_ok(session, "file_system_reset_password", email="ann@lee.com", password_reset_code=code,
            new_password="secret1")
    assert "No file_system account" in call_err(session, "file_system_send_verification_code",
                                                email="ghost@x.com").message
    assert "No file_system account" in call_err(session, "file_system_send_password_reset_code",
                                                email="ghost@x.com").message
    call_ok(session, "file_system_login", username="ann@lee.com", password="secret1")
    ann = world.select("file_system.users", "email = ?", ("ann@lee.com",))[0]["id"]
    assert call_ok(session, "file_system_show_directory", directory_path="~") == []   # no folders at signup
    assert not world.select(DIRS, "user_id = ?", (ann,))
    call_ok(session, "file_system_update_account_name", first_name="Anne")
    assert call_ok(session, "file_system_show_account")["first_name"] == "Anne"
    assert "first_name" in call_err(session, "file_system_update_account_name", first_name="").message
    call_ok(session, "file_system_create_file", file_path="~/documents/cv.txt", content="cv")
    # the first write gives rows to every missing directory up to the root, as AppWorld's create_directory does
    # (~ follows the first name, now Anne, as AppWorld's home_directory_path does)
    assert sorted(d["path"] for d in world.select(DIRS, "user_id = ?", (ann,))) == [
        "/", "/home/", "/home/anne/", "/home/anne/documents/"]
    call_ok(session, "file_system_logout")
    assert "Not authenticated" in call_err(session, "file_system_show_directory").message
    assert "Not authenticated" in call_err(session, "file_system_logout").message
    assert "Not authenticated" in call_err(session, "file_system_delete_account").message
    call_ok(session, "file_system_login", username="ann@lee.com", password="secret1")
    call_ok(session, "file_system_delete_account")
    assert not world.select(FILES, "user_id = ?", (ann,))   # AppWorld deletes the files (directory rows stay)
    assert "Invalid credentials" in call_err(session, "file_system_login", username="ann@lee.com",
                                             password="secret1").message
    assert "Not authenticated" in call_err(session, "file_system_show_account").message


# ------------------------------------------------------------------------------------------ the helper API
def test_access_token_helpers(session, world):
    from mmtsb.apps.common import current_user
    from mmtsb.apps.file_system import api
    from mmtsb.world import device

    token = device.session_of(world, "file_system")["access_token"]
    assert api.check_access_token(world, token)["id"] == MAIN_ID
    with pytest.raises(ValueError, match="Invalid file_system_access_token"):
        api.check_access_token(world, "nope")
    first = api.save_file(world, token, None, "receipt.txt", "paid 10")
    assert first == f"{HOME}/downloads/receipt.txt" and _file(world, first)["tilde_path"] == "~/downloads/receipt.txt"
    with pytest.raises(ValueError, match="overwrite"):
        api.save_file(world, token, "~/downloads/", "receipt.txt", "again")
    assert api.save_file(world, token, "~/downloads/receipt.txt", "x", "again", overwrite=True) == first
    assert api.read_file(world, token, "~/downloads/receipt.txt") == ("receipt.txt", "again", [])
    nested = api.save_file(world, token, "~/bills/2026/", "r.txt", "new folders")
    assert nested == f"{HOME}/bills/2026/r.txt" and _dir(world, f"{HOME}/bills/2026/")
    with pytest.raises(ValueError, match="does not exist"):
        api.read_file(world, token, "~/none.txt")
    assert current_user(world, "file_system")["id"] == MAIN_ID


def test_path_rules_as_appworld(session, world):
    """AppWorld's path rules: no double slashes, files have an extension and directories none."""
    before = world.snapshot()
    assert "double slashes" in call_err(session, "file_system_create_file", file_path="~/documents//a.txt").message
    assert "must have an extension" in call_err(session, "file_system_create_file", file_path="~/documents/a").message
    assert "must not have an extension" in call_err(session, "file_system_create_directory",
                                                    directory_path="~/v1.2").message
    assert "double slashes" in call_err(session, "file_system_show_directory", directory_path="//").message
    assert world.diff(before).empty


def test_appworld_directory_creation_and_archives(tree, world):
    """As AppWorld: copies and moves create missing destination directories, a directory without files cannot be
    archived, and extracting recreates the archived directory inside the target (merging into what is there)."""
    session = tree
    call_ok(session, "file_system_copy_file", source_file_path="~/trips/plan.txt",
            destination_file_path="~/backup/2026/plan.txt")
    assert _dir(world, f"{HOME}/backup/") and _dir(world, f"{HOME}/backup/2026/")
    call_ok(session, "file_system_move_directory", source_directory_path="~/trips/rome",
            destination_directory_path="~/archive/italy/rome")
    assert _file(world, f"{HOME}/archive/italy/rome/hotel.txt")["content"] == "Hotel Roma"
    call_ok(session, "file_system_create_directory", directory_path="~/empty")
    before = world.snapshot()
    assert "No files found" in call_err(session, "file_system_compress_directory", directory_path="~/empty").message
    assert world.diff(before).empty
    call_ok(session, "file_system_compress_directory", directory_path="~/archive", compressed_file_path="~/zips/a.zip")
    assert _file(world, f"{HOME}/zips/a.zip")       # the archive's directory was made
    out = call_ok(session, "file_system_decompress_file", compressed_file_path="~/zips/a.zip")
    assert out["decompressed_directory_path"] == f"{HOME}/zips/"
    assert _file(world, f"{HOME}/zips/archive/italy/rome/hotel.txt")["content"] == "Hotel Roma"
    assert "overwrite" in call_err(session, "file_system_decompress_file", compressed_file_path="~/zips/a.zip").message
    call_ok(session, "file_system_update_file", file_path="~/zips/archive/italy/rome/hotel.txt", content="edited")
    call_ok(session, "file_system_decompress_file", compressed_file_path="~/zips/a.zip", overwrite=True)
    assert _file(world, f"{HOME}/zips/archive/italy/rome/hotel.txt")["content"] == "Hotel Roma"
