"""Per-round reference solutions: our extension of the scenario format, and the executor the oracle uses.

A scenario may carry ``metadata.reference_solution``::

    {"version": 1,
     "rounds": [{"round": 1,
                 "steps": [{"tool": "contacts_search_contacts", "arguments": {"query": "Glen"}, "save_as": "glen"},
                           {"tool": "gmail_send_email",
                            "arguments": {"email_addresses": ["$glen.0.email"], "subject": "...", "body": "..."}}],
                 "reply": "what the agent tells the user at the end of the round"}]}

An argument value that is a string starting with ``$`` is a *reference* to an earlier step's result:
``$name.path.to.field`` takes the result saved under ``name`` (``save_as``) and walks the dot path (an
integer segment indexes a list, any other segment is a dict key). Only a whole string is a reference (no
interpolation inside text); references may sit anywhere inside lists and dicts; ``$$`` at the start escapes
a literal dollar (``"$$12.50"`` is the text ``$12.50``). Saved names persist across rounds, as variables do
in a code-execution agent's interpreter.

A round may continue after the user's answer (UI mode: the agent shows a screen, replies, and acts once the
user has chosen on it)::

    {"round": 2, "steps": [..., {"tool": "render_ui_screen", ...}, {"tool": "show_ui_to_user"}],
     "reply": "Which Sarah? Pick one on the screen.",
     "after_user": {"ui_action_as": "picked",
                    "ui_action_fallback": {"name": "choose_contact", "context": {"email": "sarah.chen@x.com"}},
                    "steps": [{"tool": "gmail_send_email", "arguments": {"email_addresses": ["$picked.context.email"],
                                                                         ...}}],
                    "reply": "Sent to Sarah Chen."}}

Part 0 of a round is ``steps``/``reply``; part 1 is ``after_user``. When part 1 starts, the user's UI action
(the ``userAction`` the screen reported: ``name``, ``surfaceId``, ``sourceComponentId``, ``context``) is saved
under ``ui_action_as``; when the user answered in words instead, ``ui_action_fallback`` is saved in its place.

The oracle must prove a scenario solvable, so a failing step is a scenario bug: :class:`SolutionRunner`
raises :class:`SolutionError` naming the round, the step index and the tool. :meth:`SolutionRunner.to_python`
renders a round as Python lines (``name = tool(arg=...)``) for a code-execution agent.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

if TYPE_CHECKING:
    from mmtsb.scenarios.model import Scenario
    from mmtsb.tools.registry import ToolRegistry
    from mmtsb.tools.session import ToolOutcome, ToolSession

METADATA_KEY = "reference_solution"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INDEX = re.compile(r"^-?\d+$")


class SolutionError(RuntimeError):
    """A reference-solution step that cannot run or failed: a scenario bug.

    Attributes:
        round_number / step_index / tool: where it happened (step_index is 0-based; None for round-level
            problems).
        reason: what went wrong.
    """

    def __init__(self, reason: str, *, round_number: int | None = None, step_index: int | None = None,
                 tool: str | None = None) -> None:
        self.reason = reason
        self.round_number = round_number
        self.step_index = step_index
        self.tool = tool
        where = "reference solution"
        if round_number is not None:
            where += f", round {round_number}"
        if step_index is not None:
            where += f", step {step_index}"
        if tool:
            where += f" ({tool})"
        super().__init__(f"{where}: {reason}")


# ------------------------------------------------------------------------------------------ references
class Reference:
    """A parsed ``$name.path`` reference."""

    __slots__ = ("name", "path")

    def __init__(self, name: str, path: tuple[str, ...]) -> None:
        self.name = name
        self.path = path

    def __repr__(self) -> str:
        return "$" + ".".join((self.name, *self.path))


def parse_reference(text: str) -> Reference | None:
    """The reference a string denotes, or None for plain text (including ``$$`` escapes).

    Raises:
        ValueError: the string starts with a single ``$`` but is not a valid reference.
    """
    if not text.startswith("$") or text.startswith("$$"):
        return None
    name, *path = text[1:].split(".")
    if not _NAME.match(name) or any(seg == "" for seg in path):
        raise ValueError(f"{text!r} starts with '$' but is not a reference '$name.path.to.field' (name: a Python "
                         "identifier; segments: keys or list indices, separated by dots); write '$$' for a "
                         "literal dollar")
    return Reference(name, tuple(path))


def literal_text(text: str) -> str:
    """A plain string argument as the tool receives it (``$$`` -> ``$``)."""
    return text[1:] if text.startswith("$$") else text


def iter_references(value: Any) -> list[Reference]:
    """Every reference inside an argument value (lists and dicts are walked)."""
    if isinstance(value, str):
        ref = parse_reference(value)
        return [ref] if ref else []
    if isinstance(value, list):
        return [r for v in value for r in iter_references(v)]
    if isinstance(value, dict):
        return [r for v in value.values() for r in iter_references(v)]
    return []


def walk_path(value: Any, path: tuple[str, ...], ref: Reference) -> Any:
    """Follow ``path`` into a saved result; ValueError names the segment that does not fit."""
    current = value
    for depth, seg in enumerate(path):
        shown = "$" + ".".join((ref.name, *path[:depth]))
        if isinstance(current, (list, tuple)):
            if not _INDEX.match(seg):
                raise ValueError(f"{shown} is a list of {len(current)}; segment {seg!r} must be an integer index")
            i = int(seg)
            if not -len(current) <= i < len(current):
                raise ValueError(f"{shown} is a list of {len(current)}; index {i} is out of range")
            current = current[i]
        elif isinstance(current, Mapping):
            if seg in current:
                current = current[seg]
            elif _INDEX.match(seg) and int(seg) in current:
                current = current[int(seg)]
            else:
                keys = ", ".join(map(str, list(current)[:12]))
                raise ValueError(f"{shown} has no key {seg!r}; its keys are: {keys}")
        elif hasattr(current, seg) and not seg.startswith("_"):
            current = getattr(current, seg)
        else:
            raise ValueError(f"{shown} is {type(current).__name__} {current!r:.80}; cannot take {seg!r}")
    return current


# ------------------------------------------------------------------------------------------ the model
class SolutionStep(BaseModel):
    """One tool call of a reference solution."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    save_as: str | None = None

    @field_validator("save_as")
    @classmethod
    def _identifier(cls, v: str | None) -> str | None:
        if v is not None and (not _NAME.match(v) or keyword.iskeyword(v)):
            raise ValueError(f"save_as {v!r} must be a Python identifier (it becomes a variable in rendered code)")
        return v

    @field_validator("arguments")
    @classmethod
    def _references_parse(cls, v: dict[str, Any]) -> dict[str, Any]:
        for name, value in v.items():
            try:
                iter_references(value)
            except ValueError as e:
                raise ValueError(f"argument {name!r}: {e}") from None
        return v


