"""File-system rules shared by the tool modules: paths, the per-user tree, and writing rows.

Every user has their own tree. Paths given to tools are absolute (``/home/chris/notes.txt``) or relative to
the user's home directory (``~/notes.txt``); any other path is taken from the root, as AppWorld does (``notes.txt``
is ``/notes.txt``), and ``..`` is normalised. Inside this module a
path is held without a trailing slash (``/home/chris/docs``; the root is ``/``); rows store directories with a
trailing slash and files without one, and ``tilde_path`` is the same path written from ``~/`` (the absolute
path when it lies outside the home directory).

A directory exists when it has a row, when it is ``/`` or an ancestor of the home directory, or when some
entry of the user lies below it (scenario files may seed a file without its directory rows). Writing somewhere
creates the missing directories as AppWorld's recursive ``create_directory`` does: a row for the target and for
each ancestor up to the nearest one that has a row (a new account has none, so its first write also gives rows to
its home directory, ``/home/`` and ``/``).
"""

from __future__ import annotations

import difflib
import posixpath
from dataclasses import dataclass, field
from typing import Any

from mmtsb.apps.common import api_error, current_user
from mmtsb.apps.file_system.seed import home_path
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

APP = "file_system"
USERS = "file_system.users"
FILES = "file_system.files"
DIRECTORIES = "file_system.directories"
ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
ARCHIVE_SUFFIXES = (".zip", ".tar")
#: new rows continue the id ranges of the released scenario files (directories 3600+, files 26000+)
ID_FLOORS = {DIRECTORIES: 3600, FILES: 26000}


def now(world: World) -> str:
    return world.clock.now_str()


def me(world: World) -> dict[str, Any]:
    """The logged-in file-system user (PermissionError when logged out)."""
    return current_user(world, APP)


def dir_text(path: str) -> str:
    """How a directory path is written in rows and results: with a trailing slash."""
    return "/" if path == "/" else path + "/"


def parent_of(path: str) -> str:
    return posixpath.dirname(path) or "/"


def is_under(path: str, ancestor: str) -> bool:
    """True when ``path`` lies strictly below directory ``ancestor``."""
    return path != ancestor and path.startswith(ancestor.rstrip("/") + "/")


def ancestors(path: str) -> list[str]:
    """Every directory above ``path`` (``/a/b/c`` -> ``/``, ``/a``, ``/a/b``)."""
    out, current = [], parent_of(path)
    while True:
        out.append(current)
        if current == "/":
            break
        current = parent_of(current)
    return out[::-1]


def home_of(world: World, user: dict[str, Any]) -> str:
    """The user's home directory without trailing slash (``/home/chris``), learned from their rows when possible."""
    rows = world.select(DIRECTORIES, "user_id = ?", (user["id"],)) + world.select(FILES, "user_id = ?", (user["id"],))
    rows.sort(key=lambda r: (str(r.get("tilde_path") or "").rstrip("/") != "~", r["id"]))
    for row in rows:
        path, tilde = str(row.get("path") or ""), str(row.get("tilde_path") or "")
        if not path.startswith("/") or not (tilde == "~" or tilde.startswith("~/")):
            continue
        rest = tilde[2:]
        if path.endswith(rest):
            home = path[:len(path) - len(rest)]
            return posixpath.normpath(home) if home.startswith("/") else "/"
    return home_path(user.get("first_name") or "").rstrip("/")


def _clean(text: str) -> str:
    norm = posixpath.normpath(text)
    return "/" + norm.lstrip("/") if norm.startswith("//") else norm


def check_kind(path: str, kind: str | None, field_name: str, given: str | None) -> None:
    """AppWorld's naming rule: a file's name has an extension, a directory's has none (``kind``: "file",
    "directory" or None for no rule)."""
    base = posixpath.basename(path)
    if kind == "file" and "." not in base:
        raise api_error(f"The path {field_name} ({given}) is supposed to be a file and so must have an extension.")
    if kind == "directory" and path != "/" and "." in base:
        raise api_error(f"The path {field_name} ({given}) is supposed to be a directory and so must not have an "
                        "extension.")


