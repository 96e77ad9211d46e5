"""The eight UI tools through a ToolSession: catalog signatures, render/show/interact round trips, precise
failures that change nothing, per-World state, placeholders, and the documentation tools."""

from __future__ import annotations

import json

import pytest
from testkit import REFERENCE, call_err, call_ok

from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.ui.examples import EXAMPLES, column, comp, lit, ref, screen, text
from mmtsb.ui.render.painter import RED
from mmtsb.ui.state import ui_state
from mmtsb.ui.validation import parse_messages
from mmtsb.vision.store import ImageResult
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.world import World

CATALOG = REFERENCE / "tool_catalog.json"
UI_TOOLS = ["render_ui_screen", "show_ui_to_user", "ui_user_interact", "ui_get_quick_start",
            "ui_explore_capabilities", "ui_list_items", "ui_get_item_details", "ui_search_docs"]


def booking(ui, **args):
    return call_ok(ui, "render_ui_screen", ui_json=EXAMPLES["booking_form"][1](), **args)


def interact(ui, **args):
    return ui.call("ui_user_interact", args, role="user")


# ------------------------------------------------------------------------------------------ catalog
@pytest.mark.skipif(not CATALOG.exists(), reason="the reference tool catalog is absent")
@pytest.mark.parametrize("name", UI_TOOLS)
def test_signature_matches_the_catalog(name):
    entry = next(t for t in json.loads(CATALOG.read_text()) if t["name"] == name)
    spec = ToolRegistry.from_modules(["mmtsb.ui.tools"]).get(name)
    assert [(p.name, p.catalog_type, p.required, p.catalog_default) for p in spec.params] == \
        [(p["name"], p["type"], p["required"], p["default"]) for p in entry["params"]]
    ours = (spec.domain, list(spec.visible_to), spec.mutates)
    assert ours == (entry["domain"], entry["visible_to"], entry["mutates"])
    assert not spec.requires.auth and not spec.requires.network


def test_the_module_registers_exactly_the_eight_tools():
    assert sorted(ToolRegistry.from_modules(["mmtsb.ui.tools"]).names()) == sorted(UI_TOOLS)


# ------------------------------------------------------------------------------------------ render_ui_screen
def test_render_returns_the_screenshot_and_the_interactive_elements(ui, world):
    out = ui.call("render_ui_screen", {"ui_json": EXAMPLES["booking_form"][1]()})
    assert out.ok and set(out.value) == {"image", "ui_interactive_elements"}
    image = out.value["image"]
    assert isinstance(image, ImageResult) and out.images == [image.image_id]
    stored = world.images.get(image.image_id)
    assert stored.mime_type == "image/png" and stored.size[0] == 600 and stored.source == "ui_render"
    elements = out.value["ui_interactive_elements"]
    assert elements.splitlines()[0] == "Surface: hotel-booking"
    assert '- TextField "Guest name" (id: guest, type: shortText, path: /booking/guest, value: "")' in elements
    assert '- Slider "Guests" [1-6] (id: guests, path: /booking/guests, value: 2)' in elements
    assert "- Button \"Book now\" (id: book, action: submit_booking, context: guest, checkin" in elements
    assert "ui_user_interact(" in elements
    state = world.episode.ui
    assert state.active == "hotel-booking" and state.surfaces["hotel-booking"].data["booking"]["guests"] == 2


def test_render_accepts_a_json_string_and_updates_an_existing_surface(ui, world):
    booking(ui)
    update = {"dataModelUpdate": {"surfaceId": "hotel-booking", "path": "/booking/guest",
                                  "contents": [{"key": "first", "valueString": "Ada"}]}}
    out = call_ok(ui, "render_ui_screen", ui_json=json.dumps(update))
    assert ui_state(world).surfaces["hotel-booking"].data["booking"]["guest"] == {"first": "Ada"}
    assert out["image"].image_id == 1


def test_invalid_ui_changes_nothing(ui, world):
    booking(ui)
    before = (len(world.images), ui_state(world).version)
    bad = [{"surfaceUpdate": {"surfaceId": "hotel-booking", "components": [
        {"id": "title", "component": {"Text": {"text": {"literalString": "New"}}}},
        {"id": "book", "component": {"Button": {"child": "book-label"}}}]}}]
    err = call_err(ui, "render_ui_screen", ui_json=bad)
    assert err.type == "A2UIValidationError"
    assert ("messages[0].surfaceUpdate.components[1] (id 'book').component.Button: missing required property "
            "'action'") in err.message
    assert (len(world.images), ui_state(world).version) == before
    assert ui_state(world).surfaces["hotel-booking"].components["title"]["props"]["text"]["literalString"] != "New"


