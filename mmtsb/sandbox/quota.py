"""The disk quota over an interpreter's scratch folder, enforced by the parent around and during each run.

Why the parent: nothing the child does can be trusted, and the kernel has no per-folder quota a process
without root can set (no tmpfs mount, no project quotas). So the parent measures the folder itself and acts
on the child from outside, where the code cannot undo it:

- *Measured*: the disk space of everything in the folder (``st_blocks``, so sparse files count what they
  really use; directories and links count too), the number of entries, and the files the interpreter keeps
  alive after deleting them (open: ``/proc/<pid>/fd``; only mapped: ``/proc/<pid>/maps``, during runs).
  Measured before each run, every ``POLL_SECONDS`` while a run lasts longer than that (less often when a
  scan is slow, so scanning takes at most a tenth of a core), and after it.
- *Per write*: the interpreter's RLIMIT_FSIZE soft limit is set from the parent (``prlimit``) to the room
  left under the quota (never above ``file_size_bytes``): one file can never outgrow the quota, and a write
  that would fails inside the code (``OSError: [Errno 27] File too large``, with a note naming the quota).
  Once the folder is over its quota the soft limit is 0: every write that grows a file fails until files are
  deleted. (The child gives the room back at once when the code deletes files and writes again in the same
  run: :class:`mmtsb.sandbox.child.DiskRoom`, a courtesy that hostile code gains nothing from.)
- *Kill*: code that raises its own soft limit again (it may, up to the hard limit, which stays
  ``file_size_bytes``) or keeps creating empty files is stopped when the folder passes the hard ceiling
  (``hard_bytes`` / ``hard_entries``: the quota plus half of it, at least 16 MiB / 1000 entries more), and
  when part of the tree stays unmeasurable for two measurements in a row: the interpreter is killed and
  replaced, the folder emptied, and the run ends with a ``DiskQuotaExceeded`` error. The episode goes on.

Limits, stated honestly: the quota is checked, not reserved. Between two measurements the code can write
past it by what it writes in that time (several files, each up to the room left at the last measurement);
the kill ceiling bounds what a run can keep, not what it can write in one poll interval (~50 ms). A scan is
not atomic: code that keeps moving directories while it is scanned may hide part of its data from one scan.
Memory-backed files (``memfd``) kept open count as disk. Whatever remains is removed with the scratch folder
at the end of the episode (:mod:`mmtsb.sandbox.scratch`).
"""

from __future__ import annotations

import os
import resource
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MiB = 1 << 20
#: seconds between two measurements while code runs (stretched to 10x the time a scan takes)
POLL_SECONDS = 0.05
SCAN_SHARE = 10
_DIR_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Usage:
    """What the scratch folder uses: disk bytes, entries, and whether the scan went through the whole tree
    (a scan stops early once it passed its stop marks, or when part of the tree could not be measured)."""

    bytes: int = 0
    entries: int = 0
    complete: bool = True
    unreadable: bool = False


def folder_usage(root: str | Path, *, stop_bytes: int | None = None, stop_entries: int | None = None) -> Usage:
    """Disk bytes (``st_blocks`` * 512) and entries under ``root``, symlinks never followed.

    Directories are opened relative to the folder and checked to be the very inode the scan listed (a
    directory swapped for a symlink mid-scan is skipped, never followed out of the folder); a directory the
    code made unreadable gets its owner's rwx back so it can be measured (only through a handle on the
    checked inode). ``unreadable`` is set when part of the tree still could not be measured, or a path is
    too long to open (legitimate code does neither; the guard counts it as over the quota)."""
    try:
        root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        return Usage()
    except OSError:
        return Usage(complete=False, unreadable=True)
    total, entries, unreadable = 0, 0, False
    try:
        st = os.fstat(root_fd)
        total = st.st_blocks * 512
        pending: list[tuple[str, int, int]] = [("", st.st_dev, st.st_ino)]
        while pending:
            rel, dev, ino = pending.pop()
            fd = os.dup(root_fd) if not rel else _open_checked(root_fd, rel, dev, ino)
            if fd is None:
                continue
            if fd < 0:
                unreadable = True
                continue
            try:
                with os.scandir(fd) as it:
                    for entry in it:
                        entries += 1
                        try:
                            est = entry.stat(follow_symlinks=False)
                        except FileNotFoundError:
                            continue
                        except OSError:
                            unreadable = True
                            continue
                        total += est.st_blocks * 512
                        if stat.S_ISDIR(est.st_mode):
                            pending.append((os.path.join(rel, entry.name), est.st_dev, est.st_ino))
                        if ((stop_bytes is not None and total > stop_bytes)
                                or (stop_entries is not None and entries > stop_entries)):
                            return Usage(total, entries, complete=False, unreadable=unreadable)
            except FileNotFoundError:
                pass
            except OSError:
                unreadable = True
            finally:
                os.close(fd)
    finally:
        os.close(root_fd)
    return Usage(total, entries, complete=not unreadable, unreadable=unreadable)


