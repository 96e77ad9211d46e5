"""Length-prefixed JSON frames over a stream socket: the only language the sandbox speaks.

Why JSON and not pickle: the parent must never deserialise objects chosen by untrusted code. Every frame is a
4-byte big-endian length followed by a UTF-8 JSON object. The reader enforces a size cap and a deadline, so a
hostile or stuck peer can neither flood the parent's memory nor block it forever.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from typing import Any

HEADER = struct.Struct("!I")
#: frames the template and the parent exchange are small; child frames are capped by SandboxLimits
DEFAULT_MAX_FRAME = 64 * 1024 * 1024
#: one byte that carries file descriptors as ancillary data (SCM_RIGHTS) ahead of a frame
FD_MARKER = b"F"


class ProtocolError(Exception):
    """The peer sent something that is not a valid frame (too large, not JSON, not an object)."""


class PeerClosed(ProtocolError):
    """The peer closed its end (or died) before a whole frame arrived."""


def encode(obj: dict[str, Any]) -> bytes:
    """One frame: header + compact JSON."""
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    return HEADER.pack(len(data)) + data


def _remaining(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("deadline passed")
    return left


def send_msg(sock: socket.socket, obj: dict[str, Any], *, deadline: float | None = None) -> None:
    """Send one frame; raises TimeoutError past the deadline (a peer that stops reading cannot block us)."""
    send_bytes(sock, encode(obj), deadline=deadline)


def send_bytes(sock: socket.socket, frame: bytes, *, deadline: float | None = None) -> None:
    """Send an already encoded frame, honouring the deadline between partial writes."""
    view = memoryview(frame)
    while view:
        sock.settimeout(_remaining(deadline))
        sent = sock.send(view)
        view = view[sent:]


def _recv_exact(sock: socket.socket, n: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    while n:
        sock.settimeout(_remaining(deadline))
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            raise PeerClosed("peer closed the connection")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def recv_msg(sock: socket.socket, *, max_bytes: int = DEFAULT_MAX_FRAME,
             deadline: float | None = None) -> dict[str, Any]:
    """Read one frame and decode it; ProtocolError for oversized or malformed frames."""
    (size,) = HEADER.unpack(_recv_exact(sock, HEADER.size, deadline))
    if size > max_bytes:
        raise ProtocolError(f"frame of {size} bytes exceeds the {max_bytes}-byte limit")
    body = _recv_exact(sock, size, deadline)
    try:
        obj = json.loads(body.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError, UnicodeDecodeError) as e:  # ValueError covers JSONDecodeError
        raise ProtocolError(f"frame is not valid JSON: {e}") from None
    if not isinstance(obj, dict):
        raise ProtocolError("frame is not a JSON object")
    return obj


def send_fds(sock: socket.socket, fds: list[int]) -> None:
    """Pass file descriptors to the peer (a one-byte marker carries them)."""
    sock.settimeout(None)
    socket.send_fds(sock, [FD_MARKER], fds)


def recv_fds(sock: socket.socket, max_fds: int = 4) -> list[int]:
    """Receive the descriptors sent by :func:`send_fds`."""
    sock.settimeout(None)
    data, fds, _flags, _addr = socket.recv_fds(sock, 1, max_fds)
    if data != FD_MARKER:
        for fd in fds:
            _close_quietly(fd)
        if not data:
            raise PeerClosed("expected a descriptor marker")
        raise ProtocolError("bad descriptor marker")
    return list(fds)


def _close_quietly(fd: int) -> None:
    import os

    try:
        os.close(fd)
    except OSError:
        pass
