"""Ports and readiness of an OpenAI-compatible server: free-port choice, ``/health`` and ``/v1/models`` probes.

Also a small command for shell scripts (the SLURM templates) that waits until a server is ready::

    python -m mmtsb.serve.health http://10.0.0.1:8000/v1 --timeout 1800 [--model NAME]
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass


def port_is_free(port: int, host: str = "0.0.0.0") -> bool:
    """True when nothing listens on ``port`` (checked by binding it, on all interfaces by default)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port(preferred: int | None = None, host: str = "0.0.0.0") -> int:
    """``preferred`` when it is free, else a port the OS hands out as free."""
    if preferred and port_is_free(preferred, host):
        return preferred
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def probe_host(host: str) -> str:
    """The address to probe a server bound to ``host`` from this machine (wildcards -> loopback)."""
    return "127.0.0.1" if host in ("0.0.0.0", "", "::") else host


@dataclass
class Readiness:
    """Result of one probe: ready, or why not (shown in timeout errors)."""

    ready: bool
    detail: str


def _get(url: str, timeout: float) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (http only, local/cluster)
        return response.status, response.read()


def check_ready(root_url: str, model: str | None = None, timeout: float = 3.0) -> Readiness:
    """One probe: ``GET <root>/health`` must answer 200, then ``GET <root>/v1/models`` must list ``model``
    (any model when None). ``root_url`` is the server root (``http://host:port``)."""
    root = root_url.rstrip("/")
    try:
        status, _ = _get(f"{root}/health", timeout)
    except urllib.error.HTTPError as exc:
        return Readiness(False, f"GET /health answered HTTP {exc.code}")
    except (OSError, ValueError) as exc:
        return Readiness(False, f"GET /health failed: {getattr(exc, 'reason', exc)}")
    if status != 200:
        return Readiness(False, f"GET /health answered HTTP {status}")
    try:
        status, body = _get(f"{root}/v1/models", timeout)
        names = [m.get("id") for m in json.loads(body).get("data", [])]
    except urllib.error.HTTPError as exc:
        return Readiness(False, f"GET /v1/models answered HTTP {exc.code}")
    except (OSError, ValueError, AttributeError) as exc:
        return Readiness(False, f"GET /v1/models failed: {getattr(exc, 'reason', exc)}")
    if model is not None and model not in names:
        return Readiness(False, f"GET /v1/models lists {names}, not the served name {model!r}")
    if not names:
        return Readiness(False, "GET /v1/models lists no model")
    return Readiness(True, f"ready, serving {names}")


def root_of(api_base: str) -> str:
    """``http://host:port/v1`` -> ``http://host:port``."""
    base = api_base.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def wait_until_ready(api_base: str, model: str | None, timeout_s: float, interval_s: float = 2.0) -> Readiness:
    """Probe until ready or ``timeout_s`` passed; returns the last readiness."""
    deadline = time.monotonic() + timeout_s
    while True:
        state = check_ready(root_of(api_base), model)
        if state.ready or time.monotonic() >= deadline:
            return state
        time.sleep(min(interval_s, max(0.0, deadline - time.monotonic())))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mmtsb.serve.health",
                                     description="Wait until an OpenAI-compatible server is ready.")
    parser.add_argument("api_base", help="e.g. http://10.0.0.1:8000/v1")
    parser.add_argument("--model", default=None, help="served model name that /v1/models must list")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds to wait (default 1800)")
    parser.add_argument("--interval", type=float, default=2.0)
    args = parser.parse_args(argv)
    state = wait_until_ready(args.api_base, args.model, args.timeout, args.interval)
    if state.ready:
        print(f"ready: {args.api_base} ({state.detail})", flush=True)
        return 0
    print(f"not ready after {args.timeout:g}s: {args.api_base}: {state.detail}", file=sys.stderr, flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())
