"""The parent's handle on the template process: start it lazily, ask it for interpreters, restart it if it
dies.

Why a separate process rather than ``os.fork`` of the parent: the parent may be multi-threaded (asyncio
executors, Ray) and large; forking it would copy locks in unknown states and all of its memory. The template
is a fresh, small, single-threaded Python started once per parent process with a minimal environment, so
nothing secret is ever present in the process tree the interpreters come from.
"""

from __future__ import annotations

import atexit
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmtsb.sandbox.protocol import ProtocolError, recv_fds, recv_msg, send_fds, send_msg

#: how long the template may take to import its libraries
START_TIMEOUT = 60.0
#: how long a fork request may take
FORK_TIMEOUT = 15.0
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


class SandboxStartError(RuntimeError):
    """The template or an interpreter could not be started."""


@dataclass
class Spawned:
    """A freshly forked interpreter as the parent holds it."""

    pid: int
    pidfd: int
    sock: socket.socket


def template_env() -> dict[str, str]:
    """The template's whole environment: only what Python and the libraries need, no secrets."""
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "HOME": os.environ.get("HOME", "/"),
            "PYTHONPATH": _PACKAGE_ROOT, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
            "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "NUMEXPR_NUM_THREADS": "1"}


class TemplateProcess:
    """One running template and its control socket (requests are serialised by a lock)."""

    def __init__(self) -> None:
        if not sys.platform.startswith("linux") or not hasattr(os, "pidfd_open"):
            raise SandboxStartError("the sandbox needs Linux >= 5.3 (pidfd, seccomp, Landlock, namespaces)")
        self.lock = threading.Lock()
        self.owner_pid = os.getpid()
        parent_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mmtsb.sandbox.template", str(child_end.fileno())],
                pass_fds=[child_end.fileno()], env=template_env(), start_new_session=True,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, close_fds=True, cwd="/")
        finally:
            child_end.close()
        self.ctl = parent_end
        try:
            ready = recv_msg(self.ctl, deadline=time.monotonic() + START_TIMEOUT)
        except (OSError, ProtocolError, TimeoutError) as e:
            self.close()
            raise SandboxStartError(f"the sandbox template process did not start: {e}") from None
        self.info: dict[str, Any] = ready

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None and self.owner_pid == os.getpid()

    def fork(self, config: dict[str, Any]) -> Spawned:
        """A new interpreter configured by ``config``; its socket and pidfd belong to the caller."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with self.lock:
                deadline = time.monotonic() + FORK_TIMEOUT
                send_msg(self.ctl, {"op": "fork", "config": config}, deadline=deadline)
                send_fds(self.ctl, [theirs.fileno()])
                reply = recv_msg(self.ctl, deadline=deadline)
                (pidfd,) = recv_fds(self.ctl, 1)
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        return Spawned(int(reply["pid"]), pidfd, mine)

    def status(self, pid: int) -> str | None:
        """How an interpreter ended ("killed by SIGXCPU ..."), or None if unknown / still running."""
        try:
            with self.lock:
                send_msg(self.ctl, {"op": "status", "pid": pid}, deadline=time.monotonic() + 5)
                return recv_msg(self.ctl, deadline=time.monotonic() + 5).get("status")
        except (OSError, ProtocolError, TimeoutError):
            return None

    def close(self) -> None:
        """Closing the control socket makes the template kill its interpreters and exit."""
        try:
            self.ctl.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


_template: TemplateProcess | None = None
_template_lock = threading.Lock()


def get_template() -> TemplateProcess:
    """The process-wide template, started on first use and restarted if it died (or after a fork of us)."""
    global _template
    with _template_lock:
        if _template is None or not _template.alive():
            if _template is not None and _template.owner_pid == os.getpid():
                _template.close()
            _template = TemplateProcess()
        return _template


def spawn(config: dict[str, Any]) -> tuple[Spawned, TemplateProcess]:
    """Fork an interpreter, restarting the template once if it turns out to be dead."""
    for attempt in (1, 2):
        template = get_template()
        try:
            return template.fork(config), template
        except (OSError, ProtocolError, TimeoutError, KeyError, ValueError) as e:
            if attempt == 2:
                raise SandboxStartError(f"could not start a sandboxed interpreter: {e}") from None
            with _template_lock:
                global _template
                if _template is template:
                    template.close()
                    _template = None
    raise AssertionError("unreachable")


def shutdown() -> None:
    """Stop the template (and with it every interpreter); a later request starts a new one."""
    global _template
    with _template_lock:
        if _template is not None and _template.owner_pid == os.getpid():
            _template.close()
        _template = None


atexit.register(shutdown)