def _open_checked(root_fd: int, rel: str, dev: int, ino: int) -> int | None:
    """A readable descriptor of directory ``rel`` if it still is inode ``(dev, ino)``; None when it is gone
    or was replaced (skipped), -1 when it cannot be opened (unmeasurable)."""
    try:
        handle = os.open(rel, _DIR_FLAGS, dir_fd=root_fd)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        return None if e.errno == 40 else -1  # ELOOP: now a symlink, i.e. replaced
    try:
        st = os.fstat(handle)
        if (st.st_dev, st.st_ino) != (dev, ino):
            return None
        if st.st_mode & 0o700 != 0o700:  # "." relative to the handle: the checked inode, whatever its path now
            os.chmod(".", stat.S_IMODE(st.st_mode) | 0o700, dir_fd=handle)
        return os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=handle)
    except OSError:
        return -1
    finally:
        os.close(handle)


def held_bytes(pid: int, root: str | Path, *, mapped: bool = True) -> int:
    """Disk bytes of files process ``pid`` keeps alive after unlinking them: open ones (every unlinked regular
    file, in the folder, anonymous or memory-backed) and, with ``mapped``, ones only mapped (deleted files of
    the folder, counted by the size of their mappings; reading ``/proc/<pid>/maps`` takes most of a
    millisecond, so only the watch thread does it). 0 when ``/proc`` cannot tell (the process is gone)."""
    fd_dir = f"/proc/{pid}/fd"
    total, seen = 0, set()
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return 0
    for name in names:
        try:
            st = os.stat(f"{fd_dir}/{name}")
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and st.st_nlink == 0 and st.st_ino not in seen:
            seen.add(st.st_ino)
            total += st.st_blocks * 512
    if not mapped:
        return total
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as f:
            maps = f.read()
    except OSError:
        return total
    if " (deleted)" not in maps:
        return total
    prefix = str(root).rstrip("/") + "/"
    mapped: dict[int, int] = {}
    for line in maps.splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) < 6 or not parts[5].endswith(" (deleted)"):
            continue
        if not (parts[5].startswith(prefix) or parts[5].startswith("/memfd:")):
            continue
        try:
            start, end = (int(x, 16) for x in parts[0].split("-"))
            inode = int(parts[4])
        except ValueError:
            continue
        if inode not in seen:
            mapped[inode] = mapped.get(inode, 0) + max(0, end - start)
    return total + sum(mapped.values())


def _fmt(n: int) -> str:
    return f"{n / MiB:.1f} MiB" if n >= MiB else f"{n} bytes"


