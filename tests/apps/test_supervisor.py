"""Supervisor: the owner's profile, addresses, cards and passwords come from the main user."""

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.apps import account_apps
from mmtsb.world.people import base_people


def _main():
    return next(p for p in base_people(MAIN_EMAIL, MAIN_ID) if p.id == MAIN_ID)


def test_profile_matches_the_main_user(session):
    me = _main()
    assert call_ok(session, "supervisor_show_profile") == {
        "first_name": "Brenda", "last_name": "Webster", "email": MAIN_EMAIL, "phone_number": me.phone_number,
        "birthday": me.birthday, "sex": me.sex}


def test_addresses_and_cards(session):
    me = _main()
    addresses = call_ok(session, "supervisor_show_addresses")
    assert [a["name"] for a in addresses] == ["Home", "Work"]
    assert addresses[0] == {"name": "Home", "street_address": me.street_address, "city": me.city,
                            "state": me.state, "country": "United States", "zip_code": me.zip_code}
    (card,) = call_ok(session, "supervisor_show_payment_cards")
    assert card == {"owner_name": "Brenda Webster", "card_name": "Visa", "card_number": me.card_number,
                    "expiry_year": me.card_expiry_year, "expiry_month": me.card_expiry_month,
                    "cvv_number": me.card_cvv}


def test_account_passwords_log_in_to_every_app(session, world):
    passwords = call_ok(session, "supervisor_show_account_passwords")
    # the reference's nine auto-login apps, alphabetically (ids 1..9)
    assert [p["account_name"] for p in passwords] == list(account_apps()) == [
        "amazon", "file_system", "gmail", "phone", "simple_note", "splitwise", "spotify", "todoist", "venmo"]
    by_app = {p["account_name"]: p["password"] for p in passwords}
    # the phone password works with the profile phone number as username
    number = call_ok(session, "supervisor_show_profile")["phone_number"]
    call_ok(session, "phone_logout")
    assert call_ok(session, "phone_login", username=number, password=by_app["phone"])["token_type"] == "Bearer"
    assert by_app["simple_note"] == world.get("simple_note.users", MAIN_ID)["password"]


def test_failure_paths(session, world):
    assert "no parameter" in call_err(session, "supervisor_show_profile", email="x").message
    world.delete("supervisor.profile", 1)
    assert "not set up" in call_err(session, "supervisor_show_profile").message
    assert call_ok(session, "supervisor_show_addresses")  # other tables are unaffected


def test_seed_is_deterministic_per_main_user():
    from mmtsb.apps.base_world import build_base_world

    def rows(email, uid):
        with build_base_world(email, uid, "2026-04-16T23:51:15+00:00") as w:
            return [w.rows(f"supervisor.{t}") for t in ("profile", "addresses", "payment_cards",
                                                         "account_passwords")]

    assert rows("siwhit@gmail.com", 105) == rows("siwhit@gmail.com", 105)
    assert rows("siwhit@gmail.com", 105)[0][0]["first_name"] == "Simone"
