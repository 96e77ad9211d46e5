"""The interpreter side: a persistent REPL serving one parent over one socket, inside the confined child.

Why a hand-rolled REPL: we need the reference's semantics exactly (exec every statement, eval the last
expression, stdout + repr of the value), output caps applied *here* so the pipe cannot be flooded, short
tracebacks that show the agent's lines and never ours, and tools as plain Python functions whose calls are
forwarded to the parent as JSON. Nothing here is trusted by the parent: it re-checks every frame it receives.
"""

from __future__ import annotations

import ast
import builtins
import errno
import gc
import io
import json
import linecache
import os
import random
import resource
import socket
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, NoReturn

from mmtsb.sandbox import confine, quota
from mmtsb.sandbox.clock import FrozenClock
from mmtsb.sandbox.protocol import PeerClosed, recv_msg, send_bytes, send_msg

#: how a tool result marks an image (the parent encodes ImageResult this way)
IMAGE_KEY = "__mmtsb_image_id__"
#: frames from these files are harness internals and never shown to the agent
HARNESS_FILES = frozenset({__file__, confine.__file__, quota.__file__, sys.modules[send_msg.__module__].__file__})
CELL_PREFIX = "<cell-"
MAX_TRACEBACK_FRAMES = 3
MAX_VALUE_IMAGES = 64
#: output is sent to the parent as it is printed (so a run stopped at its time limit keeps its head), one
#: frame per line or per this many characters, and never beyond the output cap
STREAM_CHUNK = 1024

#: exception types a ToolError type name maps to inside the sandbox
BUILTIN_ERRORS: dict[str, type[BaseException]] = {
    "ValueError": ValueError, "PermissionError": PermissionError, "ConnectionError": ConnectionError,
    "TypeError": TypeError, "ArgumentError": TypeError, "KeyError": KeyError, "LookupError": LookupError,
    "IndexError": IndexError, "FileNotFoundError": FileNotFoundError,
    "NotImplementedError": NotImplementedError,
    "RuntimeError": RuntimeError, "TimeoutError": TimeoutError, "AttributeError": AttributeError,
}


class ToolCallError(Exception):
    """A tool failed with an error type that has no builtin counterpart (subclassed per type name)."""


def tool_exception(type_name: str, message: str, classes: dict[str, type[ToolCallError]]) -> BaseException:
    """The exception a failed tool call raises in the agent's code: same type name, same message (``classes``
    keeps one subclass per type name, so that ``except`` on a class seen earlier still matches)."""
    cls = BUILTIN_ERRORS.get(type_name)
    if cls is not None:
        return cls(message)
    if not type_name.isidentifier():
        return ToolCallError(f"{type_name}: {message}")
    sub = classes.get(type_name)
    if sub is None:
        sub = classes[type_name] = type(type_name, (ToolCallError,), {"__module__": "tools"})
    return sub(message)


class ImageResult:
    """An image a tool returned, known by its id (what the reference shows as ``ImageResult(image_id=N)``)."""

    __slots__ = ("image_id",)

    def __init__(self, image_id: int) -> None:
        self.image_id = int(image_id)

    def __repr__(self) -> str:
        return f"ImageResult(image_id={self.image_id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ImageResult) and other.image_id == self.image_id

    def __hash__(self) -> int:
        return hash(("ImageResult", self.image_id))

    def __index__(self) -> int:  # usable wherever an image id (an int) is expected
        return self.image_id

    __int__ = __index__


