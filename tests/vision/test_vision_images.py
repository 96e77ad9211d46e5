"""Image tools: exact pixels for crop, bbox, rotate and resize; every tool on a happy and a failure path."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from testkit import REFERENCE_TIME, call_err, call_ok
from PIL import Image

from mmtsb.apps.setting.schema import BASE_SETTING_ROW, SETTING
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.vision.store import ImageResult
from mmtsb.vision.tools import normalised_box
from mmtsb.world.episode_state import ShownImage
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.world import World

RED, BLUE, LIME = (255, 0, 0), (0, 0, 255), (0, 255, 0)


@pytest.fixture
def world():
    """A small World (device tables only): the vision tools read no app table, so tests stay fast and isolated."""
    w = World([*device.core_tables(), SETTING], Clock.at(REFERENCE_TIME))
    w.insert("SETTING", dict(BASE_SETTING_ROW))
    yield w
    w.close()


@pytest.fixture
def vsession(world):
    """A session over the vision tools only (independent of the other domains' modules)."""
    return ToolSession(world, ToolRegistry.from_modules(["mmtsb.vision.tools", "mmtsb.vision.web_search"]))


@pytest.fixture
def two_colour(world) -> int:
    """A 200x100 RGB image: left half red (x < 100), right half blue; stored as image 0."""
    img = Image.new("RGB", (200, 100), RED)
    img.paste(BLUE, (100, 0, 200, 100))
    return world.images.add_pil(img, source="test")


def pixels(world, image_id: int) -> Image.Image:
    return world.images.get(image_id).open().convert("RGB")


def test_view_image_returns_the_same_id_and_attaches_it(vsession, two_colour):
    out = vsession.call("view_image", {"image_id": two_colour})
    assert out.ok and out.value == ImageResult(two_colour) and out.images == [two_colour]
    err = call_err(vsession, "view_image", image_id=7)
    assert err.type == "ValueError" and "Image with ID 7 not found" in err.message and "0..0" in err.message


def test_crop_exact_pixels_and_no_upscaling(vsession, world, two_colour):
    out = vsession.call("crop_image", {"image_id": two_colour, "left": 0, "upper": 0, "right": 500, "lower": 1000})
    assert out.ok and out.images == [1] and out.value == ImageResult(1)
    left = pixels(world, 1)
    assert left.size == (100, 100) and left.getcolors() == [(10000, RED)]
    mid = pixels(world, call_ok(vsession, "crop_image", image_id=0, left=250, upper=200, right=750,
                                lower=800).image_id)
    assert mid.size == (100, 60)
    assert mid.getpixel((49, 30)) == RED and mid.getpixel((50, 30)) == BLUE
    tiny = pixels(world, call_ok(vsession, "crop_image", image_id=0, left=0, upper=0, right=1, lower=1).image_id)
    assert tiny.size == (1, 1) and tiny.getpixel((0, 0)) == RED  # never empty, never enlarged
    assert pixels(world, 0).size == (200, 100)  # the source is untouched


def test_crop_validation_names_the_parameter_and_adds_no_image(vsession, world, two_colour):
    n = len(world.images)
    assert "left must be between 0 and 1000" in call_err(vsession, "crop_image", image_id=0, left=-1, upper=0,
                                                         right=10, lower=10).message
    assert "lower must be between 0 and 1000" in call_err(vsession, "crop_image", image_id=0, left=0, upper=0,
                                                          right=10, lower=1200).message
    assert "left (600) must be smaller than right (400)" in call_err(
        vsession, "crop_image", image_id=0, left=600, upper=0, right=400, lower=10).message
    assert "upper (10) must be smaller than lower (10)" in call_err(
        vsession, "crop_image", image_id=0, left=0, upper=10, right=400, lower=10).message
    assert "not found" in call_err(vsession, "crop_image", image_id=5, left=0, upper=0, right=1, lower=1).message
    assert len(world.images) == n


def test_normalised_box_rounds_outwards():
    assert normalised_box((200, 100), 0, 0, 1000, 1000) == (0, 0, 200, 100)
    assert normalised_box((3, 3), 100, 100, 200, 200) == (0, 0, 1, 1)
    assert normalised_box((10, 10), 999, 999, 1000, 1000) == (9, 9, 10, 10)


def test_draw_bbox_outline_pixels(vsession, world, two_colour):
    rid = call_ok(vsession, "draw_bbox", image_id=0, left=250, upper=200, right=750, lower=800, color="lime",
                  width=5).image_id
    img = pixels(world, rid)
    assert img.size == (200, 100)
    # box = pixels x 50..149, y 20..79; the 5-pixel outline is drawn inside it
    assert img.getpixel((50, 50)) == LIME and img.getpixel((54, 50)) == LIME and img.getpixel((55, 50)) == RED
    assert img.getpixel((149, 50)) == LIME and img.getpixel((145, 50)) == LIME and img.getpixel((144, 50)) == BLUE
    assert img.getpixel((120, 20)) == LIME and img.getpixel((120, 24)) == LIME and img.getpixel((120, 25)) == BLUE
    assert img.getpixel((80, 79)) == LIME and img.getpixel((80, 80)) == RED and img.getpixel((49, 50)) == RED
    assert pixels(world, 0).getpixel((50, 50)) == RED  # drawn on a copy
    default = pixels(world, call_ok(vsession, "draw_bbox", image_id=0, left=0, upper=0, right=1000,
                                    lower=1000).image_id)
    assert default.getpixel((0, 0)) == RED and default.getpixel((199, 99)) == RED  # default red outline...
    assert default.getpixel((150, 50)) == BLUE and default.getpixel((195, 50)) == RED  # ...5 pixels wide


def test_draw_bbox_hex_colour_on_rgba_and_grey_images(vsession, world):
    rgba = world.images.add_pil(Image.new("RGBA", (10, 10), (0, 0, 0, 0)))
    out = pixels(world, call_ok(vsession, "draw_bbox", image_id=rgba, left=0, upper=0, right=1000, lower=1000,
                                color="#00ff00", width=1).image_id)
    assert out.getpixel((0, 0)) == LIME
    grey = world.images.add_pil(Image.new("L", (10, 10), 128))
    out = pixels(world, call_ok(vsession, "draw_bbox", image_id=grey, left=0, upper=0, right=1000, lower=1000,
                                color="blue", width=2).image_id)
    assert out.getpixel((1, 5)) == BLUE and out.getpixel((2, 5)) == (128, 128, 128)


def test_draw_bbox_failures(vsession, two_colour):
    assert "color 'blurple' is not a known colour" in call_err(
        vsession, "draw_bbox", image_id=0, left=0, upper=0, right=10, lower=10, color="blurple").message
    assert "width must be between 1 and 100" in call_err(
        vsession, "draw_bbox", image_id=0, left=0, upper=0, right=10, lower=10, width=0).message
    assert "right must be between 0 and 1000" in call_err(
        vsession, "draw_bbox", image_id=0, left=0, upper=0, right=1001, lower=10).message


def test_resize_exact_size_and_colours(vsession, world, two_colour):
    out = vsession.call("resize_image", {"image_id": 0, "width": 50, "height": 20})
    assert out.ok and out.images == [1]
    img = pixels(world, 1)
    assert img.size == (50, 20) and img.getpixel((5, 10)) == RED and img.getpixel((45, 10)) == BLUE
    big = pixels(world, call_ok(vsession, "resize_image", image_id=0, width=400, height=300).image_id)
    assert big.size == (400, 300) and big.getpixel((10, 150)) == RED and big.getpixel((390, 150)) == BLUE
    assert "width must be between 1 and 8192" in call_err(vsession, "resize_image", image_id=0, width=0,
                                                          height=10).message
    assert "height must be between 1 and 8192" in call_err(vsession, "resize_image", image_id=0, width=10,
                                                           height=9000).message


def test_rotate_counter_clockwise(vsession, world, two_colour):
    rid = call_ok(vsession, "rotate_image", image_id=0, angle=90, expand=True).image_id
    img = pixels(world, rid)
    # 90 degrees CCW: the right (blue) half goes to the top, the left (red) half to the bottom
    assert img.size == (100, 200)
    assert img.getpixel((50, 10)) == BLUE and img.getpixel((50, 99)) == BLUE
    assert img.getpixel((50, 100)) == RED and img.getpixel((50, 190)) == RED
    cw = pixels(world, call_ok(vsession, "rotate_image", image_id=0, angle=-90, expand=True).image_id)
    assert cw.getpixel((50, 10)) == RED and cw.getpixel((50, 190)) == BLUE
    flipped = pixels(world, call_ok(vsession, "rotate_image", image_id=0, angle=180).image_id)
    assert flipped.size == (200, 100) and flipped.getpixel((10, 50)) == BLUE and flipped.getpixel((190, 50)) == RED
    same_canvas = pixels(world, call_ok(vsession, "rotate_image", image_id=0, angle=90).image_id)
    assert same_canvas.size == (200, 100) and same_canvas.getpixel((0, 0)) == (0, 0, 0)  # corners uncovered
    tilted = pixels(world, call_ok(vsession, "rotate_image", image_id=0, angle=30, expand=True).image_id)
    assert tilted.size[0] > 200 and tilted.size[1] > 100


def test_rotate_failures(vsession, two_colour):
    assert "angle must be a finite number" in call_err(vsession, "rotate_image", image_id=0,
                                                       angle=float("inf")).message
    assert "expects float" in call_err(vsession, "rotate_image", image_id=0, angle="ninety").message


def test_enhance_contrast(vsession, world, two_colour):
    same = call_ok(vsession, "enhance_image", image_id=0, factor=1.0).image_id
    assert pixels(world, same).tobytes() == pixels(world, 0).tobytes()
    flat = pixels(world, call_ok(vsession, "enhance_image", image_id=0, factor=0.0).image_id)
    assert len(flat.getcolors()) == 1  # zero contrast: one uniform grey
    src = Image.new("L", (2, 1))
    src.putdata([100, 150])
    gid = world.images.add_pil(src)
    stronger = pixels(world, call_ok(vsession, "enhance_image", image_id=gid, factor=2.0).image_id).convert("L")
    assert stronger.getpixel((0, 0)) < 100 and stronger.getpixel((1, 0)) > 150
    assert "factor must be between 0 and 100" in call_err(vsession, "enhance_image", image_id=0,
                                                          factor=-0.5).message
    assert "not found" in call_err(vsession, "enhance_image", image_id=99, factor=1.0).message


def test_get_image_size(vsession, world, two_colour):
    assert call_ok(vsession, "get_image_size", image_id=0) == (200, 100)
    buf = io.BytesIO()
    Image.new("RGB", (31, 17), "white").save(buf, format="JPEG")
    jid = world.images.add_bytes(buf.getvalue())
    assert call_ok(vsession, "get_image_size", image_id=jid) == (31, 17)
    assert "not found" in call_err(vsession, "get_image_size", image_id=-1).message
    assert "expects ImageId" in call_err(vsession, "get_image_size", image_id="zero").message


def test_save_image_to_scratch_dir(vsession, world, two_colour, tmp_path):
    world.metadata["scratch_dir"] = str(tmp_path / "scratch")
    msg = call_ok(vsession, "save_image", image_id=0)
    path = Path(msg.removeprefix("Image saved to: "))
    assert msg.startswith("Image saved to: ") and path.is_absolute()
    assert path == (tmp_path / "scratch" / "image_0.png").resolve()
    assert path.read_bytes() == world.images.get(0).data
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buf, format="JPEG")
    jid = world.images.add_bytes(buf.getvalue())
    assert call_ok(vsession, "save_image", image_id=jid).endswith(f"image_{jid}.jpg")
    assert "not found" in call_err(vsession, "save_image", image_id=42).message


