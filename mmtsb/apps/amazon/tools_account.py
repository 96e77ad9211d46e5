"""Amazon account tools (signup, login, codes, profile) and the browsing history."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.account_tools import (EMAIL_OF_NO_ACCOUNT, OWN_PROFILE_WHEN_OMITTED,
                                     AccountApp, Wording, add_account_tools)
from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import APP, HISTORY, USERS
from mmtsb.apps.common import api_error, paginate
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)


def _account_details(world: World, out: dict[str, Any]) -> None:
    out["track_browsing_history"] = bool(out.get("track_browsing_history"))
    out["verified"] = bool(out.get("verified"))
    out["is_prime"] = core.is_prime(world, core.me(world))


def _new_account_defaults(world: World, email: str) -> None:
    """A new account tracks its browsing history and has no Prime membership."""
    user = accounts.find_user(world, APP, email)
    if user is not None:
        world.update(USERS, user["id"], {"track_browsing_history": True, "is_prime": False})


# amazon_show_account, amazon_signup, amazon_delete_account, amazon_update_account_name, amazon_login,
# amazon_logout, amazon_send_verification_code, amazon_verify_account, amazon_send_password_reset_code,
# amazon_reset_password and amazon_show_profile (each tool taking an email checks its form first):
add_account_tools(globals(), AccountApp(
    APP, "Amazon", article="an", check_emails=True, columns=("track_browsing_history", "verified"),
    details=_account_details, detail_fields=("is_prime",), after_signup=_new_account_defaults, owned_tables=tuple(
        f"amazon.{t}" for t in ("orders", "product_reviews", "cart_entries", "wish_list_entries", "payment_cards",
                                "addresses", "returns")), wording={
        "signup": Wording("Registers a new Amazon account.", args=EMAIL_OF_NO_ACCOUNT),
        "update_account_name": Wording("Changes the account's first and/or last name."),
        "login": Wording("Logs in to Amazon with email and password; afterwards the app counts as authenticated."),
        "logout": Wording("Logs out of the Amazon account."),
        "verify_account": Wording("Marks the Amazon account verified using the emailed code."),
        "show_profile": Wording("Shows an Amazon user's public profile.", args=OWN_PROFILE_WHEN_OMITTED)}))


# ------------------------------------------------------------------------------------------ browsing history
@tool(domain=APP, requires=AUTHED, tables=(HISTORY,))
def amazon_show_browsing_history(world: World, page_index: int | None = 0,
                                 page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists the products the user has viewed, most recent first.

    Args:
        page_index: the page to return, from 0.
        page_limit: products per page, 1 to 20.

    Returns:
        list[product] (each with viewed_at)
    """
    rows = world.select(HISTORY, "user_id = ?", (core.my_id(world),), order_by="created_at DESC, id DESC")
    page = paginate(rows, page_index, page_limit)
    out = []
    sellers, counts = core.seller_names(world), core.review_counts(world)
    for entry in page:
        p = world.get(core.PRODUCTS, entry["product_id"])
        if p is not None:
            out.append({**core.product_view(p, sellers, counts), "viewed_at": entry.get("created_at")})
    return out


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(HISTORY,))
def amazon_clear_browsing_history(world: World) -> dict[str, str]:
    """Empties the user's browsing history.

    Returns:
        {message}
    """
    rows = world.select(HISTORY, "user_id = ?", (core.my_id(world),))
    for r in rows:
        world.delete(HISTORY, r["id"])
    return {"message": f"Browsing history cleared ({len(rows)} entries removed)."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(HISTORY,))
def amazon_add_product_to_browsing_history(world: World, product_id: int) -> dict[str, str]:
    """Records a product in the browsing history (only while history tracking is on).

    Viewing the product again moves it to the top instead of adding a second entry.

    Args:
        product_id: the product's id.

    Returns:
        {message}
    """
    user = core.me(world)
    core.product(world, product_id)
    if not user.get("track_browsing_history"):
        raise api_error("Browsing history tracking is turned off; turn it on with "
                        "amazon_update_browsing_history_tracking first.")
    for r in world.select(HISTORY, "user_id = ? AND product_id = ?", (user["id"], product_id)):
        world.delete(HISTORY, r["id"])
    world.insert(HISTORY, {"id": world.next_id(HISTORY), "user_id": user["id"], "product_id": product_id,
                           "created_at": world.clock.now_str()})
    return {"message": "Product added to the browsing history."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(HISTORY,))
def amazon_remove_product_from_browsing_history(world: World, product_id: int) -> dict[str, str]:
    """Deletes one product from the browsing history.

    Args:
        product_id: the product's id.

    Returns:
        {message}
    """
    rows = world.select(HISTORY, "user_id = ? AND product_id = ?", (core.my_id(world), product_id))
    if not rows:
        raise api_error(f"Product with product_id={product_id} is not in your browsing history.")
    for r in rows:
        world.delete(HISTORY, r["id"])
    return {"message": "Product removed from the browsing history."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def amazon_update_browsing_history_tracking(world: World, track_browsing_history: bool) -> dict[str, str]:
    """Turns browsing-history tracking on or off (existing history is kept).

    Args:
        track_browsing_history: true to record viewed products, false to stop.

    Returns:
        {message}
    """
    user = core.me(world)
    world.update(USERS, user["id"], {"track_browsing_history": bool(track_browsing_history)})
    return {"message": f"Browsing history tracking turned {'on' if track_browsing_history else 'off'}."}
