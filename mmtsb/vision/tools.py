"""Vision tools: look at, crop, annotate, transform, save, show and plot images of the episode's image store.

Images are integer ids into ``world.images``. A tool that produces an image never changes its input: it
stores a new image (PNG, lossless) under the next id and returns its :class:`ImageResult`, which the
session attaches to the tool result so the model sees it. Box coordinates are normalised to 0..1000 on
both axes, so the same numbers work whatever the image's pixel size.
"""

from __future__ import annotations

import io
import math
import os
import tempfile
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageEnhance

from mmtsb.tools.spec import tool
from mmtsb.tools.types import ImageId
from mmtsb.vision.store import ImageResult, StoredImage
from mmtsb.world.episode_state import ShownImage
from mmtsb.world.world import World

DOMAIN = "vision"
TABLES = ("IMAGE",)
#: the largest side (pixels) resize_image may produce: guards memory against a typo such as 100000
MAX_SIDE = 8192
#: where show_image_to_user queues images for the episode loop to deliver to the user
_EXTENSIONS = {"image/jpeg": ".jpg", "image/png": ".png", "image/gif": ".gif", "image/webp": ".webp",
               "image/bmp": ".bmp", "image/tiff": ".tiff"}


# ------------------------------------------------------------------------------------------ helpers
def _load(world: World, image_id: int) -> tuple[StoredImage, Image.Image]:
    """The stored image and a decoded copy in a mode every operation supports (RGB, RGBA or L)."""
    stored = world.images.get(image_id)
    img = stored.open()
    if img.mode not in ("RGB", "RGBA", "L"):
        has_alpha = img.mode in ("LA", "PA", "RGBa", "La") or "transparency" in img.info
        img = img.convert("RGBA" if has_alpha else "RGB")
    return stored, img


def _store(world: World, img: Image.Image, source: str) -> ImageResult:
    return ImageResult(world.images.add_pil(img, source=source))


def normalised_box(size: tuple[int, int], left: int, upper: int, right: int,
                   lower: int) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1), end-exclusive, for 0..1000 normalised coordinates.

    Starts round down and ends round up, so the box always covers the requested region and is at least
    one pixel wide and high.
    """
    for name, value in (("left", left), ("upper", upper), ("right", right), ("lower", lower)):
        if not 0 <= value <= 1000:
            raise ValueError(f"{name} must be between 0 and 1000 (coordinates are normalised: 0 is the left/top "
                             f"edge, 1000 the right/bottom edge), got {value}.")
    if left >= right:
        raise ValueError(f"left ({left}) must be smaller than right ({right}).")
    if upper >= lower:
        raise ValueError(f"upper ({upper}) must be smaller than lower ({lower}).")
    w, h = size
    x0, y0 = math.floor(left * w / 1000), math.floor(upper * h / 1000)
    x1, y1 = math.ceil(right * w / 1000), math.ceil(lower * h / 1000)
    return min(x0, w - 1), min(y0, h - 1), max(x1, min(x0, w - 1) + 1), max(y1, min(y0, h - 1) + 1)


def _finite(name: str, value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}.")
    return float(value)


def scratch_dir(world: World) -> Path:
    """The World's folder for files tools write (``world.metadata["scratch_dir"]``, created on first use)."""
    configured = world.metadata.get("scratch_dir")
    if not configured:
        configured = tempfile.mkdtemp(prefix="mmtsb_images_")
        world.metadata["scratch_dir"] = configured
    path = Path(configured).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


# ------------------------------------------------------------------------------------------ tools
@tool(domain=DOMAIN, tables=TABLES)
def view_image(world: World, image_id: ImageId) -> ImageResult:
    """Shows you an image so that you can look at it in your next turn.

    Args:
        image_id: id of an image of this conversation (0-based; images the user sent and images tools made).

    Returns:
        ImageResult(image_id) of the same image; the image itself is attached to the result.
    """
    world.images.get(image_id)
    return ImageResult(image_id)


