"""Venmo money: balances, bank transfers, payments, requests, likes, comments, the feed; money adds up."""

from __future__ import annotations

import pytest

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

USERS = "venmo.users"
TXNS = "venmo.transactions"
REQUESTS = "venmo.payment_requests"
CARD = MAIN_ID  # the seeded card's id is the main user's id


def _balance(world, user_id):
    return world.get(USERS, user_id)["venmo_balance"]


def _total(world):
    return round(sum(u["venmo_balance"] or 0 for u in world.rows(USERS)), 2)


def _stranger(world):
    friends = {r["friend_id"] for r in world.select("venmo.friendships", "user_id = ?", (MAIN_ID,))}
    return next(u for u in world.rows(USERS) if u["id"] not in friends | {MAIN_ID})


def _login_as(session, world, user_id):
    user = world.get(USERS, user_id)
    call_ok(session, "venmo_login", username=user["email"], password=user["password"])
    return user


def _fs_token(world):
    from mmtsb.world import device

    return device.session_of(world, "file_system")["access_token"]


# ------------------------------------------------------------------------------------------ balance & transfers
def test_balance_and_bank_transfers(session, world):
    start = call_ok(session, "venmo_show_venmo_balance")["venmo_balance"]
    assert start == _balance(world, MAIN_ID)
    top = call_ok(session, "venmo_add_to_venmo_balance", amount=100.25, payment_card_id=CARD)
    assert call_ok(session, "venmo_show_venmo_balance") == {"venmo_balance": round(start + 100.25, 2)}
    out = call_ok(session, "venmo_withdraw_from_venmo_balance", amount=50, payment_card_id=CARD)
    assert _balance(world, MAIN_ID) == round(start + 50.25, 2)
    row = world.get("venmo.bank_transfers", out["bank_transfer_id"])
    assert row["transfer_type"] == "venmo_to_card" and row["amount"] == 50.0 and row["payment_card_digits"] == (
        world.get("venmo.payment_cards", CARD)["card_number"][-4:])
    # as AppWorld, each transfer is confirmed by email with its receipt attached
    mails = [e for e in world.select("gmail.emails") if e["subject"].startswith("Money Transferred")]
    assert [world.select("gmail.attachments", "email_id = ?", (m["id"],))[0]["file_name"] for m in mails] == [
        f"transfer_{top['bank_transfer_id']}.txt", f"transfer_{out['bank_transfer_id']}.txt"]
    history = call_ok(session, "venmo_show_bank_transfer_history")
    assert [h["bank_transfer_id"] for h in history] == [out["bank_transfer_id"], top["bank_transfer_id"]]
    assert [h["transfer_type"] for h in call_ok(session, "venmo_show_bank_transfer_history",
                                                transfer_type="card_to_venmo")] == ["card_to_venmo"]
    assert "transfer_type" in call_err(session, "venmo_show_bank_transfer_history", transfer_type="instant").message
    before = world.snapshot()
    assert "Insufficient" in call_err(session, "venmo_withdraw_from_venmo_balance", amount=10**6,
                                      payment_card_id=CARD).message
    assert "greater than 0" in call_err(session, "venmo_add_to_venmo_balance", amount=-5, payment_card_id=CARD).message
    assert "2 decimal" in call_err(session, "venmo_add_to_venmo_balance", amount=1.005, payment_card_id=CARD).message
    assert "does not exist" in call_err(session, "venmo_add_to_venmo_balance", amount=5, payment_card_id=999).message
    world.update("venmo.payment_cards", CARD, {"expiry_year": 2025})
    assert "expired" in call_err(session, "venmo_add_to_venmo_balance", amount=5, payment_card_id=CARD).message
    world.restore(before)
    assert world.diff(before).empty