def test_save_image_creates_a_scratch_dir_once(vsession, world, two_colour):
    first = call_ok(vsession, "save_image", image_id=0)
    scratch = world.metadata["scratch_dir"]
    try:
        assert Path(scratch).is_dir() and scratch in first
        assert call_ok(vsession, "save_image", image_id=0) == first
        assert world.metadata["scratch_dir"] == scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def test_show_image_to_user_queues_the_image(vsession, world, two_colour):
    assert call_ok(vsession, "show_image_to_user", image_id=0) == "Image sent to user."
    call_ok(vsession, "show_image_to_user", image_id=0, message="The cropped receipt")
    assert world.episode.shown_to_user == [ShownImage(0, "Here is the image"), ShownImage(0, "The cropped receipt")]
    assert "not found" in call_err(vsession, "show_image_to_user", image_id=3).message
    assert len(world.episode.shown_to_user) == 2   # the failed call queued nothing


def test_palette_and_jpeg_inputs_are_handled(vsession, world):
    pal = Image.new("P", (20, 10))
    pal.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    pal.paste(1, (10, 0, 20, 10))
    pid = world.images.add_pil(pal)
    crop = pixels(world, call_ok(vsession, "crop_image", image_id=pid, left=500, upper=0, right=1000,
                                 lower=1000).image_id)
    assert crop.size == (10, 10) and crop.getcolors() == [(100, BLUE)]
    buf = io.BytesIO()
    Image.new("RGB", (64, 32), RED).save(buf, format="JPEG", quality=95)
    jid = world.images.add_bytes(buf.getvalue())
    rid = call_ok(vsession, "rotate_image", image_id=jid, angle=90, expand=True).image_id
    assert world.images.get(rid).mime_type == "image/png" and pixels(world, rid).size == (32, 64)
