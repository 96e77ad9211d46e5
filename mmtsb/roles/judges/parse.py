"""Robust parsing of a rubric judge's JSON verdict.

Why: the reference extracts JSON with one regex and counts any failure as a silent "fail" (SPEC §9.9).
Here a reply is read tolerantly (a fenced block, the outermost balanced braces, trailing prose, single
quotes, trailing commas, Python literals), then checked strictly against the rubric: every criterion must
be present exactly once with an unambiguous pass flag, and unknown criteria are rejected. Anything else
raises :class:`VerdictParseError` with a message precise enough to send back to the model for a repair.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mmtsb.protocol.judges import CriterionVerdict

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n?(.*?)```", re.DOTALL)
_TRUE = {"true", "pass", "passed", "yes", "y", "1", "ok"}
_FALSE = {"false", "fail", "failed", "no", "n", "0"}
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_PYTHON_LITERALS = {"True": "true", "False": "false", "None": "null"}


class VerdictParseError(ValueError):
    """The reply is not a usable verdict; the message says exactly what is wrong."""


@dataclass
class ParsedVerdict:
    """A verdict read from a model reply: one entry per rubric criterion, in rubric order."""

    criteria: list[CriterionVerdict]
    reasoning: str = ""
    model_overall: bool | None = None          # the model's own overall flag, kept only for auditing
    notes: list[str] = field(default_factory=list)  # tolerances applied while reading


# ---------------------------------------------------------------------------------------------- JSON text
def candidate_texts(text: str) -> list[str]:
    """Places a JSON object may be in ``text``, most specific first: fenced blocks (json-tagged first),
    the outermost balanced ``{...}`` spans, then the whole text."""
    fenced = [(m.group(1).lower(), m.group(2).strip()) for m in _FENCE.finditer(text)]
    ordered = [body for tag, body in fenced if tag == "json"] + [body for tag, body in fenced if tag != "json"]
    spans = _balanced_objects(text)
    spans.sort(key=len, reverse=True)
    out: list[str] = []
    for c in [*ordered, *spans, text.strip()]:
        if c and c not in out:
            out.append(c)
    return out


def _balanced_objects(text: str) -> list[str]:
    """Every top-level balanced ``{...}`` span of ``text`` (braces inside strings are ignored; an
    unbalanced tail yields nothing)."""
    spans: list[str] = []
    depth, start, quote, escaped = 0, -1, "", False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch == '"' or (ch == "'" and depth > 0 and _opens_single_quoted(text, i)):
            if depth > 0:
                quote = ch
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start:i + 1])
    return spans


def _opens_single_quoted(text: str, i: int) -> bool:
    """A ``'`` starts a string only where a JSON value or key may start (so apostrophes in prose or in
    double-quoted text do not derail the scan)."""
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return j >= 0 and text[j] in "{[,:"


def loads_tolerant(text: str) -> tuple[Any, list[str]]:
    """``json.loads``, then the same after normalising single quotes, trailing commas and Python
    literals. Returns (value, notes about the tolerances used); raises ValueError when nothing works."""
    try:
        return json.loads(text), []
    except json.JSONDecodeError as first:
        normalised = _normalise(text)
        try:
            return json.loads(normalised), ["non-standard JSON was normalised (quotes, trailing commas or literals)"]
        except json.JSONDecodeError:
            raise ValueError(f"not valid JSON: {first.msg} at line {first.lineno} column {first.colno}") from None


def _normalise(text: str) -> str:
    """Rewrite JSON-ish text: single-quoted strings -> double-quoted, trailing commas dropped,
    True/False/None -> true/false/null (all outside strings only)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i, '"')
            out.append(text[i:end])
            i = end
        elif ch == "'":
            end = _string_end(text, i, "'")
            body = text[i + 1:end - 1].replace("\\'", "'")
            out.append(json.dumps(_unescape(body)))
            i = end
        elif ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "}]":
                i += 1  # trailing comma
            else:
                out.append(ch)
                i += 1
        elif ch.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            out.append(_PYTHON_LITERALS.get(word, word))
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int, quote: str) -> int:
    """Index just past the string that opens at ``start`` (the text's end if it never closes)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)


def _unescape(body: str) -> str:
    try:
        return json.loads(f'"{body}"')
    except json.JSONDecodeError:
        return body


def extract_json_object(text: str) -> tuple[dict[str, Any], list[str]]:
    """The first candidate in ``text`` that reads as a JSON object (see :func:`candidate_texts`)."""
    if not text or not text.strip():
        raise VerdictParseError("the reply is empty; expected one JSON object")
    errors: list[str] = []
    for candidate in candidate_texts(text):
        try:
            value, notes = loads_tolerant(candidate)
        except ValueError as e:
            errors.append(str(e))
            continue
        if isinstance(value, dict):
            return value, notes
        errors.append(f"found JSON of type {type(value).__name__}, expected an object")
    detail = errors[0] if errors else "no JSON object found"
    if "{" not in text:
        detail = "the reply contains no '{' at all"
    elif not _balanced_objects(text):
        detail = "the JSON object is not closed (unbalanced braces; the reply may have been cut off)"
    raise VerdictParseError(f"could not read a JSON object from the reply: {detail}")


# ---------------------------------------------------------------------------------------------- verdict
def normalise_criterion(name: Any) -> str:
    """``"Task Completion"`` / ``"task-completion"`` -> ``"task_completion"``."""
    return re.sub(r"[^a-z0-9]+", "_", str(name).strip().lower()).strip("_")


def read_flag(value: Any, where: str) -> bool:
    """A pass flag: a bool, or an unambiguous string/number ("pass", "fail", "true", 0/1)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        v = value.strip().lower()
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
    raise VerdictParseError(f"{where}: 'pass' must be true or false, got {value!r}")


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _items(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The criteria list; a mapping ``{criterion: {...}}`` is accepted as well."""
    raw = data.get("criteria_evaluation", data.get("criteria"))
    if raw is None:
        raise VerdictParseError("the JSON object has no 'criteria_evaluation' list")
    if isinstance(raw, dict):
        raw = [{"criterion": k, **(v if isinstance(v, dict) else {"pass": v})} for k, v in raw.items()]
    if not isinstance(raw, list):
        raise VerdictParseError(f"'criteria_evaluation' must be a list, got {type(raw).__name__}")
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise VerdictParseError(f"criteria_evaluation[{i}] must be an object, got {type(item).__name__}")
    return raw


def verdict_from_data(data: dict[str, Any], criteria: Sequence[str]) -> ParsedVerdict:
    """Check a decoded object against the rubric's criteria (all present once, none unknown)."""
    wanted = list(criteria)
    found: dict[str, CriterionVerdict] = {}
    unknown: list[str] = []
    for i, item in enumerate(_items(data)):
        name = normalise_criterion(item.get("criterion", item.get("name", "")))
        if not name:
            raise VerdictParseError(f"criteria_evaluation[{i}] has no 'criterion' name")
        if name not in wanted:
            unknown.append(name)
            continue
        flag_key = next((k for k in ("pass", "passed", "result") if k in item), None)
        if flag_key is None:
            raise VerdictParseError(f"criteria_evaluation[{i}] ({name}) has no 'pass' field")
        verdict = CriterionVerdict(name, read_flag(item[flag_key], f"criteria_evaluation[{i}] ({name})"),
                                   _as_text(item.get("analysis")), _as_text(item.get("evidence")))
        if name in found and found[name].passed != verdict.passed:
            raise VerdictParseError(f"criterion {name!r} appears twice with different 'pass' values")
        found.setdefault(name, verdict)
    problems = []
    if unknown:
        problems.append(f"unknown criteria {sorted(set(unknown))} (the rubric's criteria are {wanted})")
    missing = [c for c in wanted if c not in found]
    if missing:
        problems.append(f"missing criteria {missing}; every one of {wanted} needs an entry")
    if problems:
        raise VerdictParseError("; ".join(problems))
    overall = None
    for key in ("result", "pass", "passed", "overall"):
        if key in data:
            try:
                overall = read_flag(data[key], key)
            except VerdictParseError:
                overall = None
            break
    return ParsedVerdict([found[c] for c in wanted], _as_text(data.get("reasoning")), overall)


def strip_thinking(text: str) -> str:
    """Drop ``<think>...</think>`` blocks (reasoning models served without a reasoning parser); an
    unclosed block before a closing tag keeps only what follows the last ``</think>``."""
    text = _THINK.sub("", text)
    if "</think>" in text:
        text = text.rsplit("</think>", 1)[1]
    return text


def parse_verdict(text: str | None, criteria: Sequence[str]) -> ParsedVerdict:
    """Read a model reply into a verdict for ``criteria``; raises VerdictParseError saying why not.

    Every JSON object in the reply is tried (fenced blocks first, then the largest spans); the first one
    that is a complete verdict wins. Otherwise the error of the most verdict-like object is raised."""
    text = strip_thinking(text or "")
    extract_json_object(text)  # raises a precise error when the reply holds no JSON object at all
    errors: list[tuple[bool, VerdictParseError]] = []
    for candidate in candidate_texts(text):
        try:
            value, notes = loads_tolerant(candidate)
        except ValueError:
            continue
        if not isinstance(value, dict):
            continue
        try:
            parsed = verdict_from_data(value, criteria)
        except VerdictParseError as e:
            errors.append(("criteria_evaluation" in value or "criteria" in value, e))
            continue
        parsed.notes.extend(notes)
        return parsed
    verdict_like = [e for like, e in errors if like]
    raise (verdict_like or [e for _, e in errors] or [VerdictParseError("no JSON object is a verdict")])[0]
