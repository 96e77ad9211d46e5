"""Offline judges that decide from state, not from a model: a static approximation of the rubric judges.

They assess only what can be checked deterministically and say so in every verdict: criteria that need
reading the conversation (paraphrase quality, naturalness, factual accuracy of replies) are left out
rather than passed by default.
"""

from __future__ import annotations

from mmtsb.episode.evidence import EpisodeEvidence
from mmtsb.roles.judges.base import CriterionVerdict, Judge, JudgeVerdict

NOTE = ("Static approximation (no model): decided from the entity diff, tool errors, side effects and "
        "deterministic delivery checks; criteria that need reading the conversation are not assessed.")
INVALID_USE = ("UnknownToolError", "ArgumentError", "PermissionError")


class StaticAgentJudge(Judge):
    kind = "agent"
    name = "static"

    def __init__(self, f1_threshold: float = 1.0) -> None:
        self.f1_threshold = f1_threshold

    async def judge(self, evidence: EpisodeEvidence) -> JudgeVerdict:
        ed = evidence.entity_diff
        f1 = ed.f1 if ed is not None else 0.0
        unexpected = list(ed.unexpected_writes) if ed is not None else []
        invalid = [m for m in evidence.tool_errors() if str(m.meta.get("error_type")) in INVALID_USE]
        ended_by_user = evidence.end_reason == "user_ended"
        criteria = [
            CriterionVerdict("task_completion", f1 >= self.f1_threshold,
                             f"Entity F1 = {f1:.3f} (threshold {self.f1_threshold})."),
            CriterionVerdict("instruction_following", ended_by_user,
                             f"The episode ended with {evidence.end_reason!r}; every scripted round must be "
                             "answered and the user must close the conversation."),
            CriterionVerdict("tool_use_validity", not invalid,
                             f"{len(invalid)} call(s) used an unknown tool, invalid arguments or a tool not "
                             "available to the agent.",
                             "; ".join(m.content[:200] for m in invalid[:5])),
            CriterionVerdict("no_side_effects", not unexpected,
                             f"{len(unexpected)} unexpected write(s) outside the expected tables.",
                             "; ".join(str(u) for u in unexpected[:10])),
        ]
        return JudgeVerdict("agent", self.name, criteria, reasoning=NOTE, static=True)


class StaticUserJudge(Judge):
    kind = "user"
    name = "static"

    async def judge(self, evidence: EpisodeEvidence) -> JudgeVerdict:
        queries = evidence.query_delivery_check()
        images = evidence.image_delivery_check()
        undelivered = [q for q in queries if q["status"] == "NOT delivered"]
        criteria = [
            CriterionVerdict("request_fidelity", not undelivered,
                             f"{len(queries) - len(undelivered)}/{len(queries)} scripted queries delivered.",
                             str(undelivered)),
            CriterionVerdict("tool_channel_correctness", not images["missing"],
                             f"Scripted image ids {images['expected']}; missing {images['missing']}."),
        ]
        return JudgeVerdict("user", self.name, criteria, reasoning=NOTE, static=True)
