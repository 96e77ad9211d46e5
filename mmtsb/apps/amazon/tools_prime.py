"""Amazon Prime tools: plans, subscribing with a saved card, the subscription history and its receipts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from mmtsb.apps.amazon import core
from mmtsb.apps.file_system import api as fs
from mmtsb.apps.amazon.core import APP, CARDS, PRIME, PRIME_PLANS
from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.gmail.delivery import mail_receipt
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
_LENGTH = {"monthly": timedelta(days=30), "yearly": timedelta(days=365)}


def _view(s: dict[str, Any]) -> dict[str, Any]:
    return {"prime_subscription_id": s["id"], "duration": s.get("duration"), "start_date": s.get("start_date"),
            "end_date": s.get("end_date"), "payment_card_digits": s.get("payment_card_digits"),
            "paid_amount": s.get("paid_amount"), "receipt_download_count": s.get("receipt_download_count") or 0}


@tool(domain=APP, requires=ONLINE)
def amazon_show_prime_plans(world: World) -> dict[str, int]:
    """Shows the Prime plan prices in dollars. Prime members pay no delivery fee on orders.

    Returns:
        {monthly, yearly}
    """
    return dict(PRIME_PLANS)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PRIME,))
def amazon_subscribe_prime(world: World, payment_card_id: int, duration: str) -> dict[str, Any]:
    """Buys a Prime subscription (30 days for 'monthly', 365 for 'yearly') with a saved card.

    Args:
        payment_card_id: the id of one of your saved, unexpired payment cards.
        duration: 'monthly' or 'yearly' (prices: amazon_show_prime_plans).

    Returns:
        {message, prime_subscription_id}
    """
    user = core.me(world)
    if duration not in PRIME_PLANS:
        raise api_error(f"Invalid duration {duration!r}; use 'monthly' or 'yearly'.")
    card = core.own_row(world, CARDS, payment_card_id, "Payment card", "payment_card_id")
    problem = core.card_problem(world, card)
    if problem:
        raise api_error(problem)
    now = core.now_naive(world)
    active = world.select(PRIME, "user_id = ? AND end_date > ?", (user["id"], core.stamp(now)))
    if active:
        raise api_error(f"You already have an active Prime subscription until {active[-1]['end_date']}.")
    sub_id = world.next_id(PRIME)
    world.insert(PRIME, {"id": sub_id, "user_id": user["id"], "duration": duration, "start_date": core.stamp(now),
                         "end_date": core.stamp(now + _LENGTH[duration]), "payment_card_id": card["id"],
                         "payment_card_digits": core.card_digits(card), "paid_amount": float(PRIME_PLANS[duration]),
                         "receipt_download_count": 0, "created_at": world.clock.now_str()})
    mail_receipt(world, app="Amazon", recipient_email=user["email"], subject="Amazon Prime Subscription Confirmation",
                 body=f"Hello {user['first_name']},\n\nYour Prime subscription #{sub_id} ({duration}) is active.",
                 file_name=f"prime_subscription_{sub_id}.txt", receipt=_receipt(world.get(PRIME, sub_id), user))
    return {"message": f"Subscribed to Prime ({duration}) for ${PRIME_PLANS[duration]}.",
            "prime_subscription_id": sub_id}


@tool(domain=APP, requires=AUTHED, tables=(PRIME,))
def amazon_show_prime_subscriptions(world: World, page_index: int | None = 0,
                                    page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists the user's Prime subscription history, newest first.

    Args:
        page_index: the page to return, from 0.
        page_limit: subscriptions per page, 1 to 20.

    Returns:
        list[{prime_subscription_id, duration, start_date, end_date, payment_card_digits, paid_amount,
        receipt_download_count}]
    """
    rows = world.select(PRIME, "user_id = ?", (core.my_id(world),), order_by="start_date DESC, id DESC")
    return [_view(s) for s in paginate(rows, page_index, page_limit)]


def _receipt(s: dict[str, Any], user: dict[str, Any]) -> str:
    return "\n".join([
        "Amazon Prime subscription receipt", f"Subscription ID: {s['id']}",
        f"Member: {user.get('first_name')} {user.get('last_name')} ({user.get('email')})",
        f"Plan: {s.get('duration')}", f"Period: {s.get('start_date')} to {s.get('end_date')}",
        f"Paid with card ending in {s.get('payment_card_digits')}",
        f"Amount paid: ${core.cents(core.dec(s.get('paid_amount'))):.2f}"]) + "\n"


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PRIME, "file_system.files"))
def amazon_download_prime_subscription_receipt(world: World, prime_subscription_id: int,
                                               file_system_access_token: str,
                                               download_to_file_path: str | None = None,
                                               overwrite: bool | None = False) -> dict[str, str]:
    """Saves a Prime subscription receipt (a text file) into the file-system app.

    Args:
        prime_subscription_id: the subscription's id.
        file_system_access_token: the access_token returned by file_system_login.
        download_to_file_path: a file path, or a directory ending with '/' (the receipt keeps its name
            amazon_prime_subscription_<id>_receipt.txt); absolute or ~/ path; default ~/downloads/.
        overwrite: replace an existing file at that path; otherwise an existing file is an error.

    Returns:
        {message, file_path}
    """
    user = core.me(world)
    sub = core.own_row(world, PRIME, prime_subscription_id, "Prime subscription", "prime_subscription_id")
    path = fs.save_file(world, file_system_access_token, download_to_file_path,
                        f"amazon_prime_subscription_{sub['id']}_receipt.txt", _receipt(sub, user),
                        bool(overwrite))
    world.update(PRIME, sub["id"], {"receipt_download_count": (sub.get("receipt_download_count") or 0) + 1})
    return {"message": "Prime subscription receipt downloaded.", "file_path": path}
