"""Pydantic models of the A2UI v0.8 protocol: the four server-to-client messages, the standard component
catalog and the client-to-server ``userAction``.

Written for this project from the protocol's documented shape (not generated from the upstream schema
files). Models are strict and closed (``extra="forbid"``), like the protocol's JSON schema: a string is
never coerced into a number, and an unknown property is an error. Field descriptions double as the
component reference of the UI docs tools (:mod:`mmtsb.ui.docs`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Strict(BaseModel):
    """Base: closed objects, no type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ------------------------------------------------------------------------------------------ bound values
class BoundString(Strict):
    """A string given literally or read from the data model."""

    literalString: str | None = Field(None, description="the value itself")
    path: str | None = Field(None, description="JSON pointer into the data model, e.g. /user/name")


class BoundNumber(Strict):
    """A number given literally or read from the data model."""

    literalNumber: float | None = Field(None, description="the value itself")
    path: str | None = Field(None, description="JSON pointer into the data model")


class BoundBoolean(Strict):
    """A boolean given literally or read from the data model."""

    literalBoolean: bool | None = Field(None, description="the value itself")
    path: str | None = Field(None, description="JSON pointer into the data model")


class BoundStringList(Strict):
    """A list of strings given literally or read from the data model."""

    literalArray: list[str] | None = Field(None, description="the values themselves")
    path: str | None = Field(None, description="JSON pointer into the data model")


class BoundAny(Strict):
    """An action-context value: a literal of any scalar type, or a data-model path."""

    path: str | None = Field(None, description="JSON pointer into the data model")
    literalString: str | None = None
    literalNumber: float | None = None
    literalBoolean: bool | None = None


ICON_NAMES: tuple[str, ...] = (
    "accountCircle", "add", "arrowBack", "arrowForward", "attachFile", "calendarToday", "call", "camera",
    "check", "close", "delete", "download", "edit", "event", "error", "favorite", "favoriteOff", "folder",
    "help", "home", "info", "locationOn", "lock", "lockOpen", "mail", "menu", "moreVert", "moreHoriz",
    "notificationsOff", "notifications", "payment", "person", "phone", "photo", "print", "refresh", "search",
    "send", "settings", "share", "shoppingCart", "star", "starHalf", "starOff", "upload", "visibility",
    "visibilityOff", "warning",
)
IconName = Literal[ICON_NAMES]  # type: ignore[valid-type]


class BoundIconName(Strict):
    """An icon name from the fixed icon set, given literally or read from the data model."""

    literalString: IconName | None = Field(None, description="one of the standard icon names")
    path: str | None = Field(None, description="JSON pointer into the data model")


# ------------------------------------------------------------------------------------------ children
class Template(Strict):
    """Repeat one component for every entry of a list or map in the data model."""

    componentId: str = Field(description="id of the component drawn once per data entry")
    dataBinding: str = Field(description="JSON pointer to the list or map that drives the repetition")


class Children(Strict):
    """Children of a container: a fixed list of ids, or a template over data."""

    explicitList: list[str] | None = Field(None, description="ids of the child components, in order")
    template: Template | None = Field(None, description="generate one child per data entry")


# ------------------------------------------------------------------------------------------ components
class Text(Strict):
    """Displays text (simple Markdown allowed); usageHint picks the heading level or body/caption style."""

    text: BoundString = Field(description="the text to show")
    usageHint: Literal["h1", "h2", "h3", "h4", "h5", "caption", "body"] | None = Field(
        None, description="text style: h1..h5 headings, caption (small, grey) or body (default)")


class Image(Strict):
    """Displays an image from a URL (https or a data: URI; IMAGE_URL_n placeholders map to episode images)."""

    url: BoundString = Field(description="image URL, data URI or IMAGE_URL_n placeholder")
    altText: BoundString | None = Field(None, description="short description of the image")
    fit: Literal["contain", "cover", "fill", "none", "scale-down"] | None = Field(
        None, description="how the image fills its box (like CSS object-fit)")
    usageHint: Literal["icon", "avatar", "smallFeature", "mediumFeature", "largeFeature", "header"] | None = Field(
        None, description="size and style: icon, avatar (round), small/medium/large feature, header (full width)")


class Icon(Strict):
    """Displays a small icon from the standard icon set."""

    name: BoundIconName = Field(description="icon name, e.g. mail, phone, star, check")


