"""The compact description of the app domains and their tools that the stage-1 model sees with each image.

Built from the full tool registry (one definition per tool), so it always matches what agents can call. The
meta domains (discovery, vision, UI, code, the user's own tools) are left out: an image is never "for" them.
"""

from __future__ import annotations

import functools

from mmtsb.tools.toolbox import full_registry

__all__ = ["ACTION_DOMAINS", "compact_catalog", "domain_tools", "is_action_domain"]

#: tool domains that are not app domains a scenario can be about
META_DOMAINS = frozenset({"meta", "vision", "ui", "user", "supervisor"})

#: account housekeeping every account app has; never what an image is for, so left out of the catalog
ACCOUNT_ACTIONS = ("show_account", "signup", "delete_account", "update_account_name", "login", "logout",
                   "send_verification_code", "verify_account", "send_password_reset_code", "reset_password",
                   "show_profile", "search_users")

#: one line on what each app domain is for (the names are the registry's tool domains)
ACTION_DOMAINS: dict[str, str] = {
    "simple_note": "notes: create, search, update and delete text notes",
    "todoist": "to-do lists: projects, tasks, labels, comments, due dates",
    "gmail": "email: send, reply, forward, search, label, drafts",
    "messages": "text messages: send and read SMS conversations",
    "contacts": "address book: add, search, update contacts",
    "alarms": "alarms: create, update, toggle alarms",
    "calendar": "calendar: create, search, update and delete events",
    "reminder": "reminders: create, search, complete reminders",
    "amazon": "shopping: products, cart, orders, wish list, reviews",
    "spotify": "music: songs, albums, playlists, library",
    "splitwise": "shared expenses: groups, expenses, balances, settling up",
    "venmo": "payments: send and request money, transactions",
    "file_system": "files: create, read, move and delete files and folders",
    "setting": "device settings: wifi, cellular, low battery mode, location",
}


def is_action_domain(domain: str) -> bool:
    """True for an app domain a scenario can act in."""
    return domain in ACTION_DOMAINS


@functools.cache
def domain_tools() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each action domain's agent tools as (name, one-line summary), in registry order, account housekeeping
    left out."""
    out: dict[str, list[tuple[str, str]]] = {d: [] for d in ACTION_DOMAINS}
    for spec in full_registry():
        if spec.domain in out and "agent" in spec.visible_to and not spec.name.endswith(ACCOUNT_ACTIONS):
            out[spec.domain].append((spec.name, spec.summary))
    return {d: tuple(tools) for d, tools in out.items()}


@functools.cache
def compact_catalog(max_tools_per_domain: int = 12) -> str:
    """The domains with their purpose and (up to ``max_tools_per_domain``) tool names: short enough to send
    with every image, precise enough for the model to name real tools."""
    lines = []
    for domain, purpose in ACTION_DOMAINS.items():
        names = [name for name, _ in domain_tools()[domain]]
        more = f" (+{len(names) - max_tools_per_domain} more)" if len(names) > max_tools_per_domain else ""
        lines.append(f"- {domain} ({purpose}): {', '.join(names[:max_tools_per_domain])}{more}")
    return "\n".join(lines)
