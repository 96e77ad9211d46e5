"""Spotify Premium: plans, subscribing with a saved card, the subscription history and receipts saved
into the file-system app (``file_system_access_token`` convention)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dateutil.relativedelta import relativedelta

from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.gmail.delivery import mail_receipt
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import APP, AUTHED, ONLINE, SUBSCRIPTIONS
from mmtsb.apps.spotify.tools_account import check_not_expired, own_card
from mmtsb.apps.file_system.api import save_file
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

#: Premium prices in dollars
PLANS: dict[str, int] = {"monthly": 10, "yearly": 100}
_LENGTH = {"monthly": relativedelta(months=1), "yearly": relativedelta(years=1)}


@tool(domain=APP, requires=ONLINE)
def spotify_show_premium_plans(world: World) -> dict[str, int]:
    """Shows the Spotify Premium plan prices in dollars.

    Returns:
        {monthly, yearly}
    """
    return dict(PLANS)


def _subscription_view(sub: dict[str, Any]) -> dict[str, Any]:
    return {"premium_subscription_id": sub["id"], "start_date": sub.get("start_date"),
            "end_date": sub.get("end_date"), "payment_card_digits": sub.get("payment_card_digits"),
            "paid_amount": sub.get("paid_amount")}


def _premium_now(world: World, user: dict[str, Any]) -> bool:
    """Premium at this moment: a subscription that has not ended (AppWorld's test), or the account flag of a
    user whose Premium no subscription row records (as a scenario file may set it)."""
    subs = world.select(SUBSCRIPTIONS, "user_id = ?", (user["id"],))
    if subs:
        return any((s.get("end_date") or "") > core.now(world) for s in subs)
    return bool(user.get("is_premium"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SUBSCRIPTIONS,))
def spotify_subscribe_premium(world: World, payment_card_id: int, duration: str) -> dict[str, Any]:
    """Buys Spotify Premium with one of your saved payment cards.

    The plan starts now; while you are already Premium it is refused (as AppWorld does): subscribe again once
    the current period has ended.

    Args:
        payment_card_id: the card to charge (see spotify_show_payment_cards); it must not have expired.
        duration: 'monthly' or 'yearly' (prices: spotify_show_premium_plans).

    Returns:
        {message, premium_subscription_id}
    """
    if duration not in PLANS:
        raise api_error(f"Invalid duration {duration!r}: use 'monthly' or 'yearly'.")
    user = core.me(world)
    if _premium_now(world, user):
        raise api_error("You are already a premium member.")
    card = own_card(world, payment_card_id)
    check_not_expired(world, int(card.get("expiry_year") or 0), int(card.get("expiry_month") or 0))
    now = core.now(world)
    start = datetime.fromisoformat(now[:19])
    end = start + _LENGTH[duration]
    sub_id = core.insert(world, SUBSCRIPTIONS, {
        "user_id": user["id"], "duration": duration, "start_date": start.isoformat(), "end_date": end.isoformat(),
        "payment_card_id": payment_card_id, "payment_card_digits": str(card.get("card_number") or "")[-4:],
        "paid_amount": float(PLANS[duration]), "receipt_download_count": 0, "created_at": now})
    mail_receipt(world, app="Spotify", recipient_email=user["email"], subject="Spotify Premium Subscription Confirmation",
                 body=f"Hello {user['first_name']},\n\nYour Premium subscription #{sub_id} ({duration}) is active.",
                 file_name=f"premium_subscription_{sub_id}.txt", receipt=_receipt(world.get(SUBSCRIPTIONS, sub_id), user))
    return {"message": f"Subscribed to Premium ({duration}) until {end.date().isoformat()}.",
            "premium_subscription_id": sub_id}


@tool(domain=APP, requires=AUTHED, tables=(SUBSCRIPTIONS,))
def spotify_show_premium_subscriptions(world: World, page_index: int | None = 0,
                                       page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists your Premium subscriptions, the latest first.

    Args:
        page_index: the page to return, from 0.
        page_limit: subscriptions per page, 1 to 20.

    Returns:
        list[{premium_subscription_id, start_date, end_date, payment_card_digits, paid_amount}]
    """
    subs = world.select(SUBSCRIPTIONS, "user_id = ?", (core.my_id(world),), order_by='"start_date" DESC, "id" DESC')
    return [_subscription_view(s) for s in paginate(subs, page_index, page_limit)]


def _receipt(sub: dict[str, Any], user: dict[str, Any]) -> str:
    return "\n".join((
        "Spotify Premium receipt",
        f"Receipt for subscription #{sub['id']}",
        f"Customer: {user['first_name']} {user['last_name']} <{user.get('email')}>",
        f"Plan: Premium {sub.get('duration')}",
        f"Period: {str(sub.get('start_date'))[:10]} to {str(sub.get('end_date'))[:10]}",
        f"Paid: ${float(sub.get('paid_amount') or 0):.2f} with the card ending in {sub.get('payment_card_digits')}",
        f"Purchased at: {sub.get('created_at')}",
    )) + "\n"


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SUBSCRIPTIONS, "file_system.files"))
def spotify_download_premium_subscription_receipt(world: World, premium_subscription_id: int,
                                                  file_system_access_token: str,
                                                  download_to_file_path: str | None = None,
                                                  overwrite: bool | None = False) -> dict[str, Any]:
    """Saves the receipt of one of your Premium subscriptions as a text file in the file-system app.

    Args:
        premium_subscription_id: the subscription's id (see spotify_show_premium_subscriptions).
        file_system_access_token: the access_token returned by file_system_login.
        download_to_file_path: where to save: a file path, or a directory ending with '/' (the file is then
            named spotify_premium_receipt_<id>.txt); absolute (/...) or under your home (~/...); default
            ~/downloads/.
        overwrite: replace a file already at that path; otherwise that is an error.

    Returns:
        {message, file_path}
    """
    user = core.me(world)
    sub = world.get(SUBSCRIPTIONS, premium_subscription_id)
    if sub is None or sub.get("user_id") != user["id"]:
        raise api_error(f"Premium subscription with premium_subscription_id={premium_subscription_id} does not exist.")
    path = save_file(world, file_system_access_token, download_to_file_path,
                     f"spotify_premium_receipt_{sub['id']}.txt", _receipt(sub, user), overwrite)
    world.update(SUBSCRIPTIONS, sub["id"], {"receipt_download_count": int(sub.get("receipt_download_count") or 0) + 1})
    return {"message": "Receipt downloaded.", "file_path": path}