class DiskGuard:
    """The quota of one scratch folder, applied to whichever interpreter process currently uses it.

    Args:
        scratch: the folder.
        quota_bytes / quota_files: the quota (``SandboxLimits.disk_quota_bytes`` / ``disk_quota_files``).
        file_size_bytes: the per-file limit the interpreter was started with (its RLIMIT_FSIZE hard limit).
    """

    def __init__(self, scratch: Path, quota_bytes: int, quota_files: int, file_size_bytes: int) -> None:
        self.scratch = scratch
        self.quota_bytes = quota_bytes
        self.quota_files = quota_files
        self.file_size_bytes = file_size_bytes
        self.hard_bytes = quota_bytes + max(quota_bytes // 2, 16 * MiB)
        self.hard_entries = quota_files + max(quota_files // 2, 1000)
        self.last = Usage()

    def measure(self, pid: int | None, *, mapped: bool = False) -> Usage:
        """The folder's usage plus what ``pid`` holds open (and mapped, with ``mapped``) after deleting it."""
        u = folder_usage(self.scratch, stop_entries=self.hard_entries)  # a scan costs by entry, not by byte
        if pid is not None:
            u = Usage(u.bytes + held_bytes(pid, self.scratch, mapped=mapped), u.entries, u.complete,
                      u.unreadable)
        self.last = u
        return u

    def over(self, u: Usage) -> bool:
        return u.bytes > self.quota_bytes or u.entries > self.quota_files or u.unreadable

    def intolerable(self, u: Usage) -> bool:
        return u.bytes > self.hard_bytes or u.entries > self.hard_entries

    def room(self, u: Usage) -> int:
        """The RLIMIT_FSIZE soft limit the interpreter gets for this usage."""
        if self.over(u):
            return 0
        return max(0, min(self.file_size_bytes, self.quota_bytes - u.bytes))

    def apply(self, pid: int, alive: Callable[[], bool], u: Usage) -> None:
        """Set the interpreter's soft file-size limit to the room left (never above its hard limit)."""
        want = self.room(u)
        try:
            if not alive():
                return
            soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
            want = want if hard == resource.RLIM_INFINITY else min(want, hard)
            if soft != want:
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (want, hard))
        except (OSError, ValueError):
            pass  # gone meanwhile; a fresh one is limited before its first run

    def describe(self, u: Usage) -> str:
        """The note the agent reads when its folder is over the quota."""
        what = []
        if u.bytes > self.quota_bytes:
            what.append(f"{_fmt(u.bytes)}{'+' if not u.complete else ''} of disk, over its quota of "
                        f"{_fmt(self.quota_bytes)}")
        if u.entries > self.quota_files:
            what.append(f"{u.entries}{'+' if not u.complete else ''} files and folders, over its quota of "
                        f"{self.quota_files}")
        if u.unreadable and not what:
            what.append("files the sandbox cannot measure (unreadable or too deeply nested)")
        return "the scratch folder holds " + " and ".join(what)

    def watch(self, pid: int, alive: Callable[[], bool], kill: Callable[[], None]) -> Watch:
        return Watch(self, pid, alive, kill)


class Watch:
    """A thread measuring the folder while one run goes on: it keeps the interpreter's file-size limit at
    the room left and kills the interpreter past the hard ceiling. Use as a context manager, and call
    :meth:`start` once the run has lasted ``POLL_SECONDS`` (a run that ends sooner needs no thread: its first
    measurement would have come no earlier; the one after the run covers it)."""

    def __init__(self, guard: DiskGuard, pid: int, alive: Callable[[], bool], kill: Callable[[], None]) -> None:
        self.guard, self.pid, self.alive, self.kill = guard, pid, alive, kill
        self.exceeded = False  # the folder was over its quota at some measurement during the run
        self.killed: Usage | None = None  # the usage that got the interpreter killed
        self._unreadable_before = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def started(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="mmtsb-sandbox-disk", daemon=True)
            self._thread.start()

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def check(self) -> Usage:
        """One measurement and its consequences."""
        u = self.guard.measure(self.pid, mapped=True)
        if self.guard.over(u):
            self.exceeded = True
        unmeasurable = u.unreadable and self._unreadable_before  # twice in a row: not a passing race
        self._unreadable_before = u.unreadable
        if (self.guard.intolerable(u) or unmeasurable) and self.killed is None:
            self.killed = u
            self.kill()
            return u
        self.guard.apply(self.pid, self.alive, u)
        return u

    def _loop(self) -> None:
        wait = 0.0  # started once the run has lasted POLL_SECONDS: measure at once
        while not self._stop.wait(wait):
            started = time.monotonic()
            self.check()
            if self.killed is not None:
                return
            wait = max(POLL_SECONDS, SCAN_SHARE * (time.monotonic() - started))
