"""Remove secrets from what a run writes down: its resolved config, Hydra's records, results, logs, W&B.

Two rules decide what a secret is:

- **by key name**: a value is a secret when its key names one (a word ``key``/``token``/``secret``/
  ``password``/``passwd``/``credential(s)``/``auth``/``authorization``/``cookie`` in a snake-, kebab- or
  camel-case key, or ``apikey``/``secret``/``password``/``authorization`` anywhere in it: ``api_key``,
  ``aws_secret_access_key``, the HTTP headers ``Authorization``, ``Proxy-Authorization``, ``X-Api-Key``,
  ``Cookie``) and the value is a non-empty string, unless the key holds the NAME of an environment variable
  (a word ``env``/``var``: ``api_key_env: OPENAI_API_KEY`` stays readable; an upper-case value of any other
  secret key, such as an AWS key id, is still hidden). Keys such as ``max_tokens`` or ``tokenizer`` are not
  secret words and stay; numbers, booleans and nulls are never redacted.
- **by URL userinfo**: in ANY string, ``scheme://user:password@host`` becomes ``scheme://***@host`` (the
  user too: a token is often passed as the user name).

:func:`redact` applies both to a config; :func:`collect_secrets` lists the secret VALUES of a config (or of
settings dataclasses) so that :func:`scrub_text` can remove them from free text (error messages, log lines,
Hydra's records) where no key names them any more.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote

REDACTED = "***"
#: shorter values are never replaced in free text (it would garble unrelated words)
MIN_SECRET_LEN = 4
_SECRET_WORDS = {"key", "token", "secret", "password", "passwd", "credential", "credentials", "auth",
                 "authorization", "cookie", "cookies"}
_SECRET_SUBSTRINGS = ("apikey", "secret", "password", "authorization")
_ENV_WORDS = {"env", "var", "variable", "environ"}
_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
#: ``scheme://userinfo@``: the userinfo runs to the last ``@`` before the path, query, fragment, a space or
#: a quote (so a URL inside JSON or a log line stops at its end)
_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?P<userinfo>[^/?#\s\"'`<>\\\[\]{}]*)@")


def is_secret_key(key: Any) -> bool:
    """Whether a config key (or an HTTP header name) names a secret."""
    text = str(key)
    words = {w.lower() for w in re.split(r"[_\-.\s]+", _CAMEL.sub("_", text)) if w}
    return bool(words & _SECRET_WORDS) or any(s in text.lower() for s in _SECRET_SUBSTRINGS)


def is_env_name(value: str) -> bool:
    """Whether a string looks like the NAME of an environment variable (upper case, digits, underscores)."""
    return bool(_ENV_NAME.match(value))


def names_env_variable(key: Any) -> bool:
    """Whether a key holds the NAME of an environment variable (``api_key_env``, ``token_var``)."""
    words = {w.lower() for w in re.split(r"[_\-.\s]+", _CAMEL.sub("_", str(key))) if w}
    return bool(words & _ENV_WORDS)


def _is_secret_value(key: Any, value: Any) -> bool:
    if not (isinstance(value, str) and value and is_secret_key(key)):
        return False
    return not (is_env_name(value) and names_env_variable(key))


# ------------------------------------------------------------------------------------------ URL userinfo
def redact_userinfo(text: str) -> str:
    """``text`` with the userinfo of every URL in it hidden: ``http://u:p@host/v1`` -> ``http://***@host/v1``."""
    if "@" not in text or "://" not in text:
        return text
    return _USERINFO.sub(lambda m: f"{m['scheme']}{REDACTED}@" if m["userinfo"] != REDACTED else m[0], text)


def userinfo_passwords(text: str) -> list[str]:
    """The passwords (or, without one, the user names: often a token) in the URLs of ``text``, as written
    and percent-decoded."""
    out: list[str] = []
    for m in _USERINFO.finditer(text):
        info = m["userinfo"]
        if not info or info == REDACTED:
            continue
        secret = info.split(":", 1)[1] if ":" in info else info
        for form in (secret, unquote(secret)):
            if form and form not in out:
                out.append(form)
    return out


