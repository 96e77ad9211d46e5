"""The PIL renderer and the component tree: every example screen renders, templates expand over data, missing
and cyclic references are drawn as markers, images come from data URIs, a clicked component is highlighted."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image
from testkit import REFERENCE

from mmtsb.ui.examples import EXAMPLES, button, column, comp, lit, ref, row, screen, text
from mmtsb.ui.render import render_surface
from mmtsb.ui.render.painter import BACKGROUND, MAX_HEIGHT, MIN_HEIGHT, RED, WIDTH, Ctx, Painter, decode_data_uri
from mmtsb.ui.render.containers import row_widths
from mmtsb.ui.state import Surface, UIState
from mmtsb.ui.tree import Node, bound_text, build_tree, find
from mmtsb.ui.validation import parse_messages

EXAMPLES_DIR = REFERENCE / "a2ui_v0_8" / "examples"
EXAMPLE_FILES = sorted(EXAMPLES_DIR.glob("*.json")) if EXAMPLES_DIR.is_dir() else []


def surface_of(messages) -> Surface:
    state = UIState()
    state.apply(parse_messages(messages))
    return state.surfaces[state.active]


def colour_count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in img.getcolors(maxcolors=1 << 20) if c == colour)


def is_blank(img: Image.Image) -> bool:
    return colour_count(img, BACKGROUND) == img.width * img.height


@pytest.mark.skipif(not EXAMPLE_FILES, reason="the A2UI v0.8 reference examples are absent")
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_every_reference_example_renders_to_a_png_600_wide(path):
    messages = json.loads(path.read_text())
    surface = surface_of(messages)
    rendering = render_surface(surface)
    img = rendering.image
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    png = Image.open(io.BytesIO(buf.getvalue()))
    assert png.format == "PNG" and png.width == WIDTH
    assert MIN_HEIGHT <= png.height <= MAX_HEIGHT
    assert not is_blank(img)
    assert rendering.warnings == []  # every reference example is complete
    n_components = len(surface.components)
    if n_components >= 10:  # a real screen is taller than the minimum, and not absurdly tall
        assert 150 <= png.height <= 60 * n_components
    drawn = {n.cid for n in rendering.tree.walk()}
    assert surface.root in drawn and all(cid in surface.components for cid in drawn)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_our_examples_render_without_warnings(name):
    rendering = render_surface(surface_of(EXAMPLES[name][1]()))
    assert rendering.image.width == WIDTH and 150 <= rendering.image.height <= 900
    assert rendering.warnings == []


# ------------------------------------------------------------------------------------------ templates
def test_template_over_a_map_repeats_the_component_with_item_scope():
    surface = surface_of(EXAMPLES["contact_list"][1]())
    tree = build_tree(surface)
    people = find(tree, "people")
    assert [c.iid for c in people.children] == ["person@c1", "person@c2", "person@c3"]
    name = find(tree, "person-name@c2")
    assert name.scope == "/contacts/c2"
    assert bound_text(surface, name.props["text"], name.scope) == "Ben Okafor"
    assert find(tree, "pick@c3").kind == "Button"


def test_template_over_a_list_and_nested_templates():
    surface = Surface("s", data={"groups": [{"title": "Fruit", "items": ["apple", "pear"]},
                                            {"title": "Veg", "items": ["leek"]}], "heading": "Shopping"})
    state_components = [
        column("root", "head", "groups"),
        text("head", path="/heading", hint="h2"),
        comp("groups", "List", children={"template": {"componentId": "group", "dataBinding": "/groups"}}),
        column("group", "group-title", "group-items"),
        text("group-title", path="title", hint="h4"),
        comp("group-items", "Row", children={"template": {"componentId": "item", "dataBinding": "items"}}),
        text("item", path="."),
        text("global", path="/heading"),
    ]
    for entry in state_components:
        (ctype, props), = entry["component"].items()
        surface.components[entry["id"]] = {"type": ctype, "props": props, "weight": None}
    surface.root = "root"
    tree = build_tree(surface)
    items = [n for n in tree.walk() if n.cid == "item"]
    assert [n.iid for n in items] == ["item@0@0", "item@0@1", "item@1@0"]
    assert [bound_text(surface, n.props["text"], n.scope) for n in items] == ["apple", "pear", "leek"]
    title = find(tree, "group-title@1")
    assert bound_text(surface, title.props["text"], title.scope) == "Veg"
    # an absolute path inside a template falls back to the whole model
    assert bound_text(surface, {"path": "/heading"}, "/groups/0") == "Shopping"
    assert not is_blank(render_surface(surface).image)


def test_template_over_missing_or_scalar_data_warns_and_draws_nothing():
    comps = [comp("root", "List", children={"template": {"componentId": "t", "dataBinding": "/nothing"}}),
             text("t", path="x")]
    rendering = render_surface(surface_of(screen("s", comps)))
    assert rendering.tree.children == []
    assert any("template data '/nothing' is not in the data model" in w for w in rendering.warnings)
    rendering = render_surface(surface_of(screen("s", comps, data={"nothing": "scalar"})))
    assert any("is a str, not a list or map" in w for w in rendering.warnings)


# ------------------------------------------------------------------------------------------ markers
def test_missing_child_is_drawn_red_and_reported():
    rendering = render_surface(surface_of(screen("s", [column("root", "title", "ghost"), text("title", "Hi")])))
    assert [c.kind for c in rendering.tree.children] == ["Text", "Missing"]
    assert any("'ghost' is referenced but not defined" in w for w in rendering.warnings)
    assert colour_count(rendering.image, RED) > 20


def test_undefined_root_is_a_missing_marker():
    surface = surface_of(screen("s", [text("title", "Hi")], root="main"))
    rendering = render_surface(surface)
    assert rendering.tree.kind == "Missing" and rendering.tree.cid == "main"


def test_cycles_are_cut_and_reported():
    rendering = render_surface(surface_of(screen("s", [column("root", "a"), column("a", "b"), column("b", "a")])))
    kinds = [n.kind for n in rendering.tree.walk()]
    assert kinds == ["Column", "Column", "Column", "Cycle"]
    assert any("cycle root -> a -> b -> a" in w for w in rendering.warnings)


def test_unresolved_paths_show_the_path_in_brackets():
    surface = surface_of(screen("s", [text("root", path="/user/name")]))
    assert bound_text(surface, {"path": "/user/name"}, "") == "[/user/name]"
    assert bound_text(surface, {"path": "/user/name", "literalString": "x"}, "") == "x"  # initialised
    surface = surface_of(screen("s", [text("root", path="/missing")], data={"present": 1}))
    assert bound_text(surface, {"path": "/missing"}, "") == "[/missing]"


def test_placeholder_types_draw_a_labelled_grey_box():
    comps = [column("root", "tabs", "video"),
             comp("tabs", "Tabs", tabItems=[{"title": lit("One"), "child": "x"}]), text("x", "x"),
             comp("video", "Video", url=lit("https://example.com/v.mp4"))]
    rendering = render_surface(surface_of(screen("s", comps)))
    assert [c.kind for c in rendering.tree.children] == ["Tabs", "Video"]
    assert colour_count(rendering.image, (226, 228, 232)) > 1000


def test_a_too_tall_screen_is_cut_at_the_maximum_height_with_a_warning():
    comps = [column("root", *[f"t{i}" for i in range(150)])] + [text(f"t{i}", f"line {i}", hint="h1")
                                                                 for i in range(150)]
    rendering = render_surface(surface_of(screen("s", comps)))
    assert rendering.image.size == (WIDTH, MAX_HEIGHT)
    assert any("only the first 2000 px" in w for w in rendering.warnings)


def test_a_small_screen_has_the_minimum_height():
    assert render_surface(surface_of(screen("s", [text("root", "Hi")]))).image.size == (WIDTH, MIN_HEIGHT)


# ------------------------------------------------------------------------------------------ images, highlight
def _data_uri(colour, size=(120, 80)) -> str:
    buf = io.BytesIO()
    Image.new("RGB", size, colour).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def test_data_uri_images_are_drawn_and_bad_ones_become_placeholders():
    comps = [column("root", "good", "bad", "remote"),
             comp("good", "Image", url=lit(_data_uri((0, 200, 0)))),
             comp("bad", "Image", url=lit("data:image/png;base64,AAAA")),
             comp("remote", "Image", url=lit("https://example.com/cat.jpg"), altText=lit("a cat"))]
    rendering = render_surface(surface_of(screen("s", comps)))
    assert colour_count(rendering.image, (0, 200, 0)) > 120 * 80  # scaled up to fit, never down
    assert rendering.warnings == []
    assert decode_data_uri("data:image/png;base64,AAAA") is None
    assert decode_data_uri("https://example.com/cat.jpg") is None


def test_highlight_outlines_the_clicked_component_in_red():
    surface = surface_of(EXAMPLES["confirmation_dialog"][1]())
    plain = render_surface(surface)
    marked = render_surface(surface, highlight="yes")
    x0, y0, x1, y1 = marked.boxes["yes"]
    assert marked.image.getpixel((x0 - 3, (y0 + y1) // 2)) == RED
    assert colour_count(marked.image, RED) > colour_count(plain.image, RED) + 100
    assert marked.image.size == plain.image.size


# ------------------------------------------------------------------------------------------ layout
def _node(kind: str, weight: float | None = None, **props) -> Node:
    return Node(kind, kind, kind, props, weight=weight)


def test_row_widths_use_weights_and_natural_widths():
    p = Painter(Surface("s"), decode_data_uri)
    a, b = _node("Column", 1), _node("Column", 3)
    widths, free = row_widths(p, [a, b], 408, Ctx())
    assert widths == [100, 300] and free == 0
    icon = _node("Icon", name=lit("star"))
    widths, free = row_widths(p, [icon, _node("Column")], 500, Ctx())
    assert widths[0] < 60 and widths[0] + widths[1] == 500 - 8 and free == 0
    widths, free = row_widths(p, [icon, icon], 500, Ctx())
    assert free == 500 - 8 - 2 * widths[0]


def test_row_distribution_and_buttons_in_a_row():
    comps = [row("root", "no", "yes", distribution="end"), text("no-l", "No"), button("no", "no-l", "no"),
             text("yes-l", "Yes"), button("yes", "yes-l", "yes", primary=True)]
    rendering = render_surface(surface_of(screen("s", comps)))
    assert rendering.boxes["yes"][2] == WIDTH - 16  # pushed to the right edge
    assert rendering.boxes["no"][2] < rendering.boxes["yes"][0]


def test_inputs_show_the_data_model_values():
    comps = [column("root", "name", "agree", "size"),
             comp("name", "TextField", label=lit("Name"), text=ref("/f/name")),
             comp("agree", "CheckBox", label=lit("OK"), value=ref("/f/ok")),
             comp("size", "MultipleChoice", selections=ref("/f/size"),
                  options=[{"label": lit("Small"), "value": "s"}, {"label": lit("Large"), "value": "l"}])]
    empty = render_surface(surface_of(screen("s", comps)))
    filled = render_surface(surface_of(screen("s", comps, data_at={"/f": {"name": "Ada", "ok": True}})))
    assert colour_count(filled.image, (26, 115, 232)) > colour_count(empty.image, (26, 115, 232))


# ------------------------------------------------------------------------------------------ data model
def test_data_model_updates_merge_at_the_root_and_replace_at_a_path():
    from mmtsb.ui.pointer import apply_contents, get_at, join_pointer, set_at

    model = apply_contents({}, None, [{"key": "a", "valueNumber": 1}, {"key": "user/name", "valueString": "Ada"}])
    model = apply_contents(model, "/", [{"key": "user/age", "valueNumber": 36}])
    assert model == {"a": 1, "user": {"name": "Ada", "age": 36}}
    model = apply_contents(model, "/user", [{"key": "nick", "valueMap": [{"key": "x", "valueBoolean": True}]}])
    assert model == {"a": 1, "user": {"nick": {"x": True}}}
    assert get_at(model, "/user/nick/x") == (True, True) and get_at(model, "/user/zzz") == (False, None)
    assert get_at({"l": ["p", "q"]}, "/l/1") == (True, "q")
    assert set_at({"l": ["p"]}, "/l/1", "r") == {"l": ["p", "r"]}
    assert join_pointer("/items/a~1b", "name") == "/items/a~1b/name"
    assert get_at({"a/b": 1}, "/a~1b") == (True, 1)
    with pytest.raises(ValueError, match="the data model root must be a map"):
        set_at({}, "/", 3)
