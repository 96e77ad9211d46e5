"""Splitwise payments, settling up, balances that add up in every view, and the activity feed."""

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.world import device

PAYMENTS = "splitwise.payments"
FILES = "file_system.files"


def email_of(world, user_id):
    return world.get("splitwise.users", user_id)["email"]


def signed(entry):
    """A balance entry as signed dollars (positive: they owe you)."""
    return {"owes you": 1, "you owe": -1, "settled up": 0}[entry["direction"]] * entry.get(
        "amount", entry.get("total"))


def check_balances_add_up(session, world):
    people = call_ok(session, "splitwise_show_people_balance")
    groups = call_ok(session, "splitwise_show_groups_balance")
    for view in (people, groups):
        assert view["others_owe_you"] == round(sum(e["amount"] for e in view["breakdown"]
                                                   if e["direction"] == "owes you"), 2)
        assert view["you_owe_others"] == round(sum(e["amount"] for e in view["breakdown"]
                                                   if e["direction"] == "you owe"), 2)
    net = round(people["others_owe_you"] - people["you_owe_others"], 2)
    assert net == round(groups["others_owe_you"] - groups["you_owe_others"], 2)
    per_person = [call_ok(session, "splitwise_show_person_balance", email=e["email"]) for e in people["breakdown"]]
    assert round(sum(signed(p) for p in per_person), 2) == net
    for p, e in zip(per_person, people["breakdown"]):
        assert round(sum(signed(b) for b in p["breakdown"]), 2) == signed(e)
    return net


@pytest.fixture
def token(world):
    world.insert(FILES, {"path": "/home/brenda/documents/transfer.txt", "tilde_path": "~/documents/transfer.txt",
                         "user_id": MAIN_ID, "content": "Bank transfer #42", "compressed_data": [],
                         "created_at": "2026-04-01T00:00:00", "updated_at": "2026-04-01T00:00:00"})
    return device.session_of(world, "file_system")["access_token"]


def test_record_show_update_delete_payment(session, world, token):
    b = email_of(world, 3)
    net0 = check_balances_add_up(session, world)
    pid = call_ok(session, "splitwise_record_payment", payer_email=MAIN_EMAIL, receiver_email=b, amount=12.5,
                  description="Lunch money", receipt_file_path="~/documents/transfer.txt",
                  file_system_access_token=token)["payment_id"]
    row = world.get(PAYMENTS, pid)
    assert (row["user_id"], row["payer_id"], row["receiver_id"], row["amount"], row["group_id"]) == (
        MAIN_ID, MAIN_ID, 3, 12.5, None)
    assert row["receipt_file_name"] == "transfer.txt"
    assert check_balances_add_up(session, world) == round(net0 + 12.5, 2)  # paying raises what others owe you
    shown = call_ok(session, "splitwise_show_payment", payment_id=pid)
    assert shown["payer"]["email"] == MAIN_EMAIL and shown["receiver"]["email"] == b and shown["amount"] == 12.5
    call_ok(session, "splitwise_update_payment", payment_id=pid, amount=10)
    assert world.get(PAYMENTS, pid)["amount"] == 10.0
    call_ok(session, "splitwise_update_payment", payment_id=pid, description="Lunch")
    assert world.get(PAYMENTS, pid)["description"] == "Lunch"
    assert "Nothing to update" in call_err(session, "splitwise_update_payment", payment_id=pid).message
    assert "amount" in call_err(session, "splitwise_update_payment", payment_id=pid, amount=-3).message
    call_ok(session, "splitwise_delete_payment", payment_id=pid)
    assert world.get(PAYMENTS, pid)["deleted"] is True and check_balances_add_up(session, world) == net0
    assert "is deleted" in call_err(session, "splitwise_delete_payment", payment_id=pid).message
    assert [p["payment_id"] for p in call_ok(session, "splitwise_show_no_group_payments", deleted=True)] == [pid]
    call_ok(session, "splitwise_undelete_payment", payment_id=pid)
    assert "not deleted" in call_err(session, "splitwise_undelete_payment", payment_id=pid).message
    assert check_balances_add_up(session, world) == round(net0 + 10, 2)