class CappedWriter(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters and only counts the rest.

    With a ``sink``, what it keeps is also handed to the sink as it comes (line by line, or every
    ``STREAM_CHUNK`` characters): the parent then has the head of the output even if the run never ends."""

    def __init__(self, limit: int, sink: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.limit = limit
        self._parts: list[str] = []
        self._kept = 0
        self.dropped = 0
        self._sink = sink
        self._pending: list[str] = []
        self._pending_chars = 0

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        room = self.limit - self._kept
        if room > 0:
            part = s[:room]
            self._parts.append(part)
            self._kept += len(part)
            self.dropped += len(s) - len(part)
            if self._sink is not None and part:
                self._pending.append(part)
                self._pending_chars += len(part)
                if "\n" in part or self._pending_chars >= STREAM_CHUNK or self._kept >= self.limit:
                    self._stream()
        else:
            self.dropped += len(s)
        return len(s)

    def _stream(self) -> None:
        text = "".join(self._pending)
        self._pending.clear()
        self._pending_chars = 0
        try:
            self._sink(text)  # type: ignore[misc]
        except Exception:  # noqa: BLE001 - the channel is gone: the run's reply (if any) still has it all
            self._sink = None

    def getvalue(self) -> str:
        text = "".join(self._parts)
        if self.dropped:
            text += f"\n... [output truncated: {self.dropped} more characters]"
        return text


def cap_text(text: str | None, limit: int, what: str) -> str | None:
    """Truncate to ``limit`` characters with a note saying how much was cut."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"\n... [{what} truncated: {len(text) - limit} more characters]"


def format_error(exc: BaseException) -> str:
    """A short traceback: at most 3 frames, starting at the agent's code, never showing harness frames."""
    try:
        frames = [f for f in traceback.extract_tb(exc.__traceback__, limit=200)
                  if f.filename not in HARNESS_FILES]
        first = next((i for i, f in enumerate(frames) if f.filename.startswith(CELL_PREFIX)), len(frames))
        frames = frames[first:first + MAX_TRACEBACK_FRAMES]  # none when the cell did not even compile
        head = ("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
                if frames else "")
        return (head + "".join(traceback.format_exception_only(type(exc), exc))).rstrip("\n")
    except BaseException:  # noqa: BLE001 - formatting must never fail (e.g. under memory pressure)
        return type(exc).__name__


def _json_default(obj: Any) -> Any:
    if isinstance(obj, ImageResult):
        return obj.image_id
    if isinstance(obj, (set, frozenset)):
        return list(obj)
    item = getattr(obj, "item", None)  # numpy scalars
    if callable(item):
        return item()
    iso = getattr(obj, "isoformat", None)  # datetime, date, time
    if callable(iso):
        return iso()
    raise TypeError(f"a {type(obj).__name__} is not JSON-serialisable")


def decode_value(value: Any) -> Any:
    """Turn the parent's JSON back into Python values, images into :class:`ImageResult`."""
    if isinstance(value, dict):
        if len(value) == 1 and IMAGE_KEY in value:
            return ImageResult(value[IMAGE_KEY])
        return {k: decode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    return value


def find_images(value: Any, found: list[int], depth: int = 0) -> None:
    """Collect ids of ImageResult objects inside a (nested) value."""
    if len(found) >= MAX_VALUE_IMAGES or depth > 6:
        return
    if isinstance(value, ImageResult):
        found.append(value.image_id)
    elif isinstance(value, dict):
        for v in list(value.values())[:10_000]:
            find_images(v, found, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value)[:10_000]:
            find_images(v, found, depth + 1)


class Bridge:
    """Forwards tool calls to the parent and waits for the answer (which also carries the World's time)."""

    def __init__(self, sock: socket.socket, clock: FrozenClock | None = None) -> None:
        self.sock = sock
        self.clock = clock
        self.calls = 0
        self.last_id = 0
        self.error_classes: dict[str, type[ToolCallError]] = {}

    def call(self, name: str, args: dict[str, Any]) -> Any:
        try:
            payload = json.dumps({"op": "call", "id": self.last_id + 1, "tool": name, "args": args},
                                 default=_json_default, ensure_ascii=False)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name}(): arguments must be JSON-serialisable ({e})") from None
        data = payload.encode("utf-8", "surrogatepass")
        self.calls += 1
        self.last_id += 1
        send_bytes(self.sock, len(data).to_bytes(4, "big") + data)
        reply = recv_msg(self.sock)
        while reply.get("op") != "result" or reply.get("id") != self.last_id:  # stale answer to a forged call
            reply = recv_msg(self.sock)
        if self.clock is not None:
            self.clock.update(reply)   # the tool may have moved the World's clock
        if reply.get("ok"):
            return decode_value(reply.get("value"))
        err = reply.get("error") or {}
        raise tool_exception(str(err.get("type", "ToolCallError")), str(err.get("message", "")),
                             self.error_classes)


def make_tool(bridge: Bridge, name: str, params: list[str] | None, doc: str) -> Callable[..., Any]:
    """A plain function named like the tool; positional arguments map to parameters in order."""

    def tool(*args: Any, **kwargs: Any) -> Any:
        if args:
            if params is None:
                raise TypeError(f"{name}() takes keyword arguments only")
            if len(args) > len(params):
                raise TypeError(f"{name}() takes at most {len(params)} positional argument(s) "
                                f"({len(args)} given)")
            merged = dict(zip(params, args))  # in parameter order, as the tool declares them
            for k, v in kwargs.items():
                if k in merged:
                    raise TypeError(f"{name}() got multiple values for argument '{k}'")
                merged[k] = v
            kwargs = merged
        return bridge.call(name, kwargs)

    tool.__name__ = tool.__qualname__ = name
    tool.__module__ = "tools"
    tool.__doc__ = doc or None
    return tool


#: audit events after which the scratch folder may hold less than before
FREEING_EVENTS = frozenset({"os.remove", "os.rmdir", "shutil.rmtree", "os.truncate", "os.rename"})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class DiskRoom:
    """Gives the code back the room it freed, at once (a courtesy; the quota itself is the parent's).

    Why: the parent keeps this process's file-size limit at the room left under the disk quota (0 once the
    folder is over it), measuring before, while and after each run. Code that deletes files and then writes
    in the same run would fail until the parent's next measurement. So after a deletion, the next open for
    writing measures the folder here and raises the soft limit to the room left (only raises it, never above
    the hard limit: the parent lowers it when it sees otherwise). Hostile code gains nothing from this that
    it could not do itself with ``setrlimit``; the parent's measurements still decide."""

    def __init__(self, scratch: str, limits: dict[str, Any]) -> None:
        self.scratch = scratch
        self.quota_bytes = int(limits.get("disk_quota_bytes") or 0)
        self.quota_files = int(limits.get("disk_quota_files") or 0)
        self.dirty = False

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        try:
            if event in FREEING_EVENTS:
                self.dirty = True
            elif event == "open" and self.dirty and _opens_for_writing(args):
                self.dirty = False
                self.refresh()
        except Exception:  # noqa: BLE001, S110 - a courtesy must never break the code's own call
            pass

    def refresh(self) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft == hard or self.quota_bytes <= 0:
            return
        u = quota.folder_usage(self.scratch, stop_entries=self.quota_files + 1)
        if u.unreadable or u.bytes > self.quota_bytes or u.entries > self.quota_files:
            return
        room = self.quota_bytes - u.bytes
        if hard != resource.RLIM_INFINITY:
            room = min(room, hard)
        if room > soft:
            resource.setrlimit(resource.RLIMIT_FSIZE, (room, hard))


def _opens_for_writing(args: tuple[Any, ...]) -> bool:
    """Whether an ``open`` audit event's (path, mode, flags) may write."""
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else None
    if isinstance(flags, int) and flags & WRITE_FLAGS:
        return True
    return isinstance(mode, str) and any(c in mode for c in "wax+")


class Repl:
    """The persistent namespace and the execution of one cell."""

    def __init__(self, sock: socket.socket, config: dict[str, Any]) -> None:
        self.sock = sock
        self.limits = config["limits"]
        self.clock = FrozenClock()
        self.bridge = Bridge(sock, self.clock)
        self.cell = 0
        self.ns: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins, "json": json,
                                   "ToolCallError": ToolCallError}
        self.update_tools(config.get("tools", []), [])
        self.disk_room = DiskRoom(str(config.get("scratch_dir", ".")), self.limits)
        sys.addaudithook(self.disk_room.hook)

    def update_tools(self, add: list[dict[str, Any]], remove: list[str]) -> None:
        for name in remove:
            self.ns.pop(name, None)
        for t in add:
            self.ns[t["name"]] = make_tool(self.bridge, t["name"], t.get("params"), t.get("doc", ""))

    def run(self, code: str, run_id: Any = None) -> dict[str, Any]:
        """Execute one cell: statements exec'd, the last expression eval'd, stdout captured (and streamed to
        the parent as it comes, tagged with ``run_id``)."""
        self.cell += 1
        filename = f"{CELL_PREFIX}{self.cell}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        limit = int(self.limits["output_chars"])
        out = CappedWriter(limit, sink=lambda text: send_msg(self.sock, {"op": "out", "id": run_id,
                                                                         "text": text}))
        saved = sys.stdout, sys.stderr, sys.stdin
        sys.stdout = sys.stderr = out
        sys.stdin = io.StringIO("")
        self.bridge.calls = 0
        self.disk_room.dirty = False  # the parent measured the folder just before this run
        value_repr: str | None = None
        result_var: str | None = None
        images: list[int] = []
        error: str | None = None
        try:
            confine.arm_cpu(int(self.limits["cpu_seconds"]))
            value = self._execute(code, filename)
            if value is not None:
                value_repr = repr(value)
                find_images(value, images)
            elif "result" in self.ns:
                result_var = repr(self.ns["result"])
            del value
        except BaseException as e:  # noqa: BLE001 - SystemExit and KeyboardInterrupt too: the REPL survives
            error = format_error(e) + self._file_size_note(e)
            if isinstance(e, MemoryError):
                del e
                gc.collect()  # give the memory back before building the reply
        finally:
            sys.stdout, sys.stderr, sys.stdin = saved
        return {"op": "done", "stdout": out.getvalue(), "value": cap_text(value_repr, limit, "value"),
                "error": cap_text(error, limit, "error"), "images": images,
                "result_var": cap_text(result_var, limit, "value"), "tool_calls": self.bridge.calls}

    def _file_size_note(self, exc: BaseException) -> str:
        """What an ``OSError: File too large`` means here: the per-file limit or the folder's disk quota."""
        chain = [exc, exc.__cause__, exc.__context__]
        if not any(isinstance(e, OSError) and e.errno == errno.EFBIG for e in chain):
            return ""
        mib = 1 << 20
        return (f"\n[A file may hold at most {int(self.limits['file_size_bytes']) / mib:g} MiB and the scratch "
                f"folder {int(self.limits['disk_quota_bytes']) / mib:g} MiB in all (its disk quota); writes "
                "that would pass either fail. Delete files to make room.]")

    def _execute(self, code: str, filename: str) -> Any:
        tree = ast.parse(code, filename, "exec")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, filename, "exec"), self.ns)  # noqa: S102 - running the agent's code is the point
        if last is None:
            return None
        return eval(compile(ast.Expression(last.value), filename, "eval"), self.ns)


