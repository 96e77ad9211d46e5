"""File-system account tools: signup, login, codes and profile (behaviour in apps/accounts)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.common import current_user
from mmtsb.apps.file_system.core import APP, AUTHED, DIRECTORIES, FILES, ONLINE, USERS, Tree
from mmtsb.apps.file_system.seed import HOME_SUBDIRECTORIES
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def file_system_show_account(world: World) -> dict[str, Any]:
    """Returns the logged-in user's private file-system account details.

    Returns:
        {first_name, last_name, email, registered_at, last_logged_in, verified}
    """
    return accounts.show_account(world, APP, "verified")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS, DIRECTORIES))
def file_system_signup(world: World, first_name: str, last_name: str, email: str, password: str) -> dict[str, str]:
    """Creates a new file-system account with an empty home directory (~/ with documents/, downloads/, photos/).

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        email: a valid email address not used by another file-system account.
        password: at least 5 characters.

    Returns:
        {message}
    """
    out = accounts.signup(world, APP, first_name, last_name, email, password)
    user = accounts.find_user(world, APP, email)
    if user is not None:
        tree = Tree.load(world, user)
        for sub in ("", *HOME_SUBDIRECTORIES):
            path = tree.home + ("/" + sub.rstrip("/") if sub else "")
            if path not in tree.dirs:
                tree.add_dir(path)
    return out


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS, DIRECTORIES, FILES))
def file_system_delete_account(world: World) -> dict[str, str]:
    """Deletes the logged-in user's file-system account, with all their files and directories, and logs out.

    Returns:
        {message}
    """
    user = current_user(world, APP)
    for key in (FILES, DIRECTORIES):
        for row in world.select(key, "user_id = ?", (user["id"],)):
            world.delete(key, row["id"])
    return accounts.delete_account(world, APP)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def file_system_update_account_name(world: World, first_name: str | None = None,
                                    last_name: str | None = None) -> dict[str, str]:
    """Changes the first and/or last name on the file-system account (the home directory keeps its path).

    Args:
        first_name: the new first name (at least 1 character).
        last_name: the new last name (at least 1 character).

    Returns:
        {message}
    """
    return accounts.update_account_name(world, APP, first_name, last_name)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def file_system_login(world: World, username: str, password: str) -> dict[str, str]:
    """Logs into file-system; on success the token is stored and the app counts as authenticated.

    The returned access_token is also what other apps take as ``file_system_access_token`` to attach files
    from, or download files into, your file system.

    Args:
        username: the account email.
        password: the account password (see supervisor_show_account_passwords).

    Returns:
        {access_token, token_type}
    """
    return accounts.login(world, APP, username, password)


@tool(domain=APP, mutates=True, requires=AUTHED)
def file_system_logout(world: World) -> dict[str, str]:
    """Logs out of file-system.

    Returns:
        {message}
    """
    return accounts.logout(world, APP)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def file_system_send_verification_code(world: World, email: str) -> dict[str, str]:
    """Emails a file-system account verification code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "verify")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def file_system_verify_account(world: World, email: str, verification_code: str) -> dict[str, str]:
    """Verifies the file-system account with the emailed code.

    Args:
        email: the account email.
        verification_code: the code from the verification email.

    Returns:
        {message}
    """
    return accounts.verify_account(world, APP, email, verification_code)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def file_system_send_password_reset_code(world: World, email: str) -> dict[str, str]:
    """Emails a file-system password reset code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "reset")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def file_system_reset_password(world: World, email: str, password_reset_code: str,
                               new_password: str) -> dict[str, str]:
    """Sets a new file-system password using the emailed reset code.

    Args:
        email: the account email.
        password_reset_code: the code from the reset email.
        new_password: at least 5 characters.

    Returns:
        {message}
    """
    return accounts.reset_password(world, APP, email, password_reset_code, new_password)


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def file_system_show_profile(world: World, email: str | None = None) -> dict[str, Any]:
    """Shows a file-system user's public profile by email.

    Args:
        email: the user's email; the logged-in user's profile when omitted.

    Returns:
        {first_name, last_name, email, registered_at}
    """
    return accounts.show_profile(world, APP, email)
