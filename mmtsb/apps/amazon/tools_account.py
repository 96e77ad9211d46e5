"""Amazon account tools (signup, login, codes, profile) and the browsing history."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import APP, HISTORY, USERS
from mmtsb.apps.common import api_error, paginate
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def amazon_show_account(world: World) -> dict[str, Any]:
    """Returns the logged-in user's private Amazon account details.

    Returns:
        {first_name, last_name, email, registered_at, last_logged_in, track_browsing_history, verified, is_prime}
    """
    user = core.me(world)
    out = accounts.show_account(world, APP, "track_browsing_history", "verified")
    out["track_browsing_history"] = bool(out.get("track_browsing_history"))
    out["verified"] = bool(out.get("verified"))
    out["is_prime"] = core.is_prime(world, user)
    return out


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def amazon_signup(world: World, first_name: str, last_name: str, email: str, password: str) -> dict[str, str]:
    """Registers a new Amazon account.

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        email: a valid email address not used by another account.
        password: at least 5 characters.

    Returns:
        {message}
    """
    out = accounts.signup(world, APP, first_name, last_name, email, password)
    user = accounts.find_user(world, APP, email)
    if user is not None:
        world.update(USERS, user["id"], {"track_browsing_history": True, "is_prime": False})
    return out


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def amazon_delete_account(world: World) -> dict[str, str]:
    """Deletes the logged-in user's Amazon account (and logs out).

    Returns:
        {message}
    """
    return accounts.delete_account(world, APP)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def amazon_update_account_name(world: World, first_name: str | None = None,
                               last_name: str | None = None) -> dict[str, str]:
    """Changes the account's first and/or last name.

    Args:
        first_name: the new first name (at least 1 character).
        last_name: the new last name (at least 1 character).

    Returns:
        {message}
    """
    return accounts.update_account_name(world, APP, first_name, last_name)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def amazon_login(world: World, username: str, password: str) -> dict[str, str]:
    """Logs in to Amazon with email and password; afterwards the app counts as authenticated.

    Args:
        username: the account email.
        password: the account password (see supervisor_show_account_passwords).

    Returns:
        {access_token, token_type}
    """
    return accounts.login(world, APP, username, password)


@tool(domain=APP, mutates=True, requires=AUTHED)
def amazon_logout(world: World) -> dict[str, str]:
    """Logs out of the Amazon account.

    Returns:
        {message}
    """
    return accounts.logout(world, APP)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def amazon_send_verification_code(world: World, email: str) -> dict[str, str]:
    """Emails an Amazon account verification code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    accounts.check_email(email)
    return accounts.send_code(world, APP, email, "verify")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def amazon_verify_account(world: World, email: str, verification_code: str) -> dict[str, str]:
    """Marks the Amazon account verified using the emailed code.

    Args:
        email: the account email.
        verification_code: the code from the verification email.

    Returns:
        {message}
    """
    accounts.check_email(email)
    return accounts.verify_account(world, APP, email, verification_code)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def amazon_send_password_reset_code(world: World, email: str) -> dict[str, str]:
    """Emails an Amazon password reset code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    accounts.check_email(email)
    return accounts.send_code(world, APP, email, "reset")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def amazon_reset_password(world: World, email: str, password_reset_code: str, new_password: str) -> dict[str, str]:
    """Sets a new Amazon password using the emailed reset code.

    Args:
        email: the account email.
        password_reset_code: the code from the reset email.
        new_password: at least 5 characters.

    Returns:
        {message}
    """
    accounts.check_email(email)
    return accounts.reset_password(world, APP, email, password_reset_code, new_password)


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def amazon_show_profile(world: World, email: str | None = None) -> dict[str, Any]:
    """Shows an Amazon user's public profile.

    Args:
        email: the user's email; the logged-in user's own profile when omitted.

    Returns:
        {first_name, last_name, email, registered_at}
    """
    if email is not None:
        accounts.check_email(email)
    return accounts.show_profile(world, APP, email)


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
