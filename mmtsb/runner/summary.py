"""The run summary (``summary.json``): the paper's headline metrics over a run's episode rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mmtsb.protocol.failures import FailureClass, count_by_class, is_excluded
from mmtsb.runner.rows import role_keys


@dataclass
class RunSummary:
    n_episodes: int
    agent_sr: float | None
    user_sr: float | None
    entity_f1: float | None
    avg_steps: float | None                    # the paper's: agent + user messages per episode, capped at 100
    infra_failures: int
    duration_s: float
    total_tokens: int = 0
    cost_usd: float = 0.0
    tokens_by_role: dict[str, int] = field(default_factory=dict)
    cost_by_role: dict[str, float] = field(default_factory=dict)
    retried_episodes: int = 0                  # episodes that needed more than one attempt (infra retries)
    ui_sr: float | None = None                 # UI mode: share of UI-judged episodes whose UI judge passed
    #: this execution's phases (seconds): starting Ray and the actors (their warm-up included), and playing:
    #: from the first episode submitted to the last result row durable in episodes.parquet (None: nothing played)
    startup_s: float | None = None
    play_s: float | None = None
    #: rows per failure class (mmtsb.protocol.failures); ``infra_failures`` counts the infrastructure class only
    failures: dict[str, int] = field(default_factory=dict)
    not_evaluated: int = 0                     # rows left out of agent metrics (every class but ``agent``)
    #: usage of attempts thrown away by in-run retries (already inside total_tokens and cost_usd)
    earlier_attempts_tokens: int = 0
    earlier_attempts_cost_usd: float = 0.0
    failed_calls: int = 0                      # failed model-call attempts, over every role and attempt
    stopped: str | None = None                 # why the run stopped early (a configuration failure), else None
    not_played: int = 0                        # episodes left unplayed by that stop (a resume plays them)
    avg_agent_steps: float | None = None       # ours: the agent's actions per episode
    cost_known: bool = True                    # False: some calls' prices were unknown (counted as 0 in cost_usd)
    #: which of the agent judge's criteria Agent SR covers (the static judge cannot assess information accuracy)
    agent_sr_note: str | None = None
    #: selected scenario files that failed validation (``invalid_scenarios.json``): reported, never played
    invalid_scenarios: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        if out["ui_sr"] is None:  # only runs with UI-judged episodes report a UI SR
            del out["ui_sr"]
        return out


def agent_sr_note(rows: list[dict[str, Any]]) -> str | None:
    """What Agent SR means when its judge did not assess all five criteria (the static judge assesses four:
    information accuracy needs a model); None when every judged episode was judged on all five."""
    judged = [r for r in rows if r.get("agent_pass") is not None]
    partial = [r for r in judged if r.get("agent_information_accuracy") is None]
    if not partial:
        return None
    share = "" if len(partial) == len(judged) else f" for {len(partial)} of {len(judged)} judged episodes"
    return (f"Agent SR over 4 of the 5 criteria{share}: the static judge does not assess information_accuracy "
            "(it needs a model judge, e.g. judge=claude_4_5_sonnet as in the paper)")


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(rows: list[dict[str, Any]], duration_s: float = 0.0) -> RunSummary:
    """Paper metrics over episode rows; infrastructure failures are counted apart, never as agent failures."""
    ok = [r for r in rows if not is_excluded(r)]
    tokens = {role: sum(int(r.get(f"{role}_total_tokens") or 0) for r in rows) for role in role_keys()}
    cost = {role: round(sum(float(r.get(f"{role}_cost_usd") or 0.0) for r in rows), 6) for role in role_keys()}
    earlier_tokens = sum(int(r.get("earlier_attempts_total_tokens") or 0) for r in rows)
    earlier_cost = round(sum(float(r.get("earlier_attempts_cost_usd") or 0.0) for r in rows), 6)
    failures = count_by_class(rows)
    return RunSummary(
        n_episodes=len(rows),
        agent_sr=_mean([float(r["agent_pass"]) for r in ok if r.get("agent_pass") is not None]),
        user_sr=_mean([float(r["user_pass"]) for r in ok if r.get("user_pass") is not None]),
        entity_f1=_mean([r["entity_f1"] for r in ok if r.get("entity_f1") is not None]),
        avg_steps=_mean([r["steps"] for r in ok if r.get("steps") is not None]),
        infra_failures=failures[FailureClass.INFRASTRUCTURE],
        duration_s=round(duration_s, 3),
        total_tokens=sum(tokens.values()) + earlier_tokens,
        cost_usd=round(sum(cost.values()) + earlier_cost, 6),
        tokens_by_role=tokens,
        cost_by_role=cost,
        retried_episodes=sum(1 for r in rows if int(r.get("attempts") or 1) > 1),
        ui_sr=_mean([float(r["ui_pass"]) for r in ok if r.get("ui_pass") is not None]),
        failures=failures,
        not_evaluated=len(rows) - len(ok),
        earlier_attempts_tokens=earlier_tokens,
        earlier_attempts_cost_usd=earlier_cost,
        cost_known=all(r.get(f"{role}_cost_known", True) is not False for r in rows for role in role_keys()),
        agent_sr_note=agent_sr_note(ok),
        avg_agent_steps=_mean([r["agent_steps"] for r in ok if r.get("agent_steps") is not None]),
        failed_calls=sum(int(r.get(f"{role}_failed_calls") or 0) for r in rows for role in role_keys())
        + sum(int(r.get("earlier_attempts_failed_calls") or 0) for r in rows),
    )
