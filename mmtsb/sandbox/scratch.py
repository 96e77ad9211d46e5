"""The lifetime of an episode's scratch folder: made when the episode starts, removed when it ends.

Why: the folder is where the agent's code (and the tools that write files) leave their files; kept, every
episode would leave up to its disk quota behind, and a long run would fill the disk. Removal happens however
the episode ends (normally, with an error, cancelled), after the interpreter that wrote into it was killed.
For debugging it can be kept: ``keep=True``, or ``MMTSB_KEEP_SCRATCH=1`` in the environment of the process
that plays the episodes; where it was kept is logged (logger ``mmtsb.sandbox``, level WARNING so that it
shows in a run's log).
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
import tempfile
from pathlib import Path
from types import TracebackType

logger = logging.getLogger("mmtsb.sandbox")

#: environment variable that keeps every scratch folder (1/true/yes)
KEEP_ENV = "MMTSB_KEEP_SCRATCH"


def keep_requested() -> bool:
    """Whether ``MMTSB_KEEP_SCRATCH`` asks to keep scratch folders."""
    return os.environ.get(KEEP_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def remove_tree(path: str | Path) -> bool:
    """Remove a folder the sandboxed code wrote into, even where it took its own permissions away
    (owner rwx is given back to a directory that refuses); symlinks are removed, never followed.
    True when nothing is left."""
    path = Path(path)

    def give_back_permissions(_func, failed: str, _exc: object) -> None:  # noqa: ANN001 - shutil's callback
        for target in (os.path.dirname(failed), failed):  # the next pass can then list and remove them
            try:
                st = os.lstat(target)
                if stat.S_ISDIR(st.st_mode):
                    os.chmod(target, stat.S_IMODE(st.st_mode) | 0o700)
            except OSError:
                pass

    for _ in range(3):  # a pass that met a directory without permissions gave them back for the next
        if not os.path.lexists(path):
            return True
        try:
            if path.is_symlink() or not path.is_dir():
                path.unlink()
            else:
                shutil.rmtree(path, onerror=give_back_permissions)
        except OSError:
            pass
    return not os.path.lexists(path)


def empty_folder(path: str | Path) -> bool:
    """Remove everything inside ``path`` (kept itself: it is an interpreter's working directory). True when
    it is empty afterwards."""
    try:
        names = os.listdir(path)
    except FileNotFoundError:
        return True
    except OSError:
        remove_tree(path)
        os.makedirs(path, exist_ok=True)
        return not os.listdir(path)
    for name in names:
        remove_tree(os.path.join(path, name))
    return not os.listdir(path)


class ScratchFolder:
    """A fresh scratch folder (``/tmp/<prefix>XXXX``) and its removal; a context manager.

    Args:
        prefix: the folder name's start, e.g. ``mmtsb_<scenario>_``.
        keep: keep the folder when closed (logged); None: as ``MMTSB_KEEP_SCRATCH`` says.
        label: what the log line calls it (the scenario name, say).
    """

    def __init__(self, prefix: str = "mmtsb_", *, keep: bool | None = None, label: str | None = None,
                 parent: str | Path | None = None) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=_safe(prefix), dir=parent)).resolve()
        self.keep = keep_requested() if keep is None else keep
        self.label = label or self.path.name
        self.closed = False

    def __str__(self) -> str:
        return str(self.path)

    def __fspath__(self) -> str:
        return str(self.path)

    def close(self) -> None:
        """Remove the folder, or log where it was kept. Idempotent."""
        if self.closed:
            return
        self.closed = True
        if self.keep:
            logger.warning("kept the scratch folder of %s at %s (keep_scratch)", self.label, self.path)
            return
        if not remove_tree(self.path):
            logger.warning("could not remove the scratch folder of %s at %s", self.label, self.path)

    def __enter__(self) -> ScratchFolder:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _safe(prefix: str) -> str:
    """A prefix usable as a file name (a scenario name may hold a slash)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in prefix)[:80]