@tool(domain=DOMAIN, mutates=True, tables=TABLES)
def crop_image(world: World, image_id: ImageId, left: int, upper: int, right: int, lower: int) -> ImageResult:
    """Cuts a rectangular region out of an image and stores it as a new image (no upscaling).

    Coordinates are normalised to 0..1000 on both axes, whatever the pixel size: (0, 0) is the top-left
    corner and (1000, 1000) the bottom-right one. The crop keeps the original pixels; to enlarge it, call
    resize_image on the result. Fails if a coordinate is outside 0..1000, left >= right or upper >= lower.

    Args:
        image_id: id of the image to crop.
        left: left edge of the region, 0..1000.
        upper: top edge of the region, 0..1000.
        right: right edge of the region, 0..1000 (greater than left).
        lower: bottom edge of the region, 0..1000 (greater than upper).

    Returns:
        ImageResult(image_id) of the new, cropped image.
    """
    _, img = _load(world, image_id)
    box = normalised_box(img.size, left, upper, right, lower)
    return _store(world, img.crop(box), f"crop_image({image_id})")


@tool(domain=DOMAIN, mutates=True, tables=TABLES)
def draw_bbox(world: World, image_id: ImageId, left: int, upper: int, right: int, lower: int,
              color: str = "red", width: int = 5) -> ImageResult:
    """Draws a rectangle outline on a copy of an image and stores the copy as a new image.

    Coordinates are normalised to 0..1000 on both axes ((0, 0) top-left, (1000, 1000) bottom-right); the
    outline is drawn inside the box. Fails if a coordinate is outside 0..1000, left >= right,
    upper >= lower, the color is unknown or the width is not 1..100.

    Args:
        image_id: id of the image to annotate.
        left: left edge of the box, 0..1000.
        upper: top edge of the box, 0..1000.
        right: right edge of the box, 0..1000 (greater than left).
        lower: bottom edge of the box, 0..1000 (greater than upper).
        color: outline colour: a CSS colour name ("red", "lime") or a hex code ("#ff8800").
        width: outline thickness in pixels, 1..100.

    Returns:
        ImageResult(image_id) of the new, annotated image.
    """
    _, img = _load(world, image_id)
    box = normalised_box(img.size, left, upper, right, lower)
    try:
        rgb = ImageColor.getrgb(color)
    except ValueError:
        raise ValueError(f"color {color!r} is not a known colour; use a name such as 'red' or a hex code "
                         f"such as '#ff0000'.") from None
    if not 1 <= width <= 100:
        raise ValueError(f"width must be between 1 and 100 pixels, got {width}.")
    if img.mode == "L":
        img = img.convert("RGB")
    out = img.copy()
    fill = rgb[:3] + (255,) if out.mode == "RGBA" else rgb[:3]
    ImageDraw.Draw(out).rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=fill, width=width)
    return _store(world, out, f"draw_bbox({image_id})")


@tool(domain=DOMAIN, mutates=True, tables=TABLES)
def resize_image(world: World, image_id: ImageId, width: int, height: int) -> ImageResult:
    """Rescales an image to exact pixel dimensions (aspect ratio not kept) and stores it as a new image.

    Use get_image_size first to keep the aspect ratio. Fails unless width and height are 1..8192.

    Args:
        image_id: id of the image to resize.
        width: new width in pixels, 1..8192.
        height: new height in pixels, 1..8192.

    Returns:
        ImageResult(image_id) of the new, resized image.
    """
    _, img = _load(world, image_id)
    for name, value in (("width", width), ("height", height)):
        if not 1 <= value <= MAX_SIDE:
            raise ValueError(f"{name} must be between 1 and {MAX_SIDE} pixels, got {value}.")
    resized = img.resize((width, height), Image.Resampling.LANCZOS)
    return _store(world, resized, f"resize_image({image_id})")