def reseed(seed: int | None) -> None:
    """Children are forked from one template: give each its own random state (or a fixed one)."""
    random.seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed)


def serve(sock: socket.socket, config: dict[str, Any], layers: dict[str, Any]) -> NoReturn:
    """The child's main loop; exits the process when the parent goes away or asks it to."""
    try:
        sock.settimeout(None)
        reseed(config.get("seed"))
        repl = Repl(sock, config)
        # cpu_s: this process's CPU so far (user + system), for the parent's accounting (never trusted beyond it)
        send_msg(sock, {"op": "hello", "pid": os.getpid(), "layers": layers, "cpu_s": time.process_time()})
        while True:
            try:
                msg = recv_msg(sock)
            except PeerClosed:
                os._exit(0)
            op = msg.get("op")
            if op == "run":
                repl.clock.update(msg)   # the World's time: what datetime.now() and time.time() return
                done = repl.run(str(msg.get("code", "")), msg.get("id"))
                send_msg(sock, {**done, "id": msg.get("id"), "cpu_s": time.process_time()})
            elif op == "tools":
                repl.update_tools(msg.get("add", []), msg.get("remove", []))
            elif op == "exit":
                os._exit(0)
    except BaseException:  # noqa: BLE001 - whatever happened, the process ends here
        os._exit(70)
