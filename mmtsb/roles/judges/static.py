"""Offline judges that decide from state, not from a model: a static approximation of the rubric judges.

They assess only what can be checked deterministically and say so in every verdict: criteria that need
reading the conversation (paraphrase quality, naturalness, factual accuracy of replies) are left out
rather than passed by default.
"""

from __future__ import annotations

import re

from mmtsb.protocol.evidence import EpisodeEvidence
from mmtsb.protocol.judges import CriterionVerdict, Judge, JudgeVerdict
from mmtsb.protocol.registry import JudgeBackend, RoleRequest, judge, register_judge_backend

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


UI_NOTE = ("Static approximation (no model): decided from the rendered screens' structure (component counts, "
           "depth, buttons, repeated items), what was shown to the user and the user's UI interactions; visual "
           "quality and wording are not assessed.")


def text_dump(s: dict) -> bool:
    """The hard anti-pattern: a shallow screen (depth <= 2) of Text alone."""
    return bool(s.get("text_only")) and int(s.get("depth") or 0) <= 2


def single_button_for_items(s: dict) -> bool:
    """The hard anti-pattern: N >= 2 repeated items but one button and no selection input to pick among them
    (applied only where the user must select among options: an order summary with one "Place order" is fine)."""
    return int(s.get("repeated_items") or 0) >= 2 and len(s.get("buttons") or []) == 1 and not s.get("inputs")


_SELECTION = re.compile(r"\b(select|selects|choose|chooses|pick|picks|which)\b", re.IGNORECASE)


def asks_for_selection(requirements: str) -> bool:
    """Whether UI Requirements ask the user to pick among options (select / choose / pick / which)."""
    return bool(_SELECTION.search(requirements))


class StaticUIJudge(Judge):
    """Deterministic UI rules (SPEC.md §6.4 UI judge, its hard anti-patterns): a UI was rendered and shown when
    the criteria have UI Requirements; no shown screen is a text dump; a screen offers buttons where the user
    must act, and one per item when it lists several; the user interacted and the agent carried on."""

    kind = "ui"
    name = "static"

    async def judge(self, evidence: EpisodeEvidence) -> JudgeVerdict:
        from mmtsb.protocol.evidence import ui_interactions, ui_screens
        from mmtsb.ui.inspect import describe
        from mmtsb.ui.mode import ui_requirements

        required = ui_requirements(evidence.scenario.task_completion_criteria)
        screens = ui_screens(evidence)
        shown = [s for s in screens if s.shown and s.structure]
        interactions = ui_interactions(evidence)
        done = [i for i in interactions if i["ok"]]
        need = bool(required)
        listed = "; ".join(f"image {s.image_id}: {describe(s.structure)}" for s in shown[:5])

        if not need:
            focus = CriterionVerdict("ui_task_focus", True, "The criteria have no UI Requirements; no UI is required.")
        else:
            focus = CriterionVerdict("ui_task_focus", bool(shown),
                                     f"The criteria require a UI; {len(screens)} screen(s) rendered, {len(shown)} "
                                     "shown to the user." + ("" if shown else " Nothing was shown to the user."),
                                     required[:300])
        dumps = [s for s in shown if text_dump(s.structure)]
        structure = CriterionVerdict(
            "ui_structure_and_patterns", not dumps and (bool(shown) or not need),
            (f"{len(dumps)} shown screen(s) are text dumps (depth <= 2, Text only): images "
             f"{[s.image_id for s in dumps]}." if dumps else
             ("No screen was shown." if not shown else f"{len(shown)} shown screen(s) have a real structure.")),
            listed)
        with_buttons = [s for s in shown if s.structure.get("buttons")]
        one_for_many = [s for s in shown if single_button_for_items(s.structure)] if asks_for_selection(required) \
            else []
        if not need and not shown:
            clarity = CriterionVerdict("ui_action_clarity", True, "No UI is required and none was shown.")
        else:
            problems = []
            if need and not with_buttons:
                problems.append("no shown screen has a button although the user must act")
            if one_for_many:
                problems.append(f"a single button for several items on images {[s.image_id for s in one_for_many]}")
            clarity = CriterionVerdict("ui_action_clarity", not problems,
                                       _sentence("; ".join(problems)) if problems else
                                       f"{len(with_buttons)} shown screen(s) offer buttons; items have their own.",
                                       listed)
        agent_after = False
        if done:
            first = done[0]["index"]
            agent_after = any(m.sender == "AGENT" and m.index > first for m in evidence.messages)
        if need:
            flow = CriterionVerdict("ui_feedback_and_flow", bool(done) and agent_after,
                                    f"{len(done)} successful user interaction(s) of {len(interactions)}; "
                                    + ("the agent acted on them." if agent_after else
                                       "the agent never acted after an interaction." if done else
                                       "the user never completed an interaction."),
                                    "; ".join(str(i["arguments"])[:200] for i in interactions[:5]))
        else:
            flow = CriterionVerdict("ui_feedback_and_flow", not interactions or bool(done),
                                    f"No UI is required; {len(done)} successful interaction(s) of "
                                    f"{len(interactions)}.")
        return JudgeVerdict("ui", self.name, [focus, structure, clarity, flow], reasoning=UI_NOTE, static=True)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


register_judge_backend(JudgeBackend("static", needs_model=False, description="deterministic checks: completion from "
                                    "the entity-diff F1, delivery checks for the user, UI rules in UI mode"))
register_judge_backend(JudgeBackend("none", needs_model=False, description="no judges: only the entity-diff metrics "
                                    "are computed"))


@judge("static", party="agent")
def static_agent_judge(req: RoleRequest) -> StaticAgentJudge:
    return StaticAgentJudge()


@judge("static", party="user")
def static_user_judge(req: RoleRequest) -> StaticUserJudge:
    return StaticUserJudge()


@judge("static", party="ui")
def static_ui_judge(req: RoleRequest) -> StaticUIJudge:
    return StaticUIJudge()
