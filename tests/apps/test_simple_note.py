"""SimpleNote: every tool on its happy path and on a failure path."""

from testkit import MAIN_EMAIL, call_err, call_ok, mailed_code


def test_create_show_update_search_delete(session, world):
    created = call_ok(session, "simple_note_create_note", title="Groceries", content="milk", tags=["home"])
    nid = created["note_id"]
    note = call_ok(session, "simple_note_show_note", note_id=nid)
    assert note["content"] == "milk" and note["tags"] == ["home"] and note["pinned"] is False
    call_ok(session, "simple_note_add_content_to_note", note_id=nid, append_or_prepend="append", added_content="eggs")
    call_ok(session, "simple_note_add_content_to_note", note_id=nid, append_or_prepend="prepend", added_content="#1")
    assert call_ok(session, "simple_note_show_note", note_id=nid)["content"] == "#1\nmilk\neggs"
    call_ok(session, "simple_note_update_note", note_id=nid, title="Shopping", pinned=True)
    found = call_ok(session, "simple_note_search_notes", query="shopping")
    assert [n["note_id"] for n in found] == [nid] and "content" not in found[0]
    assert call_ok(session, "simple_note_search_notes", tags=["HOME"])[0]["note_id"] == nid
    call_ok(session, "simple_note_delete_note", note_id=nid)
    assert world.get("simple_note.notes", nid) is None


def test_failures_are_observations_and_roll_back(session, world):
    err = call_err(session, "simple_note_show_note", note_id=999999)
    assert err.type == "ValueError" and "does not exist" in err.message
    assert "title" in call_err(session, "simple_note_create_note", title="", content="x").message
    err = call_err(session, "simple_note_add_content_to_note", note_id=1, append_or_prepend="middle",
                   added_content="x")
    assert "does not exist" in err.message or "append" in err.message
    assert "page_limit" in call_err(session, "simple_note_search_notes", page_limit=50).message
    assert "sort_by" in call_err(session, "simple_note_search_notes", sort_by="-title").message
    assert "Nothing to update" in call_err(session, "simple_note_update_note",
                                           note_id=call_ok(session, "simple_note_create_note", title="a",
                                                           content="b")["note_id"]).message
    before = world.snapshot()
    call_err(session, "simple_note_delete_note", note_id=424242)
    assert world.diff(before).empty


def test_account_tools(session, world):
    acct = call_ok(session, "simple_note_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["verified"] is True
    assert call_ok(session, "simple_note_show_profile", email=MAIN_EMAIL)["first_name"] == "Brenda"
    assert "No simple_note user" in call_err(session, "simple_note_show_profile", email="nobody@x.com").message
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    call_ok(session, "simple_note_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in call_err(session, "simple_note_signup", first_name="Ann", last_name="Lee",
                                        email="ann@lee.com", password="secret1").message
    assert "Invalid credentials" in call_err(session, "simple_note_login", username="ann@lee.com",
                                             password="wrong").message
    call_ok(session, "simple_note_send_verification_code", email="ann@lee.com")
    assert "Invalid verification code" in call_err(session, "simple_note_verify_account", email="ann@lee.com",
                                 verification_code="000").message
    call_ok(session, "simple_note_send_password_reset_code", email="ann@lee.com")
    assert "Invalid password reset code" in call_err(session, "simple_note_reset_password", email="ann@lee.com",
                                 password_reset_code="1", new_password="abcdef").message
    assert "not verified" in call_err(session, "simple_note_login", username="ann@lee.com", password="secret1").message
    call_ok(session, "simple_note_verify_account", email="ann@lee.com",
            verification_code=mailed_code(world, "simple_note", "ann@lee.com", "verify"))
    call_ok(session, "simple_note_login", username="ann@lee.com", password="secret1")
    assert call_ok(session, "simple_note_show_account")["email"] == "ann@lee.com"
    call_ok(session, "simple_note_update_account_name", first_name="Anne")
    assert call_ok(session, "simple_note_show_account")["first_name"] == "Anne"
    assert "first_name" in call_err(session, "simple_note_update_account_name", first_name="").message
    call_ok(session, "simple_note_logout")
    assert "Not authenticated" in call_err(session, "simple_note_search_notes").message
    assert "Not authenticated" in call_err(session, "simple_note_logout").message
    call_ok(session, "simple_note_login", username="ann@lee.com", password="secret1")
    call_ok(session, "simple_note_delete_account")
    assert "Invalid credentials" in call_err(session, "simple_note_login", username="ann@lee.com",
                                             password="secret1").message


def test_titles_are_unique_and_tags_not_blank(session, world):
    """AppWorld's rules: a user's note titles are distinct (create and rename), a blank tag is refused, and
    tags are stored without surrounding blanks."""
    first = call_ok(session, "simple_note_create_note", title="Plan", content="a", tags=[" trip "])["note_id"]
    assert world.get("simple_note.notes", first)["tags"] == ["trip"]
    before = world.snapshot()
    assert "already exists" in call_err(session, "simple_note_create_note", title="Plan", content="b").message
    assert "Tags must be at least 1 character" in call_err(session, "simple_note_create_note", title="Other",
                                                           content="b", tags=["ok", "  "]).message
    assert world.diff(before).empty
    other = call_ok(session, "simple_note_create_note", title="Other", content="b")["note_id"]
    assert "already exists" in call_err(session, "simple_note_update_note", note_id=other, title="Plan").message
    call_ok(session, "simple_note_update_note", note_id=first, title="Plan", content="same title is fine")
    # AppWorld's update_note stores tags as given (only create_note refuses a blank one)
    call_ok(session, "simple_note_update_note", note_id=first, tags=["trip", " "])
    assert world.get("simple_note.notes", first)["tags"] == ["trip", " "]


def test_deleting_the_account_deletes_its_notes(session, world):
    """As AppWorld's delete_account: the account's notes go with it; other people's stay."""
    mine = call_ok(session, "simple_note_create_note", title="Mine", content="x")["note_id"]
    owner = world.get("simple_note.notes", mine)["user_id"]
    others = len(world.select("simple_note.notes", "user_id != ?", (owner,)))
    call_ok(session, "simple_note_delete_account")
    assert not world.select("simple_note.notes", "user_id = ?", (owner,))
    assert len(world.select("simple_note.notes", "user_id != ?", (owner,))) == others


def test_sort_by_pinned_and_sort_prefix(session):
    call_ok(session, "simple_note_create_note", title="Loose", content="x")
    call_ok(session, "simple_note_create_note", title="Pinned one", content="x", pinned=True)
    listed = call_ok(session, "simple_note_search_notes", sort_by="-pinned", dont_reorder_pinned=True, page_limit=20)
    pins = [n["pinned"] for n in listed]
    assert pins == sorted(pins, reverse=True) and pins[0] is True
    assert "must start with + or -" in call_err(session, "simple_note_search_notes", sort_by="created_at").message
