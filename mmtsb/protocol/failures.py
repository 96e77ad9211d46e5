"""Why an episode did not end the normal way: four failure classes, each handled differently.

- ``infrastructure``: transient (a provider's 429/5xx after the call's own retries, a timeout, a dropped
  connection, a malformed body, an actor or the provider gate dying). Retried within the run
  (``runner.max_infra_retries``) and replayed by a resumed run; left out of every agent metric.
- ``configuration``: the run's own settings or credentials (a 401/403, a 404 model id, a missing key, a 400
  the provider refuses every time, a judge or user model whose context is too small). Never retried: the run
  stops scheduling new episodes; a resumed run (after the fix) replays them. Left out of agent metrics.
- ``scenario``: the scenario file cannot be played (it does not load or build). Reported against the file,
  never retried or replayed; left out of agent metrics.
- ``agent``: the agent's own doing cut the episode short (its history outgrew its model's context). The
  episode is judged and scored like any other: it counts as an agent failure.

A row's class is its ``failure_class`` column; rows written before the column existed are classified from
``infra_failure``, ``end_reason`` and the error text (:func:`row_failure_class`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class FailureClass(StrEnum):
    INFRASTRUCTURE = "infrastructure"
    CONFIGURATION = "configuration"
    SCENARIO = "scenario"
    AGENT = "agent"


#: classes whose episodes are left out of Agent SR, Entity F1, User SR and the step counts
EXCLUDED = frozenset({FailureClass.INFRASTRUCTURE, FailureClass.CONFIGURATION, FailureClass.SCENARIO})
#: classes retried within a run (a fresh attempt of the whole episode)
RETRIED = frozenset({FailureClass.INFRASTRUCTURE})
#: classes whose recorded rows a resumed run plays again (the fix may be outside the run: a key, a quota)
REPLAYED_ON_RESUME = frozenset({FailureClass.INFRASTRUCTURE, FailureClass.CONFIGURATION})
#: the end reason of an episode the agent's own context overflow ended
CONTEXT_OVERFLOW = "context_overflow"


def exception_class(exc: BaseException, *, role: str | None = None) -> FailureClass:
    """The class of an exception that ended an episode (or a judge); ``role`` is who was acting when it was
    raised (``agent``, ``user``, ``judge``; None: not known)."""
    from mmtsb.llm.errors import LLMContextWindowError, LLMError
    from mmtsb.scenarios.loader import ScenarioError

    if isinstance(exc, ScenarioError):
        return FailureClass.SCENARIO
    if isinstance(exc, LLMContextWindowError):
        return FailureClass.AGENT if role == "agent" else FailureClass.CONFIGURATION
    if isinstance(exc, LLMError):
        return FailureClass.INFRASTRUCTURE if exc.retryable else FailureClass.CONFIGURATION
    return FailureClass.INFRASTRUCTURE


def row_failure_class(row: Mapping[str, Any]) -> FailureClass | None:
    """The failure class of a results row (None: the episode ended normally), older rows included."""
    value = row.get("failure_class")
    if value:
        try:
            return FailureClass(value)
        except ValueError:
            return FailureClass.INFRASTRUCTURE
    if row.get("infra_failure") or row.get("end_reason") == "error":
        error = str(row.get("error") or "")
        return FailureClass.SCENARIO if error.startswith("ScenarioError") else FailureClass.INFRASTRUCTURE
    if row.get("agent_judge_error"):   # no verdict: the episode cannot be scored
        return FailureClass.INFRASTRUCTURE
    return None


def is_excluded(row: Mapping[str, Any]) -> bool:
    """Whether a row is left out of the agent metrics (an infrastructure, configuration or scenario failure)."""
    return row_failure_class(row) in EXCLUDED


def replayed_on_resume(row: Mapping[str, Any]) -> bool:
    """Whether a resumed run plays this recorded episode again."""
    return row_failure_class(row) in REPLAYED_ON_RESUME


def count_by_class(rows: list[Mapping[str, Any]]) -> dict[str, int]:
    """{class: number of rows} over every class (zeros included, in the order of :class:`FailureClass`)."""
    counts = {c.value: 0 for c in FailureClass}
    for row in rows:
        if (cls := row_failure_class(row)) is not None:
            counts[cls.value] += 1
    return counts
