"""Hand-written UI documentation: concepts, the four server messages, the client action, the quick-start guide
and one minimal usage example per component. Served by the UI discovery tools (:mod:`mmtsb.ui.docs`)."""

from __future__ import annotations

from typing import Any

from mmtsb.ui.examples import button, column, comp, lit, ref, row, text

#: name -> (description, body)
CONCEPTS: dict[str, tuple[str, str]] = {
    "Overview": ("what A2UI is and how a screen is built and shown", """\
A2UI (version 0.8) describes a user interface as JSON messages. You send them with render_ui_screen; the
screen is validated, drawn to a screenshot you can check, and listed as interactive elements (buttons and
inputs with their ids). show_ui_to_user then shows the screenshot to the user, who can fill the inputs and
press a button. The interaction comes back to you as a <ui_state_server> message with the resolved data.

A screen (a "surface") is a flat list of components that refer to each other by id, a data model (JSON
values that components read and inputs write), and a root component to draw from."""),
    "Messages": ("the four messages: surfaceUpdate, dataModelUpdate, beginRendering, deleteSurface", """\
Every message is an object with exactly one of these keys:
- surfaceUpdate {surfaceId, components: [...]}: adds or replaces components (by id) of a surface.
- dataModelUpdate {surfaceId, path?, contents: [...]}: writes values into the surface's data model.
- beginRendering {surfaceId, root, styles?}: shows the surface, drawing from the component `root`.
- deleteSurface {surfaceId}: removes a surface.
Send them as one list, usually [surfaceUpdate, dataModelUpdate, beginRendering]. Later calls can update an
existing surface: send only the changed components or data, with the same surfaceId."""),
    "Components": ("how components are written and nested", """\
A component entry is {"id": "unique-id", "component": {"<Type>": {<properties>}}, "weight"?: number}. The
component object has exactly one key, the type. Containers refer to children by id: Column, Row and List use
"children": {"explicitList": ["a", "b"]} or a template; Card and Button use "child": "id". Every referenced id
must be defined in a surfaceUpdate of the same surface (an undefined id is drawn as a red "Missing: id").
Types: Text, Image, Icon, Video, AudioPlayer, Row, Column, List, Card, Tabs, Divider, Modal, Button, CheckBox,
TextField, DateTimeInput, MultipleChoice, Slider. Video, AudioPlayer, Tabs and Modal appear as grey
placeholders in screenshots; prefer the other types."""),
    "Data Binding": ("literal values versus data-model paths, and dataModelUpdate contents", """\
Properties that show data take a bound value: {"literalString": "Hello"} (also literalNumber,
literalBoolean, literalArray where the property allows) or {"path": "/user/name"}, a JSON pointer into the
surface's data model. A path that holds nothing is drawn as "[/user/name]". Giving both path and literal
initialises the path with the literal.

dataModelUpdate contents are entries {"key": "name", "valueString" | "valueNumber" | "valueBoolean" |
"valueMap": ...}; valueMap holds a nested map as a list of entries with scalar values. Without "path" the
entries are merged into the root; with "path": "/booking" they become the map stored at /booking.
Inputs (TextField text, DateTimeInput value, Slider value, CheckBox value, MultipleChoice selections) bound to
a path store what the user enters there, so a button's action context can read it."""),
    "Templates": ("repeat a component for every entry of a list or map (dynamic lists)", """\
A Column, Row or List can generate its children from data: "children": {"template": {"componentId":
"item-card", "dataBinding": "/items"}}. The component item-card is drawn once per entry of the map (or list)
at /items. Inside the template, relative paths ("name", no leading slash) read the current entry; absolute
paths read the entry first and then the whole model. Repeated components get instance ids such as
"select-btn@c2" (component id @ entry key): use those ids with ui_user_interact. Put the entries in the model
with a dataModelUpdate whose path is the map, e.g. path "/items" and contents [{"key": "a", "valueMap": [...]},
{"key": "b", "valueMap": [...]}]."""),
    "Actions": ("buttons, action names and context, and how user interactions reach you", """\
A Button has "action": {"name": "submit_booking", "context": [{"key": "guest", "value": {"path":
"/booking/guest"}}]}. When the user presses it, every context value is resolved from the data model (after the
user's input has been stored) and you receive:
<ui_state_server>
User Interaction:
  Action: submit_booking
  Resolved data:
    guest: Ada Lovelace
  ...
</ui_state_server>
Name actions after what they do, and put every value you need into the context. Only act on state-changing
requests after the user has confirmed through the UI."""),
    "Images": ("showing episode images with IMAGE_URL_n placeholders", """\
An Image's url may be an https URL (drawn as a labelled placeholder in screenshots: nothing is downloaded), a
data: URI, or a placeholder such as "IMAGE_URL_1". Map placeholders to image ids of this conversation with
render_ui_screen(ui_json, image_placeholders={"IMAGE_URL_1": 3}); they are replaced by the stored image.
usageHint sets the size: icon, avatar (round), smallFeature, mediumFeature, largeFeature, header."""),
    "Workflow": ("the recommended sequence of UI tool calls", """\
1. ui_get_quick_start (once), ui_search_docs or ui_get_item_details when unsure about a component.
2. render_ui_screen(ui_json=[...]): fix any reported problem and render again; check the screenshot.
3. show_ui_to_user(): the user now sees the screen. Tell the user what to do in your reply and wait.
4. The user's interaction arrives as a <ui_state_server> "User Interaction" message; act on its resolved data.
To change the screen, call render_ui_screen again with updated components or data (same surfaceId)."""),
}