def test_receipts_land_in_the_file_system(session, world):
    token = _fs_token(world)
    transfer = call_ok(session, "venmo_add_to_venmo_balance", amount=20, payment_card_id=CARD)["bank_transfer_id"]
    out = call_ok(session, "venmo_download_bank_transfer_receipt", bank_transfer_id=transfer,
                  file_system_access_token=token)
    assert out["file_path"] == f"/home/brenda/downloads/venmo_bank_transfer_{transfer}_receipt.txt"
    saved = world.select("file_system.files", "path = ?", (out["file_path"],))[0]
    assert "Amount: $20.00" in saved["content"] and saved["user_id"] == MAIN_ID
    assert world.get("venmo.bank_transfers", transfer)["receipt_download_count"] == 1
    assert "overwrite" in call_err(session, "venmo_download_bank_transfer_receipt", bank_transfer_id=transfer,
                                   file_system_access_token=token).message
    assert "Invalid file_system_access_token" in call_err(session, "venmo_download_bank_transfer_receipt",
                                                          bank_transfer_id=transfer,
                                                          file_system_access_token="bad").message
    assert "does not exist" in call_err(session, "venmo_download_bank_transfer_receipt", bank_transfer_id=999,
                                        file_system_access_token=token).message
    paid = call_ok(session, "venmo_create_transaction", receiver_email=_stranger(world)["email"], amount=12.5,
                   description="Lunch")["transaction_id"]
    out = call_ok(session, "venmo_download_transaction_receipt", transaction_id=paid, file_system_access_token=token,
                  download_to_file_path="~/documents/lunch.txt")
    saved = world.select("file_system.files", "path = ?", (out["file_path"],))[0]
    assert out["file_path"] == "/home/brenda/documents/lunch.txt" and "Description: Lunch" in saved["content"]
    assert world.get(TXNS, paid)["receipt_download_count"] == 1
    foreign = world.select(TXNS, "sender_id != ? AND receiver_id != ? AND private = 0", (MAIN_ID, MAIN_ID))[0]["id"]
    assert "only its sender and receiver" in call_err(session, "venmo_download_transaction_receipt",
                                                      transaction_id=foreign, file_system_access_token=token).message


# ------------------------------------------------------------------------------------------ payments
def test_payments_move_money_and_add_up(session, world):
    stranger = _stranger(world)
    total, mine, theirs = _total(world), _balance(world, MAIN_ID), _balance(world, stranger["id"])
    out = call_ok(session, "venmo_create_transaction", receiver_email=stranger["email"], amount=19.99,
                  description="Concert", private=True)
    txn = world.get(TXNS, out["transaction_id"])
    assert (txn["sender_id"], txn["receiver_id"], txn["amount"], txn["private"]) == (MAIN_ID, stranger["id"], 19.99,
                                                                                     True)
    assert txn["payment_card_id"] is None and txn["created_at"] == world.clock.now_str()
    assert _balance(world, MAIN_ID) == round(mine - 19.99, 2)
    assert _balance(world, stranger["id"]) == round(theirs + 19.99, 2) and _total(world) == total
    card = call_ok(session, "venmo_create_transaction", receiver_email=stranger["email"], amount=7,
                   payment_card_id=CARD)
    assert world.get(TXNS, card["transaction_id"])["payment_card_digits"] and _balance(world, MAIN_ID) == round(
        mine - 19.99, 2)
    assert _total(world) == round(total + 7, 2)  # a card payment brings money into Venmo
    shown = call_ok(session, "venmo_show_transaction", transaction_id=out["transaction_id"])
    assert shown["direction"] == "sent" and shown["receiver"]["email"] == stranger["email"] and shown["private"]
    note = world.select("venmo.notifications", "user_id = ?", (stranger["id"],))[-1]
    assert note["type"] == "transaction_received" and note["data"] == {"transaction_id": card["transaction_id"]}
    before = world.snapshot()
    assert "Insufficient" in call_err(session, "venmo_create_transaction", receiver_email=stranger["email"],
                                      amount=10**7).message
    assert "your own email" in call_err(session, "venmo_create_transaction", receiver_email=MAIN_EMAIL,
                                        amount=1).message
    assert "No Venmo user" in call_err(session, "venmo_create_transaction", receiver_email="who@x.com",
                                       amount=1).message
    assert "greater than 0" in call_err(session, "venmo_create_transaction", receiver_email=stranger["email"],
                                        amount=0).message
    assert world.diff(before).empty