def resolve(world: World, user: dict[str, Any], path: str | None, field_name: str, home: str | None = None,
            kind: str | None = None) -> str:
    """An absolute, normalised path (no trailing slash) from ``/...``, ``~/...`` or a path taken from the root
    (``docs/a.txt`` is ``/docs/a.txt``, as in AppWorld); a double slash is refused and, with ``kind``, the name
    must fit it (:func:`check_kind`), as AppWorld requires."""
    text = (path or "").strip()
    if "//" in text:
        raise api_error(f"The path {field_name} ({path}) is invalid. It contains double slashes.")
    if not text:
        raise api_error(f"{field_name} must not be empty: give an absolute path (/...) or one under your home "
                        f"directory (~/...).")
    if text == "~" or text.startswith("~/"):
        text = (home or home_of(world, user)) + "/" + text[2:]
    elif not text.startswith("/"):
        text = "/" + text
    resolved = _clean(text)
    check_kind(resolved, kind, field_name, path)
    return resolved


def tilde_of(home: str, path: str, is_dir: bool) -> str:
    """``tilde_path`` for a path: ``~/...`` under the home directory, else the absolute path."""
    text = dir_text(path) if is_dir else path
    if path == home:
        return "~/"
    if is_under(path, home):
        return "~/" + text[len(home) + 1:]
    return text


def _row_path(row: dict[str, Any], home: str) -> str | None:
    """The normalised path of a stored row (tolerates ``~/`` and home-relative paths in seeded rows)."""
    text = str(row.get("path") or "").strip()
    if not text:
        return None
    if text == "~" or text.startswith("~/"):
        text = home + "/" + text[2:]
    elif not text.startswith("/"):
        text = home + "/" + text
    return _clean(text)