def test_render_warns_about_missing_children_and_draws_them(ui, world):
    out = call_ok(ui, "render_ui_screen", ui_json=screen("s", [column("root", "a", "ghost"), text("a", "A")]))
    assert "component 'ghost' is referenced but not defined" in out["warning"]
    img = world.images.get(out["image"].image_id).open().convert("RGB")
    assert sum(n for n, c in img.getcolors(1 << 20) if c == RED) > 20


def test_a_surface_without_begin_rendering(ui, world):
    no_root = [{"surfaceUpdate": {"surfaceId": "t", "components": [text("main", "Hi")]}}]
    err = call_err(ui, "render_ui_screen", ui_json=no_root)
    assert "Nothing to render: no surface has been started. Add a beginRendering message" in err.message
    assert ui_state(world).surfaces == {} and len(world.images) == 0

    with_root = [{"surfaceUpdate": {"surfaceId": "s", "components": [text("root", "Hi")]}}]
    out = call_ok(ui, "render_ui_screen", ui_json=with_root)
    assert "surface 's' has no beginRendering message; drew its component 'root'" in out["warning"]
    assert ui_state(world).active == "s"

    other = [{"surfaceUpdate": {"surfaceId": "u", "components": [text("root", "Other")]}}]
    out = call_ok(ui, "render_ui_screen", ui_json=other)
    assert "surface 'u' was updated but is not shown (no beginRendering yet); the screenshot shows 's'" \
        in out["warning"]


def test_delete_surface_falls_back_to_the_other_or_an_empty_screen(ui, world):
    booking(ui)
    call_ok(ui, "render_ui_screen", ui_json=EXAMPLES["contact_list"][1]())
    out = call_ok(ui, "render_ui_screen", ui_json={"deleteSurface": {"surfaceId": "contacts"}})
    assert ui_state(world).active == "hotel-booking" and out["ui_interactive_elements"].startswith("Surface: hotel")
    out = call_ok(ui, "render_ui_screen", ui_json={"deleteSurface": {"surfaceId": "hotel-booking"}})
    assert out["ui_interactive_elements"] == "(no surface is displayed)" and ui_state(world).surfaces == {}
    out = call_ok(ui, "render_ui_screen", ui_json={"deleteSurface": {"surfaceId": "nope"}})
    assert "there is no surface 'nope' to delete" in out["warning"]


def test_image_placeholders_are_replaced_by_the_stored_images(ui, world, photos):
    out = call_ok(ui, "render_ui_screen", ui_json=EXAMPLES["image_choice"][1](),
                  image_placeholders={"IMAGE_URL_1": photos[0], "IMAGE_URL_2": str(photos[1])})
    assert "warning" not in out
    img = world.images.get(out["image"].image_id).open().convert("RGB")
    colours = {c: n for n, c in img.getcolors(1 << 20)}
    assert colours.get((255, 140, 0), 0) > 150 * 100 and colours.get((0, 128, 128), 0) > 100 * 150
    url = ui_state(world).surfaces["photo-choice"].components["img1"]["props"]["url"]["literalString"]
    assert url.startswith("data:image/png;base64,")


def test_unmapped_and_unused_placeholders_are_warned_about(ui, photos):
    out = call_ok(ui, "render_ui_screen", ui_json=EXAMPLES["image_choice"][1](),
                  image_placeholders=json.dumps({"IMAGE_URL_1": 0, "IMAGE_URL_9": 1}))
    assert "image_placeholders: IMAGE_URL_9 is not used by any message" in out["warning"]
    assert "IMAGE_URL_2 is used as an image URL but has no image id in image_placeholders" in out["warning"]


@pytest.mark.parametrize(("placeholders", "message"), [
    ({"IMAGE_URL_1": 7}, "image_placeholders['IMAGE_URL_1']: Image with ID 7 not found. Valid image ids: 0..1"),
    ({"IMAGE_URL_1": "first"}, "image_placeholders['IMAGE_URL_1'] must be an integer image id, got 'first'"),
    (["IMAGE_URL_1"], "image_placeholders must be an object mapping placeholder names to image ids"),
    ("{not json", "image_placeholders is not valid JSON"),
])
def test_bad_image_placeholders_fail_precisely(ui, photos, placeholders, message):
    err = call_err(ui, "render_ui_screen", ui_json=EXAMPLES["image_choice"][1](), image_placeholders=placeholders)
    assert message in err.message


