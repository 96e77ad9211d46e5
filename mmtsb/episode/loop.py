"""The episode loop: route messages between the roles and the environment until the user ends the
conversation or a budget runs out; then score the world and judge the episode once (SPEC.md §3, §6.1).

Routing (SPEC.md §3.1): an agent reply without tool calls goes AGENT->USER and hands the turn to the
user; tool calls and code go AGENT->EXECUTION_ENVIRONMENT and their results come back to the agent, who
acts again. The user's ``send_message_with_image`` becomes a USER->AGENT message with images;
``end_conversation`` ends the episode; its other tools go to the environment and back to the user.
Errors of any kind (unknown tools, bad arguments, broken model output) are fed back as observations; only
infrastructure failures end an episode early, and they are recorded as such.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from dataclasses import dataclass
from typing import Any, Protocol

from mmtsb.episode.context import EpisodeContext
from mmtsb.protocol.evidence import EpisodeEvidence
from mmtsb.protocol.failures import CONTEXT_OVERFLOW, FailureClass, exception_class
from mmtsb.protocol.steps import is_interaction_step
from mmtsb.protocol.trajectory import SCHEMA_VERSION, Trajectory
from mmtsb.protocol.messages import AGENT, ENV, USER, Message, Party, ToolCall
from mmtsb.eval.entity_diff import EvalOptions, evaluate_world
from mmtsb.protocol import Action, CallTools, Role, RunCode, Say, registry
from mmtsb.protocol.judges import Judge, JudgeVerdict
from mmtsb.tools.session import to_jsonable
from mmtsb.vision.store import StoredImage
from mmtsb.ui.state import UIState, ui_state

def ui_state_of(world: Any) -> UIState:
    """The world's UI state at the end of the episode (a copy: judges must not change it)."""
    return ui_state(world).copy()


def ui_record(world: Any) -> dict[str, Any]:
    """What the trajectory keeps of the UI: every render (with its structure), what was shown, what the user did."""
    state = ui_state(world)
    return {"renders": to_jsonable(state.renders), "shown": to_jsonable(state.shown),
            "interactions": to_jsonable(state.history), "surfaces": sorted(state.surfaces)}


class CodeRunner(Protocol):
    """Runs agent code (the sandbox's Interpreter satisfies this). A runner with ``set_deadline(monotonic)``
    is told when the episode's wall clock runs out, so that a run never outlasts it."""

    def run(self, code: str) -> Any: ...


class WallClockExpired(Exception):
    """The episode's wall-clock budget ran out while a role was acting (a model call, a code run)."""


@dataclass
class EpisodeResult:
    """The outcome of one episode: its trajectory record (the typed model), that record's headline values, and
    the bytes of every image of the episode (the record keeps only their hashes; runners save the bytes in the
    run folder, content-addressed: :meth:`mmtsb.runner.results.RunLayout.write_image`)."""

    record: Trajectory
    images: tuple[StoredImage, ...] = ()

    @property
    def scenario(self) -> str:
        return self.record.scenario

    @property
    def agent_pass(self) -> bool | None:
        return self.record.agent_pass

    @property
    def user_pass(self) -> bool | None:
        return self.record.user_pass

    @property
    def ui_pass(self) -> bool | None:
        """The UI judge's verdict (UI mode only)."""
        return self.record.ui_pass

    @property
    def entity_f1(self) -> float | None:
        return self.record.entity_f1

    @property
    def steps(self) -> int:
        """The paper's step count: messages of the agent and the user (:mod:`mmtsb.protocol.steps`)."""
        return self.record.steps

    @property
    def agent_steps(self) -> int:
        """Our count: the agent's actions."""
        return self.record.agent_steps

    @property
    def end_reason(self) -> str:
        return self.record.end_reason

    @property
    def error(self) -> str | None:
        return self.record.error

    def __repr__(self) -> str:
        return f"EpisodeResult({self.summary()})"

    @property
    def trajectory(self) -> dict[str, Any]:
        """The trajectory's JSON form (what its file holds), made afresh from :attr:`record`."""
        return self.record.to_dict()

    def summary(self) -> dict[str, Any]:
        out = {"scenario": self.scenario, "agent_pass": self.agent_pass, "entity_f1": self.entity_f1,
               "steps": self.steps, "agent_steps": self.agent_steps, "end_reason": self.end_reason}
        if self.ui_pass is not None:
            out["ui_pass"] = self.ui_pass
        return out