class Video(Strict):
    """A video player (shown as a placeholder in screenshots)."""

    url: BoundString = Field(description="video URL")


class AudioPlayer(Strict):
    """An audio player (shown as a placeholder in screenshots)."""

    url: BoundString = Field(description="audio URL")
    description: BoundString | None = Field(None, description="title or summary of the audio")


Alignment = Literal["start", "center", "end", "stretch"]
Distribution = Literal["start", "center", "end", "spaceBetween", "spaceAround", "spaceEvenly"]


class Row(Strict):
    """Lays children out side by side; a child's `weight` sets its share of the width."""

    children: Children = Field(description="explicitList of ids or a template")
    distribution: Distribution | None = Field(None, description="horizontal spacing of the children")
    alignment: Alignment | None = Field(None, description="vertical alignment of the children")


class Column(Strict):
    """Stacks children vertically."""

    children: Children = Field(description="explicitList of ids or a template")
    distribution: Distribution | None = Field(None, description="vertical spacing of the children")
    alignment: Alignment | None = Field(None, description="horizontal alignment of the children")


class List(Strict):
    """A list of children, vertical or horizontal; usually templated over data."""

    children: Children = Field(description="explicitList of ids or a template")
    direction: Literal["vertical", "horizontal"] | None = Field(None, description="layout direction (vertical)")
    alignment: Alignment | None = Field(None, description="cross-axis alignment of the items")


class Card(Strict):
    """A raised white box around one child (group related content)."""

    child: str = Field(description="id of the component inside the card")


class TabItem(Strict):
    """One tab: its title and content."""

    title: BoundString = Field(description="tab title")
    child: str = Field(description="id of the tab's content component")


class Tabs(Strict):
    """Tabbed content (shown as a placeholder listing the tab titles in screenshots)."""

    tabItems: list[TabItem] = Field(description="the tabs, each with a title and a child id")


class Divider(Strict):
    """A thin separator line."""

    axis: Literal["horizontal", "vertical"] | None = Field(None, description="line direction (horizontal)")


class Modal(Strict):
    """A dialog opened by an entry-point component (shown as a placeholder in screenshots)."""

    entryPointChild: str = Field(description="id of the component that opens the modal, e.g. a Button")
    contentChild: str = Field(description="id of the component shown inside the modal")


class ContextEntry(Strict):
    """One key of an action's context payload."""

    key: str = Field(description="name of the value in the action context")
    value: BoundAny = Field(description="literal value or data-model path resolved when the button is clicked")


class Action(Strict):
    """What a click sends back: a name and a context resolved from the data model."""

    name: str = Field(description="action name reported to the agent, e.g. submit_booking")
    context: list[ContextEntry] | None = Field(None, description="key/value pairs resolved at click time")


class Button(Strict):
    """A clickable button; clicking sends its action (name + resolved context) to the agent."""

    child: str = Field(description="id of the label component, usually a Text")
    primary: bool | None = Field(None, description="true for the main action (drawn filled, blue)")
    action: Action = Field(description="the action sent when the button is clicked")


class CheckBox(Strict):
    """A labelled on/off checkbox bound to a boolean."""

    label: BoundString = Field(description="text next to the box")
    value: BoundBoolean = Field(description="checked state; bind a path so the user's choice is stored")


class TextField(Strict):
    """A labelled text input; bind `text` to a path so that what the user types lands in the data model."""

    label: BoundString = Field(description="label above the input")
    text: BoundString | None = Field(None, description="current value; bind a path to receive the user's input")
    textFieldType: Literal["date", "longText", "number", "shortText", "obscured"] | None = Field(
        None, description="input kind: shortText (default), longText, number, date or obscured (passwords)")
    validationRegexp: str | None = Field(None, description="regular expression the input must match")


class DateTimeInput(Strict):
    """A date and/or time picker bound to an ISO 8601 string."""

    value: BoundString = Field(description="ISO 8601 value; bind a path to receive the user's choice")
    enableDate: bool | None = Field(None, description="let the user pick a date")
    enableTime: bool | None = Field(None, description="let the user pick a time")


class ChoiceOption(Strict):
    """One option of a MultipleChoice."""

    label: BoundString = Field(description="text shown for the option")
    value: str = Field(description="value stored when the option is selected")