def test_payment_failures(session, world):
    b, c = email_of(world, 3), email_of(world, 4)
    before = world.snapshot()
    assert "different" in call_err(session, "splitwise_record_payment", payer_email=b, receiver_email=b,
                                   amount=5).message
    assert "amount" in call_err(session, "splitwise_record_payment", payer_email=MAIN_EMAIL, receiver_email=b,
                                amount=0).message
    assert "receiver_email" in call_err(session, "splitwise_record_payment", payer_email=MAIN_EMAIL,
                                        receiver_email="ghost@x.com", amount=5).message
    assert "made or received" in call_err(session, "splitwise_record_payment", payer_email=b, receiver_email=c,
                                          amount=5).message
    assert "does not exist" in call_err(session, "splitwise_record_payment", payer_email=MAIN_EMAIL,
                                        receiver_email=b, amount=5, group_id=999).message
    assert "does not exist" in call_err(session, "splitwise_show_payment", payment_id=999).message
    assert world.diff(before).empty


def test_group_payments_listing_and_receipts(session, world, token):
    gid = world.select("splitwise.groups", "name = 'Apartment 4B'")[0]["id"]
    members = [r["user_id"] for r in world.select("splitwise.group_members", "group_id = ?", (gid,))]
    other = email_of(world, next(m for m in members if m != MAIN_ID))
    outsider = email_of(world, next(i for i in range(1, 100) if i not in members))
    assert "Not members" in call_err(session, "splitwise_record_payment", payer_email=MAIN_EMAIL,
                                     receiver_email=outsider, amount=5, group_id=gid).message
    pid = call_ok(session, "splitwise_record_payment", payer_email=MAIN_EMAIL, receiver_email=other, amount=7.25,
                  group_id=gid)["payment_id"]
    listed = call_ok(session, "splitwise_show_group_payments", group_id=gid)
    assert listed[0]["payment_id"] == pid and listed[0]["group_name"] == "Apartment 4B"
    assert [p["amount"] for p in call_ok(session, "splitwise_show_group_payments", group_id=gid,
                                         sort_by="-amount")] == [20.0, 7.25]
    assert call_ok(session, "splitwise_show_group_payments", group_id=gid, query="internet")[0]["amount"] == 20.0
    assert call_ok(session, "splitwise_show_group_payments", group_id=gid, min_amount=10)[0]["amount"] == 20.0
    assert "sort_by" in call_err(session, "splitwise_show_group_payments", group_id=gid, sort_by="name").message
    nogroup = call_ok(session, "splitwise_show_no_group_payments", sort_by="+amount")
    assert all(p["group_id"] is None for p in nogroup)
    assert "participant_email" in call_err(session, "splitwise_show_no_group_payments",
                                           participant_email="nope").message
    # receipts
    call_ok(session, "splitwise_attach_payment_receipt_file", payment_id=pid,
            receipt_file_path="~/documents/transfer.txt", file_system_access_token=token)
    assert world.get(PAYMENTS, pid)["receipt_file_content"] == "Bank transfer #42"
    assert "already has a receipt" in call_err(session, "splitwise_attach_payment_receipt_file", payment_id=pid,
                                               receipt_file_path="~/documents/transfer.txt",
                                               file_system_access_token=token).message
    out = call_ok(session, "splitwise_download_payment_receipt_file", payment_id=pid, file_system_access_token=token,
                  download_to_file_path="~/documents/proof.txt")
    assert out["file_path"] == "/home/brenda/documents/proof.txt"
    assert world.select(FILES, "path = ?", (out["file_path"],))[0]["content"] == "Bank transfer #42"
    assert world.get(PAYMENTS, pid)["receipt_download_count"] == 1
    # a path that is neither absolute nor under ~ is taken from the root, as in AppWorld
    assert call_ok(session, "splitwise_download_payment_receipt_file", payment_id=pid, file_system_access_token=token,
                   download_to_file_path="proof.txt")["file_path"] == "/proof.txt"
    call_ok(session, "splitwise_delete_payment_receipt_file", payment_id=pid)
    assert "no receipt" in call_err(session, "splitwise_delete_payment_receipt_file", payment_id=pid).message
    assert "no receipt" in call_err(session, "splitwise_download_payment_receipt_file", payment_id=pid,
                                    file_system_access_token=token).message


