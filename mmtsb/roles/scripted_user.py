"""The offline scripted user: delivers each round's query with its images, in order, moving on whenever
the agent replies, and ends the conversation after the last round. Deterministic; no model.

UI choices (``metadata.ui_interactions``, see :class:`mmtsb.scenarios.script.UIInteraction`): in a round that
scripts one, the user's next turn after the agent's reply makes the choice. In UI mode, when the agent has
shown an interactive screen offering it, the user presses the button with ``ui_user_interact`` and then says
the scripted message (the click alone does not hand the turn back); otherwise, or when the interaction fails,
it says the scripted fallback in words. The user reads the screen it was shown from the episode's UI state,
as a person reads the screenshot.
"""

from __future__ import annotations

from mmtsb.protocol.view import EpisodeView
from mmtsb.protocol.messages import AGENT, ENV, USER, Message, ToolCall
from mmtsb.protocol import Action, CallTools, Role, Say
from mmtsb.scenarios.script import UI_INTERACTIONS_KEY, UIInteraction, parse_ui_interactions
from mmtsb.protocol.registry import RoleRequest, user_kind

UI_NOTE = "<ui_state_server>"
INTERACT = "ui_user_interact"


class ScriptedUser(Role):
    name = "scripted"

    def __init__(self) -> None:
        super().__init__()
        self._rounds: list = []
        self._next = 1  # index into rounds of the next round to deliver (round 1 is the scenario's first message)
        self._ctx: EpisodeView | None = None
        self._ui: dict[int, list[UIInteraction]] = {}
        self._pending: list[UIInteraction] = []    # choices still to make in the current round
        self._shown = False                        # an interactive screen was shown since the user last spoke
        self._clicked: tuple[UIInteraction, str] | None = None   # the interaction sent, and its call id
        self._calls = 0

    async def start(self, ctx: EpisodeView) -> None:
        self._ctx = ctx
        self._rounds = list(ctx.script.rounds)
        extra = ctx.scenario.metadata.model_extra or {}
        self._ui = parse_ui_interactions(extra.get(UI_INTERACTIONS_KEY))
        if self._rounds:
            self._pending = list(self._ui.get(self._rounds[0].number, []))

    async def act(self) -> Action:
        if self._clicked is not None:  # the interaction's result came back: hand the turn to the agent
            step, outcome = self._clicked
            self._clicked = None
            return Say(step.message if outcome == "ok" else step.fallback)
        if self._pending:
            step = self._pending.pop(0)
            call = self._ui_call(step) if self._shown else None
            self._shown = False
            if call is not None:
                self._clicked = (step, "pending")
                return CallTools([call])
            return Say(step.fallback)
        if self._next < len(self._rounds):
            r = self._rounds[self._next]
            self._next += 1
            self._pending = list(self._ui.get(r.number, []))
            self._shown = False
            return Say(r.query, list(r.provide_image_ids))
        return CallTools([ToolCall(id=f"user_end_{self._next}", name="end_conversation", arguments={})])

    def observe(self, message: Message) -> None:
        """The script does not depend on what the agent says; only whether a UI screen was shown, and the
        result of the user's own interaction, matter."""
        if message.sender == AGENT and message.recipient == USER and UI_NOTE in (message.content or ""):
            self._shown = True
        elif message.sender == ENV and message.recipient == USER and message.tool_name == INTERACT \
                and self._clicked is not None:
            self._clicked = (self._clicked[0], "error" if message.is_error else "ok")

    def _ui_call(self, step: UIInteraction) -> ToolCall | None:
        """The ui_user_interact call that makes the scripted choice on the screen last shown (UI mode only);
        None when there is no such screen or it offers no matching button."""
        if self._ctx is None or not self._ctx.ui:
            return None
        from mmtsb.ui.inspect import find_choice
        from mmtsb.ui.state import ui_state
        from mmtsb.ui.tree import build_tree, find

        state = ui_state(self._ctx.world)
        shown = state.shown[-1]["surface_id"] if state.shown else None
        surface = state.surfaces.get(shown) if shown else None
        if surface is None:
            return None
        if step.component_id and step.action_name and find(build_tree(surface), step.component_id) is not None:
            action, component = step.action_name, step.component_id
        else:
            choice = find_choice(surface, step.choose)
            if choice is None:
                return None
            action, component = choice.action, choice.iid
        args: dict = {"action_name": action, "surface_id": surface.surface_id, "component_id": component}
        if step.field_values:
            args["field_values"] = dict(step.field_values)
        self._calls += 1
        return ToolCall(id=f"user_ui_{self._calls}", name=INTERACT, arguments=args)


@user_kind("scripted", needs_model=False)
def scripted_user(req: RoleRequest) -> ScriptedUser:
    """The scenario's scripted user: replays the SYSTEM->USER script (queries and images per round)."""
    return ScriptedUser()