class MultipleChoice(Strict):
    """Selectable options (chips); the selected option values are stored as a list of strings."""

    selections: BoundStringList = Field(description="selected option values; bind a path to store the choice")
    options: list[ChoiceOption] = Field(description="the options, each with a label and a value")
    maxAllowedSelections: int | None = Field(None, description="most options the user may select (1 = single choice)")


class Slider(Strict):
    """A numeric slider between minValue and maxValue."""

    label: BoundString | None = Field(None, description="label above the slider")
    value: BoundNumber = Field(description="current number; bind a path to receive the user's choice")
    minValue: float | None = Field(None, description="smallest value (0)")
    maxValue: float | None = Field(None, description="largest value (100)")


#: the standard catalog: component type name -> its properties model
COMPONENTS: dict[str, type[Strict]] = {m.__name__: m for m in (
    Text, Image, Icon, Video, AudioPlayer, Row, Column, List, Card, Tabs, Divider, Modal, Button, CheckBox,
    TextField, DateTimeInput, MultipleChoice, Slider)}
#: components whose value the user can change, and the property holding the bound value
INPUT_VALUE_PROP: dict[str, str] = {"TextField": "text", "DateTimeInput": "value", "Slider": "value",
                                    "CheckBox": "value", "MultipleChoice": "selections"}


# ------------------------------------------------------------------------------------------ messages
class Styles(Strict):
    """Surface styling hints."""

    font: str | None = Field(None, description="primary font family")
    primaryColor: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$",
                                     description="primary colour as #RRGGBB (used for primary buttons)")


class BeginRendering(Strict):
    """Show a surface, starting from its root component."""

    surfaceId: str = Field(description="the surface to show")
    root: str = Field(description="id of the root component")
    catalogId: str | None = Field(None, description="component catalog (the standard catalog when omitted)")
    styles: Styles | None = Field(None, description="font and primary colour")


class ComponentEntry(Strict):
    """One component of a surfaceUpdate: id, optional layout weight and a one-key {Type: properties} object."""

    id: str = Field(description="unique id, referenced by parents")
    weight: float | None = Field(None, description="share of a Row/Column's space (like CSS flex-grow)")
    component: dict[str, Any] = Field(description="exactly one key: the component type, e.g. {\"Text\": {...}}")


class SurfaceUpdate(Strict):
    """Add or replace components of a surface (a flat list; parents refer to children by id)."""

    surfaceId: str = Field(description="the surface to update (created when new)")
    components: list[ComponentEntry] = Field(min_length=1, description="the components to add or replace")


class MapEntry(Strict):
    """One key of a nested map in a data-model update."""

    key: str
    valueString: str | None = None
    valueNumber: float | None = None
    valueBoolean: bool | None = None


class DataEntry(Strict):
    """One key of a data-model update with exactly one typed value."""

    key: str = Field(description="name of the value (may be a nested path like user/name)")
    valueString: str | None = None
    valueNumber: float | None = None
    valueBoolean: bool | None = None
    valueMap: list[MapEntry] | None = Field(None, description="a nested map as a list of entries")


class DataModelUpdate(Strict):
    """Set values in a surface's data model; without a path (or with "/") the entries merge into the root."""

    surfaceId: str = Field(description="the surface whose data model changes")
    path: str | None = Field(None, description="JSON pointer where the entries go; the root when omitted")
    contents: list[DataEntry] = Field(description="the entries to write")


class DeleteSurface(Strict):
    """Remove a surface."""

    surfaceId: str = Field(description="the surface to remove")


#: message type -> body model; a message has exactly one of these keys
MESSAGES: dict[str, type[Strict]] = {"beginRendering": BeginRendering, "surfaceUpdate": SurfaceUpdate,
                                     "dataModelUpdate": DataModelUpdate, "deleteSurface": DeleteSurface}
VALUE_KEYS: tuple[str, ...] = ("valueString", "valueNumber", "valueBoolean", "valueMap")


# ------------------------------------------------------------------------------------------ client -> server
class UserAction(Strict):
    """A user's interaction as the client reports it to the agent."""

    name: str
    surfaceId: str
    sourceComponentId: str
    timestamp: str
    context: dict[str, Any]

    @field_validator("timestamp")
    @classmethod
    def _iso_timestamp(cls, v: str) -> str:
        try:
            datetime.fromisoformat(v.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"timestamp must be an ISO 8601 date-time, got {v!r}") from None
        return v


class ClientError(BaseModel):
    """A client-side error report (free-form)."""

    model_config = ConfigDict(extra="allow")
