"""Judges and their verdicts: the pass/fail of an episode per criterion, decided as the AND of the criteria; and
the parties the paper's judges judge (agent, user, UI), declared in the registry with their rubric criteria."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from mmtsb.protocol.registry import JudgedParty, register_judged_party

if TYPE_CHECKING:
    from mmtsb.protocol.evidence import EpisodeEvidence

#: what a judge judges: a registered JudgedParty name ("agent", "user", "ui" for the built-ins)
JudgeKind = str

#: the paper's rubric criteria (SPEC.md §6.4)
AGENT_CRITERIA = ("task_completion", "instruction_following", "tool_use_validity", "no_side_effects",
                  "information_accuracy")
USER_CRITERIA = ("request_fidelity", "conversational_naturalness", "grounded_consistency",
                 "tool_channel_correctness")
UI_CRITERIA = ("ui_task_focus", "ui_structure_and_patterns", "ui_action_clarity", "ui_feedback_and_flow")

register_judged_party(JudgedParty("agent", AGENT_CRITERIA, description="the agent's work (Agent SR)"))
register_judged_party(JudgedParty("user", USER_CRITERIA, description="the simulated user's fidelity (User SR)"))
register_judged_party(JudgedParty("ui", UI_CRITERIA, ui_only=True, optional_columns=True,
                                  description="the agent's interactive UI (UI SR, UI mode only)"))


@dataclass
class CriterionVerdict:
    criterion: str
    passed: bool
    analysis: str = ""
    evidence: str = ""


@dataclass
class JudgeVerdict:
    """A judge's decision. ``passed`` is always the AND of the criteria (never a model's own flag)."""

    kind: JudgeKind
    judge: str
    criteria: list[CriterionVerdict]
    reasoning: str = ""
    static: bool = False
    error: str | None = None
    prompt_version: str = "none"
    usage: dict[str, Any] = field(default_factory=dict)
    error_class: str | None = None    # with ``error``: its failure class (mmtsb.protocol.failures)

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.criteria) and all(c.passed for c in self.criteria)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["passed"] = self.passed
        return d


class Judge(ABC):
    """Judges one episode once."""

    kind: JudgeKind = "agent"
    name: str = "judge"

    @abstractmethod
    async def judge(self, evidence: "EpisodeEvidence") -> JudgeVerdict:
        """Decide from the episode's evidence."""

    async def close(self) -> None:
        """Release resources."""