class SolutionFollowup(BaseModel):
    """What the agent does in the same round after the user's answer (e.g. a choice made on a UI screen)."""

    model_config = ConfigDict(extra="forbid")

    steps: list[SolutionStep] = Field(default_factory=list)
    reply: str = ""
    #: the name the user's UI action is saved under (a ``$name`` reference for these steps)
    ui_action_as: str | None = None
    #: saved under ``ui_action_as`` when the user answered in words (no UI interaction reached the agent)
    ui_action_fallback: dict[str, Any] | None = None

    @field_validator("ui_action_as")
    @classmethod
    def _identifier(cls, v: str | None) -> str | None:
        if v is not None and (not _NAME.match(v) or keyword.iskeyword(v)):
            raise ValueError(f"ui_action_as {v!r} must be a Python identifier")
        return v

    @model_validator(mode="after")
    def _fallback_given(self) -> SolutionFollowup:
        if self.ui_action_as and self.ui_action_fallback is None:
            raise ValueError("ui_action_fallback is required with ui_action_as (the value saved when the user "
                             "answers in words)")
        return self


class SolutionRound(BaseModel):
    """The steps that solve one user round, and the agent's closing reply (plus, optionally, what it does
    after the user's answer within the round)."""

    model_config = ConfigDict(extra="forbid")

    round: int = Field(ge=1)
    steps: list[SolutionStep] = Field(default_factory=list)
    reply: str = ""
    after_user: SolutionFollowup | None = None

    def part(self, index: int) -> SolutionRound | SolutionFollowup:
        """Part 0 (``steps``/``reply``) or part 1 (``after_user``)."""
        if index == 0:
            return self
        if index == 1 and self.after_user is not None:
            return self.after_user
        raise SolutionError(f"no part {index}; the round has {self.parts} part(s)", round_number=self.round)

    @property
    def parts(self) -> int:
        return 1 if self.after_user is None else 2


