"""UI scenario 3, converting starter scenario 3: the two nonstop flights side by side; the user picks the cheaper
one, the agent books it."""

from __future__ import annotations

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.model import step
from mmtsb.authoring.nominal import s003
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.ui.screens import quick_start, render, show
from mmtsb.ui.examples import button, column, comp, lit, row, screen, text


def variant() -> UIVariant:
    """The variant behind mmtsb_ui_003."""
    flights = [("SW 418", "SkyWay Air", "6:05 AM", "8:14 AM", "$289", "2026-04-20T06:05:00", "2026-04-20T08:14:00"),
               ("NS 1127", "Northstar", "7:40 AM", "9:52 AM", "$247", "2026-04-20T07:40:00", "2026-04-20T09:52:00")]
    components = [column("root", "heading", "options"), text("heading", "Monday, April 20 - SEA to SFO", hint="h3"),
                  row("options", *(f"f{i}" for i in range(len(flights))))]
    for i, f in enumerate(flights):
        components += [
            comp(f"f{i}", "Card", weight=1, child=f"fb{i}"),
            column(f"fb{i}", f"fn{i}", f"ft{i}", f"fs{i}", f"fp{i}", f"fa{i}"),
            text(f"fn{i}", f"{f[1]} {f[0]}", hint="h4"),
            text(f"ft{i}", f"{f[2]} - {f[3]}"),
            text(f"fs{i}", "Nonstop", hint="caption"),
            text(f"fp{i}", f[4], hint="h3"),
            text(f"fa{i}-label", f"Choose {f[0]}"),
            button(f"fa{i}", f"fa{i}-label", "choose_flight", primary=True, context={
                "flight": lit(f[0]), "title": lit(f"Flight to San Francisco ({f[0]})"),
                "start": lit(f[5] + TZ), "end": lit(f[6] + TZ)}),
        ]
    ns = flights[1]
    ui = UIRound(
        1,
        "I need to fly to San Francisco on Monday for a conference. Show me these two nonstop options side by side "
        "so I can pick one, then put my pick on my Work calendar, titled 'Flight to San Francisco (<flight "
        "number>)', from departure to arrival.",
        "Send the two flight screenshots and ask to see the two options side by side so you can choose. When the "
        "assistant presents them, select the cheaper flight, Northstar NS 1127, via `ui_user_interact`. If no "
        "interactive UI is shown, tell the assistant you want the cheaper one. Do not mention the prices yourself. "
        "Once it confirms the calendar event, move on to the next round.",
        "Round 1: The agent must present the two flight options with their times and prices in a structured "
        "interactive UI that lets the user select which flight to book.",
        [quick_start(), render(screen("choose-flight", components)), show()],
        "Here are the two nonstop flights side by side; choose the one you want on the screen.",
        [step("search_calendars", "work", title="Work"),
         step("create_calendar_event", "flight", calendar_id="$work.0.calendar_id", title="$picked.context.title",
              start_datetime="$picked.context.start", end_datetime="$picked.context.end")],
        f"I added 'Flight to San Francisco ({ns[0]})' to your Work calendar on Monday from 7:40 to 9:52 AM.",
        {"name": "choose_flight", "context": {"flight": ns[0], "title": f"Flight to San Francisco ({ns[0]})",
                                              "start": ns[5] + TZ, "end": ns[6] + TZ}},
        "Northstar NS 1127", "Chose it on the screen, the Northstar one.",
        "Let's take the cheaper one.")
    return UIVariant(3, s003.definition, "(UI mode: the flight is chosen on a screen.)", [ui])
