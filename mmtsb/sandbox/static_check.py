"""The reference's static safety check (SPEC §5, layer 1), written with ``ast``.

Why keep it when the process is confined by the OS: it is part of the benchmark's contract (an agent that
imports ``socket`` gets "Execution blocked: ..." and can correct itself without losing its interpreter), and
it catches most mistakes before any code runs. It is *not* the security boundary; the OS layers are.

Rules: the top-level module of every import must be allowed; no forbidden call path may be *used* (called or
merely referenced), with paths resolved through import aliases, ``from x import y``, plain re-assignments
(``g = getattr``) and variables assigned from constructors (``p = pathlib.Path(..)`` makes ``p.unlink`` mean
``pathlib.Path.unlink``); no access to the listed dunder names. A syntax error is "safe": it fails later,
at execution, with a proper SyntaxError.
"""

from __future__ import annotations

import ast
import builtins


def _words(text: str) -> list[str]:
    return text.split()


ALLOWED_MODULES = frozenset(_words("""
mmtoolsandbox array builtins calendar collections contextlib copy csv time datetime enum fractions functools
heapq itertools json math matplotlib numbers numpy operator os pathlib pendulum PIL pprint random re string
textwrap uuid yaml bisect difflib typing unittest io decimal dataclasses email hashlib pydoc queue reprlib
statistics abc ast base64 colorsys contextvars encodings errno fnmatch genericpath getopt graphlib hmac html
keyword opcode optparse pydoc_data quopri shlex sre_compile sre_constants sre_parse stringprep struct token
traceback urllib weakref xml
"""))

_FORBIDDEN_BUILTINS = _words("exit quit open breakpoint compile exec eval __import__ getattr setattr delattr "
                             "vars globals")
_OS = _words("_exit open read write close walk kill system putenv remove removedirs rmdir fchdir setuid "
             "fork forkpty killpg rename renames truncate replace unlink fchmod fchown chmod chown chroot "
             "lchflags lchmod lchown chdir environ getcwd listdir scandir popen")
_PATH = _words("open write_text read_bytes write_bytes unlink rmdir rename replace chmod lchmod chown lchown "
               "touch symlink_to link_to mkdir expanduser")

FORBIDDEN_PATHS = frozenset(
    [f"builtins.{n}" for n in _FORBIDDEN_BUILTINS]
    + ["sys.exit", "matplotlib.pyplot.show"]
    + [f"os.{n}" for n in _OS]
    + ["io.open", "io.open_code", "io.FileIO"]
    + [f"shutil.{n}" for n in ("rmtree", "move", "chown", "make_archive", "get_archive_formats")]
    + [f"subprocess.{n}" for n in ("Popen", "call", "check_call", "check_output", "run", "getoutput",
                                   "getstatusoutput")]
    + [f"pathlib.Path.{n}" for n in _PATH]
    + ["glob.glob", "glob.iglob", "json.dump", "json.load", "zipfile.ZipFile"]
    + [f"{m}.open" for m in ("shelve", "dbm", "codecs", "bz2", "gzip", "tarfile")]
    + ["csv.reader", "csv.writer", "time.sleep", "pdb.set_trace"]
    + [f"urllib.request.{n}" for n in ("urlretrieve", "urlcleanup", "urlopen", "URLopener", "FancyURLopener")]
)
#: families given by a prefix in the reference (``os.exec*``, ``shutil.copy*``, ...);
#: ``os.posix_spawn*`` is our addition (a process spawn like ``os.spawn*``)
FORBIDDEN_PREFIXES = ("os.exec", "os.spawn", "os.posix_spawn", "shutil.copy", "fileinput.", "tempfile.mk",
                      "tempfile.Named", "tempfile.Temporary", "csv.Dict")
FORBIDDEN_DUNDERS = frozenset(_words("__subclasses__ __globals__ __code__ __builtins__ __import__ __loader__ "
                                     "__spec__ __dict__ __class__"))
#: concrete path classes behave like pathlib.Path for the rules above
_PATH_CLASSES = {"pathlib.PosixPath": "pathlib.Path", "pathlib.WindowsPath": "pathlib.Path"}
_BUILTIN_NAMES = frozenset(dir(builtins))


def canonical(path: str) -> str:
    """``pathlib.PosixPath.x`` -> ``pathlib.Path.x`` (the rules name the generic class)."""
    for cls, generic in _PATH_CLASSES.items():
        if path.startswith(cls + "."):
            return generic + path[len(cls):]
    return path


