"""Reading scenario files with precise errors (file, field path, what is wrong)."""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Iterable

from pydantic import ValidationError

from mmtsb.scenarios.model import Scenario


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``problems`` holds one precise message per issue."""

    def __init__(self, file: str | Path, problems: list[str]) -> None:
        self.file = str(file)
        self.problems = problems
        super().__init__(f"{file}: " + "; ".join(problems))


def _field_path(loc: Iterable[object]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(file)"


def validation_problems(err: ValidationError) -> list[str]:
    """One readable message per pydantic error: ``field.path: message (got value)``."""
    problems = []
    for e in err.errors():
        where = _field_path(e.get("loc", ()))
        got = e.get("input")
        shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
        if len(shown) > 80:
            shown = shown[:77] + "..."
        msg = e.get("msg", "invalid")
        problems.append(f"{where}: {msg}" + ("" if e.get("type") == "missing" else f" (got {shown})"))
    return problems


def parse_scenario(data: object, file: str | Path = "<memory>") -> Scenario:
    """Validate already-decoded JSON as a scenario."""
    if not isinstance(data, dict):
        raise ScenarioError(file, [f"(file): a scenario must be a JSON object, got {type(data).__name__}"])
    try:
        return Scenario.model_validate(data)
    except ValidationError as e:
        raise ScenarioError(file, validation_problems(e)) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate one scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(p, [f"cannot read file: {e.strerror or e}"]) from None
    except UnicodeDecodeError as e:
        raise ScenarioError(p, [f"(file): not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start})"]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(p, [f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}"]) from None
    except RecursionError:
        raise ScenarioError(p, ["(file): JSON nested too deeply to read"]) from None
    try:
        return parse_scenario(data, p)
    except RecursionError:
        raise ScenarioError(p, ["(file): nested too deeply to validate"]) from None


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and every ``*.json`` inside given directories (sorted)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(p.rglob("*.json")))
        else:
            out.append(p)
    return out
