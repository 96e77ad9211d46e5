"""The account tools every app with email accounts offers, each written once.

Those apps offer the same tools under their own names: ``<app>_show_account``, ``<app>_signup``,
``<app>_delete_account``, ``<app>_update_account_name``, ``<app>_login``, ``<app>_logout``,
``<app>_send_verification_code``, ``<app>_verify_account`` (not every app has these two),
``<app>_send_password_reset_code``, ``<app>_reset_password``, ``<app>_show_profile`` (unless the app writes its
own) and, in some, ``<app>_search_users``, in that order, with the same parameters and the behaviour of
:mod:`mmtsb.apps.accounts`. Each is written below once, as a plain typed function with its docstring. An app's
``tools_account`` module describes itself in one :class:`AccountApp` (how the docs name it, what its tools do
besides the shared behaviour, where its wording differs from the standard one) and calls :func:`add_account_tools`,
which registers the app's copy of every tool in that module, where the registry finds it like a tool written out
there.

The phone app, whose accounts are keyed by phone number and whose codes arrive as texts, writes its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Mapping

from mmtsb.apps import accounts
from mmtsb.apps.common import register_tool, tool_doc
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

ONLINE = Requirements(network=True)

#: the tools, in the order an app's module lists them
KINDS = ("show_account", "signup", "delete_account", "update_account_name", "login", "logout",
         "send_verification_code", "verify_account", "send_password_reset_code", "reset_password", "show_profile",
         "search_users")

#: argument descriptions some apps use instead of the standard ones (for :attr:`Wording.args`)
NAMES_KEPT_WHEN_OMITTED = {"first_name": "the new first name (at least 1 character); unchanged when omitted.",
                           "last_name": "the new last name (at least 1 character); unchanged when omitted."}
OWN_PROFILE_WHEN_OMITTED = {"email": "the user's email; the logged-in user's own profile when omitted."}
EMAIL_OF_NO_ACCOUNT = {"email": "a valid email address not used by another account."}


@dataclass(frozen=True)
class Wording:
    """What one of an app's account tools says where it differs from the standard wording."""

    summary: str | None = None                             # replaces the standard summary line
    more: str | None = None                                # a paragraph after the summary
    args: Mapping[str, str] = field(default_factory=dict)  # parameter descriptions that differ


@dataclass(frozen=True, eq=False)
class AccountApp:
    """One app's account tools: its name, how its docs say it, and what it adds to the shared behaviour."""

    app: str
    title: str                                   # the app as the docs name it: "Splitwise", "file-system"
    article: str = "a"                           # "an" for Amazon
    verification: bool = True                    # offers send_verification_code and verify_account
    profile: bool = True                         # show_profile is the shared one (False: the app writes its own)
    user_search: bool = False                    # search_users is the shared one (False: none, or the app's own)
    check_emails: bool = False                   # the email-taking tools reject a malformed address first
    columns: tuple[str, ...] = ("verified",)     # the users columns show_account adds to the standard details
    #: fills in show_account's app-specific fields (``detail_fields``) in the result it is given
    details: Callable[[World, dict[str, Any]], None] | None = None
    detail_fields: tuple[str, ...] = ()
    #: what the app sets up for a new account (given the signup email), and the tables that touches
    after_signup: Callable[[World, str], None] | None = None
    signup_tables: tuple[str, ...] = ()
    #: what the app removes before an account is deleted, and the tables that touches
    before_delete: Callable[[World], None] | None = None
    delete_tables: tuple[str, ...] = ()
    #: tables whose rows of the account (``user_id``) go with it, as AppWorld's ``delete_account`` removes them
    owned_tables: tuple[str, ...] = ()
    #: per tool (a name of :data:`KINDS`), where its wording differs from the standard one
    wording: Mapping[str, Wording] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.wording) - set(self.kinds))
        if unknown:
            raise ValueError(f"{self.app}: wording for account tools it does not get from here {unknown}; it gets: "
                             f"{', '.join(self.kinds)}")

    @property
    def kinds(self) -> tuple[str, ...]:
        """The account tools the app gets from here (names of :data:`KINDS`), in order."""
        left_out = {*(() if self.verification else ("send_verification_code", "verify_account")),
                    *(() if self.profile else ("show_profile",)), *(() if self.user_search else ("search_users",))}
        return tuple(k for k in KINDS if k not in left_out)

    @property
    def a_title(self) -> str:
        return f"{self.article} {self.title}"

    @property
    def users(self) -> str:
        return f"{self.app}.users"

    @property
    def authed(self) -> Requirements:
        return Requirements(network=True, auth=self.app)

    def check(self, email: str | None) -> None:
        if self.check_emails and email is not None:
            accounts.check_email(email)


