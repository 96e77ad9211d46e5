"""Rubric LLM judges: the agent judge (5 criteria) and the user judge (4 criteria), SPEC.md §6.4 improved.

One judge call = a system prompt (the versioned rubric, :mod:`mmtsb.roles.judges.prompts`) and one user
message of content parts: the evidence text, then every relevant image preceded by its ``[image_id=N]``
label. What differs from the reference (SPEC §9.9):

- ``passed`` is the AND of the criteria (JudgeVerdict), never the model's own overall flag;
- an unusable reply (bad JSON, a missing or unknown criterion, a reply cut off at the token limit) gets
  ONE repair retry; if that fails too the verdict carries ``error`` and the raw replies, so a parse
  failure is reported, never silently counted as a fail;
- a generous ``max_tokens`` (8192) so the JSON is not truncated; a ``length`` cut doubles it for the repair;
- images beyond the cap (16 by default) are named in the evidence text, never silently dropped;
- the database diff covers ALL tables; token usage and cost of every judge call are recorded.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.evidence import EpisodeEvidence, shorten
from mmtsb.protocol.messages import AGENT, ENV, SYSTEM, USER, Message
from mmtsb.llm import LLMClient, LLMError, LLMResponse
from mmtsb.roles.judges import prompts
from mmtsb.protocol.judges import AGENT_CRITERIA, UI_CRITERIA, USER_CRITERIA, Judge, JudgeKind, JudgeVerdict
from mmtsb.protocol.failures import FailureClass, exception_class
from mmtsb.roles.judges.parse import ParsedVerdict, VerdictParseError, parse_verdict
from mmtsb.roles.llm_common import direct_transport, image_encoder, model_config, provider_limits, response_cache
from mmtsb.protocol.registry import JudgeBackend, RoleRequest, judge, register_judge_backend

DEFAULT_MAX_TOKENS = 8192
MAX_REPAIR_TOKENS = 32768
DEFAULT_MAX_IMAGES = 16
UI_MAX_IMAGES = 10          # the UI judge sees UI screenshots only, at most this many (SPEC §6.4)
RESULT_CHARS = 1000
CODE_CHARS = 2000
ARG_CHARS = 300
_CODE_IMAGE_IDS = re.compile(r"image_ids?\s*[=:]\s*(\[[^\]]*\]|['\"][\d,\s]+['\"]|\d+)")


# ---------------------------------------------------------------------------------------------- config
def model_config_from_settings(settings: ModelSettings, *, default_max_tokens: int = DEFAULT_MAX_TOKENS,
                               default_temperature: float | None = 0.0) -> ModelSettings:
    """A ModelSettings for a judge: the roles' common mapping (``reasoning_effort`` and ``extra_params``
    passed through), plus a generous ``max_tokens`` default so the JSON is not cut, and temperature 0
    unless set or reasoning is configured (reasoning models take only their default temperature; litellm's
    ``drop_params`` removes it where a provider rejects it)."""
    config = model_config(settings, role="judge")
    update: dict[str, Any] = {}
    if config.max_tokens is None:
        update["max_tokens"] = default_max_tokens
    params = config.request_params()
    if config.temperature is None and "reasoning_effort" not in params and "thinking" not in params:
        update["temperature"] = default_temperature
    return dataclasses.replace(config, **update) if update else config


# ---------------------------------------------------------------------------------------------- images
class ImageSource(Protocol):
    """What the judges need of an image store (mmtsb.vision.store.ImageStore satisfies it)."""

    def get(self, image_id: int) -> Any: ...

    def ids(self) -> list[int]: ...


def image_store_of(evidence: EpisodeEvidence) -> ImageSource | None:
    """The episode's image store: ``evidence.images`` or ``evidence.world.images`` when present."""
    store = getattr(evidence, "images", None)
    if store is None:
        world = getattr(evidence, "world", None)
        store = getattr(world, "images", None)
    return store if store is not None and hasattr(store, "get") else None