def test_private_transactions_are_hidden_from_others(session, world):
    stranger = _stranger(world)
    private = call_ok(session, "venmo_create_transaction", receiver_email=stranger["email"], amount=3,
                      private=True)["transaction_id"]
    public = call_ok(session, "venmo_create_transaction", receiver_email=stranger["email"], amount=4)["transaction_id"]
    third = next(u for u in world.rows(USERS) if u["id"] not in (MAIN_ID, stranger["id"]))
    _login_as(session, world, third["id"])
    assert "does not exist" in call_err(session, "venmo_show_transaction", transaction_id=private).message
    shown = call_ok(session, "venmo_show_transaction", transaction_id=public)
    assert shown["direction"] is None and shown["payment_card_digits"] is None
    assert "does not exist" in call_err(session, "venmo_like_transaction", transaction_id=private).message
    assert "only its sender and receiver" in call_err(session, "venmo_update_transaction", transaction_id=public,
                                                      private=True).message
    _login_as(session, world, stranger["id"])
    assert call_ok(session, "venmo_show_transaction", transaction_id=private)["direction"] == "received"
    assert "Only the sender" in call_err(session, "venmo_update_transaction", transaction_id=private,
                                         description="mine").message


def test_update_and_list_transactions(session, world):
    stranger = _stranger(world)
    ids = [call_ok(session, "venmo_create_transaction", receiver_email=stranger["email"], amount=a,
                   description=d)["transaction_id"]
           for a, d in ((15, "Pizza night"), (60, "Hotel deposit"), (8.5, "Pizza slices"))]
    call_ok(session, "venmo_update_transaction", transaction_id=ids[1], description="Hotel deposit Rome", private=True)
    row = world.get(TXNS, ids[1])
    assert row["description"] == "Hotel deposit Rome" and row["private"] is True
    assert "Nothing to update" in call_err(session, "venmo_update_transaction", transaction_id=ids[1]).message
    assert "does not exist" in call_err(session, "venmo_update_transaction", transaction_id=9999,
                                        description="x").message
    with_them = call_ok(session, "venmo_show_transactions", user_email=stranger["email"], page_limit=10)
    assert sorted(t["transaction_id"] for t in with_them) == sorted(ids)
    pizza = call_ok(session, "venmo_show_transactions", query="pizza", user_email=stranger["email"],
                    sort_by="+amount")
    assert [t["transaction_id"] for t in pizza] == [ids[2], ids[0]]
    assert [t["transaction_id"] for t in call_ok(session, "venmo_show_transactions", private=True, min_amount=50,
                                                 user_email=stranger["email"])] == [ids[1]]
    assert [t["transaction_id"] for t in call_ok(session, "venmo_show_transactions", user_email=stranger["email"],
                                                 min_amount=8, max_amount=15, sort_by="-amount")] == [ids[0], ids[2]]
    big = call_ok(session, "venmo_show_transactions", sort_by="-amount", page_limit=20)
    assert [t["amount"] for t in big] == sorted((t["amount"] for t in big), reverse=True)
    today = world.clock.now_str()[:10]
    assert {t["transaction_id"] for t in call_ok(session, "venmo_show_transactions", min_created_at=today,
                                                 max_created_at=today, page_limit=20)} == set(ids)
    received = call_ok(session, "venmo_show_transactions", direction="received", page_limit=20)
    assert received and all(t["direction"] == "received" for t in received)
    newest = call_ok(session, "venmo_show_transactions", page_limit=20)
    assert [t["created_at"] for t in newest] == sorted((t["created_at"] for t in newest), reverse=True)
    for bad, msg in (({"direction": "both"}, "direction"), ({"sort_by": "-description"}, "sort_by"),
                     ({"min_created_at": "yesterday"}, "min_created_at"), ({"min_amount": 0}, "min_amount"),
                     ({"user_email": "nobody@x.com"}, "No Venmo user")):
        assert msg in call_err(session, "venmo_show_transactions", **bad).message


# ------------------------------------------------------------------------------------------ requests
@pytest.fixture
def friend(world):
    return world.get(USERS, world.select("venmo.friendships", "user_id = ?", (MAIN_ID,))[0]["friend_id"])


