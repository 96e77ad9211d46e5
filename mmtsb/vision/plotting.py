"""Chart rendering for the ``plot`` tool: validation of the request, then one matplotlib Figure to PNG bytes.

No pyplot and no global state: every call builds its own :class:`matplotlib.figure.Figure` and renders it
with the Agg canvas, so concurrent episodes in one process never share a figure.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import is_color_like
from matplotlib.figure import Figure
from matplotlib.markers import MarkerStyle

CHART_TYPES = ("line", "bar", "scatter", "histogram", "boxplot", "pie", "heatmap")
COLOR_MAPS = ("viridis", "plasma", "inferno", "magma", "cividis")
LINE_STYLES = {"solid": "-", "dashed": "--", "dashdot": "-.", "dotted": ":"}
DEFAULT_COLOR = "tab:blue"
DEFAULT_FIGSIZE = (8.0, 6.0)
MAX_PIXELS_PER_SIDE = 8000
#: heatmaps with at most this many cells get their values written in the cells
ANNOTATE_MAX_CELLS = 100

#: the data parameters each chart type reads (any other non-null data parameter is an error)
DATA_PARAMS: dict[str, tuple[str, ...]] = {
    "line": ("x", "y"), "scatter": ("x", "y"), "bar": ("heights", "categories"), "histogram": ("data",),
    "boxplot": ("groups",), "pie": ("sizes", "labels", "explode"), "heatmap": ("matrix", "categories"),
}
ALL_DATA_PARAMS = ("x", "y", "categories", "data", "heights", "groups", "sizes", "labels", "matrix", "explode")


@dataclass(frozen=True)
class PlotRequest:
    """Everything the plot tool was asked for (its parameters, unchanged)."""

    type: str
    title: str = ""
    x: list[float] | None = None
    y: list[float] | None = None
    categories: list[str] | None = None
    data: list[float] | None = None
    heights: list[float] | None = None
    groups: dict[str, list[float]] | None = None
    sizes: list[float] | None = None
    labels: list[str] | None = None
    matrix: dict[str, list[float]] | None = None
    xlabel: str = ""
    ylabel: str = ""
    color: str | None = None
    marker: str = ""
    line_style: str = "solid"
    linewidth: float = 1.5
    point_size: float = 50.0
    num_bins: int = 10
    bar_label_rotation: float = 0.0
    show_means: bool = False
    explode: list[float] | None = None
    start_angle: float = 0.0
    color_map: str = "viridis"
    show_colorbar: bool = True
    figsize: list[float] | None = None
    grid: bool = False
    xlim: list[float] | None = None
    ylim: list[float] | None = None
    dpi: int = 100


# ------------------------------------------------------------------------------------- validation
def _numbers(name: str, values: Sequence[Any] | None, *, required_for: str | None = None,
             min_len: int = 1) -> list[float] | None:
    """A list of finite floats; None stays None unless the chart type needs it."""
    if values is None:
        if required_for:
            raise ValueError(f"a {required_for!r} chart needs {name}.")
        return None
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"{name} must be a list of numbers, got {type(values).__name__}.")
    if len(values) < min_len:
        raise ValueError(f"{name} must contain at least {min_len} value(s), got {len(values)}.")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{name}[{i}] must be a finite number, got {v!r}.")
        out.append(float(v))
    return out


def _same_length(name: str, values: Sequence[Any] | None, other: str, n: int) -> None:
    if values is not None and len(values) != n:
        raise ValueError(f"{name} must have one entry per value of {other} ({n}), got {len(values)}.")


def _strings(name: str, values: Sequence[Any] | None) -> list[str] | None:
    if values is None:
        return None
    return [str(v) for v in values]


def _range(name: str, value: float, lo: float, hi: float, unit: str = "") -> None:
    if not (math.isfinite(value) and lo <= value <= hi):
        raise ValueError(f"{name} must be between {lo:g} and {hi:g}{unit}, got {value}.")


def _limits(name: str, values: list[float] | None) -> tuple[float, float] | None:
    if values is None:
        return None
    nums = _numbers(name, values)
    if nums is None or len(nums) != 2 or not nums[0] < nums[1]:
        raise ValueError(f"{name} must be [min, max] with min < max, got {values}.")
    return nums[0], nums[1]


def _named_rows(name: str, rows: dict[str, Any] | None, chart: str) -> dict[str, list[float]]:
    if rows is None:
        raise ValueError(f"a {chart!r} chart needs {name}.")
    if not isinstance(rows, dict) or not rows:
        raise ValueError(f"{name} must be a non-empty object mapping names to lists of numbers.")
    return {str(k): _numbers(f"{name}[{k!r}]", v) or [] for k, v in rows.items()}


def validate(req: PlotRequest) -> None:
    """Raise a ValueError naming the parameter for anything the chart cannot be drawn from."""
    if req.type not in CHART_TYPES:
        raise ValueError(f"type must be one of {', '.join(map(repr, CHART_TYPES))}, got {req.type!r}.")
    allowed = DATA_PARAMS[req.type]
    stray = [p for p in ALL_DATA_PARAMS if p not in allowed and getattr(req, p) is not None]
    if stray:
        raise ValueError(f"parameter(s) {', '.join(stray)} are not used by a {req.type!r} chart; it takes "
                         f"{', '.join(allowed)}.")
    if req.color is not None and not is_color_like(req.color):
        raise ValueError(f"color {req.color!r} is not a colour; use a name such as 'red' or a hex code such "
                         f"as '#1f77b4'.")
    if req.marker:
        try:
            MarkerStyle(req.marker)
        except (ValueError, TypeError):
            raise ValueError(f"marker {req.marker!r} is not a matplotlib marker; use e.g. 'o', 's', '^', 'x', "
                             f"'+', 'D', '.' or '*'.") from None
    if req.line_style not in LINE_STYLES and req.line_style not in LINE_STYLES.values():
        raise ValueError(f"line_style must be one of {', '.join(map(repr, LINE_STYLES))}, got {req.line_style!r}.")
    _range("linewidth", req.linewidth, 0.01, 50, " points")
    _range("point_size", req.point_size, 0.01, 10000)
    if not 1 <= req.num_bins <= 1000:
        raise ValueError(f"num_bins must be between 1 and 1000, got {req.num_bins}.")
    _range("bar_label_rotation", req.bar_label_rotation, -360, 360, " degrees")
    _range("start_angle", req.start_angle, -360, 360, " degrees")
    if req.color_map not in COLOR_MAPS:
        raise ValueError(f"color_map must be one of {', '.join(map(repr, COLOR_MAPS))}, got {req.color_map!r}.")
    if not 20 <= req.dpi <= 600:
        raise ValueError(f"dpi must be between 20 and 600, got {req.dpi}.")
    w, h = figure_size(req)
    if max(w, h) * req.dpi > MAX_PIXELS_PER_SIDE:
        raise ValueError(f"figsize {[w, h]} at dpi {req.dpi} gives more than {MAX_PIXELS_PER_SIDE} pixels per "
                         f"side; lower figsize or dpi.")
    if req.type == "pie" and (req.xlim is not None or req.ylim is not None):
        raise ValueError("xlim and ylim do not apply to a 'pie' chart.")
    _limits("xlim", req.xlim)
    _limits("ylim", req.ylim)


def figure_size(req: PlotRequest) -> tuple[float, float]:
    if req.figsize is None:
        return DEFAULT_FIGSIZE
    size = _numbers("figsize", req.figsize)
    if size is None or len(size) != 2 or not all(1 <= v <= 50 for v in size):
        raise ValueError(f"figsize must be [width, height] in inches, each between 1 and 50, got {req.figsize}.")
    return size[0], size[1]


# ------------------------------------------------------------------------------------- drawing
def _draw_xy(ax: Any, req: PlotRequest) -> None:
    y = _numbers("y", req.y, required_for=req.type) or []
    x = _numbers("x", req.x)
    _same_length("x", x, "y", len(y))
    xs = x if x is not None else list(range(len(y)))
    color = req.color or DEFAULT_COLOR
    if req.type == "line":
        ax.plot(xs, y, color=color, marker=req.marker or None, linewidth=req.linewidth,
                linestyle=LINE_STYLES.get(req.line_style, req.line_style))
    else:
        ax.scatter(xs, y, color=color, marker=req.marker or "o", s=req.point_size)


def _draw_bar(ax: Any, req: PlotRequest) -> None:
    heights = _numbers("heights", req.heights, required_for="bar") or []
    _same_length("categories", req.categories, "heights", len(heights))
    names = _strings("categories", req.categories) or [str(i + 1) for i in range(len(heights))]
    positions = list(range(len(heights)))
    ax.bar(positions, heights, color=req.color or DEFAULT_COLOR)
    rot = req.bar_label_rotation
    ax.set_xticks(positions, labels=names, rotation=rot, ha="right" if 0 < rot % 180 < 90 else "center")


def _draw_histogram(ax: Any, req: PlotRequest) -> None:
    data = _numbers("data", req.data, required_for="histogram") or []
    ax.hist(data, bins=req.num_bins, color=req.color or DEFAULT_COLOR, edgecolor="black")


def _draw_boxplot(ax: Any, req: PlotRequest) -> None:
    groups = _named_rows("groups", req.groups, "boxplot")
    positions = list(range(1, len(groups) + 1))
    parts = ax.boxplot(list(groups.values()), positions=positions, showmeans=req.show_means, patch_artist=True)
    for box in parts["boxes"]:
        box.set_facecolor(req.color or DEFAULT_COLOR)
    ax.set_xticks(positions, labels=list(groups))


def _draw_pie(ax: Any, req: PlotRequest) -> None:
    sizes = _numbers("sizes", req.sizes, required_for="pie") or []
    if any(s < 0 for s in sizes) or sum(sizes) <= 0:
        raise ValueError("sizes must be non-negative and not all 0.")
    _same_length("labels", req.labels, "sizes", len(sizes))
    explode = _numbers("explode", req.explode)
    _same_length("explode", explode, "sizes", len(sizes))
    if explode is not None and not all(0 <= e <= 1 for e in explode):
        raise ValueError(f"explode values must be between 0 and 1, got {req.explode}.")
    ax.pie(sizes, labels=_strings("labels", req.labels), explode=explode, startangle=req.start_angle,
           autopct="%1.1f%%")
    ax.set_aspect("equal")


def _draw_heatmap(fig: Figure, ax: Any, req: PlotRequest) -> None:
    rows = _named_rows("matrix", req.matrix, "heatmap")
    widths = {len(v) for v in rows.values()}
    if len(widths) != 1:
        raise ValueError(f"every row of matrix must have the same number of values, got lengths "
                         f"{[len(v) for v in rows.values()]}.")
    ncols = widths.pop()
    _same_length("categories", req.categories, "matrix row", ncols)
    values = list(rows.values())
    image = ax.imshow(values, cmap=req.color_map, aspect="auto")
    ax.set_yticks(range(len(rows)), labels=list(rows))
    ax.set_xticks(range(ncols), labels=_strings("categories", req.categories) or [str(i) for i in range(ncols)])
    if len(rows) * ncols <= ANNOTATE_MAX_CELLS:
        lo, hi = min(map(min, values)), max(map(max, values))
        for r, row in enumerate(values):
            for c, v in enumerate(row):
                bright = hi > lo and (v - lo) / (hi - lo) > 0.6  # these colour maps run dark -> bright
                ax.text(c, r, f"{v:g}", ha="center", va="center", color="black" if bright else "white")
    if req.show_colorbar:
        fig.colorbar(image, ax=ax)


def render_plot(req: PlotRequest) -> bytes:
    """Validate the request and render the chart as PNG bytes."""
    validate(req)
    fig = Figure(figsize=figure_size(req), dpi=req.dpi, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    if req.type in ("line", "scatter"):
        _draw_xy(ax, req)
    elif req.type == "bar":
        _draw_bar(ax, req)
    elif req.type == "histogram":
        _draw_histogram(ax, req)
    elif req.type == "boxplot":
        _draw_boxplot(ax, req)
    elif req.type == "pie":
        _draw_pie(ax, req)
    else:
        _draw_heatmap(fig, ax, req)
    if req.title:
        ax.set_title(req.title)
    if req.xlabel:
        ax.set_xlabel(req.xlabel)
    if req.ylabel:
        ax.set_ylabel(req.ylabel)
    if req.grid:
        ax.grid(True, alpha=0.4)
    if (xlim := _limits("xlim", req.xlim)) is not None:
        ax.set_xlim(*xlim)
    if (ylim := _limits("ylim", req.ylim)) is not None:
        ax.set_ylim(*ylim)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=req.dpi, metadata={"Software": None})
    return buf.getvalue()
