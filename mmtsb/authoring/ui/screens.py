"""Building blocks of UI rounds: the reference-solution steps that render and show an A2UI screen, and two
ready-made contact pickers (cards with one button each, or a templated list over the data model)."""

from __future__ import annotations

from typing import Any

from mmtsb.authoring.model import step
from mmtsb.ui.examples import button, column, comp, lit, ref, row, screen, text

__all__ = ["contact_cards", "contact_list", "escape", "quick_start", "render", "show"]


def escape(value: Any) -> Any:
    """Reference-solution arguments: a string starting with ``$`` is a reference, so literal text such as a
    price ("$247") is written ``$$247``."""
    if isinstance(value, str):
        return "$" + value if value.startswith("$") else value
    if isinstance(value, list):
        return [escape(v) for v in value]
    if isinstance(value, dict):
        return {k: escape(v) for k, v in value.items()}
    return value


def render(ui_json: list[dict[str, Any]]) -> dict[str, Any]:
    """A render_ui_screen step (literal screen, ``$`` escaped)."""
    return step("render_ui_screen", ui_json=escape(ui_json))


def show() -> dict[str, Any]:
    """A show_ui_to_user step: the rendered screen is shown and the user's action awaited."""
    return step("show_ui_to_user")


def quick_start() -> dict[str, Any]:
    """A ui_get_quick_start step: the A2UI primer an agent reads before writing a screen."""
    return step("ui_get_quick_start")


def contact_cards(surface: str, heading: str, people: list[dict[str, str]], action: str, verb: str,
                  keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """One card per contact (explicit children), each with its own button carrying the contact's details."""
    components = [column("root", "heading", "hint", *(f"card{i}" for i in range(len(people)))),
                  text("heading", heading, hint="h3"),
                  text("hint", "Tap the person you mean.", hint="caption")]
    for i, p in enumerate(people):
        components += [
            comp(f"card{i}", "Card", child=f"body{i}"),
            column(f"body{i}", f"name{i}", f"detail{i}", f"act{i}"),
            text(f"name{i}", p["name"], hint="h4"),
            text(f"detail{i}", p["detail"], hint="caption"),
            text(f"act{i}-label", f"{verb} {p['name']}"),
            button(f"act{i}", f"act{i}-label", action,
                   context={k: lit(p[k]) for k in keys}),
        ]
    return screen(surface, components)


def contact_list(surface: str, heading: str, people: dict[str, dict[str, str]], action: str,
                 keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """A templated List over the data model (one row per entry, each with a Choose button)."""
    return screen(surface, [
        column("root", "heading", "people"),
        text("heading", heading, hint="h3"),
        comp("people", "List", children={"template": {"componentId": "person", "dataBinding": "/people"}}),
        comp("person", "Card", child="person-row"),
        row("person-row", "person-info", "pick", distribution="spaceBetween"),
        column("person-info", "person-name", "person-detail"),
        text("person-name", path="name", hint="h4"),
        text("person-detail", path="detail", hint="caption"),
        text("pick-label", "Choose"),
        button("pick", "pick-label", action, context={k: ref(k) for k in keys}),
    ], data_at={f"/people/{key}": value for key, value in people.items()})