class EpisodeRunner:
    """Plays one scenario with an agent and a user, then scores and judges it."""

    def __init__(self, ctx: EpisodeContext, agent: Role, user: Role, *, judges: dict[str, Judge] | None = None,
                 code_runner: CodeRunner | None = None, eval_options: EvalOptions | None = None) -> None:
        """``judges``: by judged party (``agent``, ``user``, ``ui``: the registry's judged parties); a party
        judged in UI mode only is dropped outside it."""
        self.ctx = ctx
        self.agent = agent
        self.user = user
        parties = registry.judged_parties()
        self.judges = {k: j for k, j in (judges or {}).items() if k not in parties or ctx.ui or not parties[k].ui_only}
        self.code_runner = code_runner
        self.eval_options = eval_options or EvalOptions()
        self.messages: list[Message] = []
        self.rows = 0                         # rows appended during play, counted as the reference counts them
        self.steps = 0                        # agent actions (ours)
        self.interaction_steps = 0            # the paper's steps: agent and user messages during play
        self._deadline = float("inf")         # time.monotonic() at which the wall-clock budget runs out
        self.step_times: list[float] = []
        self.step_cpu: list[float] = []        # this process's CPU per agent step (the sandbox child excluded)
        self.code_runs: list[dict[str, Any]] = []
        self._delivered: set[int] = set()      # image ids the agent has received from the user
        self._acting: str | None = None        # the role whose turn it is (classifies a failure it raises)

    # ------------------------------------------------------------------ message plumbing
    def _append(self, sender: Party, recipient: Party, content: str = "", *, count: int = 1,
                **kw: Any) -> Message:
        msg = Message(index=len(self.messages), sender=sender, recipient=recipient, content=content, **kw)
        self.messages.append(msg)
        if count and is_interaction_step(sender, msg.meta):   # scripted rows (count=0) were not played
            self.interaction_steps += 1
        if sender == USER and recipient == AGENT:
            self._delivered.update(msg.image_ids)
        self.rows += count
        for role, obj in ((AGENT, self.agent), (USER, self.user)):
            if msg.visible(role):
                obj.observe(msg)
        return msg

    def _seed_messages(self) -> None:
        """The scenario's scripted rows: the SYSTEM->USER script and the first USER->AGENT turn."""
        for m in self.ctx.scenario.messages:
            self._append(m.sender, m.recipient, m.content, image_ids=list(m.image_ids or []), count=0)

    # ------------------------------------------------------------------ play
    async def run(self) -> EpisodeResult:
        started = time.time()
        t0 = time.perf_counter()
        self._deadline = time.monotonic() + self.ctx.budgets.wall_clock_s
        set_deadline = getattr(self.code_runner, "set_deadline", None)
        if set_deadline is not None:
            set_deadline(self._deadline)
        snapshot = self.ctx.built.initial
        end_reason, error, failure = "user_ended", None, None
        try:
            await self.agent.start(self.ctx)
            await self.user.start(self.ctx)
            self._seed_messages()
            end_reason = await self._play(t0)
        except Exception as e:  # recorded with its failure class, never silent
            failure = exception_class(e, role=self._acting)
            error = f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=5)}"
            # the agent's own history outgrew its context: the episode is judged like any other
            end_reason = CONTEXT_OVERFLOW if failure == FailureClass.AGENT else "error"
        duration = time.perf_counter() - t0
        world = self.ctx.world
        world_diff = world.diff(snapshot)
        entity = evaluate_world(self.ctx.scenario.entity_diff_specs, world, snapshot, self.eval_options)
        evidence = EpisodeEvidence(self.ctx.scenario, self.ctx.script, self.messages, world_diff, entity, end_reason,
                                   image_ids=world.images.ids(), images=world.images,
                                   max_messages=self.ctx.budgets.max_messages or self.ctx.scenario.max_messages,
                                   rows=self.rows, ui=self.ctx.ui, ui_state=ui_state_of(world) if self.ctx.ui else None,
                                   tool_history=list(self.ctx.session.history))
        verdicts: dict[str, JudgeVerdict | None] = {name: None for name in registry.judged_parties()}
        for key, judge in self.judges.items():
            verdicts[key] = await self._judge(judge, evidence)
        agent_verdict = verdicts.get("agent")
        if failure is None and agent_verdict is not None and agent_verdict.error:   # no agent verdict: no score
            failure = FailureClass(agent_verdict.error_class or FailureClass.INFRASTRUCTURE)
        record = self._trajectory(started, duration, end_reason, error, world_diff, entity, verdicts)
        record.failure_class = failure.value if failure is not None else None
        return EpisodeResult(record, world.images.snapshot())

    async def _judge(self, judge: Judge, evidence: EpisodeEvidence) -> JudgeVerdict:
        try:
            return await judge.judge(evidence)
        except Exception as e:  # a judge failure is reported, not counted as a verdict
            return JudgeVerdict(judge.kind, judge.name, [], error=f"{type(e).__name__}: {e}",
                                error_class=exception_class(e, role="judge").value)

    def _max_messages(self) -> int:
        return self.ctx.budgets.max_messages or self.ctx.scenario.max_messages

    def _budget_exceeded(self, t0: float) -> str | None:
        b = self.ctx.budgets
        if self.rows >= self._max_messages():
            return "max_messages"
        if b.max_steps is not None and self.steps >= b.max_steps:
            return "max_steps"
        if b.max_interaction_steps is not None and self.interaction_steps >= b.max_interaction_steps:
            return "max_interaction_steps"
        if time.monotonic() >= self._deadline:
            return "wall_clock"
        if b.max_tokens is not None and self.agent.usage.total_tokens + self.user.usage.total_tokens > b.max_tokens:
            return "token_budget"
        return None

    async def _play(self, t0: float) -> str:
        while True:
            reason = self._budget_exceeded(t0)
            if reason:
                return reason
            last = self.messages[-1]
            actor = last.recipient
            try:
                if actor == AGENT:
                    self.steps += 1
                    s0, c0 = time.perf_counter(), time.process_time()
                    self._acting = "agent"
                    action = await self._within_wall_clock(self.agent.act())
                    await self._route_agent(action)
                    self.step_times.append(time.perf_counter() - s0)
                    self.step_cpu.append(time.process_time() - c0)
                elif actor == USER:
                    self._acting = "user"
                    ended = await self._route_user(await self._within_wall_clock(self.user.act()))
                    if ended:
                        return "user_ended"
                else:
                    raise RuntimeError(f"no role acts after a message to {actor} (message {last.index})")
            except WallClockExpired:
                return "wall_clock"

    async def _within_wall_clock(self, act: Any) -> Any:
        """Await a role's action (its model calls) no longer than the episode's wall clock allows; raises
        :class:`WallClockExpired` when it runs out (the call in flight is cancelled)."""
        left = self._deadline - time.monotonic()
        if left == float("inf"):
            return await act
        limit = asyncio.timeout(max(0.0, left))
        try:
            async with limit:
                return await act
        except TimeoutError:
            if limit.expired():
                raise WallClockExpired() from None
            raise

    async def _route_agent(self, action: Action) -> None:
        if isinstance(action, Say):
            self._append(AGENT, USER, action.text, image_ids=list(action.image_ids))
            self._deliver_agent_images()
        elif isinstance(action, CallTools):
            if not action.calls:
                self._append(AGENT, USER, action.text)
                return
            # one reply cannot outrun the message budget: at most as many calls run as rows are left
            left = max(0, self._max_messages() - self.rows)
            self._append(AGENT, ENV, action.text, tool_calls=list(action.calls), count=len(action.calls))
            for i, call in enumerate(action.calls):
                if i < left:
                    self._run_tool_call(call)
                else:  # answered (each call id needs a result) but not run, and not counted as a row
                    self._append(ENV, AGENT, f"Error: {call.name} was not run: the episode's message budget "
                                 f"({self._max_messages()}) is used up.", count=0, tool_call_id=call.id,
                                 tool_name=call.name, is_error=True, meta={"error_type": "BudgetExceeded"})
        elif isinstance(action, RunCode):
            self._append(AGENT, ENV, action.code, meta={"text": action.text})
            await self._run_code(action.code)
        else:
            raise TypeError(f"unknown agent action {action!r}")

    def _run_tool_call(self, call: ToolCall) -> None:
        if call.parse_error:
            self._append(ENV, AGENT, f"Error: the arguments of {call.name} are not valid JSON: {call.parse_error}. "
                         "Send the call again with a JSON object of arguments.", tool_call_id=call.id,
                         tool_name=call.name, is_error=True, meta={"error_type": "ArgumentError"})
            return
        out = self.ctx.session.call(call.name, call.arguments, role="agent")
        self._deliver_agent_images()  # injected rows precede the result: the agent keeps the turn (SPEC §3.1)
        if out.ok:
            value = to_jsonable(out.value)
            content = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
            self._append(ENV, AGENT, content, tool_call_id=call.id, tool_name=call.name, image_ids=out.images,
                         meta={"value": value, "duration_s": out.duration_s})
        else:
            self._append(ENV, AGENT, f"Error: {out.error.type}: {out.error.message}", tool_call_id=call.id,
                         tool_name=call.name, is_error=True,
                         meta={"error_type": out.error.type, "duration_s": out.duration_s})

    async def _run_code(self, code: str) -> None:
        if self.code_runner is None:
            self._append(ENV, AGENT, "Error: code execution is not available in this interface.", is_error=True,
                         meta={"error_type": "InterfaceError"})
            return
        res = await asyncio.to_thread(self.code_runner.run, code)   # bounded by the deadline it was given
        self._deliver_agent_images()  # injected rows precede the result: the agent keeps the turn (SPEC §3.1)
        record = {k: getattr(res, k, None) for k in ("stdout", "value", "error", "blocked", "images", "duration",
                                                      "reset", "timed_out")}
        self.code_runs.append({"code": code, **record})
        parts = [p for p in (res.stdout, res.value) if p]
        content = "\n".join(parts)
        failed = bool(res.error or res.blocked)
        if res.blocked:
            content = (content + "\n" if content else "") + str(res.blocked)
        elif res.error:
            content = (content + "\n" if content else "") + str(res.error)
        if getattr(res, "reset", False):
            content += "\n[The interpreter was reset: variables from earlier code are gone.]"
        self._append(ENV, AGENT, content or "Code executed successfully (no output)", image_ids=list(res.images or []),
                     is_error=failed, meta={"error_type": "ExecutionError" if failed else None,
                                            **{k: record[k] for k in ("stdout", "value", "error", "blocked", "reset")}})

    def _deliver_agent_images(self) -> None:
        """Images the agent showed the user (show_image_to_user, show_ui_to_user) reach the user as AGENT->USER
        rows visible to the user only. They are appended before the tool's result, so the agent keeps the turn
        and the user acts only after the agent's next reply hands it over (SPEC.md §3.1, §4.1)."""
        queue = self.ctx.world.episode.shown_to_user
        while queue:
            item = queue.pop(0)
            self._append(AGENT, USER, item.message, image_ids=[item.image_id], visible_to=(USER,),
                         meta={"shown_by_tool": True})

    async def _route_user(self, action: Action) -> bool:
        """Returns True when the user ended the conversation."""
        if isinstance(action, Say):
            self._append(USER, AGENT, action.text, image_ids=self._with_scheduled_images(action))
            return False
        if not isinstance(action, CallTools):
            raise TypeError(f"a user cannot {type(action).__name__}")
        for call in action.calls:
            if call.name == "send_message_with_image":
                out = self.ctx.session.call(call.name, call.arguments, role="user")
                if out.ok:
                    say = Say(out.value["message"], list(out.value["image_ids"]))
                    self._append(USER, AGENT, say.text, image_ids=self._with_scheduled_images(say))
                    return False
                self._append(USER, ENV, json.dumps(call.arguments), count=1, tool_calls=[call])
                self._append(ENV, USER, f"Error: {out.error}", tool_call_id=call.id, tool_name=call.name,
                             is_error=True)
                continue
            self._append(USER, ENV, "", tool_calls=[call])
            out = self.ctx.session.call(call.name, call.arguments, role="user")
            ended = call.name == "end_conversation" and out.ok
            content = json.dumps(to_jsonable(out.value), default=str) if out.ok else f"Error: {out.error}"
            self._deliver_ui_events()  # injected rows come before the result, as in the reference: the user acts next
            self._append(ENV, USER, content, tool_call_id=call.id, tool_name=call.name, is_error=not out.ok,
                         conversation_active=not ended)
            if ended:
                return True
        return False

    def _deliver_ui_events(self) -> None:
        """What the user did on an interactive UI reaches the agent as an environment note only it sees."""
        queue = self.ctx.world.episode.ui_events
        while queue:
            event = queue.pop(0)
            self._append(ENV, AGENT, event.text, image_ids=[event.image_id] if event.image_id is not None else [],
                         visible_to=(AGENT,), count=1, meta={"ui_event": True, "user_action": event.user_action})

    def _with_scheduled_images(self, say: Say) -> list[int]:
        """Deterministic delivery: a user message that carries a later round's query also carries that
        round's images if the user forgot them (the reference patches this with ROUGE-L >= 0.7)."""
        ids = list(say.image_ids)
        if ids:
            return ids
        from mmtsb.episode.delivery import scheduled_images_for

        return scheduled_images_for(self.ctx.scenario, say.text, self._delivered)

    # ------------------------------------------------------------------ record
    def _trajectory(self, started: float, duration: float, end_reason: str, error: str | None, world_diff: Any,
                    entity: Any, verdicts: dict[str, JudgeVerdict | None]) -> Trajectory:
        s = self.ctx.scenario
        world = self.ctx.world
        return Trajectory.model_validate({
            "schema_version": SCHEMA_VERSION,
            "scenario": s.name,
            "interface": self.ctx.interface,
            "seed": self.ctx.seed,
            "roles": {"agent": self.agent.name, "user": self.user.name,
                      **{f"{k}_judge": getattr(self.judges.get(k), "name", None)
                         for k in dict.fromkeys([*registry.judged_parties(), *self.judges])}},
            "prompts": {"agent": {"version": self.agent.prompt_version, "texts": self.agent.prompts()},
                        "user": {"version": self.user.prompt_version, "texts": self.user.prompts()}},
            "taxonomy": s.taxonomy.model_dump(),
            "categories": s.categories,
            "expected_tools": s.expected_tools,
            "messages": [m.to_dict() for m in self.messages],
            "tool_calls": [o.to_dict() for o in self.ctx.session.history],
            "code_runs": self.code_runs,
            "images": [{"image_id": i.image_id, "source": i.source, "mime_type": i.mime_type, "sha256": i.sha256}
                       for i in (world.images.get(k) for k in world.images.ids())],
            "usage": {"agent": self.agent.usage_record(), "user": self.user.usage_record(),
                      **{f"{k}_judge": v.usage for k, v in verdicts.items() if v is not None}},
            "timing": {"started_at": started, "duration_s": round(duration, 4),
                       "agent_step_s": [round(t, 5) for t in self.step_times],
                       "agent_step_cpu_s": [round(t, 5) for t in self.step_cpu]},
            "budgets": {"max_messages": self.ctx.budgets.max_messages or s.max_messages, "rows": self.rows,
                        "max_steps": self.ctx.budgets.max_steps,
                        "max_interaction_steps": self.ctx.budgets.max_interaction_steps,
                        "wall_clock_s": self.ctx.budgets.wall_clock_s},
            "steps": self.interaction_steps,
            "agent_steps": self.steps,
            "end_reason": end_reason,
            "error": error,
            "world_diff": world_diff.to_dict(),
            "entity_diff": entity.to_dict(),
            "judges": {k: (v.to_dict() if v is not None else None) for k, v in verdicts.items()},
            **{f"{k}_pass": (v.passed if v is not None else None) for k, v in verdicts.items()},
            "entity_f1": entity.f1,
            "ui_mode": self.ctx.ui,
            **({"ui": ui_record(world)} if self.ctx.ui else {}),
        })
