"""Checks a run passes before its first episode: what would otherwise fail every episode the same way.

Why: a missing API key, or ``logging=wandb`` without wandb, used to surface only after every episode had
been played (or failed, retried and been left out of the metrics). Each check here names the fix in one
line; the run does not start while one fails.
"""

from __future__ import annotations

import importlib.util
import os
from typing import TYPE_CHECKING

from mmtsb.protocol.model_settings import ModelSettings

if TYPE_CHECKING:
    from mmtsb.runner.settings import RunSettings

#: the config section of each role's model settings
MODEL_SECTION = {"agent": "model", "user": "user.model", "judge": "judge.model"}


def key_problem(settings: ModelSettings, where: str) -> str | None:
    """Why the key of a configured model is missing, or None. A named ``api_key_env`` must be set; a hosted
    provider reached through litellm with neither ``api_key_env`` nor ``api_base`` must find its own
    variable (litellm's ``validate_environment``). A custom endpoint (``api_base``) may need no key."""
    if settings.api_key_env:
        if os.environ.get(settings.api_key_env):
            return None
        return (f"{where}.api_key_env={settings.api_key_env}: the environment variable {settings.api_key_env} is "
                f"not set (model {settings.model}); export it, or point {where}.api_key_env at the variable "
                "that holds the key")
    if settings.api_base or not settings.model:
        return None
    from mmtsb.llm.runtime import load_litellm

    try:
        found = load_litellm().validate_environment(model=str(settings.model))
    except Exception:  # noqa: BLE001 (a model litellm cannot place: the first call reports it)
        return None
    missing = [str(k) for k in found.get("missing_keys") or []]
    if found.get("keys_in_environment", True) or not missing:
        return None
    return (f"{where}.model={settings.model}: no key for this provider: set {' or '.join(missing)} (or name the "
            f"variable with {where}.api_key_env)")


def url_credentials_problem(settings: ModelSettings, where: str) -> str | None:
    """An ``api_base`` that carries ``user:password@``: neither route can send it (the key goes in the
    Authorization header, which URL credentials would also claim), so the run is refused up front rather than
    failing every call; the message never repeats the credentials."""
    from urllib.parse import urlsplit

    if not settings.api_base:
        return None
    try:
        parts = urlsplit(str(settings.api_base))
    except ValueError:
        return f"{where}.api_base: not a URL"
    if parts.username is None and parts.password is None:
        return None
    return (f"{where}.api_base=http://***@{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}"
            f"{parts.path}: credentials in the URL are not sent; remove user:password@ and give the key "
            f"through {where}.api_key_env (or a header: +{where}.extra_params.extra_headers.Authorization=...)")


def run_problems(settings: RunSettings) -> list[str]:
    """Every problem that stops ``settings`` from running (empty when it may start)."""
    problems: list[str] = []
    episode = settings.episode
    seen: set[tuple[str | None, str | None, str | None]] = set()
    for role, needed in episode.roles_needing_models().items():
        if not needed:
            continue
        model = episode.role_settings(role)
        ident = (str(model.model), model.api_key_env, model.api_base)
        if ident in seen:
            continue
        seen.add(ident)
        for check in (url_credentials_problem, key_problem):
            if (problem := check(model, MODEL_SECTION[role])) is not None:
                problems.append(problem)
    if settings.logging.wandb and importlib.util.find_spec("wandb") is None:
        problems.append("logging=wandb: the wandb package is not installed in this environment; install it "
                        "(`pip install wandb`, part of the project's install) or run with logging=none")
    return problems
