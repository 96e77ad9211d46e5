"""Contacts: the logged-in phone user's address book."""

from testkit import MAIN_ID, call_err, call_ok


def _add(session, **extra):
    args = {"first_name": "Dana", "last_name": "Scully", "email": "dana@fbi.gov", **extra}
    return call_ok(session, "contacts_add_contact", **args)["contact_id"]


def test_add_search_update_delete(session, world):
    cid = _add(session, phone_number="555-0142", relationships=["Coworker", "coworker", "Partner"],
               birthday="1964-02-23", work_address="935 Pennsylvania Ave")
    row = world.get("phone.contacts", cid)
    assert row["user_id"] == MAIN_ID and row["relationships"] == ["Coworker", "Partner"]
    assert row["created_at"] == "2026-04-16T23:51:15" and row["home_address"] is None
    found = call_ok(session, "contacts_search_contacts", query="dana scully")
    assert found[0]["contact_id"] == cid and found[0]["phone_number"] == "555-0142"
    assert set(found[0]) == {"contact_id", "first_name", "last_name", "email", "phone_number", "relationships",
                             "birthday", "home_address", "work_address", "created_at"}
    assert call_ok(session, "contacts_search_contacts", query="5550142")[0]["contact_id"] == cid
    assert [c["contact_id"] for c in call_ok(session, "contacts_search_contacts", relationship="partner")] == [cid]
    assert "Partner" in call_ok(session, "contacts_show_contact_relationships")

    call_ok(session, "contacts_update_contact", contact_id=cid, last_name="Mulder", birthday="", relationships=[])
    row = world.get("phone.contacts", cid)
    assert (row["last_name"], row["birthday"], row["relationships"]) == ("Mulder", None, [])
    assert row["work_address"] == "935 Pennsylvania Ave"  # untouched
    call_ok(session, "contacts_delete_contact", contact_id=cid)
    assert world.get("phone.contacts", cid) is None


def test_search_ranks_and_paginates(session):
    _add(session, first_name="Alex", last_name="Johnson", email="aj@x.com")
    _add(session, first_name="Alexis", last_name="Stone", email="as@x.com")
    ranked = call_ok(session, "contacts_search_contacts", query="Alex Johnson")
    assert (ranked[0]["first_name"], ranked[0]["last_name"]) == ("Alex", "Johnson")
    assert {c["first_name"] for c in ranked} >= {"Alexis", "Alexander"}
    everyone = call_ok(session, "contacts_search_contacts", page_limit=20)
    names = [(c["first_name"], c["last_name"]) for c in everyone]
    assert names == sorted(names, key=lambda n: (n[0].lower(), n[1].lower()))
    page2 = call_ok(session, "contacts_search_contacts", page_index=1, page_limit=3)
    assert page2 == everyone[3:6]
    assert "page_limit" in call_err(session, "contacts_search_contacts", page_limit=21).message
    assert call_ok(session, "contacts_search_contacts", query="zzzz-nobody") == []


def test_validation_errors(session, world):
    cid = _add(session)
    assert "already exists" in call_err(session, "contacts_add_contact", first_name="X", last_name="Y",
                                        email="DANA@fbi.gov").message
    assert "not a valid email" in call_err(session, "contacts_add_contact", first_name="X", last_name="Y",
                                       email="not-an-email").message
    assert "first_name" in call_err(session, "contacts_add_contact", first_name="", last_name="Y",
                                    email="x@y.com").message
    assert "birthday" in call_err(session, "contacts_add_contact", first_name="X", last_name="Y", email="x@y.com",
                                  birthday="23/02/1964").message
    assert "phone_number" in call_err(session, "contacts_add_contact", first_name="X", last_name="Y",
                                      email="x@y.com", phone_number="call me").message
    assert "email" in call_err(session, "contacts_add_contact", first_name="X", last_name="Y").message
    assert "Nothing to update" in call_err(session, "contacts_update_contact", contact_id=cid).message
    assert "does not exist" in call_err(session, "contacts_update_contact", contact_id=99999,
                                        first_name="Z").message
    other = world.insert("phone.contacts", {"user_id": 20, "first_name": "Not", "last_name": "Mine",
                                            "email": "nm@x.com", "relationships": []})
    assert "does not exist" in call_err(session, "contacts_delete_contact", contact_id=other).message
    before = world.snapshot()
    assert "already exists" in call_err(session, "contacts_update_contact", contact_id=1, first_name="Q",
                                        email="dana@fbi.gov").message
    assert world.diff(before).empty  # the failed update left nothing behind


def test_show_profile(session, world):
    me = call_ok(session, "contacts_show_profile")
    assert me["first_name"] == "Brenda" and set(me) == {"first_name", "last_name", "phone_number", "registered_at"}
    number = world.get("phone.users", 8)["phone_number"]
    spaced = f"({number[:3]}) {number[3:6]}-{number[6:]}"
    assert call_ok(session, "contacts_show_profile", phone_number=spaced)["last_name"] == "Solomon"
    assert "No phone user" in call_err(session, "contacts_show_profile", phone_number="0000000000").message
