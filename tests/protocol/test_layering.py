"""The episode and the roles depend on mmtsb.protocol, never on each other: the episode reaches concrete roles
only through the role factory (mmtsb/episode/play.py), and the protocol imports neither."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "mmtsb"


def imported_modules(folder: str) -> dict[str, set[str]]:
    """Every mmtsb module each file of ``folder`` imports (module-level and inside functions)."""
    out: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        out[str(path.relative_to(PACKAGE))] = {n for n in names if n.startswith("mmtsb.")}
    return out


def offenders(folder: str, forbidden: tuple[str, ...], allowed: dict[str, set[str]] | None = None) -> list[str]:
    allowed = allowed or {}
    return [f"{file} imports {name}" for file, names in imported_modules(folder).items() for name in sorted(names)
            if name.startswith(forbidden) and name not in allowed.get(file, set())]


def test_the_roles_never_import_the_episode_package():
    assert offenders("roles", ("mmtsb.episode",)) == []


def test_the_episode_reaches_roles_only_through_the_factory():
    assert offenders("episode", ("mmtsb.roles",), {"episode/play.py": {"mmtsb.roles.factory"}}) == []


def test_the_protocol_imports_neither_the_episode_nor_the_roles():
    assert offenders("protocol", ("mmtsb.episode", "mmtsb.roles", "mmtsb.runner", "mmtsb.config")) == []
