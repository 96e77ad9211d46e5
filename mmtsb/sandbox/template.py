"""The warm template process: started once per parent, it preloads the allowed libraries and forks
interpreters on request (our own forkserver).

Why: importing numpy, PIL and matplotlib takes about half a second; a fork of a process that already has them
takes milliseconds. The template is single-threaded (BLAS threads are disabled), never runs agent code, and
lives in its own network namespace when the kernel allows it, so every interpreter starts without network.

Control protocol (one stream socket to the parent, requests served in order):
  parent -> {"op": "fork", "config": {...}} then a descriptor marker carrying the interpreter's socket
  template -> {"pid": N} then a descriptor marker carrying a pidfd of the new interpreter
  parent -> {"op": "status", "pid": N};  template -> {"status": "exited with code 0" | null,
                                                      "cpu_s": CPU seconds the kernel counted for it | null}
  parent -> {"op": "usage"};  template -> {"cpu_s": its own CPU, "children_cpu_s": its reaped interpreters'}
The template exits, killing its interpreters, when the parent closes the control socket.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import select
import signal
import socket
import sys
from collections import OrderedDict
from typing import Any, NoReturn

#: modules imported before any fork, so that interpreters start warm (missing optional ones are skipped)
PRELOAD = (
    "json", "math", "re", "datetime", "collections", "itertools", "functools", "statistics", "decimal",
    "fractions", "random", "string", "textwrap", "calendar", "copy", "csv", "time", "enum", "heapq",
    "operator", "pprint", "uuid", "bisect", "difflib", "typing", "io", "dataclasses", "hashlib", "base64",
    "struct", "html", "html.parser", "colorsys", "fnmatch", "keyword", "shlex", "graphlib", "reprlib",
    "queue", "weakref", "traceback", "abc", "numbers", "array", "contextlib", "pathlib", "urllib.parse",
    "email", "hmac", "errno", "string", "zoneinfo", "yaml", "pendulum",
    "numpy", "numpy.random", "PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", "PIL.ImageOps", "PIL.ImageFilter",
    "PIL.ImageEnhance", "matplotlib", "matplotlib.pyplot", "time_machine",
)
CLONE_NEWNET = 0x40000000
MAX_STATUSES = 4096


def preload() -> list[str]:
    """Import what the interpreters will use; matplotlib is switched to the Agg backend first."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    loaded = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except Exception:  # noqa: BLE001, S112 - an optional library that is not installed (or broken)
            continue
    if "matplotlib" in sys.modules:
        sys.modules["matplotlib"].use("Agg")
    return loaded


def private_network() -> bool:
    """Move the template (and so every interpreter) into a new, empty network namespace if permitted."""
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.unshare(CLONE_NEWNET) == 0


def _cap_last() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return 40


class Template:
    """The serving loop of the template process."""

    def __init__(self, ctl: socket.socket) -> None:
        self.ctl = ctl
        self.children: set[int] = set()
        #: how each reaped interpreter ended, and the CPU seconds (user + system) it used in all
        self.statuses: OrderedDict[int, tuple[str, float]] = OrderedDict()
        self.info: dict[str, Any] = {}

    def start(self) -> None:
        from mmtsb.sandbox import landlock
        from mmtsb.sandbox.protocol import send_msg

        netns = private_network()
        loaded = preload()
        import mmtsb.sandbox.child  # noqa: F401  (warm: the interpreter code itself)

        self.info = {"netns": netns, "landlock_abi": landlock.abi_version(), "cap_last": _cap_last(),
                     "template_pid": os.getpid()}
        send_msg(self.ctl, {"op": "ready", **self.info, "preloaded": loaded})

    def reap(self) -> None:
        """Collect exited interpreters and remember how they ended and how much CPU they used."""
        while self.children:
            try:
                pid, status, rusage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                return
            if pid == 0:
                return
            self.children.discard(pid)
            self.statuses[pid] = (describe_status(status), rusage.ru_utime + rusage.ru_stime)
            while len(self.statuses) > MAX_STATUSES:
                self.statuses.popitem(last=False)

    def serve(self) -> None:
        from mmtsb.sandbox.protocol import PeerClosed, ProtocolError, recv_fds, recv_msg, send_fds, send_msg

        while True:
            ready, _, _ = select.select([self.ctl], [], [], 1.0)
            self.reap()
            if not ready:
                continue
            try:
                msg = recv_msg(self.ctl)
                if msg.get("op") == "fork":
                    fds = recv_fds(self.ctl)
                    pid, pidfd = self.fork(fds[0], msg["config"])
                    send_msg(self.ctl, {"pid": pid})
                    send_fds(self.ctl, [pidfd])
                    os.close(pidfd)
                elif msg.get("op") == "status":
                    self.reap()
                    status, cpu = self.statuses.get(int(msg["pid"]), (None, None))
                    send_msg(self.ctl, {"status": status, "cpu_s": cpu})
                elif msg.get("op") == "usage":
                    self.reap()
                    send_msg(self.ctl, usage())
            except (PeerClosed, ProtocolError, OSError):
                return

    def fork(self, chan_fd: int, config: dict[str, Any]) -> tuple[int, int]:
        """Fork one interpreter; the pidfd is taken before any reaping, so it cannot name another process."""
        pid = os.fork()
        if pid == 0:
            run_child(self.ctl, chan_fd, config, self.info)
        os.close(chan_fd)
        self.children.add(pid)
        return pid, os.pidfd_open(pid)

    def shutdown(self) -> None:
        for pid in list(self.children):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in list(self.children):
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass


def usage() -> dict[str, float]:
    """CPU seconds (user + system) of this template and of the interpreters it has reaped."""
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"cpu_s": me.ru_utime + me.ru_stime, "children_cpu_s": kids.ru_utime + kids.ru_stime}


def describe_status(status: int) -> str:
    """A wait status in words, naming the limit behind the usual signals."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        why = {"SIGXCPU": " (CPU time limit exceeded)", "SIGSEGV": " (segmentation fault)",
               "SIGKILL": " (killed)", "SIGSYS": " (forbidden system call)",
               "SIGXFSZ": " (file size limit exceeded)", "SIGABRT": " (aborted)"}.get(name, "")
        return f"killed by {name}{why}"
    if os.WIFEXITED(status):
        return f"exited with code {os.WEXITSTATUS(status)}"
    return f"ended with status {status}"


def run_child(ctl: socket.socket, chan_fd: int, config: dict[str, Any], info: dict[str, Any]) -> NoReturn:
    """In the forked child: drop the template's descriptors, confine, and serve the parent. Never returns."""
    try:
        ctl.detach()  # the object must never close a descriptor number we reuse
        devnull = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.closerange(3, chan_fd)
        os.closerange(chan_fd + 1, 1 << 16)
        os.setsid()
        from mmtsb.sandbox import child, confine

        confine.die_with_parent()
        if os.getppid() != info["template_pid"]:
            os._exit(1)
        sock = socket.socket(fileno=chan_fd)
        layers = confine.apply(config, info)
        child.serve(sock, config, layers)
    except BaseException:  # noqa: BLE001, S110 - nothing may escape a forked child
        pass
    os._exit(70)


def main(argv: list[str]) -> None:
    ctl = socket.socket(fileno=int(argv[1]))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop, not a terminal's Ctrl-C
    template = Template(ctl)
    served = False
    try:
        template.start()
        template.serve()
        served = True
    finally:
        template.shutdown()
        if served:  # skip the interpreter's teardown (~0.1 s with numpy and matplotlib loaded): nothing to flush
            os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
