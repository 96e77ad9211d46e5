"""The parent's handle on the template process, owned by a :class:`SandboxServer`: started lazily, asked for
interpreters, restarted if it dies, stopped (with every interpreter) when its owner closes it.

Why a separate process rather than ``os.fork`` of the parent: the parent may be multi-threaded (asyncio
executors, Ray) and large; forking it would copy locks in unknown states and all of its memory. The template
is a fresh, small, single-threaded Python started once per server with a minimal environment, so
nothing secret is ever present in the process tree the interpreters come from.

Why an object and not a module-level template: two owners in one process (two workers, a test session and a
benchmark) must never share a template, a warning or a probe, and whoever makes the server decides when its
processes stop. Make one per process that runs episodes and pass it to every ``Interpreter``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import warnings
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mmtsb.sandbox.protocol import ProtocolError, recv_fds, recv_msg, send_fds, send_msg

if TYPE_CHECKING:
    from mmtsb.sandbox.interpreter import Interpreter

#: how long the template may take to import its libraries
START_TIMEOUT = 60.0
#: how long a fork request may take
FORK_TIMEOUT = 15.0
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


class SandboxStartError(RuntimeError):
    """The template or an interpreter could not be started."""


@dataclass(frozen=True)
class SandboxCPU:
    """CPU seconds (user + system) of a running template process and of the interpreters it has reaped.

    Interpreters still running are not in ``interpreters_s`` (each reports its own ``child_cpu_s``); a template
    that was stopped and waited for moves into its parent's ``RUSAGE_CHILDREN`` instead.
    """

    template_s: float = 0.0
    interpreters_s: float = 0.0

    @property
    def total_s(self) -> float:
        return self.template_s + self.interpreters_s


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

    def _ask(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """One request and its reply; None if it failed (or we are a fork of the owner: never its socket)."""
        if self.owner_pid != os.getpid():
            return None
        try:
            with self.lock:
                send_msg(self.ctl, request, deadline=time.monotonic() + 5)
                return recv_msg(self.ctl, deadline=time.monotonic() + 5)
        except (OSError, ProtocolError, TimeoutError):
            return None

    def status(self, pid: int) -> str | None:
        """How an interpreter ended ("killed by SIGXCPU ..."), or None if unknown / still running."""
        return self.exit_status(pid)[0]

    def exit_status(self, pid: int) -> tuple[str | None, float | None]:
        """How an interpreter ended and the CPU seconds (user + system) the kernel counted for its whole life;
        (None, None) while it runs or when unknown."""
        reply = self._ask({"op": "status", "pid": pid}) or {}
        status, cpu = reply.get("status"), reply.get("cpu_s")
        return (status if isinstance(status, str) else None,
                float(cpu) if isinstance(cpu, (int, float)) and cpu >= 0 else None)

    def usage(self) -> SandboxCPU:
        """CPU used so far by this template and by the interpreters it has reaped (zero if it cannot answer)."""
        if not self.alive():
            return SandboxCPU()
        reply = self._ask({"op": "usage"}) or {}
        return SandboxCPU(float(reply.get("cpu_s") or 0.0), float(reply.get("children_cpu_s") or 0.0))

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


class _Slot:
    """The server's current template, held apart so that the server's finalizer can stop it."""

    def __init__(self) -> None:
        self.template: TemplateProcess | None = None

    def stop(self) -> None:
        template, self.template = self.template, None
        if template is not None and template.owner_pid == os.getpid():  # never a template we were forked from
            template.close()


class SandboxServer:
    """A warm template process and the interpreters forked from it, owned by whoever made the server.

    Making one is free: the template starts on the first interpreter (about half a second of imports), is
    restarted if it died, and is replaced rather than shared in a process forked from the owner. The server
    also keeps what is per owner: the protection layers it probed (:meth:`active_layers`) and whether it has
    already warned that some are missing. One per process that runs episodes (a worker, an actor, a test
    session), passed to every ``Interpreter(server=...)``.

    :meth:`stop` ends the template (each open interpreter gets a fresh process on its next run);
    :meth:`close` also closes every interpreter made with it and refuses new ones. Use it as a context
    manager or call :meth:`close`; a server that is dropped or still open at exit stops its template.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._slot = _Slot()
        self._interpreters: weakref.WeakSet[Interpreter] = weakref.WeakSet()
        self._closed = False
        self._warned_layers = False
        self._layers: dict[str, bool] | None = None
        self._finalizer = weakref.finalize(self, _Slot.stop, self._slot)

    # --- the template -----------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def template_pid(self) -> int | None:
        """The running template's process id (None before the first interpreter, or after stop/close)."""
        template = self._slot.template
        return template.pid if template is not None and template.alive() else None

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this SandboxServer is closed; make a new one")

    def template(self) -> TemplateProcess:
        """The template, started on first use and restarted if it died (or if we are a fork of the owner)."""
        with self._lock:
            self._check_open()
            template = self._slot.template
            if template is None or not template.alive():
                self._slot.stop()
                template = self._slot.template = TemplateProcess()
            return template

    def spawn(self, config: dict[str, Any]) -> tuple[Spawned, TemplateProcess]:
        """Fork an interpreter, restarting the template once if it turns out to be dead."""
        for attempt in (1, 2):
            template = self.template()
            try:
                return template.fork(config), template
            except (OSError, ProtocolError, TimeoutError, KeyError, ValueError) as e:
                if attempt == 2:
                    raise SandboxStartError(f"could not start a sandboxed interpreter: {e}") from None
                with self._lock:
                    if self._slot.template is template:
                        self._slot.stop()
        raise AssertionError("unreachable")

    def stop(self) -> None:
        """Stop the template, and with it every interpreter's process; the next request starts a new one."""
        with self._lock:
            self._slot.stop()

    def cpu(self) -> SandboxCPU:
        """CPU used so far by the running template and the interpreters it has reaped (see SandboxCPU)."""
        with self._lock:
            template = self._slot.template
        return template.usage() if template is not None else SandboxCPU()

    def close(self) -> None:
        """Close every interpreter made with this server, then stop the template; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            interpreters = list(self._interpreters)
            self._interpreters.clear()
        for interpreter in interpreters:  # in a fork of the owner this only drops the inherited descriptors
            interpreter.close()
        self._finalizer()

    def __enter__(self) -> SandboxServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _attach(self, interpreter: Interpreter) -> None:
        """Remember an interpreter made with this server, so that :meth:`close` closes it."""
        with self._lock:
            self._check_open()
            self._interpreters.add(interpreter)

    # --- protection layers --------------------------------------------------------------------------------
    def active_layers(self) -> dict[str, bool]:
        """Which protection layers the sandbox achieves on this machine (probed once per server with a
        throwaway interpreter, which warns if some are missing)."""
        if self._layers is None:
            from mmtsb.sandbox.interpreter import Interpreter

            with Interpreter(server=self) as probe:
                self._layers = probe.layers
        return dict(self._layers)

    def warn_missing_layers(self, layers: dict[str, bool], *, static_checks: bool = True,
                            stacklevel: int = 2) -> None:
        """Warn loudly, once per server, if a protection layer is not active (static checks turned off on
        purpose do not count as missing)."""
        missing = [k for k, v in layers.items() if not v and not (k == "static_checks" and not static_checks)]
        with self._lock:
            if not missing or self._warned_layers:
                return
            self._warned_layers = True
        warnings.warn(f"mmtsb sandbox: protection layer(s) {', '.join(missing)} are NOT active on this "
                      f"machine; agent code runs with weaker isolation (active: "
                      f"{', '.join(k for k, v in layers.items() if v) or 'none'}).",
                      RuntimeWarning, stacklevel=stacklevel + 1)