@tool(domain=DOMAIN, mutates=True, tables=TABLES)
def rotate_image(world: World, image_id: ImageId, angle: float, expand: bool = False) -> ImageResult:
    """Rotates an image counter-clockwise and stores the result as a new image.

    Without expand the canvas keeps its size (corners are cut off); with expand it grows to hold the
    whole rotated image. Uncovered areas are black (transparent for images with an alpha channel).
    Multiples of 90 degrees are exact. Use a negative angle to rotate clockwise.

    Args:
        image_id: id of the image to rotate.
        angle: rotation in degrees, counter-clockwise (e.g. 90, -90, 12.5).
        expand: true enlarges the canvas to fit the whole rotated image.

    Returns:
        ImageResult(image_id) of the new, rotated image.
    """
    _, img = _load(world, image_id)
    angle = _finite("angle", angle)
    rotated = img.rotate(angle, resample=Image.Resampling.BICUBIC, expand=expand)
    return _store(world, rotated, f"rotate_image({image_id})")


@tool(domain=DOMAIN, mutates=True, tables=TABLES)
def enhance_image(world: World, image_id: ImageId, factor: float) -> ImageResult:
    """Changes the contrast of an image and stores the result as a new image (useful for faint text).

    factor 1.0 leaves the image unchanged, above 1 increases contrast (2.0 is strong), below 1 reduces it
    and 0 gives a flat grey image. Fails unless 0 <= factor <= 100.

    Args:
        image_id: id of the image to enhance.
        factor: contrast factor, 0..100; 1.0 = unchanged.

    Returns:
        ImageResult(image_id) of the new, enhanced image.
    """
    _, img = _load(world, image_id)
    factor = _finite("factor", factor)
    if not 0 <= factor <= 100:
        raise ValueError(f"factor must be between 0 and 100 (1.0 = unchanged), got {factor}.")
    return _store(world, ImageEnhance.Contrast(img).enhance(factor), f"enhance_image({image_id})")


@tool(domain=DOMAIN, tables=TABLES)
def get_image_size(world: World, image_id: ImageId) -> tuple[int, int]:
    """Reports the pixel dimensions of an image.

    Args:
        image_id: id of the image.

    Returns:
        (width, height) in pixels.
    """
    stored = world.images.get(image_id)
    with Image.open(io.BytesIO(stored.data)) as probe:  # reads the header only
        return probe.size


@tool(domain=DOMAIN, tables=TABLES)
def save_image(world: World, image_id: ImageId) -> str:
    """Writes an image to a file in the session's scratch folder and reports the file's path.

    The file keeps the image's original bytes and format (e.g. image_3.png); saving the same id again
    overwrites the same file.

    Args:
        image_id: id of an existing image.

    Returns:
        "Image saved to: <absolute path>"
    """
    stored = world.images.get(image_id)
    path = scratch_dir(world) / f"image_{image_id}{_EXTENSIONS.get(stored.mime_type, '.img')}"
    tmp = path.with_suffix(path.suffix + ".part")
    tmp.write_bytes(stored.data)
    os.replace(tmp, path)
    return f"Image saved to: {path}"


@tool(domain=DOMAIN, mutates=True, tables=("IMAGE", "SANDBOX"))
def show_image_to_user(world: World, image_id: ImageId, message: str = "Here is the image") -> str:
    """Sends an image to the user with a short message (the user sees it in the conversation).

    Args:
        image_id: id of an existing image to show.
        message: text sent along with the image.

    Returns:
        "Image sent to user."
    """
    world.images.get(image_id)
    world.episode.shown_to_user.append(ShownImage(image_id, message))
    return "Image sent to user."


