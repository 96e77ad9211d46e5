"""The A2UI tools: render a screen, show it to the user, let the (simulated) user interact with it, and five
documentation tools.

State is per World (:mod:`mmtsb.ui.state`). Two typed queues of the World's episode state
(:mod:`mmtsb.world.episode_state`) connect the tools to the episode loop: ``shown_to_user`` (screenshots shown
to the user, shared with ``show_image_to_user``) and ``ui_events`` (user interactions reported to the agent as
``<ui_state_server>`` messages); a failed call's additions are rolled back with its savepoint.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from mmtsb.tools.spec import tool
from mmtsb.ui import docs
from mmtsb.ui.elements import elements_text
from mmtsb.ui.inspect import structure
from mmtsb.ui.interact import Interaction, interact, parse_field_values
from mmtsb.ui.render import render_empty, render_surface
from mmtsb.ui.state import RenderRecord, UIState, commit, ui_state
from mmtsb.ui.tree import display
from mmtsb.ui.validation import load_messages, parse_messages
from mmtsb.vision.store import ImageResult
from mmtsb.world.episode_state import ShownImage, UIEvent
from mmtsb.world.world import World

DOMAIN = "ui"
#: where ui_user_interact queues notifications for the agent: {"text", "image_id", "user_action"}
_PLACEHOLDER = re.compile(r"^IMAGE_URL_\d+$")


# ------------------------------------------------------------------------------------------ helpers
def _placeholder_uris(world: World, image_placeholders: Any) -> dict[str, str]:
    """``{"IMAGE_URL_1": 3}`` -> placeholder -> data URI of the stored image."""
    if image_placeholders is None:
        return {}
    if isinstance(image_placeholders, str):
        try:
            image_placeholders = json.loads(image_placeholders) if image_placeholders.strip() else {}
        except json.JSONDecodeError as e:
            raise ValueError(f"image_placeholders is not valid JSON ({e.msg}); pass an object such as "
                             '{"IMAGE_URL_1": 0}.') from None
    if not isinstance(image_placeholders, dict):
        raise ValueError('image_placeholders must be an object mapping placeholder names to image ids, e.g. '
                         f'{{"IMAGE_URL_1": 0}}; got {type(image_placeholders).__name__}.')
    uris = {}
    for key, value in image_placeholders.items():
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"image_placeholders[{key!r}] must be an integer image id, got {value!r}.")
        try:
            stored = world.images.get(value)
        except ValueError as e:
            raise ValueError(f"image_placeholders[{key!r}]: {e}") from None
        uris[str(key)] = f"data:{stored.mime_type};base64,{base64.b64encode(stored.data).decode('ascii')}"
    return uris


def _substitute(value: Any, uris: dict[str, str], used: set[str], unmapped: set[str]) -> Any:
    """Replace every string that is a placeholder name (optionally in braces) by its data URI."""
    if isinstance(value, str):
        name = value.strip().strip("{}").strip()
        if name in uris:
            used.add(name)
            return uris[name]
        if _PLACEHOLDER.match(name):
            unmapped.add(name)
        return value
    if isinstance(value, dict):
        return {k: _substitute(v, uris, used, unmapped) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, uris, used, unmapped) for v in value]
    return value


def _render(world: World, state: UIState, surface_id: str | None, highlight: str | None = None,
            warnings: list[str] | None = None) -> RenderRecord:
    """Draw a surface (or the empty screen), store the image and remember it as the latest render."""
    summary: dict[str, Any] | None = None
    if surface_id is None:
        image_id = world.images.add_pil(render_empty(), source="ui_render")
        elements = "(no surface is displayed)"
    else:
        surface = state.surfaces[surface_id]
        rendering = render_surface(surface, highlight)
        if warnings is not None:
            warnings += rendering.warnings
        image_id = world.images.add_pil(rendering.image, source="ui_render",
                                        meta={"surface_id": surface_id, "highlight": highlight})
        elements = elements_text(surface, rendering.tree)
        summary = structure(surface, rendering.tree).to_dict()
    state.last_render = RenderRecord(surface_id, state.version, image_id, elements, highlight)
    state.renders.append({"image_id": image_id, "surface_id": surface_id, "highlight": highlight,
                          "structure": summary})
    return state.last_render


def _touched(messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return list(dict.fromkeys(body["surfaceId"] for _, body in messages))


def _fmt(value: Any) -> str:
    """A data value for a notification: data URIs become '(image)'."""
    def scrub(v: Any) -> Any:
        if isinstance(v, str) and v.startswith("data:"):
            return "(image)"
        if isinstance(v, dict):
            return {k: scrub(x) for k, x in v.items()}
        if isinstance(v, list):
            return [scrub(x) for x in v]
        return v

    clean = scrub(value)
    if clean is None:
        return "(empty)"
    return json.dumps(clean, ensure_ascii=False) if isinstance(clean, dict | list) else display(clean)


def notification_text(inter: Interaction) -> str:
    """The ``<ui_state_server>`` message that tells the agent what the user did."""
    action = inter.user_action
    lines = ["<ui_state_server>", "User Interaction:", f"  Action: {action['name']}", "  Resolved data:"]
    lines += [f"    {k}: {_fmt(v)}" for k, v in action["context"].items()] or ["    (none)"]
    lines += [f"  Surface: {action['surfaceId']}", f"  Component: {action['sourceComponentId']}"]
    if inter.fields:
        lines.append("  Fields updated:")
        lines += [f"    {iid}{f' ({ptr})' if ptr else ''}: {_fmt(v)}" for iid, ptr, v in inter.fields]
    lines.append("</ui_state_server>")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ execution tools
@tool(domain=DOMAIN, mutates=True, tables=("IMAGE",))
def render_ui_screen(world: World, ui_json: Any, image_placeholders: Any = None) -> dict[str, Any]:
    """Validates A2UI v0.8 messages, applies them to the UI and renders the shown surface to a screenshot.

    Send a list of messages, each an object with exactly one key: surfaceUpdate {surfaceId, components},
    dataModelUpdate {surfaceId, path?, contents}, beginRendering {surfaceId, root} (last: it selects the surface
    to draw) or deleteSurface {surfaceId}. Components use the standard catalog (Text, Image, Icon, Row, Column,
    List, Card, Divider, Button, TextField, DateTimeInput, CheckBox, MultipleChoice, Slider, Tabs, Modal, Video,
    AudioPlayer). Later calls update the same surface (same surfaceId). Nothing changes when validation fails:
    the error lists every problem with its path, e.g. "messages[0].surfaceUpdate.components[2] (id 'ok')
    .component.Button: missing required property 'action'". Call ui_get_quick_start first if unsure. The user
    does not see the screen until you call show_ui_to_user.

    Args:
        ui_json: the A2UI messages: a list (recommended), one message object, or a JSON string of either.
        image_placeholders: optional map from placeholder names used as image URLs to image ids of this
            conversation, e.g. {"IMAGE_URL_1": 0}; each placeholder is replaced by that image.

    Returns:
        A dict with "image" (the ImageResult of the screenshot), "ui_interactive_elements" (one line per button
        and input with its id, action or data path) and, when something was drawn as missing or unresolved,
        "warning".
    """
    uris = _placeholder_uris(world, image_placeholders)
    used: set[str] = set()
    unmapped: set[str] = set()
    raw = _substitute(load_messages(ui_json), uris, used, unmapped)
    messages = parse_messages(raw)
    state = ui_state(world).copy()
    warnings = state.apply(messages)
    warnings += [f"image_placeholders: {k} is not used by any message" for k in sorted(set(uris) - used)]
    warnings += [f"{k} is used as an image URL but has no image id in image_placeholders (drawn as a placeholder)"
                 for k in sorted(unmapped)]
    surface = state.target_surface(_touched(messages), warnings)
    if surface is None and state.surfaces:
        pending = ", ".join(repr(s) for s in state.surfaces)
        raise ValueError(f"Nothing to render: no surface has been started. Add a beginRendering message, e.g. "
                         f'{{"beginRendering": {{"surfaceId": "...", "root": "<root component id>"}}}} '
                         f"(surfaces so far: {pending}).")
    record = _render(world, state, surface.surface_id if surface else None, warnings=warnings)
    commit(world, state)
    result: dict[str, Any] = {"image": ImageResult(record.image_id), "ui_interactive_elements": record.elements}
    if warnings:
        result["warning"] = "\n".join(dict.fromkeys(warnings))
    return result


@tool(domain=DOMAIN, mutates=True, tables=("IMAGE",))
def show_ui_to_user(world: World) -> str:
    """Shows the current UI screen to the user, with the list of its buttons and inputs.

    Call it after render_ui_screen, once the screenshot looks right; then reply to the user and wait. The user
    answers by interacting with the screen; that interaction reaches you as a <ui_state_server> "User
    Interaction" message with the action and its resolved data. Fails when no screen has been rendered.

    Returns:
        "UI shown to user. Surface: <surface id>".
    """
    state = ui_state(world).copy()
    sid = state.active if state.active in state.surfaces else None
    if sid is None:
        raise ValueError("No UI to show: render a screen with render_ui_screen first (it needs a beginRendering "
                         "message).")
    record = state.last_render
    if record is None or record.surface_id != sid or record.version != state.version or record.highlight:
        record = _render(world, state, sid)
    message = f"<ui_state_server>\nInteractive Elements:\n{record.elements}\n</ui_state_server>"
    state.shown.append({"surface_id": sid, "image_id": record.image_id})
    commit(world, state)
    world.episode.shown_to_user.append(ShownImage(record.image_id, message))
    return f"UI shown to user. Surface: {sid}"


@tool(domain=DOMAIN, mutates=True, visible_to=("user",), tables=("IMAGE", "SANDBOX"))
def ui_user_interact(world: World, action_name: str, surface_id: str, component_id: str,
                     field_values: Any = None) -> str:
    """Interacts with the UI screen you were shown: fills inputs, then presses a button.

    Use the ids from the screen's list of interactive elements. The input values are stored first, then the
    button's action is sent to the assistant with its data. Fails, changing nothing, when an id is unknown, a
    value does not fit its input, or action_name is not the button's action.

    Args:
        action_name: the action of the button you press, as listed (e.g. "submit_booking").
        surface_id: the id of the screen (its "Surface:" line).
        component_id: the id of the button you press (for repeated items, the listed id such as "pick@c2").
        field_values: optional object mapping input ids to values, e.g. {"guest": "Ada", "agree": true}:
            text and dates (ISO 8601) as strings, checkboxes true/false, sliders a number in range, multiple
            choice a list of option values.

    Returns:
        A summary of the interaction and the id of the updated screenshot (the pressed button outlined in red).
    """
    state = ui_state(world).copy()
    surface = state.surface(surface_id)
    values = parse_field_values(field_values)
    inter = interact(surface, component_id, action_name, values, world.clock.now().isoformat())
    state.version += 1
    record = _render(world, state, surface_id, highlight=inter.clicked.iid)
    state.history.append({"user_action": inter.user_action, "image_id": record.image_id,
                          "field_values": {iid: v for iid, _, v in inter.fields}})
    commit(world, state)
    world.episode.ui_events.append(UIEvent(notification_text(inter), record.image_id, inter.user_action))
    filled = "; ".join(f"{iid} = {_fmt(v)}" for iid, _, v in inter.fields) or "none"
    return (f"User Interaction on surface {surface_id!r}: pressed {inter.clicked.iid!r} (action {action_name!r}). "
            f"Fields updated: {filled}. The assistant has been notified. "
            f"Updated UI: {ImageResult(record.image_id)!r}")


# ------------------------------------------------------------------------------------------ documentation tools
@tool(domain=DOMAIN)
def ui_get_quick_start(world: World) -> str:
    """One-page guide to building UI screens (message format, patterns, a full example, the component list).

    Call it once before your first render_ui_screen.

    Returns:
        The guide as text.
    """
    return docs.quick_start()


@tool(domain=DOMAIN)
def ui_explore_capabilities(world: World) -> list[str]:
    """Lists the UI documentation categories, to browse with ui_list_items.

    Returns:
        Category names: Concepts, Components, Server Actions, Client Actions, Examples.
    """
    return list(docs.CATEGORIES)


@tool(domain=DOMAIN)
def ui_list_items(world: World, category: str) -> list[str]:
    """Lists the entries of one UI documentation category with a short description each.

    Args:
        category: a category from ui_explore_capabilities, e.g. "Components", "Examples" or "Concepts"
            (case-insensitive).

    Returns:
        One "name: description" string per entry; pass the name to ui_get_item_details.
    """
    return [item.line for item in docs.items_in(category)]


@tool(domain=DOMAIN)
def ui_get_item_details(world: World, category: str, item_name: str) -> str:
    """Returns the full documentation of one UI item: a component's properties and usage, a concept, a message
    or a complete example screen.

    Args:
        category: the item's category, e.g. "Components" or "Examples".
        item_name: the item's name as listed by ui_list_items, e.g. "Button" or "booking_form".

    Returns:
        The item's documentation as text (examples include their full JSON).
    """
    return docs.item_details(category, item_name).content


@tool(domain=DOMAIN)
def ui_search_docs(world: World, query: str) -> str:
    """Searches the UI documentation (concepts, components, messages, examples) and ranks the matches.

    Args:
        query: words to look for, e.g. "date picker", "template list" or "image placeholder".

    Returns:
        The best matches (at most 10), most relevant first, as "[Category] name: description" lines.
    """
    if not str(query).strip():
        raise ValueError("query must not be empty; try e.g. 'button action', 'templated list' or 'date input'.")
    hits = docs.search(query)
    if not hits:
        return (f"No UI docs match {query!r}. Categories: {', '.join(docs.CATEGORIES)}; browse them with "
                "ui_list_items(category).")
    lines = [f"{i}. [{item.category}] {item.line}" for i, (item, _) in enumerate(hits, 1)]
    return (f"UI docs matching {query!r} (most relevant first):\n" + "\n".join(lines)
            + "\nCall ui_get_item_details(category, item_name) for the full entry.")