class ReferenceSolution(BaseModel):
    """``metadata.reference_solution``: per-round tool steps that reach the expected final state."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    rounds: list[SolutionRound] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> ReferenceSolution:
        numbers = [r.round for r in self.rounds]
        if numbers != sorted(set(numbers)):
            raise ValueError(f"rounds must be listed once each in increasing order; got {numbers}")
        saved: set[str] = set()
        for r in self.rounds:
            for part in range(r.parts):
                body = r.part(part)
                if isinstance(body, SolutionFollowup) and body.ui_action_as:
                    saved.add(body.ui_action_as)
                where = f"round {r.round}" + (", after_user" if part else "")
                for i, step in enumerate(body.steps):
                    for name, value in step.arguments.items():
                        for ref in iter_references(value):
                            if ref.name not in saved:
                                known = ", ".join(sorted(saved)) or "none yet"
                                raise ValueError(f"{where}, step {i} ({step.tool}), argument {name!r}: {ref!r} "
                                                 f"names no earlier save_as (saved so far: {known})")
                    if step.save_as:
                        saved.add(step.save_as)
        return self

    @classmethod
    def from_data(cls, data: Any) -> ReferenceSolution:
        """Validate raw JSON; SolutionError lists every problem with its field path."""
        if isinstance(data, ReferenceSolution):
            return data
        try:
            return cls.model_validate(data)
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, err['loc'])) or '(solution)'}: {err['msg']}"
                                 for err in e.errors())
            raise SolutionError(problems) from None

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> ReferenceSolution | None:
        """The solution stored in a scenario's metadata, or None when it has none."""
        data = (scenario.metadata.model_extra or {}).get(METADATA_KEY)
        return None if data is None else cls.from_data(data)

    @property
    def round_numbers(self) -> list[int]:
        return [r.round for r in self.rounds]

    def round(self, number: int) -> SolutionRound:
        for r in self.rounds:
            if r.round == number:
                return r
        raise SolutionError(f"no steps for this round; the solution covers rounds {self.round_numbers}",
                            round_number=number)

    def tools(self) -> list[str]:
        """Tool names in order of first use."""
        return list(dict.fromkeys(s.tool for r in self.rounds for p in range(r.parts) for s in r.part(p).steps))

    def problems(self, registry: ToolRegistry) -> list[str]:
        """Static checks against a toolbox: unknown tools, unknown or missing parameters."""
        out = []
        for r in self.rounds:
            for i, step in [(i, st) for p in range(r.parts) for i, st in enumerate(r.part(p).steps)]:
                where = f"round {r.round}, step {i} ({step.tool})"
                if step.tool not in registry:
                    out.append(f"{where}: unknown tool")
                    continue
                spec = registry.get(step.tool)
                unknown = [k for k in step.arguments if spec.param(k) is None]
                missing = [p.name for p in spec.params if p.required and p.name not in step.arguments]
                if unknown:
                    out.append(f"{where}: unknown parameter(s) {unknown}; its parameters are {spec.param_names}")
                if missing:
                    out.append(f"{where}: missing required parameter(s) {missing}")
        return out