def add_account_tools(namespace: dict[str, Any], a: AccountApp) -> None:
    """Register the account tools of app ``a`` (:attr:`AccountApp.kinds`) in the module whose ``globals()`` is
    ``namespace``."""
    for kind in a.kinds:
        _TOOLS[kind](namespace, a)


def _register(namespace: dict[str, Any], a: AccountApp, fn: Callable[..., Any], kind: str, summary: str,
              args: dict[str, str], returns: str, *, requires: Requirements, mutates: bool = True,
              tables: tuple[str, ...] | None = None) -> None:
    """Register ``fn`` as ``<app>_<kind>``, its standard wording replaced where the app words it otherwise."""
    say = a.wording.get(kind, Wording())
    doc = tool_doc(say.summary or summary, *((say.more,) if say.more else ()), args={**args, **say.args},
                   returns=returns)
    register_tool(fn, f"{a.app}_{kind}", namespace, doc, domain=a.app, mutates=mutates, requires=requires,
                  tables=(a.users,) if tables is None else tables)


# ---------------------------------------------------------------------------------------------- the tools
def _show_account(namespace: dict[str, Any], a: AccountApp) -> None:
    def show_account(world: World) -> dict[str, Any]:
        out = accounts.show_account(world, a.app, *a.columns)
        if a.details is not None:
            a.details(world, out)
        return out

    fields = ("first_name", "last_name", "email", "registered_at", "last_logged_in", *a.columns, *a.detail_fields)
    _register(namespace, a, show_account, "show_account",
              f"Returns the logged-in user's private {a.title} account details.", {},
              "{" + ", ".join(fields) + "}", requires=a.authed, mutates=False)


def _signup(namespace: dict[str, Any], a: AccountApp) -> None:
    def signup(world: World, first_name: str, last_name: str, email: str, password: str) -> dict[str, str]:
        out = accounts.signup(world, a.app, first_name, last_name, email, password)
        if a.after_signup is not None:
            a.after_signup(world, email)
        return out

    _register(namespace, a, signup, "signup", f"Creates a new {a.title} account.",
              {"first_name": "first name (at least 1 character).", "last_name": "last name (at least 1 character).",
               "email": f"a valid email address not used by another {a.title} account.",
               "password": "at least 5 characters."},
              "{message}", requires=ONLINE, tables=(a.users, *a.signup_tables))


def _delete_account(namespace: dict[str, Any], a: AccountApp) -> None:
    def delete_account(world: World) -> dict[str, str]:
        if a.before_delete is not None:
            a.before_delete(world)
        accounts.delete_owned_rows(world, a.app, a.owned_tables)
        return accounts.delete_account(world, a.app)

    _register(namespace, a, delete_account, "delete_account",
              f"Deletes the logged-in user's {a.title} account (and logs out).", {}, "{message}",
              requires=a.authed, tables=(a.users, *a.delete_tables, *a.owned_tables))


def _update_account_name(namespace: dict[str, Any], a: AccountApp) -> None:
    def update_account_name(world: World, first_name: str | None = None,
                            last_name: str | None = None) -> dict[str, str]:
        return accounts.update_account_name(world, a.app, first_name, last_name)

    _register(namespace, a, update_account_name, "update_account_name",
              f"Changes the first and/or last name on the {a.title} account.",
              {"first_name": "the new first name (at least 1 character).",
               "last_name": "the new last name (at least 1 character)."}, "{message}", requires=a.authed)


