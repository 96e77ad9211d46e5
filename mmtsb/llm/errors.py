"""LLMError hierarchy and the mapping from litellm/HTTP failures to it.

Why: only transient failures (429, 5xx, timeouts, connection errors, empty replies) are worth a retry;
4xx errors must fail at once with a message naming the model and provider (SPEC §9.3). The key is
redacted from every message we build.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from typing import Any


class LLMError(Exception):
    """A failed model call. ``retryable`` says whether trying again may help."""

    retryable = False
    kind = "LLM error"

    def __init__(self, detail: str, *, model: str, provider: str | None, status_code: int | None = None,
                 retry_after_s: float | None = None, attempts: int = 1) -> None:
        self.detail, self.model, self.provider = detail, model, provider
        self.status_code, self.retry_after_s, self.attempts = status_code, retry_after_s, attempts
        super().__init__(self._message())

    def _message(self) -> str:
        status = f" (HTTP {self.status_code})" if self.status_code else ""
        tries = f" after {self.attempts} attempts" if self.attempts > 1 else ""
        return f"{self.kind}{status} from provider {self.provider!r} for model {self.model!r}{tries}: {self.detail}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Picklable (errors cross process boundaries, e.g. out of a Ray actor)."""
        return (_rebuild, (type(self), self.detail, self.model, self.provider, self.status_code,
                           self.retry_after_s, self.attempts))

    def with_attempts(self, attempts: int) -> LLMError:
        """Record how many attempts were made before giving up (refreshes the message)."""
        self.attempts = attempts
        self.args = (self._message(),)
        return self


def _rebuild(cls: type[LLMError], detail: str, model: str, provider: str | None, status_code: int | None,
             retry_after_s: float | None, attempts: int) -> LLMError:
    return cls(detail, model=model, provider=provider, status_code=status_code, retry_after_s=retry_after_s,
               attempts=attempts)


class LLMConfigError(LLMError):
    kind = "configuration error"


class LLMBadRequestError(LLMError):
    kind = "bad request"


class LLMContextWindowError(LLMBadRequestError):
    kind = "context window exceeded"


class LLMAuthError(LLMError):
    kind = "authentication/permission error"


class LLMNotFoundError(LLMError):
    kind = "not found (check the model id and api_base)"


class LLMRateLimitError(LLMError):
    retryable = True
    kind = "rate limited"


class LLMServerError(LLMError):
    retryable = True
    kind = "provider server error"


class LLMTimeoutError(LLMError):
    retryable = True
    kind = "timeout"


class LLMConnectionError(LLMError):
    retryable = True
    kind = "connection error"


class LLMMalformedResponseError(LLMServerError):
    """HTTP went through but the answer cannot be read: truncated, not JSON (an HTML error page, plain text,
    nothing), not UTF-8, or JSON not shaped like a chat completion. Servers and proxies give such answers
    when they are overloaded or restarting, so trying again may help."""

    kind = "malformed response body"


class LLMEmptyResponseError(LLMError):
    retryable = True
    kind = "empty response (no choices)"


def redact(text: str, secret: str | None) -> str:
    """Remove the key (and a long prefix of it) from a message."""
    if secret:
        text = text.replace(secret, "[REDACTED]")
        if len(secret) > 12:
            text = text.replace(secret[:12], "[REDACTED]")
    return text


def _parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    try:
        if (ms := headers.get("retry-after-ms")) is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())


def retry_after_of(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    found = _parse_retry_after(getattr(response, "headers", None))
    return found if found is not None else _parse_retry_after(getattr(exc, "litellm_response_headers", None))


def _transport_cause(exc: BaseException) -> type[LLMError] | None:
    """Timeout/connection failures that litellm re-wraps (e.g. as a 500 "Connection error.")."""
    import httpx
    import openai

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (openai.APITimeoutError, httpx.TimeoutException, asyncio.TimeoutError)):
            return LLMTimeoutError
        if isinstance(current, (openai.APIConnectionError, httpx.TransportError, ConnectionError)):
            return LLMConnectionError
        current = current.__cause__ or current.__context__
    return None


def _class_for(exc: BaseException) -> type[LLMError] | None:
    import litellm  # imported lazily: mmtsb.llm sets the offline env before litellm loads

    status = getattr(exc, "status_code", None)
    if _is_unreadable_answer(exc, status, litellm):
        return LLMMalformedResponseError
    if isinstance(exc, litellm.ContextWindowExceededError):
        return LLMContextWindowError
    if isinstance(exc, litellm.Timeout):
        return LLMTimeoutError
    if (transport := _transport_cause(exc)) is not None:
        return transport
    return class_for_status(status) if isinstance(status, int) else None


#: what litellm says when its parser refuses a successful answer's body (no dedicated exception class)
_UNREADABLE_PHRASES = ("Unable to get json response", "Invalid response object")


def _litellm_connection_error() -> type[BaseException]:
    import litellm

    return litellm.APIConnectionError


def _is_unreadable_answer(exc: BaseException, status: Any, litellm: Any) -> bool:
    """Whether litellm failed on reading a successful answer (HTTP < 400), not on the exchange itself."""
    if isinstance(exc, litellm.APIError) and isinstance(status, int) and status < 400:
        return True
    return isinstance(exc, litellm.APIConnectionError) and any(p in str(exc) for p in _UNREADABLE_PHRASES)


#: phrases OpenAI-compatible servers use when a prompt does not fit the model's context
CONTEXT_PHRASES = ("maximum context length", "context length", "context window", "too many tokens",
                   "prompt is too long")


def class_for_status(status: int, detail: str | None = None) -> type[LLMError] | None:
    """The LLMError class for an HTTP status (None below 400), shared by the litellm and the direct route.

    With ``detail`` (the server's own message), a plain 4xx saying the prompt does not fit is a context-window
    error; the litellm route passes none, litellm having told those apart already."""
    if status == 429:
        return LLMRateLimitError
    if status == 408:
        return LLMTimeoutError
    if status >= 500:
        return LLMServerError
    if status in (401, 403):
        return LLMAuthError
    if status == 404:
        return LLMNotFoundError
    if status >= 400:
        if detail and any(p in detail.lower() for p in CONTEXT_PHRASES):
            return LLMContextWindowError
        return LLMBadRequestError
    return None


def classify(exc: BaseException, *, model: str, provider: str | None, secret: str | None) -> LLMError | None:
    """Map a litellm/transport exception to an LLMError, or None when it is not a provider failure
    (a programming error, which should propagate unchanged)."""
    if isinstance(exc, LLMError):
        return exc
    cls = _class_for(exc)
    if cls is None:
        return None
    text = " ".join(str(exc).split()).split(" Traceback (most recent call last)")[0]  # litellm appends its own
    detail = redact(text, secret)[:800] or type(exc).__name__
    status = getattr(exc, "status_code", None)
    if cls in (LLMTimeoutError, LLMConnectionError) or not isinstance(status, int):
        status = None  # litellm labels transport failures with made-up codes (408, 500)
    elif cls is LLMMalformedResponseError and isinstance(exc, _litellm_connection_error()):
        status = None  # its parser's refusal, labelled 500 by litellm: the server answered 200
    return cls(detail, model=model, provider=provider, status_code=status, retry_after_s=retry_after_of(exc))