def _ints(value: Any) -> list[int]:
    """Image ids inside an argument value: an int, a list of ints, or a "1,2" string."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, str):
        return [int(x) for x in re.findall(r"\d+", value)]
    if isinstance(value, (list, tuple)):
        return [i for v in value for i in _ints(v)]
    return []


def _argument_image_ids(arguments: Any) -> list[int]:
    """Ids under ``image_id``/``image_ids`` keys, at any depth of a tool call's arguments."""
    out: list[int] = []
    if isinstance(arguments, dict):
        for k, v in arguments.items():
            if k in ("image_id", "image_ids"):
                out += _ints(v)
            else:
                out += _argument_image_ids(v)
    elif isinstance(arguments, list):
        for v in arguments:
            out += _argument_image_ids(v)
    return out


def _code_image_ids(code: str) -> list[int]:
    return [i for m in _CODE_IMAGE_IDS.finditer(code) for i in _ints(m.group(1))]


def _unique(ids: Iterable[int]) -> list[int]:
    seen: dict[int, None] = {}
    for i in ids:
        seen.setdefault(i, None)
    return list(seen)


def agent_image_ids(evidence: EpisodeEvidence) -> list[tuple[int, str]]:
    """(id, how it entered the episode) for the agent judge, most important first: images the user
    delivered, images the agent showed the user, images tools produced, images the agent's calls used."""
    found: list[tuple[int, str]] = []
    for m in evidence.messages:
        if m.sender == USER and m.recipient == AGENT:
            found += [(i, f"delivered by the user (message {m.index})") for i in m.image_ids]
    for m in evidence.messages:
        if m.sender == AGENT and m.recipient == USER:
            found += [(i, f"shown by the agent to the user (message {m.index})") for i in m.image_ids]
    for m in evidence.messages:
        if m.sender == ENV and m.recipient == AGENT:
            found += [(i, f"produced by {m.tool_name or 'code'} (message {m.index})") for i in m.image_ids]
    for m in evidence.messages:
        if m.sender == AGENT and m.recipient == ENV:
            used = ([i for c in m.tool_calls for i in _argument_image_ids(c.arguments)] if m.tool_calls
                    else _code_image_ids(m.content))
            found += [(i, f"used by the agent's action (message {m.index})") for i in used]
    return _first_reason(found)


def user_image_ids(evidence: EpisodeEvidence) -> list[tuple[int, str]]:
    """(id, how) for the user judge: what the user delivered, then what the agent showed it."""
    found: list[tuple[int, str]] = []
    for m in evidence.messages:
        if m.sender == USER and m.recipient == AGENT:
            found += [(i, f"delivered by the user (message {m.index})") for i in m.image_ids]
    for m in evidence.messages:
        if m.sender == AGENT and m.recipient == USER:
            found += [(i, f"shown by the agent to the user (message {m.index})") for i in m.image_ids]
    return _first_reason(found)