def test_ui_state_is_per_world(ui, world):
    booking(ui)
    other = World(device.core_tables(), Clock.at("2026-01-01T00:00:00+00:00"))
    try:
        assert ui_state(other).surfaces == {} and "hotel-booking" in ui_state(world).surfaces
        err = call_err(ToolSession(other, ui.registry), "show_ui_to_user")
        assert "No UI to show" in err.message
    finally:
        other.close()


# ------------------------------------------------------------------------------------------ show_ui_to_user
def test_show_queues_the_screenshot_and_elements_for_the_user(ui, world):
    rendered = booking(ui)
    assert call_ok(ui, "show_ui_to_user") == "UI shown to user. Surface: hotel-booking"
    (item,) = world.episode.shown_to_user
    assert item.image_id == rendered["image"].image_id  # the cached render is reused
    assert item.message.startswith("<ui_state_server>\nInteractive Elements:\nSurface: hotel-booking\n")
    assert item.message.endswith("\n</ui_state_server>")
    assert len(world.images) == 1
    assert ui_state(world).shown == [{"surface_id": "hotel-booking", "image_id": 0}]


def test_show_without_a_screen_fails(ui, world):
    err = call_err(ui, "show_ui_to_user")
    assert err.message.startswith("No UI to show: render a screen with render_ui_screen first")
    assert world.episode.shown_to_user == []


# ------------------------------------------------------------------------------------------ ui_user_interact
def test_form_round_trip(ui, world):
    booking(ui)
    call_ok(ui, "show_ui_to_user")
    values = {"guest": "Ada Lovelace", "checkin": "2026-05-01", "checkout": "2026-05-04", "guests": "3",
              "room": ["Deluxe"], "breakfast": "true"}
    out = interact(ui, action_name="submit_booking", surface_id="hotel-booking", component_id="book",
                   field_values=values)
    assert out.ok, out.error
    data = ui_state(world).surfaces["hotel-booking"].data["booking"]
    assert data == {"guest": "Ada Lovelace", "checkin": "2026-05-01", "checkout": "2026-05-04", "guests": 3,
                    "breakfast": True, "room": ["deluxe"]}
    # the highlighted screenshot
    highlight_id = len(world.images) - 1
    assert out.value.endswith(f"Updated UI: ImageResult(image_id={highlight_id})")
    assert "pressed 'book' (action 'submit_booking')" in out.value and "guest = Ada Lovelace" in out.value
    img = world.images.get(highlight_id).open().convert("RGB")
    assert sum(n for n, c in img.getcolors(1 << 20) if c == RED) > 200
    # the notification for the agent
    (event,) = world.episode.ui_events
    assert event.image_id == highlight_id
    assert event.text.startswith("<ui_state_server>\nUser Interaction:\n  Action: submit_booking\n"
                                    "  Resolved data:\n    guest: Ada Lovelace\n    checkin: 2026-05-01\n")
    assert "    room: [\"deluxe\"]\n    breakfast: true\n  Surface: hotel-booking\n  Component: book\n" in event.text
    assert "    guests (/booking/guests): 3\n" in event.text
    action = event.user_action
    assert action == {"name": "submit_booking", "surfaceId": "hotel-booking", "sourceComponentId": "book",
                      "timestamp": "2026-04-16T23:51:15+00:00",
                      "context": {"guest": "Ada Lovelace", "checkin": "2026-05-01", "checkout": "2026-05-04",
                                  "guests": 3, "room": ["deluxe"], "breakfast": True}}
    assert ui_state(world).history[-1]["user_action"] == action
    # showing the screen again re-renders it without the highlight
    call_ok(ui, "show_ui_to_user")
    assert world.episode.shown_to_user[-1].image_id == highlight_id + 1
    assert 'value: "Ada Lovelace"' in world.episode.shown_to_user[-1].message


def test_clicking_a_templated_button_resolves_its_item(ui, world):
    call_ok(ui, "render_ui_screen", ui_json=EXAMPLES["contact_list"][1]())
    out = interact(ui, action_name="select_contact", surface_id="contacts", component_id="pick@c2")
    assert out.ok, out.error
    event = world.episode.ui_events[-1]
    assert event.user_action["context"] == {"name": "Ben Okafor", "phone": "+1 555 0102"}
    assert event.user_action["sourceComponentId"] == "pick@c2"
    assert "Fields updated" not in event.text
    out = interact(ui, action_name="select_contact", surface_id="contacts", component_id="pick")
    assert not out.ok and "No component 'pick' on surface 'contacts'. Buttons: pick@c1, pick@c2, pick@c3." \
        in out.error.message