def is_forbidden(path: str) -> bool:
    """Whether a resolved dotted path is on the reference's list."""
    path = canonical(path)
    return path in FORBIDDEN_PATHS or path.startswith(FORBIDDEN_PREFIXES)


class _Checker(ast.NodeVisitor):
    """Walks statements in source order, tracking what each local name stands for."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self.shadowed: set[str] = set()
        self.modules: list[str] = []
        self.functions: list[str] = []
        self.dunders: list[str] = []

    # --- resolution -----------------------------------------------------------------------------------
    def resolve(self, node: ast.AST) -> str | None:
        """The dotted path an expression stands for (a call stands for an instance of what it calls)."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id in _BUILTIN_NAMES and node.id not in self.shadowed:
                return f"builtins.{node.id}"
            return None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            return self.resolve(node.func)
        return None

    def _bind(self, target: ast.AST, path: str | None) -> None:
        if isinstance(target, ast.Name):
            if path:
                self.aliases[target.id] = path
            else:
                self.aliases.pop(target.id, None)
                self.shadowed.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind(elt, None)

    def _flag(self, path: str | None) -> None:
        if path and is_forbidden(path):
            shown = canonical(path).removeprefix("builtins.")
            if shown not in self.functions:
                self.functions.append(shown)

    def _module(self, name: str) -> None:
        if name.split(".")[0] not in ALLOWED_MODULES and name not in self.modules:
            self.modules.append(name)

    # --- statements that bind names ---------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self._module(a.name)
            if a.asname:
                self.aliases[a.asname] = a.name
            else:
                top = a.name.split(".")[0]
                self.aliases[top] = top

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        self._module(module)
        for a in node.names:
            path = f"{module}.{a.name}"
            if a.name in FORBIDDEN_DUNDERS:
                self._dunder(a.name)
            self._flag(path)
            self.aliases[a.asname or a.name] = path

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        path = self.resolve(node.value)
        for t in node.targets:
            self.visit(t)
            self._bind(t, path)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.annotation)
        self._bind(node.target, self.resolve(node.value) if node.value is not None else None)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self._bind(node.target, self.resolve(node.value))

    def visit_withitem(self, node: ast.withitem) -> None:
        self.visit(node.context_expr)
        if node.optional_vars is not None:
            self._bind(node.optional_vars, self.resolve(node.context_expr))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._bind(ast.Name(node.name), None)
        self._check_name(node.name)
        for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            self._check_name(a.arg)
            self._bind(ast.Name(a.arg), None)  # a parameter named like a builtin shadows it
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._bind(ast.Name(node.name), None)
        self.generic_visit(node)

    # --- uses -------------------------------------------------------------------------------------------
    def _dunder(self, name: str) -> None:
        if name not in self.dunders:
            self.dunders.append(name)

    def _check_name(self, name: str) -> None:
        if name in FORBIDDEN_DUNDERS:
            self._dunder(name)

    def visit_Name(self, node: ast.Name) -> None:
        self._check_name(node.id)
        if isinstance(node.ctx, ast.Load):
            self._flag(self.resolve(node))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_name(node.attr)
        if isinstance(node.ctx, ast.Load):
            self._flag(self.resolve(node))
        self.visit(node.value)


def check_code(code: str) -> str | None:
    """None when the code may run, else the reason (without the "Execution blocked: " prefix)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None  # fails at execution with a proper error message
    except (RecursionError, MemoryError):
        return "the program is too deeply nested to be checked"
    checker = _Checker()
    try:
        checker.visit(tree)
    except RecursionError:
        return "the program is too deeply nested to be checked"
    reasons = []
    if checker.modules:
        reasons.append(f"Usage of the following module(s) is not allowed: {', '.join(checker.modules)}")
    if checker.functions:
        reasons.append(f"Usage of the following function(s) is not allowed: {', '.join(checker.functions)}")
    if checker.dunders:
        reasons.append(f"Access to the following attribute(s) is not allowed: {', '.join(checker.dunders)}")
    return "; ".join(reasons) or None


def blocked_message(code: str) -> str | None:
    """The reference's full message ("Execution blocked: <reason>") or None."""
    reason = check_code(code)
    return None if reason is None else f"Execution blocked: {reason}"
