"""Splitwise expenses: equal and custom splits that add up, edits, soft-delete, listings, receipts, comments."""

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.world import device

EXPENSES, SHARES = "splitwise.expenses", "splitwise.expense_shares"
FILES = "file_system.files"


def email_of(world, user_id):
    return world.get("splitwise.users", user_id)["email"]


def shares(world, expense_id):
    return {r["debtor_id"]: r["share_amount"] for r in world.select(SHARES, "expense_id = ?", (expense_id,))}


def parts_add_up(view):
    return round(sum(s["share_amount"] for s in view["shares"]), 2) == view["amount"]


@pytest.fixture
def token(world):
    """The file-system token of the main user, with one receipt file in ~/documents."""
    world.insert(FILES, {"path": "/home/brenda/documents/dinner_receipt.txt", "tilde_path":
                         "~/documents/dinner_receipt.txt", "user_id": MAIN_ID, "content": "Dinner total $90.00",
                         "compressed_data": [], "created_at": "2026-04-01T00:00:00",
                         "updated_at": "2026-04-01T00:00:00"})
    return device.session_of(world, "file_system")["access_token"]


def test_equal_split_including_the_payer(session, world):
    b, c = email_of(world, 3), email_of(world, 4)
    eid = call_ok(session, "splitwise_record_expense", description="Dinner", paid_amount=100,
                  payer_email=MAIN_EMAIL, debtor_emails=[MAIN_EMAIL, b, c])["expense_id"]
    row = world.get(EXPENSES, eid)
    assert (row["user_id"], row["payer_id"], row["debtor_ids"], row["participant_ids"]) == (MAIN_ID, MAIN_ID, [3, 4],
                                                                                         [MAIN_ID, 3, 4])
    assert (row["amount"], row["group_id"], row["deleted"], row["receipt_download_count"]) == (100.0, None, False, 0)
    assert shares(world, eid) == {3: 33.33, 4: 33.33}  # the payer's part (33.34) carries the extra cent
    view = call_ok(session, "splitwise_show_expense", expense_id=eid)
    assert parts_add_up(view) and view["shares"][0] == {"name": "Brenda Webster", "email": MAIN_EMAIL,
                                                       "share_amount": 33.34, "owes_payer": False}


def test_debtors_only_and_custom_amounts(session, world):
    b, c = email_of(world, 3), email_of(world, 4)
    whole = call_ok(session, "splitwise_record_expense", description="Taxi", paid_amount=45.5, payer_email=MAIN_EMAIL,
                    debtor_emails=[b])["expense_id"]
    assert shares(world, whole) == {3: 45.5}
    custom = call_ok(session, "splitwise_record_expense", description="Groceries", paid_amount=60,
                     payer_email=b, debtor_emails=[MAIN_EMAIL, c, b], debt_amounts=[25, 15.25, 19.75])["expense_id"]
    row = world.get(EXPENSES, custom)
    assert row["payer_id"] == 3 and row["participant_ids"] == [3, MAIN_ID, 4]
    assert shares(world, custom) == {MAIN_ID: 25.0, 4: 15.25}
    assert parts_add_up(call_ok(session, "splitwise_show_expense", expense_id=custom))  # payer keeps 19.75
    float_total = 19.99 + 22.99 + 29.99 + 28.99 + 32.99 + 18.49  # 153.44000000000003 in floating point
    eid = call_ok(session, "splitwise_record_expense", description="Toys", paid_amount=float_total,
                  payer_email=MAIN_EMAIL, debtor_emails=[MAIN_EMAIL, c])["expense_id"]
    assert world.get(EXPENSES, eid)["amount"] == 153.44 and shares(world, eid) == {4: 76.72}


def test_shares_must_add_up_to_the_paid_amount(session, world):
    """Money integrity (AppWorld's rule): debt amounts that leave part of the total unowned are refused, whether
    or not the payer is listed; a few cents of rounding (thirds) are accepted, as AppWorld accepts them."""
    b, c = email_of(world, 3), email_of(world, 4)
    before = world.snapshot()
    err = call_err(session, "splitwise_record_expense", description="Dinner", paid_amount=90, payer_email=MAIN_EMAIL,
                   debtor_emails=[b, c], debt_amounts=[30, 30])
    assert "must be equal to the total amount" in err.message and "60.00" in err.message
    assert world.diff(before).empty
    eid = call_ok(session, "splitwise_record_expense", description="Dinner", paid_amount=100,
                  payer_email=MAIN_EMAIL, debtor_emails=[MAIN_EMAIL, b, c], debt_amounts=[33.33, 33.33, 33.33])
    assert shares(world, eid["expense_id"]) == {3: 33.33, 4: 33.33}


