"""The parent's view of one sandboxed interpreter: run code, proxy tool calls, enforce the wall clock.

Why here and not in the child: everything the parent decides (timeouts, which tools exist, what a tool
returns, how large a message may be) must hold even if the child is fully compromised. The parent only reads
length-capped JSON from the child, answers tool calls for the tools it was given, and replaces the child
whenever it dies, stalls or misbehaves, telling the caller that the state was lost (``ExecResult.reset``).
It also holds the scratch folder to its disk quota (:mod:`mmtsb.sandbox.quota`), and keeps what the code
printed as the child streams it, so that a run stopped at its time limit still returns the head of its
output.
"""

from __future__ import annotations

import json
import keyword
import math
import os
import select
import signal
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, Self

from mmtsb.sandbox.clock import ClockSource, clock_fields
from mmtsb.sandbox.config import ExecResult, SandboxLimits
from mmtsb.sandbox.forkserver import SandboxServer, SandboxStartError, Spawned, TemplateProcess
from mmtsb.sandbox.protocol import PeerClosed, ProtocolError, recv_msg, send_msg
from mmtsb.sandbox.quota import POLL_SECONDS, DiskGuard, Usage, Watch
from mmtsb.sandbox.scratch import empty_folder, remove_tree
from mmtsb.sandbox.static_check import blocked_message

#: the layers ``Interpreter.layers`` and ``SandboxServer.active_layers`` report
LAYER_NAMES = ("static_checks", "rlimits", "seccomp", "landlock", "netns", "env_scrub")
IMAGE_KEY = "__mmtsb_image_id__"
HELLO_TIMEOUT = 15.0
#: slack added to parent-side caps for the truncation note the child appends
NOTE_SLACK = 200
LOST_STATE = "It was restarted: all variables, imports and definitions from earlier runs are gone."


class ToolOutcomeLike(Protocol):
    """What a tool handler returns (mmtsb.tools.session.ToolOutcome fits)."""

    @property
    def ok(self) -> bool: ...

    value: Any
    error: Any
    images: list[int]


ToolHandler = Callable[[str, dict[str, Any]], ToolOutcomeLike]


class _ToolLike(Protocol):
    name: str

    @property
    def param_names(self) -> list[str]: ...


ToolsArg = Iterable["str | _ToolLike"] | Mapping[str, Sequence[str] | None]


def tool_definitions(tools: ToolsArg) -> dict[str, dict[str, Any]]:
    """Normalise tools given as names, ToolSpec-like objects or ``{name: [param names] | None}``."""
    items: list[tuple[str, list[str] | None, str]] = []
    if isinstance(tools, Mapping):
        items = [(n, None if p is None else list(p), "") for n, p in tools.items()]
    else:
        for t in tools:
            if isinstance(t, str):
                items.append((t, None, ""))
            else:
                items.append((t.name, list(t.param_names), str(getattr(t, "summary", "") or "")))
    defs = {}
    for name, params, doc in items:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"tool name {name!r} is not a valid Python identifier")
        defs[name] = {"name": name, "params": params, "doc": doc}
    return defs


def encode_tool_value(value: Any) -> Any:
    """A tool result as JSON for the child: images become ``{IMAGE_KEY: id}``, the rest via to_jsonable."""
    from mmtsb.tools.session import to_jsonable
    from mmtsb.vision.store import ImageResult

    def enc(v: Any) -> Any:
        if isinstance(v, ImageResult):
            return {IMAGE_KEY: v.image_id}
        if isinstance(v, dict):
            return {str(k): enc(x) for k, x in v.items()}
        if isinstance(v, (list, tuple, set, frozenset)):
            return [enc(x) for x in v]
        return to_jsonable(v)

    return enc(value)


def _cap(text: Any, limit: int) -> str | None:
    """Parent-side cap on text the child sent (it should already be capped; we do not rely on it)."""
    if text is None:
        return None
    text = text if isinstance(text, str) else str(text)
    if len(text) > limit + NOTE_SLACK:
        text = text[:limit] + f"\n... [truncated: {len(text) - limit} more characters]"
    return text