def test_payment_comments(session, world):
    pid = call_ok(session, "splitwise_record_payment", payer_email=MAIN_EMAIL, receiver_email=email_of(world, 3),
                  amount=5)["payment_id"]
    cid = call_ok(session, "splitwise_post_payment_comment", payment_id=pid, comment="Sent via bank")[
        "payment_comment_id"]
    listed = call_ok(session, "splitwise_show_payment_comments", payment_id=pid)
    assert [(c["payment_comment_id"], c["comment"]) for c in listed] == [(cid, "Sent via bank")]
    call_ok(session, "splitwise_update_payment_comment", comment_id=cid, comment="Sent via Venmo")
    assert call_ok(session, "splitwise_show_payment_comment", comment_id=cid)["comment"] == "Sent via Venmo"
    assert "at least 1" in call_err(session, "splitwise_post_payment_comment", payment_id=pid, comment=" ").message
    assert "at least 1" in call_err(session, "splitwise_update_payment_comment", comment_id=cid, comment="").message
    device.login(world, "splitwise", email_of(world, 3))
    assert "your own comments" in call_err(session, "splitwise_update_payment_comment", comment_id=cid,
                                           comment="no").message
    device.login(world, "splitwise", MAIN_EMAIL)
    call_ok(session, "splitwise_delete_payment_comment", comment_id=cid)
    assert call_ok(session, "splitwise_show_payment_comments", payment_id=pid) == []
    assert "does not exist" in call_err(session, "splitwise_delete_payment_comment", comment_id=cid).message
    assert "does not exist" in call_err(session, "splitwise_show_payment_comment", comment_id=cid).message
    assert "does not exist" in call_err(session, "splitwise_show_payment_comments", payment_id=999).message


def test_settle_up_zeroes_every_balance_with_a_person(session, world):
    people = call_ok(session, "splitwise_show_people_balance")["breakdown"]
    target = next(e for e in people if len(call_ok(session, "splitwise_show_person_balance",
                                                   email=e["email"])["breakdown"]) >= 2)
    before = call_ok(session, "splitwise_show_person_balance", email=target["email"])
    out = call_ok(session, "splitwise_settle_up", email=target["email"])
    assert len(out["payment_ids"]) == len(before["breakdown"])
    assert all(world.get(PAYMENTS, p)["description"] == "Settle up balance." for p in out["payment_ids"])
    after = call_ok(session, "splitwise_show_person_balance", email=target["email"])
    assert after == {"direction": "settled up", "total": 0.0, "breakdown": []}
    assert "already settled up" in call_err(session, "splitwise_settle_up", email=target["email"]).message
    assert "yourself" in call_err(session, "splitwise_settle_up", email=MAIN_EMAIL).message
    assert "yourself" in call_err(session, "splitwise_show_person_balance", email=MAIN_EMAIL).message
    check_balances_add_up(session, world)