def test_request_lifecycle_approve(session, world, friend):
    out = call_ok(session, "venmo_create_payment_request", user_email=friend["email"], amount=30,
                  description="Tickets", private=True)
    rid = out["payment_request_id"]
    row = world.get(REQUESTS, rid)
    assert (row["sender_id"], row["receiver_id"], row["amount"], row["private"]) == (MAIN_ID, friend["id"], 30.0, True)
    call_ok(session, "venmo_update_payment_request", payment_request_id=rid, amount=32.5, description="Tickets+fee")
    assert world.get(REQUESTS, rid)["amount"] == 32.5
    assert "Nothing to update" in call_err(session, "venmo_update_payment_request", payment_request_id=rid).message
    call_ok(session, "venmo_remind_payment_request", payment_request_id=rid)
    kinds = [n["type"] for n in world.select("venmo.notifications", "user_id = ?", (friend["id"],))]
    assert kinds[-2:] == ["payment_request_received", "payment_request_reminder"]
    assert "only the user it was sent to" in call_err(session, "venmo_approve_payment_request",
                                                      payment_request_id=rid).message
    sent = call_ok(session, "venmo_show_sent_payment_requests", status="pending", page_limit=20)
    assert rid in [r["payment_request_id"] for r in sent]
    mine, theirs = _balance(world, MAIN_ID), _balance(world, friend["id"])

    _login_as(session, world, friend["id"])
    received = call_ok(session, "venmo_show_received_payment_requests", query="tickets")
    assert received[0]["payment_request_id"] == rid and received[0]["sender"]["email"] == MAIN_EMAIL
    assert "was sent to you" in call_err(session, "venmo_remind_payment_request", payment_request_id=rid).message
    call_ok(session, "venmo_approve_payment_request", payment_request_id=rid)
    row = world.get(REQUESTS, rid)
    txn = world.get(TXNS, row["transaction_id"])
    assert row["approved_at"] == world.clock.now_str() and row["denied_at"] is None
    assert (txn["sender_id"], txn["receiver_id"], txn["amount"], txn["private"], txn["payment_request_id"]) == (
        friend["id"], MAIN_ID, 32.5, True, rid)
    assert _balance(world, MAIN_ID) == round(mine + 32.5, 2)
    assert _balance(world, friend["id"]) == round(theirs - 32.5, 2)
    assert "already approved" in call_err(session, "venmo_deny_payment_request", payment_request_id=rid).message
    assert call_ok(session, "venmo_show_received_payment_requests", status="approved")[0]["status"] == "approved"

    _login_as(session, world, MAIN_ID)
    assert "already approved" in call_err(session, "venmo_delete_payment_request", payment_request_id=rid).message
    assert "status" in call_err(session, "venmo_show_sent_payment_requests", status="cancelled").message
    kinds = [n["type"] for n in world.select("venmo.notifications", "user_id = ?", (MAIN_ID,))]
    assert kinds[-2:] == ["transaction_received", "payment_request_approved"]


def test_request_deny_delete_and_card_approval(session, world, friend):
    (incoming,) = call_ok(session, "venmo_show_received_payment_requests", status="pending")
    rid = incoming["payment_request_id"]
    assert "was sent to you" in call_err(session, "venmo_update_payment_request", payment_request_id=rid,
                                         amount=1).message
    mine = _balance(world, MAIN_ID)
    call_ok(session, "venmo_approve_payment_request", payment_request_id=rid, payment_card_id=CARD)
    assert _balance(world, MAIN_ID) == mine  # paid by card
    assert world.get(TXNS, world.get(REQUESTS, rid)["transaction_id"])["payment_card_id"] == CARD
    other = call_ok(session, "venmo_create_payment_request", user_email=friend["email"], amount=5)["payment_request_id"]
    call_ok(session, "venmo_delete_payment_request", payment_request_id=other)
    assert world.get(REQUESTS, other) is None
    assert "does not exist" in call_err(session, "venmo_delete_payment_request", payment_request_id=other).message
    denied = call_ok(session, "venmo_create_payment_request", user_email=friend["email"],
                     amount=9)["payment_request_id"]
    _login_as(session, world, friend["id"])
    assert "was sent to you" in call_err(session, "venmo_delete_payment_request", payment_request_id=denied).message
    call_ok(session, "venmo_deny_payment_request", payment_request_id=denied)
    assert world.get(REQUESTS, denied)["denied_at"] == world.clock.now_str()
    assert "already denied" in call_err(session, "venmo_approve_payment_request", payment_request_id=denied).message
    assert call_ok(session, "venmo_show_received_payment_requests", status="denied")[0]["status"] == "denied"
    assert "greater than 0" in call_err(session, "venmo_create_payment_request", user_email=MAIN_EMAIL,
                                        amount=-1).message
    assert "your own email" in call_err(session, "venmo_create_payment_request", user_email=friend["email"],
                                        amount=1).message
    assert "status" in call_err(session, "venmo_show_received_payment_requests", status="open").message


