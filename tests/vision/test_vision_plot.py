"""The plot tool: every chart type renders to a new PNG image; bad data fails with the parameter named."""

from __future__ import annotations

import pytest
from testkit import REFERENCE_TIME, call_err, call_ok
from PIL import Image

from mmtsb.apps.setting.schema import BASE_SETTING_ROW, SETTING
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.vision.plotting import PlotRequest, render_plot
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.world import World


@pytest.fixture
def world():
    """A small World (device tables only): the vision tools read no app table, so tests stay fast and isolated."""
    w = World([*device.core_tables(), SETTING], Clock.at(REFERENCE_TIME))
    w.insert("SETTING", dict(BASE_SETTING_ROW))
    yield w
    w.close()


@pytest.fixture
def vsession(world):
    return ToolSession(world, ToolRegistry.from_modules(["mmtsb.vision.tools"]))


def chart(world, image_id: int) -> Image.Image:
    stored = world.images.get(image_id)
    assert stored.mime_type == "image/png"
    return stored.open().convert("RGB")


def has_colour(img: Image.Image, rgb: tuple[int, int, int]) -> bool:
    return any(c == rgb for _, c in img.getcolors(maxcolors=1 << 20))


CASES = {
    "line": {"x": [1, 2, 3], "y": [2.0, 4.5, 3.0], "marker": "o", "line_style": "dashed", "linewidth": 3},
    "scatter": {"y": [1, 5, 2, 8], "point_size": 80, "marker": "^"},
    "bar": {"categories": ["Jan", "Feb", "Mar"], "heights": [10, 25, 17], "bar_label_rotation": 45},
    "histogram": {"data": [1, 2, 2, 3, 3, 3, 4, 4, 5], "num_bins": 5},
    "boxplot": {"groups": {"A": [1, 2, 3, 4], "B": [2, 4, 8]}, "show_means": True},
    "pie": {"sizes": [30, 50, 20], "labels": ["rent", "food", "fun"], "explode": [0, 0.1, 0], "start_angle": 90},
    "heatmap": {"matrix": {"mon": [1, 2, 3], "tue": [4, 5, 6]}, "categories": ["a", "b", "c"],
                "color_map": "magma"},
}


@pytest.mark.parametrize("kind", list(CASES))
def test_every_chart_type_renders_a_new_image(vsession, world, kind):
    out = vsession.call("plot", {"type": kind, "title": f"A {kind}", "xlabel": "x", "ylabel": "y", **CASES[kind]})
    assert out.ok, out.error
    assert out.images == [out.value.image_id] == [len(world.images) - 1]
    img = chart(world, out.value.image_id)
    assert img.size == (800, 600)  # default figsize [8, 6] at 100 dpi
    assert len(img.getcolors(maxcolors=1 << 20)) > 2  # something was drawn


def test_styling_colour_size_and_limits(vsession, world):
    rid = call_ok(vsession, "plot", type="bar", heights=[3, 1], color="#ff0000", figsize=[4, 3], dpi=50,
                  grid=True, ylim=[0, 5]).image_id
    img = chart(world, rid)
    assert img.size == (200, 150) and has_colour(img, (255, 0, 0))
    rid = call_ok(vsession, "plot", type="line", y=[0, 1], color="lime", linewidth=6, xlim=[0, 1]).image_id
    assert has_colour(chart(world, rid), (0, 255, 0))
    rid = call_ok(vsession, "plot", type="heatmap", matrix={"r": [0, 1]}, show_colorbar=False).image_id
    assert chart(world, rid).size == (800, 600)


def test_rendering_is_deterministic():
    req = PlotRequest(type="pie", sizes=[1, 2, 3], labels=["a", "b", "c"])
    assert render_plot(req) == render_plot(req)


@pytest.mark.parametrize("args, message", [
    ({"type": "pies", "sizes": [1]}, "type must be one of 'line', 'bar'"),
    ({"type": "line"}, "a 'line' chart needs y"),
    ({"type": "line", "x": [1, 2], "y": [1, 2, 3]}, "x must have one entry per value of y (3), got 2"),
    ({"type": "line", "y": [1, 2], "heights": [1]}, "parameter(s) heights are not used by a 'line' chart"),
    ({"type": "scatter", "y": []}, "y must contain at least 1 value(s)"),
    ({"type": "bar", "heights": [1, 2], "categories": ["a"]}, "categories must have one entry per value of heights"),
    ({"type": "bar", "categories": ["a"]}, "a 'bar' chart needs heights"),
    ({"type": "histogram", "data": [1, float("nan")]}, "data[1] must be a finite number"),
    ({"type": "histogram", "data": [1], "num_bins": 0}, "num_bins must be between 1 and 1000"),
    ({"type": "boxplot"}, "a 'boxplot' chart needs groups"),
    ({"type": "boxplot", "groups": {"A": []}}, "groups['A'] must contain at least 1 value(s)"),
    ({"type": "pie", "sizes": [1, -1]}, "sizes must be non-negative and not all 0"),
    ({"type": "pie", "sizes": [0, 0]}, "sizes must be non-negative and not all 0"),
    ({"type": "pie", "sizes": [1, 2], "labels": ["a"]}, "labels must have one entry per value of sizes (2), got 1"),
    ({"type": "pie", "sizes": [1, 2], "explode": [0, 2]}, "explode values must be between 0 and 1"),
    ({"type": "pie", "sizes": [1], "xlim": [0, 1]}, "xlim and ylim do not apply to a 'pie' chart"),
    ({"type": "heatmap", "matrix": {"a": [1, 2], "b": [1]}}, "every row of matrix must have the same number"),
    ({"type": "heatmap", "matrix": {}}, "matrix must be a non-empty object"),
    ({"type": "heatmap", "matrix": {"a": [1]}, "color_map": "jet"}, "color_map must be one of 'viridis'"),
    ({"type": "line", "y": [1], "color": "notacolour"}, "color 'notacolour' is not a colour"),
    ({"type": "line", "y": [1], "marker": "zz"}, "marker 'zz' is not a matplotlib marker"),
    ({"type": "line", "y": [1], "line_style": "wavy"}, "line_style must be one of 'solid', 'dashed'"),
    ({"type": "line", "y": [1], "linewidth": 0}, "linewidth must be between 0.01 and 50"),
    ({"type": "scatter", "y": [1], "point_size": -3}, "point_size must be between"),
    ({"type": "line", "y": [1], "figsize": [4]}, "figsize must be [width, height] in inches"),
    ({"type": "line", "y": [1], "dpi": 5}, "dpi must be between 20 and 600"),
    ({"type": "line", "y": [1], "figsize": [50, 50], "dpi": 600}, "more than 8000 pixels per side"),
    ({"type": "line", "y": [1], "xlim": [5, 1]}, "xlim must be [min, max] with min < max"),
    ({"type": "line", "y": [1], "ylim": [0, 1, 2]}, "ylim must be [min, max] with min < max"),
])
def test_invalid_requests_name_the_parameter(vsession, world, args, message):
    n = len(world.images)
    err = call_err(vsession, "plot", **args)
    assert err.type == "ValueError" and message in err.message, err.message
    assert len(world.images) == n


def test_argument_types_are_checked_before_rendering(vsession):
    err = call_err(vsession, "plot", type="line", y="1,2,3")
    assert err.type == "ArgumentError" and "'y'" in err.message
    err = call_err(vsession, "plot", type="boxplot", groups={"A": ["x"]})
    assert err.type == "ArgumentError" and "'groups'" in err.message