class _ChildLost(Exception):
    """The interpreter died, stalled or broke the protocol during a run."""

    def __init__(self, message: str, *, timed_out: bool = False, disk: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out
        self.disk = disk


class _NotDelivered(Exception):
    """The interpreter was gone before the code could be sent (so none of it ran)."""


class _State:
    """What the finalizer must release even if the Interpreter is never closed, and the CPU its processes used.

    CPU: the running process's figure is the one it reported with its greeting and after each run (clamped:
    it is only accounting); a process that ended is counted as the kernel counted it (its template reaps it).
    """

    def __init__(self, scratch: Path, own_scratch: bool, private_server: SandboxServer | None,
                 cpu_cap: float) -> None:
        self.child: Spawned | None = None
        self.template: TemplateProcess | None = None  # the one that forked ``child``: it knows how it ended
        self.scratch = scratch
        self.own_scratch = own_scratch
        self.private_server = private_server  # closed with the interpreter
        self.owner_pid = os.getpid()
        self.cpu_cap = cpu_cap
        self.cpu_ended = 0.0  # CPU seconds of this interpreter's earlier processes
        self.cpu_child = 0.0  # CPU seconds of the running process, as last known

    @property
    def cpu_s(self) -> float:
        return self.cpu_ended + self.cpu_child

    def note_cpu(self, reported: Any) -> None:
        """Take the running process's own report of its CPU (ignored unless a plausible, larger number)."""
        if isinstance(reported, (int, float)) and math.isfinite(reported):
            self.cpu_child = max(self.cpu_child, min(float(reported), self.cpu_cap))

    def kill_child(self) -> None:
        child, self.child = self.child, None
        if child is None:
            return
        if self.owner_pid == os.getpid():  # a fork of the owner never signals the owner's interpreter
            try:
                signal.pidfd_send_signal(child.pidfd, signal.SIGKILL)
            except OSError:
                pass
            if _wait_exit(child.pidfd, 2.0) and self.template is not None:
                _status, cpu = self.template.exit_status(child.pid)
                if cpu is not None:
                    self.cpu_child = cpu
        child.sock.close()
        try:
            os.close(child.pidfd)
        except OSError:
            pass
        self.cpu_ended += self.cpu_child
        self.cpu_child = 0.0

    def release(self) -> None:
        self.kill_child()
        if self.owner_pid != os.getpid():
            return
        if self.own_scratch:
            remove_tree(self.scratch)
        if self.private_server is not None:
            self.private_server.close()


def _wait_readable_or_start(sock: Any, watch: Watch, until: float) -> None:
    """Wait for the interpreter's next frame until ``until``; start the disk watch if none came by then."""
    left = until - time.monotonic()
    try:
        if left > 0 and select.select([sock], [], [], left)[0]:
            return
    except (OSError, ValueError):
        pass
    watch.start()


def _wait_exit(pidfd: int, timeout: float) -> bool:
    """True once the process behind ``pidfd`` has exited (a pidfd turns readable then)."""
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout)
    except (OSError, ValueError):
        return True
    return bool(ready)


