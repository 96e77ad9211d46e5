"""The scenario authoring kit: draw ground-truth images, seed rows, write entity-diff specs and reference
solutions, and write scenario files deterministically; the shipped sets are built with it (``nominal/``, ``ui/``).

The kit's pieces, by module: :mod:`~mmtsb.authoring.draw` (the canvas), :mod:`~mmtsb.authoring.images` (image
templates), :mod:`~mmtsb.authoring.rows` (seed rows), :mod:`~mmtsb.authoring.specs` (entity-diff specs),
:mod:`~mmtsb.authoring.model` (users, rounds, definitions), :mod:`~mmtsb.authoring.writer` (scenario files),
:mod:`~mmtsb.authoring.clock` (the shared moments). ``python -m mmtsb.authoring nominal|ui`` regenerates a set.
"""

from __future__ import annotations

from mmtsb.authoring.clock import NOW, REFERENCE_TIME, SEED_TIME, TZ
from mmtsb.authoring.draw import GREY, INK, LIGHT, Sheet, font, png_bytes
from mmtsb.authoring.images import (
    ITEM_COLUMNS, bar_chart, book_cover, card, document, passport_page, phone_screen, poster, receipt, recipe_card,
    talk_card, zone_map,
)
from mmtsb.authoring.model import Definition, Round, User, check_definition, known_user, step
from mmtsb.authoring.rows import contact, gmail_user, note, phone_user, project, reminder, task
from mmtsb.authoring.specs import (
    create, create_alarm, create_comment, create_contact, create_email, create_event, create_note, create_reminder,
    create_task, create_text, delete, update, update_note, update_task,
)
from mmtsb.authoring.writer import number_placeholder_ids, scenario_json, write_scenario, write_set

__all__ = [
    # clock
    "NOW", "REFERENCE_TIME", "SEED_TIME", "TZ",
    # drawing
    "GREY", "INK", "LIGHT", "Sheet", "font", "png_bytes",
    "ITEM_COLUMNS", "bar_chart", "book_cover", "card", "document", "passport_page", "phone_screen", "poster",
    "receipt", "recipe_card", "talk_card", "zone_map",
    # model
    "Definition", "Round", "User", "check_definition", "known_user", "step",
    # seed rows
    "contact", "gmail_user", "note", "phone_user", "project", "reminder", "task",
    # entity-diff specs
    "create", "create_alarm", "create_comment", "create_contact", "create_email", "create_event", "create_note",
    "create_reminder", "create_task", "create_text", "delete", "update", "update_note", "update_task",
    # writing
    "number_placeholder_ids", "scenario_json", "write_scenario", "write_set",
]