def test_record_failures_write_nothing(session, world):
    b = email_of(world, 3)
    before = world.snapshot()
    cases = [
        (dict(description="", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b]), "description"),
        (dict(description="x", paid_amount=0, payer_email=MAIN_EMAIL, debtor_emails=[b]), "paid_amount"),
        (dict(description="x", paid_amount=0.004, payer_email=MAIN_EMAIL, debtor_emails=[b]), "greater than 0"),
        (dict(description="x", paid_amount=10, payer_email="ghost@x.com", debtor_emails=[b]), "payer_email"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[]), "debtor_emails"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[MAIN_EMAIL]), "other than"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b, b]), "more than once"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b], debt_amounts=[1, 2]),
         "one amount per debtor"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b], debt_amounts=[11]),
         "must be equal to the total"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[MAIN_EMAIL, b],
              debt_amounts=[2, 3]), "must be equal to the total"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b], debt_amounts=[-1]),
         "debt_amounts[0]"),
        (dict(description="x", paid_amount=10, payer_email=b, debtor_emails=[email_of(world, 4)]), "take part"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b], group_id=999),
         "does not exist"),
        (dict(description="x", paid_amount=10, payer_email=MAIN_EMAIL, debtor_emails=[b],
              receipt_file_path="~/nope.txt", file_system_access_token="bad"), "file_system_access_token"),
    ]
    for args, needle in cases:
        assert needle in call_err(session, "splitwise_record_expense", **args).message, (args, needle)
    assert world.diff(before).empty


def test_group_expense_needs_members(session, world):
    b, outsider = email_of(world, 3), email_of(world, 8)
    gid = session.call("splitwise_create_group", {"name": "Trip", "member_emails": [b]}).value["group_id"]
    err = call_err(session, "splitwise_record_expense", description="Hotel", paid_amount=300, payer_email=MAIN_EMAIL,
                   debtor_emails=[b, outsider], group_id=gid)
    assert "Not members" in err.message and outsider in err.message
    eid = call_ok(session, "splitwise_record_expense", description="Hotel", paid_amount=300, payer_email=b,
                  debtor_emails=[MAIN_EMAIL, b], group_id=gid)["expense_id"]
    assert world.get(EXPENSES, eid)["group_id"] == gid
    listed = call_ok(session, "splitwise_show_group_expenses", group_id=gid)
    assert [e["expense_id"] for e in listed] == [eid] and listed[0]["group_name"] == "Trip"
    device.login(world, "splitwise", outsider)  # not a member, not a participant: can't see it
    assert "does not exist" in call_err(session, "splitwise_show_expense", expense_id=eid).message
    assert "not a member" in call_err(session, "splitwise_show_group_expenses", group_id=gid).message


def test_update_delete_undelete(session, world):
    b, c = email_of(world, 3), email_of(world, 4)
    eid = call_ok(session, "splitwise_record_expense", description="Cab", paid_amount=30, payer_email=MAIN_EMAIL,
                  debtor_emails=[MAIN_EMAIL, b, c])["expense_id"]
    call_ok(session, "splitwise_update_expense", expense_id=eid, paid_amount=45)  # same people, new amount
    assert shares(world, eid) == {3: 15.0, 4: 15.0} and world.get(EXPENSES, eid)["amount"] == 45.0
    assert "must be equal to the total" in call_err(session, "splitwise_update_expense", expense_id=eid,
                                                    debtor_emails=[b], debt_amounts=[20]).message
    call_ok(session, "splitwise_update_expense", expense_id=eid, debtor_emails=[MAIN_EMAIL, b], debt_amounts=[25, 20])
    assert shares(world, eid) == {3: 20.0}
    # as in AppWorld the row's bookkeeping is not rewritten for a new split; who takes part follows the shares
    assert world.get(EXPENSES, eid)["participant_ids"] == [MAIN_ID, 3, 4]
    device.login(world, "splitwise", c)
    assert "does not exist" in call_err(session, "splitwise_show_expense", expense_id=eid).message
    device.login(world, "splitwise", MAIN_EMAIL)
    call_ok(session, "splitwise_update_expense", expense_id=eid, payer_email=b, description="Cab home")
    row = world.get(EXPENSES, eid)
    assert (row["payer_id"], row["description"]) == (3, "Cab home") and shares(world, eid) == {MAIN_ID: 22.5}
    assert parts_add_up(call_ok(session, "splitwise_show_expense", expense_id=eid))
    assert "Nothing to update" in call_err(session, "splitwise_update_expense", expense_id=eid).message
    assert "requires debtor_emails" in call_err(session, "splitwise_update_expense", expense_id=eid,
                                                debt_amounts=[1]).message
    assert "description" in call_err(session, "splitwise_update_expense", expense_id=eid, description=" ").message
    call_ok(session, "splitwise_delete_expense", expense_id=eid)
    assert world.get(EXPENSES, eid)["deleted"] is True
    assert "is deleted" in call_err(session, "splitwise_delete_expense", expense_id=eid).message
    assert "is deleted" in call_err(session, "splitwise_update_expense", expense_id=eid, description="z").message
    assert eid not in [e["expense_id"] for e in call_ok(session, "splitwise_show_no_group_expenses")]
    assert [e["expense_id"] for e in call_ok(session, "splitwise_show_no_group_expenses", deleted=True)] == [eid]
    call_ok(session, "splitwise_undelete_expense", expense_id=eid)
    assert world.get(EXPENSES, eid)["deleted"] is False
    assert "not deleted" in call_err(session, "splitwise_undelete_expense", expense_id=eid).message
    assert "does not exist" in call_err(session, "splitwise_delete_expense", expense_id=999).message