# ------------------------------------------------------------------------------------------ configs
def redact(data: Any) -> Any:
    """A copy of a plain config (dicts, lists, scalars) with secret values replaced by ``***`` and the
    userinfo of URLs hidden in every string."""
    if isinstance(data, dict):
        return {k: _redact_value(k, v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [redact(v) for v in data]
    if isinstance(data, str):
        return redact_userinfo(data)
    return data


def _redact_value(key: Any, value: Any) -> Any:
    if _is_secret_value(key, value):
        return REDACTED
    return redact(value)


def _unquote_override(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def redact_override(override: str) -> str:
    """A command-line override ``a.b=value`` with the value hidden when its last key names a secret (an
    interpolation such as ``${oc.env:MY_KEY}`` is not a secret and stays), and URL userinfo hidden in any
    value."""
    if "=" not in override:
        return redact_userinfo(override)
    key, value = override.split("=", 1)
    last = key.lstrip("+~").split("@")[0].split(".")[-1]
    bare = _unquote_override(value)
    if _is_secret_value(last, bare) and not bare.startswith("${"):
        return f"{key}={REDACTED}"
    return f"{key}={redact_userinfo(value)}"


#: override values Hydra reads as null or a boolean, never as a string (so never a secret)
_YAML_NON_STRINGS = frozenset({"null", "~", "none", "true", "false", ""})


def override_secrets(overrides: Iterable[str]) -> list[str]:
    """The secret values given in command-line overrides: the values (quotes removed) of keys that name
    secrets, and the passwords of URLs in any value."""
    out: list[str] = []
    for item in overrides:
        key, sep, value = item.partition("=")
        bare = _unquote_override(value)
        if value.strip().lower() in _YAML_NON_STRINGS:   # `api_key_env=null` unsets; it holds no secret
            continue
        if sep and redact_override(f"{key}={bare}") == f"{key}={REDACTED}":
            out.append(bare)
        out.extend(userinfo_passwords(item))
    return _usable(out)


def collect_secrets(data: Any, *, env: bool = True) -> list[str]:
    """The secret values held in a config or in settings (dicts, lists, dataclasses such as ModelSettings):
    values of secret keys, URL passwords in any string and, with ``env``, the values of the environment
    variables that secret ``*_env`` fields (``api_key_env``) name. Longest first; values shorter than
    MIN_SECRET_LEN left out."""
    out: list[str] = []
    seen: set[int] = set()

    def walk(key: Any, value: Any) -> None:
        if isinstance(value, (dict, list, tuple)) or dataclasses.is_dataclass(value):
            if id(value) in seen:
                return
            seen.add(id(value))
        if isinstance(value, dict):
            for k, v in value.items():
                walk(k, v)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                walk(key, v)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(f.name, getattr(value, f.name, None))
        elif isinstance(value, str):
            if _is_secret_value(key, value):
                out.append(value)
            out.extend(userinfo_passwords(value))
            if env and is_secret_key(key) and names_env_variable(key) and is_env_name(value) \
                    and os.environ.get(value):
                out.append(os.environ[value])

    walk(None, data)
    return _usable(out)


def _usable(values: Iterable[str]) -> list[str]:
    kept = {v for v in values if isinstance(v, str) and len(v) >= MIN_SECRET_LEN and v != REDACTED}
    return sorted(kept, key=lambda v: (-len(v), v))


# ------------------------------------------------------------------------------------------ free text
def _forms(secret: str) -> list[str]:
    """A secret as written, and as it appears inside JSON or a Python repr (escaped)."""
    forms = [secret]
    for form in (json.dumps(secret)[1:-1], repr(secret)[1:-1]):
        if form not in forms:
            forms.append(form)
    return forms


def scrub_text(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every given secret value (and its JSON-escaped form) replaced by ``***`` and the userinfo
    of every URL hidden."""
    if not isinstance(text, str) or not text:
        return text
    for secret in sorted(set(secrets), key=len, reverse=True):
        if len(secret) < MIN_SECRET_LEN:
            continue
        for form in _forms(secret):
            if form in text:
                text = text.replace(form, REDACTED)
    return redact_userinfo(text)


def scrub_data(data: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of plain data (dicts, lists, scalars) with :func:`redact` applied and every string scrubbed of
    the given secret values (:func:`scrub_text`)."""
    secrets = tuple(secrets)

    def walk(key: Any, value: Any) -> Any:
        if _is_secret_value(key, value):
            return REDACTED
        if isinstance(value, dict):
            return {k: walk(k, v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(key, v) for v in value]
        if isinstance(value, str):
            return scrub_text(value, secrets)
        return value

    return walk(None, data)


# ------------------------------------------------------------------------------------------ logging
class SecretFilter(logging.Filter):
    """A logging filter that rewrites each record's message (and its traceback text) with the secrets and
    any URL userinfo removed; install it on handlers (a filter on a logger misses its children's records)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        scrub_record(record, self.secrets)
        return True


def scrub_record(record: logging.LogRecord, secrets: tuple[str, ...] = ()) -> None:
    """Rewrite a log record in place: its message (arguments merged in), traceback and stack text without the
    secrets or any URL userinfo."""
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 (a malformed record is the formatter's business)
        return
    clean = scrub_text(message, secrets)
    if clean != message or record.args:
        record.msg, record.args = clean, ()
    if record.exc_info and not record.exc_text:
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = scrub_text(record.exc_text, secrets)
    if record.stack_info:
        record.stack_info = scrub_text(record.stack_info, secrets)


@contextlib.contextmanager
def scrubbed_log_records(secrets: Iterable[str] = ()) -> Iterator[None]:
    """While the block runs, every log record of the process is scrubbed when it is made (a record factory:
    it also covers what Hydra logs before a job starts, such as a sweep's overrides, whose handlers it
    replaces per job). The previous factory is restored on exit."""
    previous = logging.getLogRecordFactory()
    kept = tuple(secrets)

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        scrub_record(record, kept)
        return record

    logging.setLogRecordFactory(factory)
    try:
        yield
    finally:
        logging.setLogRecordFactory(previous)


def install_log_filter(secrets: Iterable[str] = ()) -> SecretFilter:
    """Add one :class:`SecretFilter` to every handler configured now (the root logger's and every named
    logger's: Hydra's console and ``<job>.log`` file handlers among them); returns it for
    :func:`remove_log_filter`."""
    filt = SecretFilter(secrets)
    for handler in _handlers():
        handler.addFilter(filt)
    return filt


def remove_log_filter(filt: SecretFilter) -> None:
    for handler in _handlers():
        handler.removeFilter(filt)


def _handlers() -> list[logging.Handler]:
    loggers: list[logging.Logger] = [logging.getLogger()]
    loggers += [lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)]
    out: list[logging.Handler] = []
    for lg in loggers:
        out += [h for h in lg.handlers if h not in out]
    return out