def _first_reason(found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    reasons: dict[int, str] = {}
    for i, why in found:
        reasons.setdefault(i, why)
    return list(reasons.items())


@dataclass
class ImagePlan:
    """Which images go to the judge, and which do not (and why): nothing is dropped silently."""

    attached: list[tuple[int, str, Any]] = field(default_factory=list)   # (id, how, stored image)
    omitted: list[int] = field(default_factory=list)                      # over the cap
    unavailable: dict[int, str] = field(default_factory=dict)             # id -> reason

    def describe(self, cap: int) -> str:
        lines = []
        if self.attached:
            lines.append(f"Attached below ({len(self.attached)}), each after its [image_id=N] label: ids "
                         f"{sorted(i for i, _, _ in self.attached)}.")
        else:
            lines.append("No images are attached.")
        if self.omitted:
            lines.append(f"NOT attached because of the cap of {cap} images per judge call: ids {sorted(self.omitted)}. "
                         "You cannot see these; rely on tool results and the conversation for them.")
        for i, why in sorted(self.unavailable.items()):
            lines.append(f"Image id {i} could not be attached: {why}.")
        return "\n".join(lines)


def plan_images(candidates: list[tuple[int, str]], store: ImageSource | None, cap: int) -> ImagePlan:
    """Keep the first ``cap`` loadable candidates (priority order); the rest are listed as omitted."""
    plan = ImagePlan()
    for image_id, why in candidates:
        if store is None:
            plan.unavailable[image_id] = "the episode's image store was not given to the judge"
            continue
        try:
            image = store.get(image_id)
        except (ValueError, KeyError, IndexError) as e:
            plan.unavailable[image_id] = f"no such image ({e})"
            continue
        if len(plan.attached) < cap:
            plan.attached.append((image_id, why, image))
        else:
            plan.omitted.append(image_id)
    plan.attached.sort(key=lambda t: t[0])
    return plan


# ---------------------------------------------------------------------------------------------- rendering
def _images_tag(ids: list[int]) -> str:
    return f" [image_ids={ids}]" if ids else ""


def render_agent_actions(messages: list[Message]) -> str:
    """Every agent action with its result, errors marked, images produced named by id."""
    lines = []
    for m in messages:
        if m.sender == AGENT and m.recipient == ENV:
            if m.tool_calls:
                for c in m.tool_calls:
                    args = c.raw_arguments if c.parse_error else json.dumps(c.arguments, ensure_ascii=False,
                                                                            default=str)
                    lines.append(f"#{m.index} [AGENT → ENV]: {c.name}({shorten(args or '', ARG_CHARS)})")
            else:
                lines.append(f"#{m.index} [AGENT → ENV]: <code>\n{shorten(m.content, CODE_CHARS)}\n</code>")
        elif m.sender == ENV and m.recipient == AGENT:
            tag = "ERROR: " if m.is_error else ""
            name = f"{m.tool_name} → " if m.tool_name else ""
            lines.append(f"#{m.index} [ENV → AGENT]: {name}{tag}{shorten(m.content, RESULT_CHARS)}"
                         f"{_images_tag(m.image_ids)}")
    return "\n".join(lines) or "(the agent took no actions)"


def render_conversation(messages: list[Message], scripted: int = 0) -> str:
    """The USER ↔ AGENT messages with their image ids (text kept verbatim: leaked syntax is evidence).
    The first ``scripted`` records came from the scenario file and are marked as such."""
    lines = []
    for m in messages:
        if {m.sender, m.recipient} == {USER, AGENT}:
            mark = " (scripted opening message, sent by the harness)" if m.index < scripted else ""
            lines.append(f"#{m.index} [{m.sender} → {m.recipient}]{mark}: {m.content}{_images_tag(m.image_ids)}")
    return "\n".join(lines) or "(no conversation)"


def render_user_tool_calls(messages: list[Message], scripted: int = 0) -> str:
    """The user's tool calls and their results, and every user message that carried images, in order."""
    lines = []
    for m in messages:
        if m.sender == USER and m.recipient == ENV:
            for c in m.tool_calls:
                args = c.raw_arguments if c.parse_error else json.dumps(c.arguments, ensure_ascii=False)
                lines.append(f"#{m.index} [USER → ENV]: {c.name}({shorten(args or '', ARG_CHARS)})")
        elif m.sender == ENV and m.recipient == USER:
            tag = "ERROR: " if m.is_error else ""
            lines.append(f"#{m.index} [ENV → USER]: {m.tool_name or ''} → {tag}{shorten(m.content, RESULT_CHARS)}")
        elif m.sender == USER and m.recipient == AGENT and m.image_ids:
            how = "the scripted opening message" if m.index < scripted else "a user message"
            lines.append(f"#{m.index} [USER → AGENT]: images {m.image_ids} delivered with {how}")
    return "\n".join(lines) or "(the user made no tool calls)"


def turn_count(messages: list[Message]) -> int:
    """Effective turns as the reference counts them: not SYSTEM-sent, not user↔environment, not user-only."""
    return sum(1 for m in messages
               if m.sender != SYSTEM and {m.sender, m.recipient} != {USER, ENV} and tuple(m.visible_to) != (USER,))


# ---------------------------------------------------------------------------------------------- judges
def _empty_usage() -> dict[str, Any]:
    return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "api_calls": 0, "cached_calls": 0,
            "cost_usd": 0.0, "cost_known": True}