def test_settle_up_in_one_group_and_group_balance_views(session, world):
    gid = world.select("splitwise.groups", "name = 'Lake Tahoe Trip'")[0]["id"]
    rows = call_ok(session, "splitwise_show_group_balance", group_id=gid)
    assert len(rows) == 4
    owed = {(r["source"]["email"], t["email"]): t["amount"] for r in rows for t in r["source_owes_to_targets"]}
    mirrored = {(t["email"], r["source"]["email"]): t["amount"] for r in rows for t in r["targets_owe_to_source"]}
    assert owed == mirrored and owed  # every debt appears once from each side
    mine = call_ok(session, "splitwise_show_group_balance", group_id=gid, email=MAIN_EMAIL)
    assert len(mine) == 1 and mine[0]["source"]["email"] == MAIN_EMAIL
    creditor = mine[0]["source_owes_to_targets"][0]
    call_ok(session, "splitwise_settle_up", email=creditor["email"], group_id=gid, description="Tahoe")
    mine = call_ok(session, "splitwise_show_group_balance", group_id=gid, email=MAIN_EMAIL)[0]
    assert creditor["email"] not in [t["email"] for t in mine["source_owes_to_targets"] + mine["targets_owe_to_source"]]
    assert "already settled up in group" in call_err(session, "splitwise_settle_up", email=creditor["email"],
                                                     group_id=gid).message
    nongroup = call_ok(session, "splitwise_show_group_balance")
    assert nongroup[0]["source"]["email"] == MAIN_EMAIL and nongroup[0]["targets_owe_to_source"]
    assert "only your own" in call_err(session, "splitwise_show_group_balance",
                                       email=creditor["email"]).message
    members = {r["user_id"] for r in world.select("splitwise.group_members", "group_id = ?", (gid,))}
    outsider = email_of(world, next(i for i in range(1, 100) if i not in members))
    assert "not a member" in call_err(session, "splitwise_show_group_balance", group_id=gid, email=outsider).message
    assert "does not exist" in call_err(session, "splitwise_show_group_balance", group_id=999).message
    check_balances_add_up(session, world)


def test_deleting_records_and_groups_changes_balances(session, world):
    net0 = check_balances_add_up(session, world)
    gid = world.select("splitwise.groups", "name = 'Apartment 4B'")[0]["id"]
    in_group = call_ok(session, "splitwise_show_groups_balance")["breakdown"]
    group_net = next(signed(e) for e in in_group if e["group_id"] == gid)
    call_ok(session, "splitwise_delete_group", group_id=gid)
    assert check_balances_add_up(session, world) == round(net0 - group_net, 2)
    call_ok(session, "splitwise_undelete_group", group_id=gid)
    assert check_balances_add_up(session, world) == net0


def test_activity_feed(session, world):
    b = email_of(world, 3)
    eid = call_ok(session, "splitwise_record_expense", description="Parking", paid_amount=16, payer_email=MAIN_EMAIL,
                  debtor_emails=[MAIN_EMAIL, b])["expense_id"]
    pid = call_ok(session, "splitwise_record_payment", payer_email=b, receiver_email=MAIN_EMAIL, amount=8)[
        "payment_id"]
    feed = call_ok(session, "splitwise_show_activity", page_limit=2)
    assert [(f["record_type"], f["record_id"]) for f in feed] == [("payment", pid), ("expense", eid)]
    assert feed[1]["owed_by"] == [{"name": world.get("splitwise.users", 3)["first_name"] + " "
                                   + world.get("splitwise.users", 3)["last_name"], "email": b, "amount": 8.0}]
    assert (feed[0]["your_balance_change"], feed[1]["your_balance_change"]) == (-8.0, 8.0)
    expenses_only = call_ok(session, "splitwise_show_activity", show_payments=False, page_limit=20)
    assert expenses_only and all(f["record_type"] == "expense" for f in expenses_only)
    oldest = call_ok(session, "splitwise_show_activity", sort_by="+created_at", page_limit=20)
    assert [f["created_at"] for f in oldest] == sorted(f["created_at"] for f in oldest)
    assert "at least one" in call_err(session, "splitwise_show_activity", show_expenses=False,
                                      show_payments=False).message
    assert "sort_by" in call_err(session, "splitwise_show_activity", sort_by="-amount").message