def test_listing_filters_search_and_sort(session, world):
    b = email_of(world, 3)
    for desc, amount in (("Movie night snacks", 12), ("Museum tickets", 48), ("Bowling", 30)):
        call_ok(session, "splitwise_record_expense", description=desc, paid_amount=amount, payer_email=MAIN_EMAIL,
                debtor_emails=[MAIN_EMAIL, b])
    hits = call_ok(session, "splitwise_show_no_group_expenses", query="museum tickets")
    assert hits[0]["description"] == "Museum tickets"
    oldest_first = call_ok(session, "splitwise_show_no_group_expenses", participant_email=b, sort_by="+created_at",
                           page_limit=10)
    assert [e["amount"] for e in oldest_first] == [12.0, 48.0, 30.0]  # only the new ones involve person 3
    ranged = call_ok(session, "splitwise_show_no_group_expenses", min_amount=20, max_amount=40, page_limit=20)
    assert ranged and all(20 <= e["amount"] <= 40 for e in ranged)
    today = world.clock.now_str()[:10]
    assert len(call_ok(session, "splitwise_show_no_group_expenses", min_created_at=today, page_limit=20)) == 3
    assert call_ok(session, "splitwise_show_no_group_expenses", max_created_at="2000-01-01") == []
    newest = call_ok(session, "splitwise_show_no_group_expenses")
    assert [e["created_at"] for e in newest] == sorted((e["created_at"] for e in newest), reverse=True)
    gid = world.select("splitwise.groups", "name = 'Lake Tahoe Trip'")[0]["id"]
    cheap_first = call_ok(session, "splitwise_show_group_expenses", group_id=gid, sort_by="+amount")
    assert [e["amount"] for e in cheap_first] == sorted(e["amount"] for e in cheap_first)
    assert all(parts_add_up(e) for e in cheap_first)
    assert "sort_by" in call_err(session, "splitwise_show_no_group_expenses", sort_by="-amount").message
    assert "min_amount" in call_err(session, "splitwise_show_no_group_expenses", min_amount=-1).message
    assert "max_amount" in call_err(session, "splitwise_show_group_expenses", group_id=gid, min_amount=50,
                                    max_amount=10).message
    assert "max_created_at" in call_err(session, "splitwise_show_no_group_expenses",
                                        max_created_at="April 1").message
    assert "participant_email" in call_err(session, "splitwise_show_no_group_expenses",
                                           participant_email="ghost@x.com").message
    assert "page_limit" in call_err(session, "splitwise_show_group_expenses", group_id=gid, page_limit=25).message