def test_fields_bound_to_literals_keep_the_users_value(ui, world):
    comps = [column("root", "nick", "go"), comp("nick", "TextField", label=lit("Nickname"), text=lit("")),
             text("go-l", "Go"), comp("go", "Button", child="go-l", action={"name": "go", "context": [
                 {"key": "fixed", "value": {"literalNumber": 4}}, {"key": "img", "value": {"path": "/pic"}}]})]
    uri = "data:image/png;base64,AAAA"
    call_ok(ui, "render_ui_screen", ui_json=screen("s", comps, data={"pic": uri}))
    out = interact(ui, action_name="go", surface_id="s", component_id="go", field_values='{"nick": "Ace"}')
    assert out.ok, out.error
    assert ui_state(world).surfaces["s"].local_values == {"nick": "Ace"}
    text_ = world.episode.ui_events[-1].text
    assert "    fixed: 4\n    img: (image)\n" in text_ and "    nick: Ace\n" in text_


def test_clicking_an_input_reports_its_value(ui, world):
    booking(ui)
    out = interact(ui, action_name="toggle_breakfast", surface_id="hotel-booking", component_id="breakfast",
                   field_values={"breakfast": True})
    assert out.ok, out.error
    assert world.episode.ui_events[-1].user_action["context"] == {"breakfast": True}


@pytest.mark.parametrize(("args", "message"), [
    ({"surface_id": "nope"}, "Unknown surface_id 'nope'. Known surfaces: 'hotel-booking'."),
    ({"component_id": "ghost"}, "No component 'ghost' on surface 'hotel-booking'. Buttons: cancel, book. Inputs: "
                                "guest, checkin, checkout, guests, room, breakfast."),
    ({"action_name": "book_it"}, "Component 'book' sends the action 'submit_booking', not 'book_it'; call "
                                 "ui_user_interact again with action_name='submit_booking'."),
    ({"component_id": "title", "action_name": "x"}, "Component 'title' is a Text, which cannot be clicked."),
    ({"field_values": {"guests": 9}}, "field_values['guests'] (Slider): 9 is outside the slider's range 1..6."),
    ({"field_values": {"guests": "many"}}, "field_values['guests'] (Slider) expects a number, got \"many\"."),
    ({"field_values": {"breakfast": "yes"}}, "field_values['breakfast'] (CheckBox) expects true or false"),
    ({"field_values": {"room": ["penthouse"]}}, "field_values['room'] (MultipleChoice): 'penthouse' is not one of "
                                                "the options: 'standard' (Standard), 'deluxe' (Deluxe)"),
    ({"field_values": {"room": ["suite", "deluxe"]}}, "2 options selected but at most 1 may be"),
    ({"field_values": {"checkin": "next Friday"}}, "'next Friday' is not an ISO 8601 date or time"),
    ({"field_values": {"guest": {"first": "Ada"}}}, "field_values['guest'] (TextField) expects a string"),
    ({"field_values": {"title": "x"}}, "field_values: 'title' is a Text, not an input, on surface 'hotel-booking'"),
    ({"field_values": {"nope": "x"}}, "field_values: 'nope' is no component on surface 'hotel-booking'"),
    ({"field_values": ["guest"]}, "field_values must be an object mapping input component ids to values"),
    ({"field_values": "{bad"}, "field_values is not valid JSON"),
])
def test_interaction_failures_are_precise_and_change_nothing(ui, world, args, message):
    booking(ui)
    before = (len(world.images), ui_state(world).version, json.dumps(ui_state(world).surfaces["hotel-booking"].data))
    full = {"action_name": "submit_booking", "surface_id": "hotel-booking", "component_id": "book",
            "field_values": {"guest": "Ada"}, **args}
    out = interact(ui, **full)
    assert not out.ok and message in out.error.message, out.error
    after = (len(world.images), ui_state(world).version, json.dumps(ui_state(world).surfaces["hotel-booking"].data))
    assert after == before and world.episode.ui_events == []


def test_text_field_validation_pattern(ui, world):
    call_ok(ui, "render_ui_screen", ui_json=EXAMPLES["feedback_survey"][1]())
    out = interact(ui, action_name="send_feedback", surface_id="feedback", component_id="send",
                   field_values={"contact": "not-an-email"})
    assert not out.ok and "does not match the field's validation pattern" in out.error.message
    out = interact(ui, action_name="send_feedback", surface_id="feedback", component_id="send",
                   field_values={"contact": "ada@example.com", "topics": ["on_time", "Friendly driver"]})
    assert out.ok, out.error
    assert world.episode.ui_events[-1].user_action["context"]["topics"] == ["on_time", "driver"]


def test_the_agent_cannot_call_the_user_tool(ui):
    booking(ui)
    out = ui.call("ui_user_interact", {"action_name": "submit_booking", "surface_id": "hotel-booking",
                                       "component_id": "book"})
    assert not out.ok and out.error.type == "PermissionError"