#: server message name -> (description, body)
SERVER_ACTIONS: dict[str, tuple[str, str]] = {
    "surfaceUpdate": ("add or replace components of a surface", """\
{"surfaceUpdate": {"surfaceId": "s1", "components": [
  {"id": "root", "component": {"Column": {"children": {"explicitList": ["hello"]}}}},
  {"id": "hello", "component": {"Text": {"text": {"literalString": "Hello"}, "usageHint": "h2"}}}]}}
components must not be empty; an id sent again replaces the earlier definition."""),
    "dataModelUpdate": ("write values into a surface's data model", """\
{"dataModelUpdate": {"surfaceId": "s1", "path": "/user", "contents": [
  {"key": "name", "valueString": "Ada"}, {"key": "age", "valueNumber": 36},
  {"key": "address", "valueMap": [{"key": "city", "valueString": "London"}]}]}}
Each entry has a key and exactly one of valueString, valueNumber, valueBoolean, valueMap. Without path (or
with "/") the entries merge into the root."""),
    "beginRendering": ("show a surface from its root component", """\
{"beginRendering": {"surfaceId": "s1", "root": "root", "styles": {"primaryColor": "#1A73E8"}}}
The last beginRendering decides which surface render_ui_screen draws. styles.primaryColor (#RRGGBB) colours
primary buttons and selected options."""),
    "deleteSurface": ("remove a surface", """\
{"deleteSurface": {"surfaceId": "s1"}}
Removes the surface and its data; another surface that was begun becomes the one drawn."""),
}

CLIENT_ACTIONS: dict[str, tuple[str, str]] = {
    "userAction": ("what a user interaction sends back: action name, surface, component, time, context", """\
{"userAction": {"name": "submit_booking", "surfaceId": "hotel-booking", "sourceComponentId": "book",
  "timestamp": "2026-04-16T23:51:15+00:00", "context": {"guest": "Ada", "guests": 2}}}
The user's UI fills the inputs (their values are stored at the inputs' data paths), then presses a button:
its action name and its context, resolved from the data model, are reported. You receive this as a
<ui_state_server> "User Interaction" message listing the action and the resolved data."""),
}


def component_examples() -> dict[str, list[dict[str, Any]]]:
    """One minimal surfaceUpdate component list per component type."""
    return {
        "Text": [text("title", "Order #1042 shipped", hint="h3")],
        "Image": [comp("photo", "Image", url=lit("IMAGE_URL_1"), altText=lit("Receipt photo"),
                       usageHint="mediumFeature")],
        "Icon": [comp("mail-icon", "Icon", name=lit("mail"))],
        "Video": [comp("clip", "Video", url=lit("https://example.com/clip.mp4"))],
        "AudioPlayer": [comp("song", "AudioPlayer", url=lit("https://example.com/song.mp3"),
                             description=lit("Morning playlist"))],
        "Row": [row("header", "icon", "name", alignment="center"), comp("icon", "Icon", name=lit("person")),
                text("name", path="/user/name")],
        "Column": [column("root", "title", "body"), text("title", "Weekly report", hint="h2"),
                   text("body", path="/report/summary")],
        "List": [comp("songs", "List", children={"template": {"componentId": "song-row", "dataBinding": "/songs"}}),
                 text("song-row", path="title")],
        "Card": [comp("card", "Card", child="card-text"), text("card-text", "Inside a card")],
        "Tabs": [comp("tabs", "Tabs", tabItems=[{"title": lit("Details"), "child": "details"},
                                                {"title": lit("Reviews"), "child": "reviews"}]),
                 text("details", "Details"), text("reviews", "Reviews")],
        "Divider": [comp("line", "Divider")],
        "Modal": [comp("help", "Modal", entryPointChild="help-btn", contentChild="help-text"),
                  text("help-label", "Help"), button("help-btn", "help-label", "open_help"),
                  text("help-text", "How to use this form")],
        "Button": [text("ok-label", "Confirm"),
                   button("ok", "ok-label", "confirm_order", primary=True, context={"order": ref("/order/id")})],
        "CheckBox": [comp("agree", "CheckBox", label=lit("I accept the terms"), value=ref("/form/agree"))],
        "TextField": [comp("email", "TextField", label=lit("Email"), text=ref("/form/email"),
                           textFieldType="shortText")],
        "DateTimeInput": [comp("when", "DateTimeInput", value=ref("/event/start"), enableDate=True,
                               enableTime=True)],
        "MultipleChoice": [comp("size", "MultipleChoice", selections=ref("/order/size"), maxAllowedSelections=1,
                                options=[{"label": lit("Small"), "value": "s"},
                                         {"label": lit("Large"), "value": "l"}])],
        "Slider": [comp("tip", "Slider", label=lit("Tip (%)"), value=ref("/order/tip"), minValue=0, maxValue=30)],
    }
