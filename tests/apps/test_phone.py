"""Phone account tools, the phone seed, token rules, and the scenario conventions for text messages."""

import pytest
from testkit import MAIN_ID, call_err, call_ok

from mmtsb.apps import app
from mmtsb.apps.phone.seed import CONTACT_PERSON_IDS


def _my_number(world):
    return world.get("phone.users", MAIN_ID)["phone_number"]


def test_app_declaration():
    phone = app("phone")
    assert phone.login_username == "phone_number"
    assert phone.companions == {"phone.global_text_messages": ("phone.user_text_messages",),
                                "phone.global_voice_messages": ("phone.user_voice_messages",)}
    cols = {t.key: t.column_names for t in phone.tables}
    assert cols["phone.contacts"] == ["id", "user_id", "first_name", "last_name", "email", "phone_number",
                                      "relationships", "birthday", "home_address", "work_address", "created_at"]
    assert {"id", "first_name", "last_name", "phone_number", "password", "created_at",
            "last_logged_in"} <= set(cols["phone.users"])
    assert cols["phone.global_text_messages"] == ["id", "sender_id", "receiver_id", "message", "created_at"]
    assert cols["phone.user_text_messages"] == ["id", "user_id", "global_text_message_id", "created_at"]


def test_seed(world):
    assert world.count("phone.users") == 110
    contacts = world.select("phone.contacts", "user_id = ?", (MAIN_ID,))
    assert len(contacts) == len(CONTACT_PERSON_IDS) - 1  # the main user (50) is not their own contact
    assert max(c["id"] for c in contacts) < 200
    riddle = next(c for c in contacts if c["last_name"] == "Riddle")
    assert riddle["phone_number"] == world.get("phone.users", 20)["phone_number"]
    assert "manager" in next(c for c in contacts if c["first_name"] == "Christina")["relationships"]
    assert len(world.rows("phone.alarms")) == 2


def test_account_details_and_name_update(session, world):
    acct = call_ok(session, "phone_show_account")
    assert acct["phone_number"] == _my_number(world) and acct["first_name"] == "Brenda"
    assert set(acct) == {"first_name", "last_name", "phone_number", "registered_at", "last_logged_in"}
    call_ok(session, "phone_update_account_name", last_name="Web")
    assert world.get("phone.users", MAIN_ID)["last_name"] == "Web"
    assert "Give first_name" in call_err(session, "phone_update_account_name").message
    assert "first_name" in call_err(session, "phone_update_account_name", first_name=" ").message


def test_signup_login_logout_delete(session, world):
    call_ok(session, "phone_signup", first_name="Ann", last_name="Lee", phone_number="2065550123",
            password="secret1")
    assert "exactly 10 digits" in call_err(session, "phone_signup", first_name="A", last_name="B",
                                           phone_number="206-555-0199", password="secret1").message
    assert "already exists" in call_err(session, "phone_signup", first_name="A", last_name="B",
                                        phone_number="2065550123", password="secret1").message
    assert "at least 5" in call_err(session, "phone_signup", first_name="A", last_name="B",
                                    phone_number="2065550124", password="abc").message
    assert "Invalid credentials" in call_err(session, "phone_login", username="2065550123",
                                             password="wrong").message
    # the username may be written with punctuation
    call_ok(session, "phone_login", username="(206) 555-0123", password="secret1")
    assert call_ok(session, "phone_show_account")["phone_number"] == "2065550123"
    call_ok(session, "phone_logout")
    assert "Not authenticated to phone" in call_err(session, "phone_logout").message
    assert "No access token for phone" in call_err(session, "contacts_search_contacts").message
    call_ok(session, "phone_login", username="2065550123", password="secret1")
    call_ok(session, "phone_delete_account")
    assert world.select("phone.users", "phone_number = ?", ("2065550123",)) == []
    assert "Not authenticated" in call_err(session, "phone_show_account").message


def test_password_reset_code_arrives_as_a_text(session, world):
    number = _my_number(world)
    call_ok(session, "phone_send_password_reset_code", phone_number=number)
    (text,) = call_ok(session, "messages_search_text_messages", query="reset code")
    assert text["sender"]["name"] == "Phone" and text["receiver"]["phone_number"] == number
    code = text["message"].rsplit(" ", 1)[1].rstrip(".")
    assert "Invalid password reset code" in call_err(session, "phone_reset_password", phone_number=number, password_reset_code="0",
                                 new_password="newpass1").message
    call_ok(session, "phone_reset_password", phone_number=number, password_reset_code=code, new_password="newpass1")
    assert world.get("phone.users", MAIN_ID)["password"] == "newpass1"
    assert "No phone account" in call_err(session, "phone_send_password_reset_code",
                                          phone_number="0000000000").message


def test_token_free_tools_work_logged_out(session, world):
    call_ok(session, "phone_logout")
    assert call_ok(session, "alarms_get_current_date_and_time") == {"date": "2026-04-16", "time": "23:51"}
    profile = call_ok(session, "contacts_show_profile", phone_number=world.get("phone.users", 20)["phone_number"])
    assert profile["first_name"] == "Alexander"
    assert "Not authenticated" in call_err(session, "contacts_show_profile").message
    for name in ("alarms_show_alarms", "messages_search_text_messages", "contacts_show_contact_relationships"):
        assert "No access token for phone" in call_err(session, name).message


@pytest.fixture
def scenario_0090_world():
    """Main user 95 with the rows scenario 0090 injects (a second 'Alex' as contact and phone user 200)."""
    from mmtsb.apps.base_world import build_base_world

    with build_base_world("nancy@example.com", 95, "2026-04-16T23:51:15+00:00") as w:
        w.insert("phone.contacts", {"id": 200, "user_id": 95, "first_name": "Alex", "last_name": "Johnson",
                                    "email": "alex.johnson@gmail.com", "phone_number": "555-0199",
                                    "relationships": [], "birthday": None, "home_address": None,
                                    "work_address": None, "created_at": "2026-04-01T12:00:00"}, replace=True)
        w.insert("phone.users", {"id": 200, "first_name": "Alex", "last_name": "Johnson",
                                 "phone_number": "555-0199", "password": "default_password",
                                 "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"},
                 replace=True)
        yield w


def test_scenario_0090_text_to_alexander_riddle(scenario_0090_world):
    from mmtsb.tools.session import ToolSession
    from mmtsb.tools.toolbox import full_registry

    w = scenario_0090_world
    session = ToolSession(w, full_registry())
    alexes = call_ok(session, "contacts_search_contacts", query="Alex")
    assert {(c["first_name"], c["last_name"]) for c in alexes} == {("Alex", "Johnson"), ("Alexander", "Riddle")}
    riddle = next(c for c in alexes if c["last_name"] == "Riddle")
    before = w.snapshot()
    call_ok(session, "messages_send_text_message", phone_number=riddle["phone_number"],
            message="AKP reached 49.4% in the latest results")
    diff = w.diff(before)
    (glob,) = diff.tables["phone.global_text_messages"].added
    assert (glob["sender_id"], glob["receiver_id"]) == (95, 20)
    copies = diff.tables["phone.user_text_messages"].added
    assert sorted(c["user_id"] for c in copies) == [20, 95]
    assert {c["global_text_message_id"] for c in copies} == {glob["id"]}
    # the file's own number format works too, matched by digits
    call_ok(session, "messages_send_text_message", phone_number="5550199", message="hi")
    assert w.rows("phone.global_text_messages")[-1]["receiver_id"] == 200