def _add_usage(usage: dict[str, Any], response: LLMResponse) -> None:
    usage["prompt_tokens"] += response.usage.prompt_tokens
    usage["completion_tokens"] += response.usage.completion_tokens
    usage["total_tokens"] += response.usage.total_tokens
    usage["api_calls"] += 1
    usage["cached_calls"] += int(response.cached)
    usage["cost_usd"] = round(usage["cost_usd"] + response.cost, 8)
    usage["cost_known"] = usage["cost_known"] and response.cost_known


class LLMJudge(Judge):
    """A rubric judge over one model; subclasses provide the criteria, images and evidence text."""

    criteria: tuple[str, ...] = ()

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any],
                 response_cache_dir: str | None = None, *, max_images: int = DEFAULT_MAX_IMAGES) -> None:
        if max_images < 0:
            raise ValueError(f"max_images must be >= 0, got {max_images}")
        self.settings = model_settings
        self.config = model_config_from_settings(model_settings)
        self.max_images = max_images
        self.client = LLMClient(self.config, limits=provider_limits(shared), images=image_encoder(shared),
                                cache=response_cache(shared, response_cache_dir), transport=direct_transport(shared))
        self.name = f"llm:{self.config.model}"
        self.prompt_version = prompts.prompt_version(self.kind)

    # ---- what subclasses provide
    def image_candidates(self, evidence: EpisodeEvidence) -> list[tuple[int, str]]:
        raise NotImplementedError

    def evidence_text(self, evidence: EpisodeEvidence, images: ImagePlan) -> str:
        raise NotImplementedError

    # ---- the request
    def system_prompt(self) -> str:
        return prompts.system_prompt(self.kind, self.criteria)

    def plan(self, evidence: EpisodeEvidence) -> ImagePlan:
        """The images this judge attaches for ``evidence`` (a subclass may first adapt itself to it)."""
        return plan_images(self.image_candidates(evidence), image_store_of(evidence), self.max_images)

    def build_messages(self, evidence: EpisodeEvidence) -> list[dict[str, Any]]:
        """[system, user]: the evidence text, then each image after its ``[image_id=N]`` label."""
        plan = self.plan(evidence)
        return self._messages(evidence, plan, self.client.image_parts([i for _, _, i in plan.attached]))

    async def build_messages_async(self, evidence: EpisodeEvidence) -> list[dict[str, Any]]:
        """:meth:`build_messages` on an event loop: the images are encoded concurrently, a large one in a worker
        thread, so the other episodes of the actor go on meanwhile (UI screenshots and photos take 0.1 s and
        more each)."""
        plan = self.plan(evidence)
        return self._messages(evidence, plan, await self.client.image_parts_async([i for _, _, i in plan.attached]))

    def _messages(self, evidence: EpisodeEvidence, plan: ImagePlan,
                  encoded: list[dict[str, Any] | ValueError]) -> list[dict[str, Any]]:
        parts: list[dict[str, Any]] = [{"type": "text", "text": self.evidence_text(evidence, plan)}]
        for (image_id, why, _), part in zip(plan.attached, encoded, strict=True):
            if isinstance(part, ValueError):  # undecodable bytes: say so instead of failing the whole judgement
                parts.append({"type": "text", "text": f"[image_id={image_id}] could not be encoded: {part}"})
                continue
            parts.append({"type": "text", "text": f"[image_id={image_id}] {why}"})
            parts.append(part)
        return [{"role": "system", "content": self.system_prompt()}, {"role": "user", "content": parts}]

    # ---- judging
    async def judge(self, evidence: EpisodeEvidence) -> JudgeVerdict:
        """One judgement: a call, and at most one repair call when the reply is unusable. Its usage counts
        the failed attempts too (``failed_calls``, from the client's ledger)."""
        role = f"{self.kind}_judge"
        before = self._failed_calls(role)
        verdict = await self._judge_once(evidence)
        verdict.usage["failed_calls"] = self._failed_calls(role) - before
        return verdict

    def _failed_calls(self, role: str) -> int:
        return int(self.client.ledger.totals().get(role, {}).get("failed_calls", 0))

    async def _judge_once(self, evidence: EpisodeEvidence) -> JudgeVerdict:
        usage = _empty_usage()
        raws: list[str | None] = []
        messages = await self.build_messages_async(evidence)
        role = f"{self.kind}_judge"
        try:
            first = await self.client.complete(messages, role=role)
            _add_usage(usage, first)
            raws.append(first.text)
            try:
                return self._verdict(parse_verdict(first.text, self.criteria), usage)
            except VerdictParseError as e:
                error = str(e)
            truncated = first.finish_reason == "length"
            retry = messages + [{"role": "assistant", "content": first.text or "(empty reply)"},
                                {"role": "user", "content": prompts.repair_prompt(error, self.criteria, truncated)}]
            second = await self._repair_client(truncated).complete(retry, role=role)
            _add_usage(usage, second)
            raws.append(second.text)
            try:
                verdict = self._verdict(parse_verdict(second.text, self.criteria), usage)
            except VerdictParseError as e2:
                return self._error(f"unusable verdict after one repair retry: {e2} (first reply: {error}; "
                                   f"finish reasons: {first.finish_reason}, {second.finish_reason})", usage, raws)
            verdict.reasoning += f"\n[judge note: the first reply was unusable ({error}); repaired on retry]"
            return verdict
        except LLMError as e:
            return self._error(f"judge model call failed: {e}", usage, raws,
                               error_class=exception_class(e, role="judge"))

    def _repair_client(self, truncated: bool) -> LLMClient:
        """The client for the repair call: the same, with max_tokens doubled after a ``length`` cut."""
        if not truncated:
            return self.client
        budget = min(MAX_REPAIR_TOKENS, 2 * (self.config.max_tokens or DEFAULT_MAX_TOKENS))
        config = dataclasses.replace(self.config, max_tokens=budget)
        return LLMClient(config, limits=self.client.limits, ledger=self.client.ledger, cache=self.client.cache,
                         images=self.client.images, transport=self.client.transport)

    def _verdict(self, parsed: ParsedVerdict, usage: dict[str, Any]) -> JudgeVerdict:
        verdict = JudgeVerdict(self.kind, self.name, parsed.criteria, reasoning=parsed.reasoning,
                               prompt_version=self.prompt_version, usage=dict(usage))
        for note in parsed.notes:
            verdict.reasoning += f"\n[judge note: {note}]"
        if parsed.model_overall is not None and parsed.model_overall != verdict.passed:
            verdict.reasoning += (f"\n[judge note: the model's own overall flag ({parsed.model_overall}) is ignored; "
                                  f"the verdict is the AND of the criteria ({verdict.passed})]")
        return verdict

    def _error(self, error: str, usage: dict[str, Any], raw: list[str | None],
               error_class: str = FailureClass.INFRASTRUCTURE) -> JudgeVerdict:
        """A verdict-less outcome; ``error_class``: an unusable verdict may come out right on another try
        (infrastructure), a refused call says which class it is (see mmtsb.protocol.failures)."""
        reasoning = "\n\n".join(f"--- raw reply {i + 1} ---\n{text or '(empty)'}" for i, text in enumerate(raw))
        return JudgeVerdict(self.kind, self.name, [], reasoning=reasoning, error=error,
                            prompt_version=self.prompt_version, usage=dict(usage), error_class=str(error_class))