def test_interaction_on_a_world_without_ui_fails(ui):
    out = interact(ui, action_name="a", surface_id="s", component_id="b")
    assert not out.ok and "Known surfaces: none (render a UI first with render_ui_screen)" in out.error.message


# ------------------------------------------------------------------------------------------ documentation tools
def test_quick_start_covers_format_example_and_components(ui):
    guide = call_ok(ui, "ui_get_quick_start")
    assert guide.startswith("A2UI v0.8 QUICK START")
    for word in ("beginRendering", "dataModelUpdate", "IMAGE_URL_1", "show_ui_to_user", "submit_booking",
                 "- DateTimeInput:", "- booking_form:", "- MultipleChoice:"):
        assert word in guide


def test_explore_and_list(ui):
    assert call_ok(ui, "ui_explore_capabilities") == ["Concepts", "Components", "Server Actions", "Client Actions",
                                                      "Examples"]
    components = call_ok(ui, "ui_list_items", category="components")
    assert len(components) == 18 and components[0].startswith("Text: ")
    assert any(line.startswith("booking_form: ") for line in call_ok(ui, "ui_list_items", category="Example"))
    assert [x.split(":")[0] for x in call_ok(ui, "ui_list_items", category="server actions")] == \
        ["surfaceUpdate", "dataModelUpdate", "beginRendering", "deleteSurface"]
    err = call_err(ui, "ui_list_items", category="Widgets")
    assert err.message.startswith("Unknown category 'Widgets'.") and "Categories: Concepts, Components" in err.message


def test_item_details(ui):
    button = call_ok(ui, "ui_get_item_details", category="Components", item_name="button")
    assert button.startswith("Button: ") and "- action (required): {name, context}" in button
    example = call_ok(ui, "ui_get_item_details", category="Examples", item_name="booking_form")
    messages = json.loads(example.split("with:\n", 1)[1])
    assert parse_messages(messages)[-1] == ("beginRendering", {"surfaceId": "hotel-booking", "root": "root"})
    concept = call_ok(ui, "ui_get_item_details", category="concepts", item_name="data binding")
    assert "JSON pointer" in concept
    err = call_err(ui, "ui_get_item_details", category="Examples", item_name="Slider")
    assert "'Slider' is not in 'Examples'; it is in 'Components'" in err.message
    err = call_err(ui, "ui_get_item_details", category="Components", item_name="Buton")
    assert "No item 'Buton' in 'Components'. Did you mean 'Button'?" in err.message


@pytest.mark.parametrize(("query", "first"), [
    ("date picker", "DateTimeInput"), ("templated list", "List"), ("checkbox", "CheckBox"),
    ("image placeholder", "Images"), ("contact list", "contact_list"), ("userAction", "userAction"),
    ("delete a surface", "deleteSurface"),
])
def test_search_ranks_the_best_match_first(ui, query, first):
    result = call_ok(ui, "ui_search_docs", query=query)
    assert result.splitlines()[1].split("] ", 1)[1].startswith(f"{first}: "), result
    assert len(result.splitlines()) <= 12


def test_search_failures(ui):
    assert "No UI docs match 'zzzz'" in call_ok(ui, "ui_search_docs", query="zzzz")
    assert "query must not be empty" in call_err(ui, "ui_search_docs", query="  ").message


def test_component_usage_examples_validate():
    from mmtsb.ui.docs_text import component_examples

    for name, components in component_examples().items():
        parse_messages([{"surfaceUpdate": {"surfaceId": "doc", "components": components}}])
        assert next(iter(components[0]["component"])) == name or name in ("Row", "Column", "Button")


def test_literal_and_ref_helpers():
    assert lit(True) == {"literalBoolean": True} and lit(2) == {"literalNumber": 2} and ref("/a") == {"path": "/a"}


def test_a_failed_call_leaves_no_queued_screen_or_event(ui, world):
    """The episode state (queues, UI state, conversation end) is rolled back with the tool call's savepoint."""
    booking(ui)
    call_ok(ui, "show_ui_to_user")    # a successful show queues its screenshot
    before = world.episode.ui
    assert len(world.episode.shown_to_user) == 1
    try:
        with world.savepoint():
            call_ok(ui, "show_ui_to_user")
            world.episode.conversation_ended = True
            raise RuntimeError("the call fails after queueing")
    except RuntimeError:
        pass
    assert len(world.episode.shown_to_user) == 1 and world.episode.conversation_ended is False
    assert world.episode.ui is before and len(before.shown) == 1   # the UI state the failed call found