class Interpreter:
    """A persistent Python interpreter in a confined child process.

    Args:
        tools: tools callable from the code as plain functions: names (keyword arguments only), objects with
            ``name`` and ``param_names`` (e.g. ToolSpec; positional arguments then work too), or a mapping
            ``{name: [param names] or None}``.
        tool_handler: ``(name, arguments) -> ToolOutcome``, run in the parent for every call.
        limits: resource limits (defaults: 30 s wall clock, 1 GiB, 10,000 output characters...).
        scratch_dir: the only folder the code may write (and read besides the Python runtime), under the
            disk quota of ``limits``; a temporary one, deleted on close, when omitted (a given one is the
            caller's to remove: an episode's :class:`~mmtsb.sandbox.scratch.ScratchFolder`).
        static_checks: run the reference's static safety check before executing (turn off only to test
            the OS layers).
        seed: seed of ``random`` and ``numpy.random`` in every (re)started interpreter; None = fresh entropy.
        server: the :class:`SandboxServer` whose warm template forks this interpreter's processes; share one
            per process (closing it closes this interpreter too). None: a private server, started now and
            stopped when this interpreter closes. That works anywhere but pays a template start (about half a
            second of CPU for its imports) per interpreter, where a shared server pays it once.
        clock: the World's clock (``world.clock.now``): the code's ``datetime.now()``, ``date.today()`` and
            ``time.time()`` read it, frozen, updated at every run and every tool result
            (:mod:`mmtsb.sandbox.clock`). None: the machine's clock.

    Use as a context manager, or call :meth:`close`. ``child_cpu_s`` is the CPU its processes used so far.
    """

    def __init__(self, tools: ToolsArg = (), tool_handler: ToolHandler | None = None,
                 limits: SandboxLimits | None = None, scratch_dir: str | Path | None = None, *,
                 static_checks: bool = True, seed: int | None = None,
                 server: SandboxServer | None = None, clock: ClockSource | None = None) -> None:
        self.limits = limits or SandboxLimits()
        self._tools = tool_definitions(tools)
        if self._tools and tool_handler is None:
            raise ValueError("Interpreter(tools=...) needs a tool_handler to run the calls")
        self.tool_handler = tool_handler
        self.clock = clock
        self.static_checks = static_checks
        self.seed = seed
        if server is not None:
            server._check_open()
        private = SandboxServer() if server is None else None
        self.server: SandboxServer = private or server  # type: ignore[assignment]
        own = scratch_dir is None
        scratch = Path(tempfile.mkdtemp(prefix="mmtsb-sandbox-") if own else scratch_dir).resolve()
        scratch.mkdir(parents=True, exist_ok=True)
        self._state = _State(scratch, own, private, float(self.limits.cpu_seconds_total + 1))
        self._disk = DiskGuard(scratch, self.limits.disk_quota_bytes, self.limits.disk_quota_files,
                               self.limits.file_size_bytes)
        self._finalizer = weakref.finalize(self, _State.release, self._state)
        self._lock = threading.Lock()
        self.layer_details: dict[str, Any] = {}
        self.start_seconds = 0.0
        self.restarts = 0
        self._run_id = 0
        self._run_timeout: float | None = None
        try:
            self.server._attach(self)
            self._start()
        except BaseException:
            self.close()
            raise

    # --- lifecycle --------------------------------------------------------------------------------------
    @property
    def scratch_dir(self) -> Path:
        return self._state.scratch

    @property
    def pid(self) -> int | None:
        """The current interpreter process id (changes after a reset)."""
        return None if self._state.child is None else self._state.child.pid

    @property
    def layers(self) -> dict[str, bool]:
        """Which protection layers are active in the current interpreter."""
        return {k: bool(self.layer_details.get(k)) for k in LAYER_NAMES}

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    @property
    def child_cpu_s(self) -> float:
        """CPU seconds (user + system) this interpreter's processes used so far, across resets: the running
        one as of its last run (as it reported), ended ones as the kernel counted them."""
        return self._state.cpu_s

    def _config(self) -> dict[str, Any]:
        return {"scratch_dir": str(self._state.scratch), "limits": self.limits.to_dict(),
                "tools": list(self._tools.values()), "seed": self.seed, "static_checks": self.static_checks}

    def _start(self) -> None:
        started = time.monotonic()
        child, template = self.server.spawn(self._config())
        self._state.child, self._state.template = child, template
        try:
            hello = recv_msg(child.sock, max_bytes=1 << 20, deadline=time.monotonic() + HELLO_TIMEOUT)
        except (OSError, ProtocolError, TimeoutError) as e:
            status = template.status(child.pid) if _wait_exit(child.pidfd, 1.0) else None
            self._state.kill_child()
            raise SandboxStartError(f"the sandboxed interpreter did not start ({status or e})") from None
        if hello.get("op") != "hello" or not isinstance(hello.get("layers"), dict):
            self._state.kill_child()
            raise SandboxStartError("the sandboxed interpreter sent an invalid greeting")
        self._state.note_cpu(hello.get("cpu_s"))
        self.layer_details = dict(hello["layers"])
        self.start_seconds = time.monotonic() - started
        self._warn_missing_layers()

    def _warn_missing_layers(self) -> None:
        """Warn (once per server) if this interpreter lacks a protection layer."""
        self.server.warn_missing_layers(self.layers, static_checks=self.static_checks, stacklevel=4)

    def _replace(self) -> None:
        """Kill the current interpreter (if any) and start a fresh one."""
        self._state.kill_child()
        self.restarts += 1
        self._start()

    def reset(self) -> None:
        """Discard all state: a fresh interpreter replaces the current one."""
        with self._lock:
            self._check_open()
            self._replace()

    def close(self) -> None:
        """Kill the interpreter, delete the scratch folder if we created it, stop a private server."""
        self._finalizer()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("this Interpreter is closed")

    # --- tools ------------------------------------------------------------------------------------------
    @property
    def tool_names(self) -> list[str]:
        return list(self._tools)

    def add_tools(self, tools: ToolsArg) -> None:
        """Make more tools callable (e.g. tools discovered during the episode)."""
        new = tool_definitions(tools)
        if new and self.tool_handler is None:
            raise ValueError("this Interpreter has no tool_handler")
        self._tools.update(new)
        self._send_tools(list(new.values()), [])

    def remove_tools(self, names: Iterable[str]) -> None:
        """Remove tools (e.g. evicted from the working set); calls to them fail from now on."""
        gone = [n for n in names if self._tools.pop(n, None) is not None]
        self._send_tools([], gone)

    def _send_tools(self, add: list[dict[str, Any]], remove: list[str]) -> None:
        with self._lock:
            self._check_open()
            child = self._state.child
            if child is None or not (add or remove):
                return
            try:
                send_msg(child.sock, {"op": "tools", "add": add, "remove": remove},
                         deadline=time.monotonic() + 5)
            except (OSError, TimeoutError):
                self._state.kill_child()  # the next run starts a fresh interpreter with the new tool set

    def _handle_call(self, msg: dict[str, Any]) -> tuple[dict[str, Any], list[int]]:
        """Run one tool call from the child; the reply and the ids of images the tool returned."""
        name, args = msg.get("tool"), msg.get("args")
        if not isinstance(name, str) or name not in self._tools or self.tool_handler is None:
            return _error_reply("NameError", f"Tool {name!r} is not available in this interpreter."), []
        if not isinstance(args, dict):
            return _error_reply("TypeError", f"{name}(): arguments must be a JSON object."), []
        try:
            outcome = self.tool_handler(name, args)
        except Exception as e:  # noqa: BLE001 - a broken handler is reported to the code, never crashes the run
            return _error_reply(type(e).__name__, str(e) or type(e).__name__), []
        if not outcome.ok:
            err = outcome.error
            return _error_reply(str(getattr(err, "type", "ToolCallError")),
                                str(getattr(err, "message", err))), []
        value = encode_tool_value(outcome.value)
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            value = json.loads(json.dumps(value, default=str))
        images = [i for i in (getattr(outcome, "images", None) or []) if isinstance(i, int)]
        return {"op": "result", "ok": True, "value": value}, images

    def _answer_call(self, msg: dict[str, Any], *, over_budget: bool) -> tuple[dict[str, Any], list[int]]:
        """The reply to one call, tagged with the call's id so the child can tell it from stale ones."""
        if over_budget:
            reply = _error_reply("RuntimeError", f"this run already made {self.limits.max_tool_calls} tool "
                                                 "calls, the limit per run")
            images: list[int] = []
        else:
            reply, images = self._handle_call(msg)
        return {**reply, "id": msg.get("id"), **clock_fields(self.clock)}, images

    # --- running code -------------------------------------------------------------------------------------
    def run(self, code: str, *, timeout: float | None = None) -> ExecResult:
        """Execute one cell with the REPL's semantics; never raises for anything the code does.

        ``timeout``: seconds this run may take at most, below the limits' ``wall_seconds`` (an episode's
        remaining wall clock); unlike ``wall_seconds`` it is not extended by the time tools take."""
        started = time.monotonic()
        if not isinstance(code, str):
            raise TypeError(f"code must be a str, got {type(code).__name__}")
        with self._lock:
            self._check_open()
            self._run_timeout = timeout
            if len(code) > self.limits.max_code_chars:
                return ExecResult(error=f"ValueError: the program has {len(code)} characters; the limit is "
                                        f"{self.limits.max_code_chars}.",
                                  duration=time.monotonic() - started)
            if self.static_checks:
                blocked = blocked_message(code)
                if blocked:
                    return ExecResult(blocked=blocked, duration=time.monotonic() - started)
            reset = False
            cpu_before = self._state.cpu_s
            if self._state.child is None or _wait_exit(self._state.child.pidfd, 0):
                self._replace()  # lost between runs (killed from outside, template gone...)
                reset = True
            images: list[int] = []
            printed: list[str] = []  # what the code printed, as it streamed it (kept when the run is lost)
            try:
                try:
                    result = self._exchange(code, started, images, printed)
                except _NotDelivered:  # it died before it got the code: run it on a fresh one
                    self._replace()
                    reset = True
                    result = self._exchange(code, started, images, printed)
            except _ChildLost as lost:
                self._replace()
                stdout = self._head(printed)
                error = str(lost) + (" The output above is what it printed until then." if stdout else "")
                if not lost.disk and self._disk.intolerable(self._disk.measure(None)):
                    empty_folder(self._state.scratch)  # e.g. it wrote past the ceiling, then hit its time limit
                    lost.disk = True
                    error += (f" It had also written past the disk quota's hard ceiling "
                              f"({self._disk.hard_bytes / (1 << 20):g} MiB or {self._disk.hard_entries} files), "
                              f"so the scratch folder was emptied.")
                result = ExecResult(stdout=stdout, error=error, timed_out=lost.timed_out, reset=True,
                                    images=list(dict.fromkeys(images)), disk_quota_exceeded=lost.disk)
            except BaseException:  # e.g. KeyboardInterrupt in the parent: the child is mid-run, drop it
                self._state.kill_child()
                raise
            result.reset = result.reset or reset
            result.cpu_s = max(0.0, self._state.cpu_s - cpu_before)
            result.duration = time.monotonic() - started
            return result

    def _head(self, printed: list[str]) -> str:
        """The head of the output a lost run streamed, capped, with a note when it reached the cap."""
        text = "".join(printed)
        limit = self.limits.output_chars
        if len(text) >= limit:
            text = text[:limit] + f"\n... [output truncated at {limit} characters]"
        return text

    def _exchange(self, code: str, started: float, images: list[int], printed: list[str]) -> ExecResult:
        """One run under the disk quota's watch: measured before (the interpreter's file-size limit set to
        the room left), while it runs (a :class:`~mmtsb.sandbox.quota.Watch` thread) and after."""
        child = self._state.child
        assert child is not None
        pidfd = child.pidfd

        def alive() -> bool:
            return not _wait_exit(pidfd, 0)

        def kill() -> None:
            try:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            except OSError:
                pass

        disk = self._disk
        disk.apply(child.pid, alive, disk.measure(child.pid))
        watch = disk.watch(child.pid, alive, kill)
        result: ExecResult | None = None
        try:
            with watch:
                result = self._talk(child, code, started, images, printed, watch)
        except _ChildLost:
            if watch.killed is None:
                raise
        after = disk.measure(child.pid) if watch.killed is None else watch.killed
        if watch.killed is None and disk.intolerable(after):  # too fast for the watch thread: the same end
            kill()
            watch.killed = after
        if watch.killed is not None:  # (also when it was killed just as it finished: its state is gone)
            _wait_exit(pidfd, 2.0)  # nothing writes into the folder any more
            empty_folder(self._state.scratch)
            raise _ChildLost(f"DiskQuotaExceeded: {disk.describe(watch.killed)}, and the code kept writing "
                             f"past {disk.hard_bytes / (1 << 20):g} MiB or {disk.hard_entries} files, so it was "
                             f"stopped and the scratch folder emptied. {LOST_STATE}", disk=True)
        assert result is not None
        disk.apply(child.pid, alive, after)
        refused = "[Errno 27] File too large" in (result.error or "") and disk.room(after) < disk.file_size_bytes
        if watch.exceeded or disk.over(after) or refused:
            result.disk_quota_exceeded = True
            result.stdout = (result.stdout.rstrip("\n") + "\n" if result.stdout else "") + self._disk_note(after)
        return result

    def _disk_note(self, after: Usage) -> str:
        disk = self._disk
        if disk.over(after):
            return (f"[Disk quota: {disk.describe(after)}. Writes that grow a file fail until files are "
                    f"deleted.]")
        if disk.room(after) < disk.file_size_bytes:
            return (f"[Disk quota: the scratch folder holds {after.bytes / (1 << 20):.1f} MiB of its "
                    f"{disk.quota_bytes / (1 << 20):g} MiB quota; a write that would have passed it failed. "
                    f"Delete files to make room.]")
        return (f"[Disk quota: the scratch folder went over its quota ({disk.quota_bytes / (1 << 20):g} MiB, "
                f"{disk.quota_files} files) during this run; writes that grew a file failed meanwhile.]")

    def _talk(self, child: Spawned, code: str, started: float, images: list[int], printed: list[str],
              watch: Watch) -> ExecResult:
        deadline = started + self.limits.wall_seconds
        cap = started + self._run_timeout if self._run_timeout is not None else float("inf")
        deadline = min(deadline, cap)
        room = self.limits.output_chars
        calls = 0
        self._run_id += 1
        try:
            send_msg(child.sock, {"op": "run", "id": self._run_id, "code": code, **clock_fields(self.clock)},
                     deadline=deadline)
        except (BrokenPipeError, ConnectionResetError):
            raise _NotDelivered() from None
        except (OSError, TimeoutError) as e:
            raise _ChildLost(f"InterpreterDied: the interpreter could not be reached ({e}). "
                             f"{LOST_STATE}") from None
        try:
            while True:
                if not watch.started:
                    _wait_readable_or_start(child.sock, watch, started + POLL_SECONDS)
                msg = recv_msg(child.sock, max_bytes=self.limits.max_message_bytes, deadline=deadline)
                op = msg.get("op")
                if op == "call":
                    calls += 1
                    call_started = time.monotonic()
                    over = calls > self.limits.max_tool_calls
                    reply, tool_images = self._answer_call(msg, over_budget=over)
                    images.extend(tool_images)
                    deadline = min(cap, deadline + time.monotonic() - call_started)  # tool time is not the code's
                    send_msg(child.sock, reply, deadline=deadline)
                elif op == "out":
                    text = msg.get("text")
                    if msg.get("id") == self._run_id and isinstance(text, str) and room > 0:
                        printed.append(text[:room])
                        room -= len(printed[-1])
                elif op == "done":
                    if msg.get("id") != self._run_id:
                        continue  # forged by the code (the real one follows) or left over
                    self._state.note_cpu(msg.get("cpu_s"))
                    return self._result(msg, images, calls)
                else:
                    raise ProtocolError(f"unexpected message {str(op)[:40]!r}")
        except TimeoutError:
            if time.monotonic() >= cap:
                raise _ChildLost(f"TimeoutError: the episode's wall-clock budget ran out while the code ran "
                                 f"({self._run_timeout:.3g} s were left), so it was stopped. {LOST_STATE}",
                                 timed_out=True) from None
            raise _ChildLost(f"TimeoutError: the code ran longer than {self.limits.wall_seconds:g} s "
                             f"(wall clock) and was stopped. {LOST_STATE}", timed_out=True) from None
        except (PeerClosed, OSError) as e:
            raise _ChildLost(f"InterpreterDied: the interpreter process {self._death_reason(child, e)}. "
                             f"{LOST_STATE}") from None
        except ProtocolError as e:
            raise _ChildLost(f"SandboxError: the interpreter broke the protocol ({e}) and was stopped. "
                             f"{LOST_STATE}") from None

    def _death_reason(self, child: Spawned, exc: BaseException) -> str:
        if not _wait_exit(child.pidfd, 1.0):
            return "closed its connection"
        template = self._state.template
        status = template.status(child.pid) if template is not None else None
        if status is None:
            return f"ended ({type(exc).__name__})"
        return f"was {status}" if status.startswith("killed") else status

    def _result(self, msg: dict[str, Any], images: list[int], calls: int) -> ExecResult:
        limit = self.limits.output_chars
        raw_images = msg.get("images")
        raw_images = raw_images if isinstance(raw_images, list) else []
        value_images = [i for i in raw_images if type(i) is int and i >= 0][:64]
        return ExecResult(stdout=_cap(msg.get("stdout"), limit) or "", value=_cap(msg.get("value"), limit),
                          error=_cap(msg.get("error"), limit),
                          images=list(dict.fromkeys(images + value_images)),
                          result_var=_cap(msg.get("result_var"), limit), tool_calls=calls)


def _error_reply(type_name: str, message: str) -> dict[str, Any]:
    return {"op": "result", "ok": False, "error": {"type": type_name, "message": message}}