@tool(domain=DOMAIN, mutates=True, tables=TABLES)
def plot(world: World, type: str, title: str = "", x: list[float] | None = None, y: list[float] | None = None,
         categories: list[str] | None = None, data: list[float] | None = None,
         heights: list[float] | None = None, groups: dict[str, list[float]] | None = None,
         sizes: list[float] | None = None, labels: list[str] | None = None,
         matrix: dict[str, list[float]] | None = None, xlabel: str = "", ylabel: str = "",
         color: str | None = None, marker: str = "", line_style: str = "solid", linewidth: float = 1.5,
         point_size: float = 50.0, num_bins: int = 10, bar_label_rotation: float = 0.0,
         show_means: bool = False, explode: list[float] | None = None, start_angle: float = 0.0,
         color_map: str = "viridis", show_colorbar: bool = True, figsize: list[float] | None = None,
         grid: bool = False, xlim: list[float] | None = None, ylim: list[float] | None = None,
         dpi: int = 100) -> ImageResult:
    """Draws a chart with matplotlib and stores it as a new image.

    Each chart type takes its own data parameters; passing data parameters of another type is an error:
    - line: y (values), optional x (same length; default 0, 1, 2, ...). Styling: color, marker, line_style,
      linewidth.
    - scatter: y and optional x as for line. Styling: color, marker (default 'o'), point_size.
    - bar: heights, optional categories (one label per bar). Styling: color, bar_label_rotation.
    - histogram: data (the raw values). Styling: color, num_bins.
    - boxplot: groups, e.g. {"A": [1, 2, 3], "B": [2, 5]}. Styling: color, show_means.
    - pie: sizes (non-negative, not all 0), optional labels and explode (same length). Styling: start_angle.
    - heatmap: matrix, e.g. {"row 1": [1, 2], "row 2": [3, 4]} (equal-length rows), optional categories as
      column labels. Styling: color_map, show_colorbar.
    Every chart accepts title, xlabel, ylabel, figsize, dpi, grid; all but pie accept xlim and ylim.

    Args:
        type: chart type: 'line', 'bar', 'scatter', 'histogram', 'boxplot', 'pie' or 'heatmap'.
        title: chart title.
        x: x values for line/scatter (same length as y).
        y: y values for line/scatter.
        categories: bar labels (bar) or column labels (heatmap).
        data: raw values to bin (histogram).
        heights: bar heights (bar).
        groups: boxplot groups: name -> list of values.
        sizes: slice sizes (pie).
        labels: slice labels (pie), same length as sizes.
        matrix: heatmap rows: row name -> list of values (all rows the same length).
        xlabel: x-axis label.
        ylabel: y-axis label.
        color: a colour name or hex code for line/scatter/bar/histogram/boxplot; default blue.
        marker: a matplotlib marker such as 'o', 's', '^', 'x', '.'; none by default ('o' for scatter).
        line_style: line style for line charts: 'solid', 'dashed', 'dashdot' or 'dotted'.
        linewidth: line width in points (> 0).
        point_size: scatter point size in points squared (> 0).
        num_bins: number of histogram bins, 1..1000.
        bar_label_rotation: rotation of the bar labels in degrees.
        show_means: boxplot: also mark each group's mean.
        explode: pie: how far each slice is pulled out (fraction of the radius, 0..1), same length as sizes.
        start_angle: pie: angle of the first slice, degrees counter-clockwise from the x axis.
        color_map: heatmap colours: 'viridis', 'plasma', 'inferno', 'magma' or 'cividis'.
        show_colorbar: heatmap: draw the colour scale.
        figsize: [width, height] in inches, each 1..50; default [8, 6].
        grid: draw grid lines.
        xlim: [min, max] of the x axis.
        ylim: [min, max] of the y axis.
        dpi: resolution in dots per inch, 20..600 (image pixels = figsize * dpi, at most 8000 per side).

    Returns:
        ImageResult(image_id) of the new chart image.
    """
    from mmtsb.vision.plotting import PlotRequest, render_plot

    request = PlotRequest(
        type=type, title=title, x=x, y=y, categories=categories, data=data, heights=heights, groups=groups,
        sizes=sizes, labels=labels, matrix=matrix, xlabel=xlabel, ylabel=ylabel, color=color, marker=marker,
        line_style=line_style, linewidth=linewidth, point_size=point_size, num_bins=num_bins,
        bar_label_rotation=bar_label_rotation, show_means=show_means, explode=explode, start_angle=start_angle,
        color_map=color_map, show_colorbar=show_colorbar, figsize=figsize, grid=grid, xlim=xlim, ylim=ylim,
        dpi=dpi)
    png = render_plot(request)
    return ImageResult(world.images.add_bytes(png, source=f"plot({type})", mime_type="image/png"))
