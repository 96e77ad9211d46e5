"""What tools produce for one episode beside the database, in typed fields: images the agent showed the user
(to be delivered by the loop), the user's UI interactions to report to the agent, the UI state, and whether the
user ended the conversation.

Why here and typed: these used to live in an untyped ``world.metadata`` dict under string keys, which the
tool-call savepoint did not cover, so a tool that failed after queueing an image still delivered it. Now
:meth:`World.savepoint` marks this state with the database and rolls both back together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mmtsb.ui.state import UIState


@dataclass(frozen=True)
class ShownImage:
    """An image the agent showed the user (``show_image_to_user``, ``show_ui_to_user``), with its message."""

    image_id: int
    message: str = ""


@dataclass(frozen=True)
class UIEvent:
    """What the user did on an interactive screen, reported to the agent: the notification text, the updated
    screenshot and the A2UI userAction."""

    text: str
    image_id: int | None = None
    user_action: dict | None = None


@dataclass(frozen=True)
class EpisodeStateMark:
    """Where a savepoint found the episode state (the queues only grow inside a tool call)."""

    shown: int
    ui_events: int
    ui: object
    conversation_ended: bool


@dataclass
class EpisodeState:
    """The episode-scoped state tools produce (see the module docstring). The loop drains the two queues."""

    #: images for the user, in order; the loop delivers and removes them after each tool call
    shown_to_user: list[ShownImage] = field(default_factory=list)
    #: the user's UI interactions for the agent, in order; drained like ``shown_to_user``
    ui_events: list[UIEvent] = field(default_factory=list)
    #: the UI tools' state (surfaces, renders, history); UI tools replace it as a whole when a call succeeds
    ui: UIState | None = None
    #: set by the user's end_conversation tool
    conversation_ended: bool = False

    def mark(self) -> EpisodeStateMark:
        return EpisodeStateMark(len(self.shown_to_user), len(self.ui_events), self.ui, self.conversation_ended)

    def rollback(self, mark: EpisodeStateMark) -> None:
        """Undo what a failed tool call added since ``mark``."""
        del self.shown_to_user[mark.shown:]
        del self.ui_events[mark.ui_events:]
        self.ui = mark.ui  # type: ignore[assignment]
        self.conversation_ended = mark.conversation_ended