def test_receipts_round_trip_through_the_file_system(session, world, token):
    b = email_of(world, 3)
    eid = call_ok(session, "splitwise_record_expense", description="Dinner", paid_amount=90, payer_email=MAIN_EMAIL,
                  debtor_emails=[MAIN_EMAIL, b], receipt_file_path="~/documents/dinner_receipt.txt",
                  file_system_access_token=token)["expense_id"]
    row = world.get(EXPENSES, eid)
    assert (row["receipt_file_name"], row["receipt_file_content"]) == ("dinner_receipt.txt", "Dinner total $90.00")
    out = call_ok(session, "splitwise_download_expense_receipt_file", expense_id=eid, file_system_access_token=token)
    assert out["file_path"] == "/home/brenda/downloads/dinner_receipt.txt"
    saved = world.select(FILES, "path = ?", (out["file_path"],))[0]
    assert saved["content"] == "Dinner total $90.00" and saved["tilde_path"] == "~/downloads/dinner_receipt.txt"
    assert world.get(EXPENSES, eid)["receipt_download_count"] == 1
    assert "already exists" in call_err(session, "splitwise_download_expense_receipt_file", expense_id=eid,
                                        file_system_access_token=token).message
    call_ok(session, "splitwise_download_expense_receipt_file", expense_id=eid, file_system_access_token=token,
            download_to_file_path="~/taxes/2026/", overwrite=True)
    assert world.select(FILES, "path = '/home/brenda/taxes/2026/dinner_receipt.txt'")
    assert world.select("file_system.directories", "path = '/home/brenda/taxes/2026/'")
    assert "Invalid file_system_access_token" in call_err(session, "splitwise_download_expense_receipt_file",
                                                          expense_id=eid, file_system_access_token="x").message
    assert "already has a receipt" in call_err(session, "splitwise_attach_expense_receipt_file", expense_id=eid,
                                               receipt_file_path="~/documents/dinner_receipt.txt",
                                               file_system_access_token=token).message
    call_ok(session, "splitwise_delete_expense_receipt_file", expense_id=eid)
    assert world.get(EXPENSES, eid)["receipt_file_name"] is None
    assert "no receipt" in call_err(session, "splitwise_delete_expense_receipt_file", expense_id=eid).message
    assert "no receipt" in call_err(session, "splitwise_download_expense_receipt_file", expense_id=eid,
                                    file_system_access_token=token).message
    assert "does not exist" in call_err(session, "splitwise_attach_expense_receipt_file", expense_id=eid,
                                        receipt_file_path="/home/brenda/missing.txt",
                                        file_system_access_token=token).message
    call_ok(session, "splitwise_attach_expense_receipt_file", expense_id=eid,
            receipt_file_path="/home/brenda/documents/dinner_receipt.txt", file_system_access_token=token)
    assert world.get(EXPENSES, eid)["receipt_file_name"] == "dinner_receipt.txt"


def test_expense_comments(session, world):
    b = email_of(world, 3)
    eid = call_ok(session, "splitwise_record_expense", description="Brunch", paid_amount=40, payer_email=MAIN_EMAIL,
                  debtor_emails=[MAIN_EMAIL, b])["expense_id"]
    cid = call_ok(session, "splitwise_post_expense_comment", expense_id=eid, comment="Paid with my card")[
        "expense_comment_id"]
    call_ok(session, "splitwise_post_expense_comment", expense_id=eid, comment="Tip included")
    listed = call_ok(session, "splitwise_show_expense_comments", expense_id=eid)
    assert [c["comment"] for c in listed] == ["Paid with my card", "Tip included"]
    assert listed[0]["user"]["email"] == MAIN_EMAIL and listed[0]["expense_id"] == eid
    assert len(call_ok(session, "splitwise_show_expense_comments", expense_id=eid, page_limit=1)) == 1
    call_ok(session, "splitwise_update_expense_comment", comment_id=cid, comment="Paid with the Visa card")
    assert call_ok(session, "splitwise_show_expense_comment", comment_id=cid)["comment"] == "Paid with the Visa card"
    assert call_ok(session, "splitwise_show_expense", expense_id=eid)["num_comments"] == 2
    assert "1000" in call_err(session, "splitwise_post_expense_comment", expense_id=eid, comment="x" * 1001).message
    assert "at least 1" in call_err(session, "splitwise_update_expense_comment", comment_id=cid, comment="").message
    assert "does not exist" in call_err(session, "splitwise_post_expense_comment", expense_id=999,
                                        comment="hi").message
    device.login(world, "splitwise", b)  # a participant sees the comment but can't change it
    assert call_ok(session, "splitwise_show_expense_comment", comment_id=cid)["expense_comment_id"] == cid
    assert "your own comments" in call_err(session, "splitwise_delete_expense_comment", comment_id=cid).message
    device.login(world, "splitwise", MAIN_EMAIL)
    call_ok(session, "splitwise_delete_expense_comment", comment_id=cid)
    assert "does not exist" in call_err(session, "splitwise_show_expense_comment", comment_id=cid).message
    assert "does not exist" in call_err(session, "splitwise_show_expense_comments", expense_id=999).message


def test_amounts_are_rounded_to_the_cent_as_in_appworld(session, world):
    b = world.select("splitwise.users", "id != ?", (MAIN_ID,))[0]["email"]
    eid = call_ok(session, "splitwise_record_expense", description="Odd", paid_amount=12.345, payer_email=MAIN_EMAIL,
                  debtor_emails=[MAIN_EMAIL, b])["expense_id"]
    assert world.get("splitwise.expenses", eid)["amount"] == round(12.345, 2)