class LLMAgentJudge(LLMJudge):
    """Judges the agent on task_completion, instruction_following, tool_use_validity, no_side_effects
    and information_accuracy."""

    kind: JudgeKind = "agent"
    criteria = AGENT_CRITERIA

    def image_candidates(self, evidence: EpisodeEvidence) -> list[tuple[int, str]]:
        return agent_image_ids(evidence)

    def evidence_text(self, evidence: EpisodeEvidence, images: ImagePlan) -> str:
        criteria = evidence.scenario.task_completion_criteria.strip() or "(none given)"
        return "\n\n".join([
            f"## Task completion criteria\n{criteria}",
            f"## Conversation (user ↔ agent)\n{render_conversation(evidence.messages)}",
            f"## Agent actions and environment results\n{render_agent_actions(evidence.messages)}",
            "## Database changes (row level, ALL tables; trusted)\n" + evidence.database_changes_text(),
            f"## Episode end\nThe episode ended because: {evidence.end_reason}.",
            f"## Images\n{images.describe(self.max_images)}",
            "Evaluate the agent on every criterion and reply with the JSON verdict.",
        ])


class LLMUserJudge(LLMJudge):
    """Judges the simulated user on request_fidelity, conversational_naturalness, grounded_consistency
    and tool_channel_correctness. In UI mode (``ui=True``, or evidence from a UI-mode episode) the rubric
    gets the UI addendum: a text answer is fine where no matching interactive element was shown."""

    kind: JudgeKind = "user"
    criteria = USER_CRITERIA

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any],
                 response_cache_dir: str | None = None, *, max_images: int = DEFAULT_MAX_IMAGES,
                 ui: bool = False) -> None:
        super().__init__(model_settings, shared, response_cache_dir, max_images=max_images)
        self.ui = ui
        self.prompt_version = prompts.prompt_version(self.kind, ui=ui)

    def system_prompt(self) -> str:
        return prompts.system_prompt(self.kind, self.criteria, ui=self.ui)

    def plan(self, evidence: EpisodeEvidence) -> ImagePlan:
        if getattr(evidence, "ui", False) and not self.ui:  # a UI-mode episode judged by a plain user judge
            self.ui = True
            self.prompt_version = prompts.prompt_version(self.kind, ui=True)
        return super().plan(evidence)

    def image_candidates(self, evidence: EpisodeEvidence) -> list[tuple[int, str]]:
        return user_image_ids(evidence)

    def evidence_text(self, evidence: EpisodeEvidence, images: ImagePlan) -> str:
        scripted = len(evidence.scenario.messages)  # the loop seeds the scenario's rows first
        return "\n\n".join([
            f"## Hidden instructions of the simulated user\n{user_instructions(evidence)}",
            f"## The user's tools\n{user_tools_text(evidence)}",
            f"## Conversation (user ↔ agent)\n{render_conversation(evidence.messages, scripted)}",
            f"## The user's tool calls and image deliveries\n{render_user_tool_calls(evidence.messages, scripted)}",
            f"## Message budget\n{budget_text(evidence)}",
            f"## Scenario metadata\n{metadata_text(evidence)}",
            f"## Image Delivery Verification (computed by the harness)\n{image_delivery_text(evidence)}",
            f"## Round Query Delivery Check (computed by the harness)\n{query_delivery_text(evidence)}",
            f"## Images\n{images.describe(self.max_images)}",
            "Evaluate the simulated user on every criterion and reply with the JSON verdict.",
        ])


