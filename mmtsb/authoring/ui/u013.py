"""UI scenario 13, converting starter scenario 13: a confirmation screen before the afternoon talk is removed; the
user confirms on it."""

from __future__ import annotations

from mmtsb.authoring.nominal import s013
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.ui.screens import quick_start, render, show
from mmtsb.ui.examples import button, column, comp, lit, row, screen, text


def variant() -> UIVariant:
    """The variant behind mmtsb_ui_013."""
    base = s013.definition()
    r2 = base.rounds[1]
    remove_step, text_step = r2.steps
    dialog = screen("confirm-removal", [
        comp("root", "Card", child="body"),
        column("body", "title", "summary", "divider", "buttons"),
        text("title", "Remove this talk from your calendar?", hint="h3"),
        column("summary", "t-row", "w-row", "s-row"),
        row("t-row", "t-k", "t-v", distribution="spaceBetween"),
        text("t-k", "Talk", hint="caption"), text("t-v", "Incident Reviews That Work", hint="h4"),
        row("w-row", "w-k", "w-v", distribution="spaceBetween"),
        text("w-k", "When", hint="caption"), text("w-v", "Tuesday, April 21 - 1:30 to 2:15 PM (after noon)"),
        row("s-row", "s-k", "s-v", distribution="spaceBetween"),
        text("s-k", "Speaker", hint="caption"), text("s-v", "Sarah Ritter - I'll text her for the slides"),
        comp("divider", "Divider"),
        row("buttons", "keep", "remove", distribution="end"),
        text("keep-label", "Keep it"), button("keep", "keep-label", "keep_talk"),
        text("remove-label", "Remove talk"),
        button("remove", "remove-label", "remove_talk", primary=True,
               context={"talk": lit("Incident Reviews That Work"), "speaker": lit("Sarah Ritter")}),
    ])
    ui = UIRound(
        2,
        "Change of plans: I can only stay until noon on Tuesday. Show me which of those talks start after 12:00 so "
        "I can confirm before you remove them, and then text the speaker whose talk I'll miss to ask for the "
        "slides.",
        "Tell the assistant you now have to leave at noon, and ask it to show you the calendar talks starting after "
        "12:00 for confirmation before removing them, then to text that speaker for the slides. When the assistant "
        "shows the talk to remove, confirm the removal via `ui_user_interact`. If no interactive UI is shown, tell "
        "it to go ahead and remove it. If it asks who to text, say it's whoever's talk you'll miss. End the "
        "conversation once the event is removed and the text sent.",
        "Round 2: The agent must present the talk that starts after noon in a structured interactive confirmation "
        "UI (with confirm and cancel actions) before removing it.",
        [quick_start(), render(dialog), show()],
        "Only 'Incident Reviews That Work' (1:30 PM) starts after noon; please confirm the removal on the screen.",
        [remove_step, text_step],
        "I removed 'Incident Reviews That Work' (1:30 PM) and texted Sarah Ritter asking for her slides.",
        {"name": "remove_talk", "context": {"talk": "Incident Reviews That Work", "speaker": "Sarah Ritter"}},
        "Remove talk", "Confirmed on the screen, go ahead.", "Yes, go ahead and remove it.")
    return UIVariant(13, s013.definition, "(UI mode: the removal is confirmed on a screen.)", [ui])
