"""Example A2UI v0.8 screens written for this project (served by the UI docs tools), and small builders for
messages and components that keep them short."""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


# ------------------------------------------------------------------------------------------ builders
def lit(value: Any) -> dict[str, Any]:
    """A literal bound value of the right kind."""
    if isinstance(value, bool):
        return {"literalBoolean": value}
    if isinstance(value, int | float):
        return {"literalNumber": value}
    if isinstance(value, list):
        return {"literalArray": value}
    return {"literalString": value}


def ref(path: str) -> dict[str, str]:
    """A data-model bound value."""
    return {"path": path}


def comp(cid: str, ctype: str, weight: float | None = None, **props: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": cid, "component": {ctype: props}}
    if weight is not None:
        entry["weight"] = weight
    return entry


def text(cid: str, value: str | None = None, *, path: str | None = None, hint: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"text": ref(path) if path else lit(value or "")}
    if hint:
        props["usageHint"] = hint
    return comp(cid, "Text", **props)


def column(cid: str, *children: str, alignment: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"children": {"explicitList": list(children)}}
    if alignment:
        props["alignment"] = alignment
    return comp(cid, "Column", **props)


def row(cid: str, *children: str, distribution: str | None = None, alignment: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"children": {"explicitList": list(children)}}
    if distribution:
        props["distribution"] = distribution
    if alignment:
        props["alignment"] = alignment
    return comp(cid, "Row", **props)


def button(cid: str, label_id: str, action: str, *, primary: bool = False,
           context: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    act: dict[str, Any] = {"name": action}
    if context:
        act["context"] = [{"key": k, "value": v} for k, v in context.items()]
    return comp(cid, "Button", child=label_id, primary=primary, action=act)


def to_contents(mapping: dict[str, Any]) -> list[dict[str, Any]]:
    """A Python mapping as ``dataModelUpdate`` contents (nested maps one level deep become ``valueMap``)."""
    out = []
    for key, value in mapping.items():
        if isinstance(value, dict):
            out.append({"key": key, "valueMap": to_contents(value)})
        elif isinstance(value, bool):
            out.append({"key": key, "valueBoolean": value})
        elif isinstance(value, int | float):
            out.append({"key": key, "valueNumber": value})
        else:
            out.append({"key": key, "valueString": str(value)})
    return out


def screen(surface_id: str, components: list[dict[str, Any]], data: dict[str, Any] | None = None,
           data_at: dict[str, dict[str, Any]] | None = None, root: str = "root") -> list[Message]:
    """surfaceUpdate + dataModelUpdate(s) + beginRendering for one surface."""
    messages: list[Message] = [{"surfaceUpdate": {"surfaceId": surface_id, "components": components}}]
    if data:
        messages.append({"dataModelUpdate": {"surfaceId": surface_id, "contents": to_contents(data)}})
    for path, mapping in (data_at or {}).items():
        messages.append({"dataModelUpdate": {"surfaceId": surface_id, "path": path, "contents": to_contents(mapping)}})
    messages.append({"beginRendering": {"surfaceId": surface_id, "root": root}})
    return messages


# ------------------------------------------------------------------------------------------ examples
def booking_form() -> list[Message]:
    return screen("hotel-booking", [
        comp("root", "Card", child="form"),
        column("form", "title", "guest", "dates", "guests", "room", "breakfast", "actions"),
        text("title", "Book your stay at Harbor View Hotel", hint="h2"),
        comp("guest", "TextField", label=lit("Guest name"), text=ref("/booking/guest")),
        row("dates", "checkin", "checkout"),
        comp("checkin", "DateTimeInput", value=ref("/booking/checkin"), enableDate=True),
        comp("checkout", "DateTimeInput", value=ref("/booking/checkout"), enableDate=True),
        comp("guests", "Slider", label=lit("Guests"), value=ref("/booking/guests"), minValue=1, maxValue=6),
        comp("room", "MultipleChoice", selections=ref("/booking/room"), maxAllowedSelections=1, options=[
            {"label": lit("Standard"), "value": "standard"}, {"label": lit("Deluxe"), "value": "deluxe"},
            {"label": lit("Suite"), "value": "suite"}]),
        comp("breakfast", "CheckBox", label=lit("Add breakfast ($18 per night)"), value=ref("/booking/breakfast")),
        row("actions", "cancel", "book", distribution="end"),
        text("cancel-label", "Cancel"),
        button("cancel", "cancel-label", "cancel_booking"),
        text("book-label", "Book now"),
        button("book", "book-label", "submit_booking", primary=True, context={
            "guest": ref("/booking/guest"), "checkin": ref("/booking/checkin"),
            "checkout": ref("/booking/checkout"), "guests": ref("/booking/guests"),
            "room": ref("/booking/room"), "breakfast": ref("/booking/breakfast")}),
    ], data_at={"/booking": {"guest": "", "checkin": "", "checkout": "", "guests": 2, "breakfast": False}})


def contact_list() -> list[Message]:
    return screen("contacts", [
        column("root", "heading", "people"),
        text("heading", "Choose a contact", hint="h3"),
        comp("people", "List", children={"template": {"componentId": "person", "dataBinding": "/contacts"}}),
        comp("person", "Card", child="person-row"),
        row("person-row", "person-info", "pick", distribution="spaceBetween"),
        column("person-info", "person-name", "person-phone"),
        text("person-name", path="name", hint="h4"),
        text("person-phone", path="phone", hint="caption"),
        text("pick-label", "Select"),
        button("pick", "pick-label", "select_contact", context={"name": ref("name"), "phone": ref("phone")}),
    ], data_at={"/contacts": {
        "c1": {"name": "Ana Lima", "phone": "+1 555 0101"},
        "c2": {"name": "Ben Okafor", "phone": "+1 555 0102"},
        "c3": {"name": "Chloe Park", "phone": "+1 555 0103"}}})


def confirmation_dialog() -> list[Message]:
    return screen("confirm-payment", [
        comp("root", "Card", child="body"),
        column("body", "title", "summary", "divider", "buttons"),
        text("title", "Confirm payment", hint="h3"),
        column("summary", "to-row", "amount-row", "note-row"),
        row("to-row", "to-k", "to-v", distribution="spaceBetween"),
        text("to-k", "To", hint="caption"), text("to-v", path="/payment/to"),
        row("amount-row", "amount-k", "amount-v", distribution="spaceBetween"),
        text("amount-k", "Amount", hint="caption"), text("amount-v", path="/payment/amount", hint="h4"),
        row("note-row", "note-k", "note-v", distribution="spaceBetween"),
        text("note-k", "Note", hint="caption"), text("note-v", path="/payment/note"),
        comp("divider", "Divider"),
        row("buttons", "no", "yes", distribution="end"),
        text("no-label", "Cancel"), button("no", "no-label", "cancel_payment"),
        text("yes-label", "Pay now"),
        button("yes", "yes-label", "confirm_payment", primary=True,
               context={"to": ref("/payment/to"), "amount": ref("/payment/amount")}),
    ], data_at={"/payment": {"to": "Ben Okafor", "amount": "$42.50", "note": "Dinner on Friday"}})


def image_choice() -> list[Message]:
    return screen("photo-choice", [
        column("root", "title", "photos"),
        text("title", "Which photo should I post?", hint="h3"),
        row("photos", "first", "second", alignment="start"),
        column("first", "img1", "pick1", alignment="center"),
        comp("img1", "Image", url=lit("IMAGE_URL_1"), altText=lit("Beach at sunset"), usageHint="mediumFeature"),
        text("pick1-label", "Use this one"),
        button("pick1", "pick1-label", "choose_photo", context={"photo": lit("1")}),
        column("second", "img2", "pick2", alignment="center"),
        comp("img2", "Image", url=lit("IMAGE_URL_2"), altText=lit("Mountain lake"), usageHint="mediumFeature"),
        text("pick2-label", "Use this one"),
        button("pick2", "pick2-label", "choose_photo", context={"photo": lit("2")}),
    ])


def settings_panel() -> list[Message]:
    return screen("notification-settings", [
        comp("root", "Card", child="body"),
        column("body", "title", "email", "push", "digest", "volume", "save"),
        text("title", "Notification settings", hint="h3"),
        comp("email", "CheckBox", label=lit("Email notifications"), value=ref("/settings/email")),
        comp("push", "CheckBox", label=lit("Push notifications"), value=ref("/settings/push")),
        comp("digest", "CheckBox", label=lit("Weekly digest"), value=ref("/settings/digest")),
        comp("volume", "Slider", label=lit("Alert volume"), value=ref("/settings/volume"), minValue=0, maxValue=10),
        text("save-label", "Save settings"),
        button("save", "save-label", "save_settings", primary=True, context={
            "email": ref("/settings/email"), "push": ref("/settings/push"), "digest": ref("/settings/digest"),
            "volume": ref("/settings/volume")}),
    ], data_at={"/settings": {"email": True, "push": False, "digest": True, "volume": 6}})


def order_summary() -> list[Message]:
    return screen("order-summary", [
        comp("root", "Card", child="body"),
        column("body", "title", "items", "divider", "total-row", "place"),
        text("title", "Your order", hint="h3"),
        comp("items", "List", children={"template": {"componentId": "item", "dataBinding": "/items"}}),
        row("item", "item-icon", "item-name", "item-price", distribution="spaceBetween"),
        comp("item-icon", "Icon", name=lit("shoppingCart")),
        text("item-name", path="name"), text("item-price", path="price", hint="h5"),
        comp("divider", "Divider"),
        row("total-row", "total-k", "total-v", distribution="spaceBetween"),
        text("total-k", "Total", hint="h4"), text("total-v", path="/total", hint="h4"),
        text("place-label", "Place order"),
        button("place", "place-label", "place_order", primary=True, context={"total": ref("/total")}),
    ], data={"total": "$61.97"}, data_at={"/items": {
        "a": {"name": "Wireless mouse", "price": "$24.99"},
        "b": {"name": "USB-C cable (2 m)", "price": "$12.99"},
        "c": {"name": "Laptop stand", "price": "$23.99"}}})


def feedback_survey() -> list[Message]:
    return screen("feedback", [
        column("root", "title", "topics", "comments", "contact", "send"),
        text("title", "How was your delivery?", hint="h3"),
        comp("topics", "MultipleChoice", selections=ref("/feedback/topics"), options=[
            {"label": lit("On time"), "value": "on_time"}, {"label": lit("Friendly driver"), "value": "driver"},
            {"label": lit("Damaged box"), "value": "damaged"}, {"label": lit("Wrong item"), "value": "wrong"}]),
        comp("comments", "TextField", label=lit("Anything else?"), text=ref("/feedback/comments"),
             textFieldType="longText"),
        comp("contact", "TextField", label=lit("Email (optional)"), text=ref("/feedback/email"),
             validationRegexp=r"^$|^[^@\s]+@[^@\s]+\.[^@\s]+$"),
        text("send-label", "Send feedback"),
        button("send", "send-label", "send_feedback", primary=True, context={
            "topics": ref("/feedback/topics"), "comments": ref("/feedback/comments"), "email": ref("/feedback/email")}),
    ], data_at={"/feedback": {"comments": "", "email": ""}})


#: name -> (one-line description, builder)
EXAMPLES: dict[str, tuple[str, Any]] = {
    "booking_form": ("hotel booking form: text field, date pickers, slider, single choice, checkbox, submit "
                     "button whose context reads every field", booking_form),
    "contact_list": ("templated List over a map of contacts, one Card per contact with a Select button "
                     "(relative paths inside the template)", contact_list),
    "confirmation_dialog": ("confirm or cancel a state-changing action (a payment) before doing it",
                            confirmation_dialog),
    "image_choice": ("pick one of two photos; images come from IMAGE_URL_n placeholders (render with "
                     "image_placeholders={\"IMAGE_URL_1\": <id>, \"IMAGE_URL_2\": <id>})",
                     image_choice),
    "settings_panel": ("checkboxes and a slider bound to settings, saved with one button", settings_panel),
    "order_summary": ("order review: templated item rows with icons, a divider, the total and a place-order "
                      "button", order_summary),
    "feedback_survey": ("multi-select choices, a long text field and a validated email field", feedback_survey),
}