# ---------------------------------------------------------------------------------------------- user evidence
def user_instructions(evidence: EpisodeEvidence) -> str:
    text = evidence.scenario.user_script.replace("{{USER_INSTRUCTION}}", "").strip()
    return text or "(no instructions)"


def user_tools_text(evidence: EpisodeEvidence) -> str:
    """``evidence.user_tools`` (specs or names) when given, else every tool visible to the user role."""
    specs = getattr(evidence, "user_tools", None)
    if specs is None:
        from mmtsb.tools.toolbox import full_registry

        specs = full_registry().visible_to("user")
    lines = []
    for s in specs:
        if isinstance(s, str):
            lines.append(f"- {s}")
        else:
            lines.append(f"- {s.name}({', '.join(p.name for p in s.params)}): {s.summary}")
    return "\n".join(lines) or "(none)"


def budget_text(evidence: EpisodeEvidence) -> str:
    max_messages = getattr(evidence, "max_messages", None) or evidence.scenario.max_messages
    user_turns = sum(1 for m in evidence.messages if m.sender == USER and m.recipient == AGENT)
    return (f"max_messages: {max_messages}; actual turn count: {turn_count(evidence.messages)} "
            f"({user_turns} user messages to the agent, {len(evidence.messages)} records in total); "
            f"the episode ended because: {evidence.end_reason}.")