@dataclass
class Tree:
    """One user's entries, loaded once per tool call (trees are small)."""

    world: World
    user: dict[str, Any]
    home: str
    dirs: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: per table, the highest id this call removed: a row written after it gets a higher one (a replaced file gets
    #: a new id, as AppWorld never gives a removed row's id to the next one)
    retired: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, world: World, user: dict[str, Any] | None = None) -> "Tree":
        user = user or me(world)
        tree = cls(world, user, home_of(world, user))
        for key, target in ((DIRECTORIES, tree.dirs), (FILES, tree.files)):
            for row in world.select(key, "user_id = ?", (user["id"],)):
                path = _row_path(row, tree.home)
                if path is not None:
                    target.setdefault(path, row)
        return tree

    # --------------------------------------------------------------------------------------- reading
    def path(self, text: str | None, field_name: str, kind: str | None = None) -> str:
        return resolve(self.world, self.user, text, field_name, self.home, kind)

    def is_file(self, path: str) -> bool:
        return path in self.files

    def is_dir(self, path: str) -> bool:
        if path == "/" or path in self.dirs or path == self.home or is_under(self.home, path):
            return True
        prefix = path + "/"
        return any(p.startswith(prefix) for p in (*self.dirs, *self.files))

    def all_dirs(self) -> set[str]:
        """Explicit and implied directories (ancestors of every entry), the root excluded."""
        out = set(self.dirs)
        for p in (*self.dirs, *self.files, self.home + "/x"):
            out.update(a for a in ancestors(p) if a != "/")
        return out

    def below(self, path: str) -> tuple[list[str], list[str]]:
        """``(directories, files)`` strictly below ``path``, sorted."""
        dirs = sorted(d for d in self.all_dirs() if is_under(d, path))
        files = sorted(f for f in self.files if is_under(f, path))
        return dirs, files

    def suggestion(self, path: str, want_dir: bool) -> str:
        """A hint naming the closest existing path (case slips like ``Dinner_Plan`` vs ``dinner_plan``)."""
        pool = sorted(self.all_dirs()) if want_dir else sorted(self.files)
        same_case = [p for p in pool if p.lower() == path.lower()]
        close = same_case or difflib.get_close_matches(path, pool, n=1, cutoff=0.8)
        if not close:
            return ""
        return f" Did you mean {self.display(close[0], want_dir)!r}?"

    def display(self, path: str, is_dir: bool) -> str:
        return dir_text(path) if is_dir else path

    def require_dir(self, text: str | None, field_name: str) -> str:
        path = self.path(text, field_name, "directory")
        if not self.is_dir(path):
            if self.is_file(path):
                raise api_error(f"{field_name} {text!r} is a file, not a directory.")
            raise api_error(f"Directory {text!r} does not exist.{self.suggestion(path, True)}")
        return path

    def require_file(self, text: str | None, field_name: str) -> str:
        path = self.path(text, field_name, "file")
        if not self.is_file(path):
            if self.is_dir(path):
                raise api_error(f"{field_name} {text!r} is a directory, not a file.")
            raise api_error(f"File {text!r} does not exist.{self.suggestion(path, False)}")
        return path

    def require_parent(self, path: str, field_name: str) -> None:
        parent = parent_of(path)
        if self.is_file(parent):
            raise api_error(f"Cannot use {field_name} {self.display(path, False)!r}: {parent!r} is a file.")
        if not self.is_dir(parent):
            raise api_error(f"The parent directory {dir_text(parent)!r} of {field_name} does not exist; create it "
                            f"first with file_system_create_directory (recursive=True creates missing parents).")

    def make_room_for_dir(self, target: str, field_name: str, overwrite: bool | None) -> None:
        """Clear the way for a new directory at ``target`` (named by the parameter ``field_name``).

        A file there is an error; an existing directory is an error unless ``overwrite``, when it is removed (if it
        may be: see :meth:`protect`). Missing parents are created (:meth:`make_dirs`), as AppWorld does.
        """
        if self.is_file(target):
            raise api_error(f"A file already exists at {target!r}.")
        if self.is_dir(target):
            if not overwrite:
                raise api_error(f"Directory {dir_text(target)!r} already exists; pass overwrite=True to replace it.")
            self.protect(target, field_name)
            self.remove_tree(target)
        self.make_dirs(parent_of(target))

    def protect(self, path: str, field_name: str) -> None:
        """Refuse to remove or move the root, the home directory or one of its ancestors."""
        if path == "/" or path == self.home or is_under(self.home, path):
            raise api_error(f"{field_name} {dir_text(path)!r} is the root or your home directory; it cannot be "
                            f"deleted or moved.")

    # --------------------------------------------------------------------------------------- writing
    def _insert(self, key: str, row: dict[str, Any]) -> int:
        new_id = max(self.world.next_id(key), ID_FLOORS[key], self.retired.get(key, 0) + 1)
        self.world.insert(key, {"id": new_id, **row})
        return new_id

    def touch(self, path: str, when: str | None = None) -> None:
        """Stamp ``updated_at`` of a directory row (an entry inside it was added or removed)."""
        row = self.dirs.get(path)
        if row is not None:
            stamp = when or now(self.world)
            self.world.update(DIRECTORIES, row["id"], {"updated_at": stamp})
            row["updated_at"] = stamp

    def add_dir(self, path: str, created_at: str | None = None, updated_at: str | None = None) -> dict[str, Any]:
        stamp = now(self.world)
        row = {"path": dir_text(path), "tilde_path": tilde_of(self.home, path, True), "user_id": self.user["id"],
               "created_at": created_at or stamp, "updated_at": updated_at or created_at or stamp}
        row["id"] = self._insert(DIRECTORIES, row)
        self.dirs[path] = row
        return row

    def add_file(self, path: str, content: str | None, compressed_data: Any = None, created_at: str | None = None,
                 updated_at: str | None = None) -> dict[str, Any]:
        stamp = now(self.world)
        row = {"path": path, "tilde_path": tilde_of(self.home, path, False), "user_id": self.user["id"],
               "content": content if content is not None else "",
               "compressed_data": compressed_data if compressed_data is not None else [],
               "created_at": created_at or stamp, "updated_at": updated_at or created_at or stamp}
        row["id"] = self._insert(FILES, row)
        self.files[path] = row
        return row

    def set_file(self, path: str, fields: dict[str, Any]) -> None:
        row = self.files[path]
        self.world.update(FILES, row["id"], fields)
        row.update(fields)

    def remove_file(self, path: str) -> None:
        row = self.files.pop(path)
        self.world.delete(FILES, row["id"])
        self.retired[FILES] = max(self.retired.get(FILES, 0), int(row["id"]))

    def remove_tree(self, path: str) -> int:
        """Delete a directory, everything below it; returns how many rows went."""
        dirs, files = self.below(path)
        removed = 0
        for f in files:
            self.remove_file(f)
            removed += 1
        for d in [*dirs, path]:
            row = self.dirs.pop(d, None)
            if row is not None:
                removed += self.world.delete(DIRECTORIES, row["id"])
                self.retired[DIRECTORIES] = max(self.retired.get(DIRECTORIES, 0), int(row["id"]))
        return removed

    def make_dirs(self, path: str) -> list[str]:
        """Give ``path`` a row, and each ancestor up to the nearest one that has a row (AppWorld's recursive
        ``create_directory``); returns what was created, top down."""
        missing = []
        p = path
        while p not in self.dirs:
            if self.is_file(p):
                raise api_error(f"Cannot create directory {dir_text(path)!r}: {p!r} is a file.")
            missing.append(p)
            if p == "/":
                break
            p = parent_of(p)
        for p in reversed(missing):
            self.touch(parent_of(p))
            self.add_dir(p)
        return missing[::-1]