def _login(namespace: dict[str, Any], a: AccountApp) -> None:
    def login(world: World, username: str, password: str) -> dict[str, str]:
        return accounts.login(world, a.app, username, password)

    _register(namespace, a, login, "login",
              f"Logs into {a.title}; on success the token is stored and the app counts as authenticated.",
              {"username": "the account email.",
               "password": "the account password (see supervisor_show_account_passwords)."},
              "{access_token, token_type}", requires=ONLINE)


def _logout(namespace: dict[str, Any], a: AccountApp) -> None:
    def logout(world: World) -> dict[str, str]:
        return accounts.logout(world, a.app)

    _register(namespace, a, logout, "logout", f"Logs out of {a.title}.", {}, "{message}", requires=a.authed,
              tables=())


def _send_code(namespace: dict[str, Any], a: AccountApp, kind: str) -> None:
    """``send_verification_code`` (kind ``verify``) or ``send_password_reset_code`` (kind ``reset``)."""
    def send_code(world: World, email: str) -> dict[str, str]:
        a.check(email)
        return accounts.send_code(world, a.app, email, kind)

    what = "account verification" if kind == "verify" else "password reset"
    _register(namespace, a, send_code, "send_verification_code" if kind == "verify" else "send_password_reset_code",
              f"Emails {a.a_title} {what} code.", {"email": "the account email."}, "{message}", requires=ONLINE)


def _verify_account(namespace: dict[str, Any], a: AccountApp) -> None:
    def verify_account(world: World, email: str, verification_code: str) -> dict[str, str]:
        a.check(email)
        return accounts.verify_account(world, a.app, email, verification_code)

    _register(namespace, a, verify_account, "verify_account", f"Verifies the {a.title} account with the emailed code.",
              {"email": "the account email.", "verification_code": "the code from the verification email."},
              "{message}", requires=ONLINE)


def _reset_password(namespace: dict[str, Any], a: AccountApp) -> None:
    def reset_password(world: World, email: str, password_reset_code: str, new_password: str) -> dict[str, str]:
        a.check(email)
        return accounts.reset_password(world, a.app, email, password_reset_code, new_password)

    _register(namespace, a, reset_password, "reset_password",
              f"Sets a new {a.title} password using the emailed reset code.",
              {"email": "the account email.", "password_reset_code": "the code from the reset email.",
               "new_password": "at least 5 characters."}, "{message}", requires=ONLINE)


def _show_profile(namespace: dict[str, Any], a: AccountApp) -> None:
    def show_profile(world: World, email: str | None = None) -> dict[str, Any]:
        a.check(email)
        return accounts.show_profile(world, a.app, email)

    _register(namespace, a, show_profile, "show_profile", f"Shows {a.a_title} user's public profile by email.",
              {"email": "the user's email; the logged-in user's profile when omitted."},
              "{first_name, last_name, email, registered_at}", requires=ONLINE, mutates=False)


def _search_users(namespace: dict[str, Any], a: AccountApp) -> None:
    def search_users(world: World, query: str | None = "", page_index: int | None = 0,
                     page_limit: int | None = 5) -> list[dict[str, Any]]:
        return accounts.search_users(world, a.app, query, page_index, page_limit)

    _register(namespace, a, search_users, "search_users", f"Searches {a.title} users by name or email.",
              {"query": "words matched against first name, last name and email, best matches first; empty lists\n"
                        "every user.",
               "page_index": "the page to return, from 0.", "page_limit": "users per page, 1 to 20."},
              "list[{first_name, last_name, email, registered_at}]", requires=ONLINE, mutates=False)


#: how each of :data:`KINDS` is made
_TOOLS: dict[str, Callable[[dict[str, Any], AccountApp], None]] = {
    "show_account": _show_account, "signup": _signup, "delete_account": _delete_account,
    "update_account_name": _update_account_name, "login": _login, "logout": _logout,
    "send_verification_code": lambda namespace, a: _send_code(namespace, a, "verify"),
    "verify_account": _verify_account,
    "send_password_reset_code": lambda namespace, a: _send_code(namespace, a, "reset"),
    "reset_password": _reset_password, "show_profile": _show_profile, "search_users": _search_users}