# ------------------------------------------------------------------------------------------ social
def test_likes_comments_and_feed(session, world, friend):
    feed = call_ok(session, "venmo_show_social_feed", page_limit=20)
    assert feed and [t["created_at"] for t in feed] == sorted((t["created_at"] for t in feed), reverse=True)
    assert all(not t["private"] or t["direction"] for t in feed)
    between_friends = next(t for t in feed if t["direction"] is None)
    tid = between_friends["transaction_id"]
    call_ok(session, "venmo_like_transaction", transaction_id=tid)
    assert world.get(TXNS, tid)["like_count"] == 1
    assert call_ok(session, "venmo_show_transaction", transaction_id=tid)["liked"] is True
    assert "already liked" in call_err(session, "venmo_like_transaction", transaction_id=tid).message
    call_ok(session, "venmo_unlike_transaction", transaction_id=tid)
    assert world.get(TXNS, tid)["like_count"] == 0
    assert "not liked" in call_err(session, "venmo_unlike_transaction", transaction_id=tid).message

    cid = call_ok(session, "venmo_create_transaction_comment", transaction_id=tid, comment="Fun night!")["comment_id"]
    assert "comment" in call_err(session, "venmo_create_transaction_comment", transaction_id=tid, comment=" ").message
    (shown,) = call_ok(session, "venmo_show_transaction_comments", transaction_id=tid)
    assert shown["comment"] == "Fun night!" and shown["user"]["email"] == MAIN_EMAIL and shown["comment_id"] == cid
    assert call_ok(session, "venmo_show_transaction", transaction_id=tid)["comment_count"] == 1
    call_ok(session, "venmo_update_transaction_comment", comment_id=cid, comment="Great night!")
    assert call_ok(session, "venmo_show_transaction_comment", comment_id=cid)["comment"] == "Great night!"
    call_ok(session, "venmo_like_transaction_comment", comment_id=cid)
    assert call_ok(session, "venmo_show_transaction_comment", comment_id=cid)["like_count"] == 1
    assert "already liked" in call_err(session, "venmo_like_transaction_comment", comment_id=cid).message
    call_ok(session, "venmo_unlike_transaction_comment", comment_id=cid)
    assert "not liked" in call_err(session, "venmo_unlike_transaction_comment", comment_id=cid).message
    # as in AppWorld, likes and comments notify nobody
    assert not world.select("venmo.notifications", "type IN ('transaction_commented', 'transaction_liked', "
                                                   "'comment_liked')")

    _login_as(session, world, friend["id"])
    call_ok(session, "venmo_like_transaction_comment", comment_id=cid)
    assert "someone else" in call_err(session, "venmo_update_transaction_comment", comment_id=cid,
                                      comment="hijack").message
    assert "someone else" in call_err(session, "venmo_delete_transaction_comment", comment_id=cid).message
    _login_as(session, world, MAIN_ID)
    call_ok(session, "venmo_delete_transaction_comment", comment_id=cid)
    assert world.get("venmo.transaction_comments", cid) is None
    assert not world.select("venmo.transaction_comment_likes", "comment_id = ?", (cid,))
    for name in ("venmo_show_transaction_comment", "venmo_like_transaction_comment"):
        assert "does not exist" in call_err(session, name, comment_id=cid).message
    assert "does not exist" in call_err(session, "venmo_show_transaction_comments", transaction_id=99999).message
    assert "page_limit" in call_err(session, "venmo_show_social_feed", page_limit=21).message
