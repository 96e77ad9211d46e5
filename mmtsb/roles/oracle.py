"""The offline oracle agent: executes a scenario's per-round reference solution (``metadata.reference_solution``,
our extension of the format) through the same interface a model would use, proving the scenario solvable.

With the code-execution interface it sends each round's steps as one Python block run in the sandbox;
with the tool-use interfaces it makes one tool call per step. A failing step is a scenario bug, so it
raises :class:`SolutionError` (the episode records it as an error).

A round with an ``after_user`` part (UI mode: show a screen, reply, wait for the user's choice) takes two
user messages: the round's query starts part 0, and the user's next message (sent after clicking on the
screen, or instead of it) starts part 1 with the user's UI action, or the round's fallback, saved for its
steps.
"""

from __future__ import annotations

from typing import Any

from mmtsb.protocol.view import EpisodeView
from mmtsb.protocol.messages import AGENT, ENV, USER, Message, ToolCall
from mmtsb.protocol import Action, CallTools, Role, RunCode, Say
from mmtsb.scenarios.solution import ReferenceSolution, SolutionError, SolutionRunner
from mmtsb.tools.levels import level_of, level_python, reachable, to_level_call
from mmtsb.tools.session import ToolError, ToolOutcome
from mmtsb.protocol.registry import RoleRequest, agent_kind


class OracleAgent(Role):
    name = "oracle"

    def __init__(self, interface: str = "code_exec") -> None:
        super().__init__()
        self.interface = interface
        self.runner: SolutionRunner | None = None
        self.use_code = False
        self.round = 0
        self.part = 0
        self.step = 0
        self.code_sent = False
        self._ui_action: dict[str, Any] | None = None   # the latest UI interaction the environment reported
        self._scenario = ""
        self.level = "full"

    async def start(self, ctx: EpisodeView) -> None:
        solution = ReferenceSolution.from_scenario(ctx.scenario)
        if solution is None:
            raise SolutionError(f"scenario {ctx.scenario.name!r} has no metadata.reference_solution; "
                                "the oracle agent can only play scenarios that carry one")
        self.runner = SolutionRunner(solution)
        self.use_code = self.interface == "code_exec" and ctx.session.code_runner is not None
        self._scenario = ctx.scenario.name
        # the solution is written against FULL tools; at a reduced level each step is translated to the level tool
        self.level = level_of(ctx.registry)
        unreachable = [t for t in solution.tools() if not reachable(self.level, t)]
        if unreachable:
            raise SolutionError(f"the reference solution uses {', '.join(unreachable)}, which toolbox level "
                                f"{self.level!r} does not offer")

    def _continues(self) -> bool:
        """Whether the next user message answers the current round (its ``after_user`` part)."""
        return (self.runner is not None and self.part == 0 and self.round in self.runner.solution.round_numbers
                and self.runner.parts(self.round) > 1)

    def observe(self, message: Message) -> None:
        if message.sender == USER and message.recipient == AGENT:
            if self._continues():
                self.part = 1
                assert self.runner is not None
                self.runner.accept_ui_action(self.round, self._ui_action)
            else:
                self.round += 1
                self.part = 0
            self._ui_action = None
            self.step = 0
            self.code_sent = False
        elif message.sender == ENV and message.recipient == AGENT and message.meta.get("ui_event"):
            action = message.meta.get("user_action")
            self._ui_action = dict(action) if isinstance(action, dict) else None
        elif message.sender == ENV and message.recipient == AGENT and self.runner is not None:
            if self.use_code:
                if message.is_error:
                    raise SolutionError(f"the reference code failed: {message.content}", round_number=self.round)
                return
            index = int((message.tool_call_id or "").rsplit("_s", 1)[-1])
            outcome = ToolOutcome(tool=message.tool_name or "", arguments={}, value=message.meta.get("value"),
                                  error=ToolError(message.meta.get("error_type") or "Error", message.content)
                                  if message.is_error else None)
            self.runner.record(self.round, index, outcome, self.part)

    async def act(self) -> Action:
        assert self.runner is not None, "start() was not called"
        if self.round not in self.runner.solution.round_numbers:
            return Say("I have no reference actions for this request.")
        steps = self.runner.steps(self.round, self.part)
        if self.use_code:
            if steps and not self.code_sent:
                self.code_sent = True
                if self.level == "full":
                    return RunCode(self.runner.to_python(self.round, self.part))
                return RunCode(self._level_code())
            return Say(self.runner.reply(self.round, self.part))
        if self.step < len(steps):
            i = self.step
            self.step += 1
            name, arguments = to_level_call(self.level, steps[i].tool,
                                            self.runner.arguments_for(self.round, i, self.part))
            part = f"_p{self.part}" if self.part else ""
            call = ToolCall(id=f"oracle_r{self.round}{part}_s{i}", name=name, arguments=arguments)
            return CallTools([call])
        return Say(self.runner.reply(self.round, self.part))

    def _level_code(self) -> str:
        """A round part as Python over a reduced level's tools (part 1 first assigns the saved UI action)."""
        assert self.runner is not None
        runner, number, part = self.runner, self.round, self.part

        class _Part:  # level_python reads steps(round) only
            def steps(self, round_number: int) -> list[Any]:
                return runner.steps(round_number, part)

        code = level_python(_Part(), number, self.level)
        name = runner.ui_action_name(number) if part == 1 else None
        if name and name in runner.saved:
            code = f"{name} = {runner.saved[name]!r}\n{code}"
        return code


@agent_kind("oracle", interface=None, needs_model=False, discovery=False, needs_solution=True)
def oracle_agent(req: RoleRequest) -> OracleAgent:
    """Replays the scenario's reference solution through the configured interface (no model, no key)."""
    return OracleAgent(req.cfg.interface)
