"""Remove secrets from a resolved config before it is written, hashed or logged.

A value is treated as a secret when its key names one (a word ``key``/``token``/``secret``/``password``/
``passwd``/``credential(s)``/``auth`` in a snake-, kebab- or camel-case key, or ``apikey``/``secret``/
``password`` anywhere in it) and the value is a non-empty string that is not an environment-variable NAME
(``OPENAI_API_KEY``). Names stay readable (``api_key_env: OPENAI_API_KEY``); keys such as ``max_tokens`` or
``tokenizer`` are not secret words and stay; numbers, booleans and nulls are never redacted.
"""

from __future__ import annotations

import re
from typing import Any

REDACTED = "***"
_SECRET_WORDS = {"key", "token", "secret", "password", "passwd", "credential", "credentials", "auth"}
_SECRET_SUBSTRINGS = ("apikey", "secret", "password")
_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def is_secret_key(key: Any) -> bool:
    """Whether a config key names a secret."""
    text = str(key)
    words = {w.lower() for w in re.split(r"[_\-.\s]+", _CAMEL.sub("_", text)) if w}
    return bool(words & _SECRET_WORDS) or any(s in text.lower() for s in _SECRET_SUBSTRINGS)


def is_env_name(value: str) -> bool:
    """Whether a string looks like the NAME of an environment variable (upper case, digits, underscores)."""
    return bool(_ENV_NAME.match(value))


def redact(data: Any) -> Any:
    """A copy of a plain config (dicts, lists, scalars) with secret values replaced by ``***``."""
    if isinstance(data, dict):
        return {k: _redact_value(k, v) for k, v in data.items()}
    if isinstance(data, list):
        return [redact(v) for v in data]
    return data


def _redact_value(key: Any, value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return redact(value)
    if isinstance(value, str) and value and is_secret_key(key) and not is_env_name(value):
        return REDACTED
    return value


def redact_override(override: str) -> str:
    """A command-line override ``a.b=value`` with the value hidden when its last key names a secret (an
    interpolation such as ``${oc.env:MY_KEY}`` is not a secret and stays)."""
    if "=" not in override:
        return override
    key, value = override.split("=", 1)
    last = key.lstrip("+~").split("@")[0].split(".")[-1]
    if value and is_secret_key(last) and not is_env_name(value) and not value.startswith("${"):
        return f"{key}={REDACTED}"
    return override