# ------------------------------------------------------------------------------------------ archives
def archive_entries(tree: Tree, path: str) -> list[dict[str, Any]]:
    """The ``compressed_data`` of an archive of directory ``path``: its entries, paths relative to the parent."""
    base = parent_of(path)
    cut = 1 if base == "/" else len(base) + 1

    def meta(row: dict[str, Any] | None) -> dict[str, Any]:
        return {"created_at": (row or {}).get("created_at"), "updated_at": (row or {}).get("updated_at")}

    dirs, files = tree.below(path)
    out = [{"path": dir_text(d)[cut:], "type": "directory", **meta(tree.dirs.get(d))} for d in [path, *dirs]]
    out += [{"path": f[cut:], "type": "file", "content": tree.files[f].get("content") or "",
             **meta(tree.files[f])} for f in files]
    return out


def unpack_entries(data: Any, archive: str) -> list[dict[str, Any]]:
    """Entries of an archive as ``{relative path, is_dir, content, dates}``, paths relative to the directory the
    archive is extracted into (so they start with the archived directory's name, as AppWorld's do)."""
    if not isinstance(data, list) or not data:
        raise api_error(f"{archive!r} holds no archived entries (it was not made by file_system_compress_directory).")
    entries = []
    for item in data:
        if not isinstance(item, dict) or not str(item.get("path") or "").strip("/"):
            raise api_error(f"{archive!r} is not a readable archive: every entry needs a 'path'.")
        raw = str(item["path"])
        is_dir = item.get("type") == "directory" or raw.endswith("/")
        entries.append({"path": _clean("/" + raw).lstrip("/"), "is_dir": is_dir, "content": item.get("content"),
                        "created_at": item.get("created_at"), "updated_at": item.get("updated_at")})
    return entries


def archive_suffix(path: str, field_name: str) -> str:
    suffix = posixpath.splitext(path)[1].lower()
    if suffix not in ARCHIVE_SUFFIXES:
        raise api_error(f"{field_name} must end with .zip or .tar; got {path!r}.")
    return suffix