# ------------------------------------------------------------------------------------------ the executor
class SolutionRunner:
    """Executes a reference solution round by round through a ToolSession, keeping saved results.

    A tool-use oracle that must emit one call per model turn can drive the same logic step by step with
    :meth:`arguments_for` and :meth:`record`; :meth:`run_round` does both for a whole round.
    """

    def __init__(self, solution: ReferenceSolution | Mapping[str, Any]) -> None:
        self.solution = ReferenceSolution.from_data(solution)
        self.saved: dict[str, Any] = {}

    # -- step-level API (``part`` 1 is a round's ``after_user`` continuation)
    def steps(self, round_number: int, part: int = 0) -> list[SolutionStep]:
        return self.solution.round(round_number).part(part).steps

    def reply(self, round_number: int, part: int = 0) -> str:
        return self.solution.round(round_number).part(part).reply

    def parts(self, round_number: int) -> int:
        """1, or 2 when the round continues after the user's answer."""
        return self.solution.round(round_number).parts

    def accept_ui_action(self, round_number: int, action: Mapping[str, Any] | None) -> Any:
        """Start part 1 of a round: save the user's UI action (or the round's fallback when the user answered
        in words) under ``ui_action_as``; returns the saved value (None when the round names none)."""
        follow = self.solution.round(round_number).after_user
        if follow is None or not follow.ui_action_as:
            return None
        value = dict(action) if action is not None else dict(follow.ui_action_fallback or {})
        self.saved[follow.ui_action_as] = value
        return value

    def ui_action_name(self, round_number: int) -> str | None:
        follow = self.solution.round(round_number).after_user
        return follow.ui_action_as if follow is not None else None

    def arguments_for(self, round_number: int, step_index: int, part: int = 0) -> dict[str, Any]:
        """The step's arguments with every reference replaced by the saved value it names."""
        step = self._step(round_number, step_index, part)
        try:
            return {k: self.resolve(v) for k, v in step.arguments.items()}
        except ValueError as e:
            raise SolutionError(str(e), round_number=round_number, step_index=step_index, tool=step.tool) from None

    def record(self, round_number: int, step_index: int, outcome: ToolOutcome, part: int = 0) -> None:
        """Accept a step's outcome: raise SolutionError if it failed, else save its value under ``save_as``."""
        step = self._step(round_number, step_index, part)
        if not outcome.ok:
            raise SolutionError(f"the tool call failed: {outcome.error} (arguments: {outcome.arguments})",
                                round_number=round_number, step_index=step_index, tool=step.tool)
        if step.save_as:
            self.saved[step.save_as] = outcome.value

    def resolve(self, value: Any) -> Any:
        """An argument value with references replaced (ValueError for unknown names or bad paths)."""
        if isinstance(value, str):
            ref = parse_reference(value)
            if ref is None:
                return literal_text(value)
            if ref.name not in self.saved:
                known = ", ".join(sorted(self.saved)) or "none"
                raise ValueError(f"{ref!r}: nothing saved as {ref.name!r} yet (saved: {known})")
            return walk_path(self.saved[ref.name], ref.path, ref)
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        return value

    # -- round-level API
    def run_round(self, session: ToolSession, round_number: int,
                  ui_action: Mapping[str, Any] | None = None) -> list[ToolOutcome]:
        """Execute every step of a round in order (both parts; ``ui_action`` stands for the user's UI action
        between them, else the round's fallback); the outcomes, or SolutionError at the first failure."""
        outcomes = []
        for part in range(self.parts(round_number)):
            if part == 1:
                self.accept_ui_action(round_number, ui_action)
            for i, step in enumerate(self.steps(round_number, part)):
                outcome = session.call(step.tool, self.arguments_for(round_number, i, part))
                self.record(round_number, i, outcome, part)
                outcomes.append(outcome)
        return outcomes

    def run(self, session: ToolSession) -> dict[int, list[ToolOutcome]]:
        """Execute every round in order."""
        return {n: self.run_round(session, n) for n in self.solution.round_numbers}

    def to_python(self, round_number: int, part: int = 0) -> str:
        """The round's steps as Python lines for a code-execution agent (no trailing newline; empty for a
        round without steps). Saved names become variables, so later rounds must run in the same namespace.
        Part 1 starts by assigning the saved UI action (see :meth:`accept_ui_action`) to its name."""
        lines = []
        name = self.ui_action_name(round_number) if part == 1 else None
        if name and name in self.saved:
            lines.append(f"{name} = {self.saved[name]!r}")
        for step in self.steps(round_number, part):
            args = ", ".join(f"{k}={render_value(v)}" for k, v in step.arguments.items())
            call = f"{step.tool}({args})"
            lines.append(f"{step.save_as} = {call}" if step.save_as else call)
        return "\n".join(lines)

    def _step(self, round_number: int, step_index: int, part: int = 0) -> SolutionStep:
        steps = self.steps(round_number, part)
        if not 0 <= step_index < len(steps):
            raise SolutionError(f"no step {step_index}; the round has {len(steps)} step(s)",
                                round_number=round_number)
        return steps[step_index]


class ToolCallFailed(RuntimeError):
    """A tool called from in-process Python (:func:`tool_functions`) returned an error."""


def tool_functions(session: ToolSession) -> dict[str, Callable[..., Any]]:
    """Every tool of the session as a plain Python function (keyword arguments; raises ToolCallFailed on a
    failed call): an in-process stand-in for the sandbox's tool proxies, to execute :meth:`to_python` output
    without a sandbox (e.g. to check that a rendered solution behaves like :meth:`run_round`)."""

    def bind(name: str) -> Callable[..., Any]:
        def call(**kwargs: Any) -> Any:
            outcome = session.call(name, kwargs)
            if not outcome.ok:
                raise ToolCallFailed(f"{name}: {outcome.error}")
            return outcome.value

        call.__name__ = name
        return call

    return {name: bind(name) for name in session.registry.names()}


def render_value(value: Any) -> str:
    """A Python expression for an argument value: literals via repr, references as subscripts."""
    if isinstance(value, str):
        ref = parse_reference(value)
        if ref is None:
            return repr(literal_text(value))
        return ref.name + "".join(f"[{int(seg)}]" if _INDEX.match(seg) else f"[{seg!r}]" for seg in ref.path)
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {render_value(v)}" for k, v in value.items()) + "}"
    return repr(value)