def metadata_text(evidence: EpisodeEvidence) -> str:
    t = evidence.scenario.taxonomy
    rounds = evidence.script.rounds
    arrival = "; ".join(f"round {r.number}: ids {r.provide_image_ids}" for r in rounds if r.provide_image_ids)
    return "\n".join([
        f"challenge_type: {t.challenge_type}",
        f"require_disambiguation: {t.require_disambiguation}",
        f"num_user_rounds: {t.num_user_rounds} (the script has {len(rounds)} rounds)",
        f"image_arrival: {t.image_arrival} ({arrival or 'no scripted images'})",
    ])


def image_delivery_text(evidence: EpisodeEvidence) -> str:
    check = evidence.image_delivery_check()
    delivered_at: dict[int, list[int]] = {}
    for m in evidence.messages:
        if m.sender == USER and m.recipient == AGENT:
            for i in m.image_ids:
                delivered_at.setdefault(i, []).append(m.index)
    lines = []
    for r in evidence.script.rounds:
        if not r.provide_image_ids:
            continue
        where = ", ".join(f"id {i} " + (f"in message(s) {delivered_at[i]}" if i in delivered_at else "NOT delivered")
                          for i in r.provide_image_ids)
        lines.append(f"Round {r.number} ({', '.join(r.provide_names)} -> ids {r.provide_image_ids}): {where}")
    extra = sorted(set(delivered_at) - set(check["expected"]))
    if extra:
        lines.append(f"Delivered but not scripted: ids {extra}")
    lines.append(f"Result: MISSING IDs {check['missing']}" if check["missing"] else
                 ("Result: all delivered" if check["expected"] else "Result: the script provides no images"))
    return "\n".join(lines)


def query_delivery_text(evidence: EpisodeEvidence) -> str:
    rounds = {r.number: r for r in evidence.script.rounds}
    lines = []
    for q in evidence.query_delivery_check():
        line = f"Round {q['round']}: {q['status']} (best word Jaccard {q['jaccard']})"
        if q["status"] != "delivered" and q["round"] in rounds:
            line += f"; scripted query: {shorten(rounds[q['round']].query, 400)!r}"
        lines.append(line)
    return "\n".join(lines) or "(the script has no rounds)"


# ---------------------------------------------------------------------------------------------- UI judge
def ui_image_ids(evidence: EpisodeEvidence) -> list[tuple[int, str]]:
    """UI screenshots only, most telling first: the screens shown to the user and the interaction results,
    then the other renders (drafts the user never saw); chronological within each group."""
    from mmtsb.protocol.evidence import ui_screens

    screens = ui_screens(evidence)
    seen: list[tuple[int, str]] = []
    for s in screens:
        if s.shown:
            seen.append((s.image_id, f"UI screen shown to the user (surface {s.surface_id})"))
        elif s.clicked:
            seen.append((s.image_id, f"the screen after the user's interaction ({s.clicked} marked CLICKED)"))
    for m in evidence.messages:  # user-only images the agent's UI tools delivered
        if m.sender == AGENT and m.recipient == USER and tuple(m.visible_to) == (USER,):
            seen += [(i, f"UI screen shown to the user (message {m.index})") for i in m.image_ids]
    seen += [(s.image_id, f"a render the user was not shown (surface {s.surface_id})") for s in screens]
    return _first_reason(seen)


def ui_screens_text(evidence: EpisodeEvidence) -> str:
    from mmtsb.protocol.evidence import ui_screens
    from mmtsb.ui.inspect import describe

    lines = []
    for s in ui_screens(evidence):
        flags = ", shown to the user" if s.shown else ""
        flags += f", after the user clicked {s.clicked}" if s.clicked else ""
        summary = describe(s.structure) if s.structure else "no surface drawn (empty screen)"
        lines.append(f"[image_id={s.image_id}] surface {s.surface_id}{flags}: {summary}")
    return "\n".join(lines) or "(the agent rendered no UI screen)"


def ui_interactions_text(evidence: EpisodeEvidence) -> str:
    from mmtsb.protocol.evidence import ui_interactions

    lines = []
    for i in ui_interactions(evidence):
        status = "ok" if i["ok"] else ("ERROR" if i["ok"] is False else "no result")
        lines.append(f"#{i['index']} ui_user_interact({shorten(i['arguments'], ARG_CHARS)}) -> {status}: "
                     f"{shorten(i['result'], RESULT_CHARS)}")
    return "\n".join(lines) or "(the user made no UI interaction)"


class LLMUIJudge(LLMJudge):
    """Judges the agent's interactive screens on ui_task_focus, ui_structure_and_patterns, ui_action_clarity
    and ui_feedback_and_flow, from the UI Requirements, per-render structure summaries, the UI tool trace,
    the user's interactions and at most 10 UI screenshots (each labelled with its id, unlike the reference)."""

    kind: JudgeKind = "ui"
    criteria = UI_CRITERIA

    def __init__(self, model_settings: ModelSettings, shared: dict[str, Any],
                 response_cache_dir: str | None = None, *, max_images: int = UI_MAX_IMAGES) -> None:
        super().__init__(model_settings, shared, response_cache_dir, max_images=max_images)

    def image_candidates(self, evidence: EpisodeEvidence) -> list[tuple[int, str]]:
        return ui_image_ids(evidence)

    def evidence_text(self, evidence: EpisodeEvidence, images: ImagePlan) -> str:
        from mmtsb.protocol.evidence import ui_tool_trace
        from mmtsb.ui.mode import ui_requirements

        required = ui_requirements(evidence.scenario.task_completion_criteria) or \
            "(the criteria state no UI Requirements: judge the screens the agent chose to show, if any)"
        trace = ui_tool_trace(evidence)
        return "\n\n".join([
            f"## UI Requirements\n{required}",
            f"## Screens (one structure summary per screenshot, in order)\n{ui_screens_text(evidence)}",
            "## UI tool calls (in order; arguments and results cut)\n" + ("\n".join(trace) or "(none)"),
            f"## The user's UI interactions\n{ui_interactions_text(evidence)}",
            f"## Episode end\nThe episode ended because: {evidence.end_reason}.",
            f"## Images (UI screenshots only)\n{images.describe(self.max_images)}",
            "Evaluate the agent's UI on every criterion and reply with the JSON verdict.",
        ])


register_judge_backend(JudgeBackend("llm", needs_model=True, description="rubric LLM judges over judge_model "
                                    "(agent and user judges; the UI judge in UI mode)"))


@judge("llm", party="agent")
def llm_agent_judge(req: RoleRequest) -> LLMAgentJudge:
    return LLMAgentJudge(req.settings, req.shared, response_cache_dir=req.response_cache_dir)


@judge("llm", party="user")
def llm_user_judge(req: RoleRequest) -> LLMUserJudge:
    return LLMUserJudge(req.settings, req.shared, response_cache_dir=req.response_cache_dir, ui=req.cfg.ui)


@judge("llm", party="ui")
def llm_ui_judge(req: RoleRequest) -> LLMUIJudge:
    return LLMUIJudge(req.settings, req.shared, response_cache_dir=req.response_cache_dir)
