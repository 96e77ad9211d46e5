"""ImageEncoder: correct MIME from the bytes, format kept, resized once, cached by content hash."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from mmtsb.llm import ImageEncoder, LLMClient
from mmtsb.vision.store import StoredImage
from testkit import while_ticking


def _image_bytes(size: tuple[int, int], fmt: str, color: str = "teal") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format=fmt)
    return out.getvalue()


def _decode(part: dict) -> tuple[str, bytes]:
    assert part["type"] == "image_url"
    header, payload = part["image_url"]["url"].split(",", 1)
    assert header.startswith("data:") and header.endswith(";base64")
    return header[5:-7], base64.b64decode(payload)


def test_large_png_stays_png_and_is_resized_to_max_side():
    encoder = ImageEncoder()
    mime, data = _decode(encoder.content_part(StoredImage(0, _image_bytes((2048, 1000), "PNG"), "image/png")))
    assert mime == "image/png"
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG" and img.size == (1024, 500)


def test_large_jpeg_stays_jpeg_and_max_side_is_configurable():
    encoder = ImageEncoder(max_side=300)
    mime, data = _decode(encoder.content_part(_image_bytes((600, 1200), "JPEG"), "image/jpeg"))
    assert mime == "image/jpeg"
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "JPEG" and img.size == (150, 300)


def test_small_image_passes_through_unchanged_with_the_mime_of_its_bytes():
    jpeg = _image_bytes((320, 200), "JPEG")
    mime, data = _decode(ImageEncoder().content_part(jpeg, "image/jpeg", detail="high"))
    assert (mime, data) == ("image/jpeg", jpeg)  # no lossy re-encode
    png = _image_bytes((64, 64), "PNG")
    mislabelled = StoredImage(3, png, "image/jpeg")  # the bytes decide, not the label
    part = ImageEncoder().content_part(mislabelled)
    assert _decode(part) == ("image/png", png)
    assert "detail" not in part["image_url"]


def test_undecodable_bytes_raise_a_clear_error():
    with pytest.raises(ValueError, match="cannot decode image .*image/png"):
        ImageEncoder().data_url(b"not an image", "image/png")


def test_a_damaged_image_that_would_pass_through_is_still_refused():
    png = _image_bytes((64, 64), "PNG")
    cut = png[: len(png) // 2]  # header intact, data and trailer gone
    with pytest.raises(ValueError, match="cannot decode image"):
        ImageEncoder().data_url(cut, "image/png")
    flipped = bytearray(png)
    flipped[len(png) // 2] ^= 0xFF  # one byte of the pixel data changed: its chunk checksum fails
    with pytest.raises(ValueError, match="cannot decode image"):
        ImageEncoder().data_url(bytes(flipped), "image/png")


def test_lru_is_bounded_by_bytes():
    first, second = _image_bytes((64, 64), "PNG", "red"), _image_bytes((64, 64), "PNG", "blue")
    encoder = ImageEncoder(max_cache_bytes=len(ImageEncoder().data_url(first)) + 10)
    encoder.data_url(first)
    encoder.data_url(second)  # evicts ``first``
    encoder.data_url(first)
    assert encoder.encode_count == 3 and encoder.hits == 0
    encoder.data_url(first)
    assert encoder.hits == 1


def test_conversation_resent_five_times_encodes_its_image_once(server, run, config_for, monkeypatch):
    image = StoredImage(0, _image_bytes((1600, 1200), "PNG"), "image/png")
    client = LLMClient(config_for(server))
    real_encode, calls = client.images._encode, []
    monkeypatch.setattr(client.images, "_encode", lambda *a: calls.append(a) or real_encode(*a))
    server.reset(script=[f"turn {i}" for i in range(5)])

    async def conversation():
        messages = []
        for turn in range(5):
            messages.append({"role": "user", "content": [
                {"type": "text", "text": f"turn {turn}"}, {"type": "text", "text": "image_id: 0"},
                client.image_part(image)]})
            reply = await client.complete(messages)
            messages.append({"role": "assistant", "content": reply.text})

    run(conversation())
    assert len(calls) == 1 and client.images.encode_count == 1 and client.images.hits == 4
    assert server.request_count == 5
    last = server.requests[-1]["messages"]
    urls = [p["image_url"]["url"] for m in last if isinstance(m["content"], list)
            for p in m["content"] if p["type"] == "image_url"]
    assert len(urls) == 5 and len(set(urls)) == 1
    assert urls[0].startswith("data:image/png;base64,")


def test_a_data_url_is_a_plain_string_to_consumers_with_a_short_repr():
    """litellm formats its call parameters (the messages) into debug strings on every call: an inlined image's
    repr must not cost its size. Everything else sees the same string."""
    import copy
    import json
    import pickle

    import orjson

    from mmtsb.llm.images import DataURL

    png = _image_bytes((64, 64), "PNG")
    url = ImageEncoder().data_url(png)
    assert isinstance(url, DataURL) and isinstance(url, str) and url.startswith("data:image/png;base64,")
    assert repr(url) == f"<data:image/png;base64, {len(url)} chars>" and len(repr({"url": url})) < 60
    part = {"type": "image_url", "image_url": {"url": url}}
    assert json.loads(json.dumps(part))["image_url"]["url"] == str(url)
    assert orjson.loads(orjson.dumps(part))["image_url"]["url"] == str(url)
    assert copy.deepcopy(part)["image_url"]["url"] is url and copy.copy(url) is url
    again = pickle.loads(pickle.dumps(url))
    assert again == url and type(again) is DataURL and again.content_sha256 == url.content_sha256


def test_a_data_url_knows_the_sha256_of_the_bytes_it_carries() -> None:
    # passed through as they are, or shrunk and re-encoded: the digest is that of the URL's decoded payload
    import hashlib

    encoder = ImageEncoder(max_side=32)
    for image in (_image_bytes((16, 16), "PNG"), _image_bytes((64, 48), "JPEG")):
        url = encoder.data_url(image)
        payload = base64.b64decode(url.split(";base64,", 1)[1])
        assert url.content_sha256 == hashlib.sha256(payload).hexdigest()
    assert encoder.data_url(image).content_sha256 == url.content_sha256   # from the encoder's LRU


def _photo_jpeg(size: tuple[int, int], seed: int = 0) -> bytes:
    """A JPEG with photo-like content (gradients under grain), so scaled decodes can be compared."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0 : size[1], 0 : size[0]]
    base = np.stack([127 + 100 * np.sin(x / (40 + 9 * k) + y / (60 + 5 * k)) for k in range(3)], -1)
    pixels = np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=90)
    return out.getvalue()


def test_a_large_jpeg_is_shrunk_to_max_side_and_matches_a_full_resolution_resize():
    jpeg = _photo_jpeg((2400, 1800))
    mime, data = _decode(ImageEncoder(max_side=512).content_part(jpeg))
    with Image.open(io.BytesIO(jpeg)) as full:
        reference = full.convert("RGB").resize((512, 384), Image.Resampling.LANCZOS)
    with Image.open(io.BytesIO(data)) as img:
        assert mime == "image/jpeg" and img.size == (512, 384)
        import numpy as np

        diff = np.abs(np.asarray(img.convert("RGB"), dtype=float) - np.asarray(reference, dtype=float)).mean()
    assert diff < 3.0  # the same picture (JPEG re-encoding alone moves pixels by about 1)


def test_a_jpeg_whose_reduced_scale_is_exactly_max_side_is_still_re_encoded():
    jpeg = _photo_jpeg((2048, 1024))  # decoded at 1/2: 1024 wide, the limit itself
    mime, data = _decode(ImageEncoder(max_side=1024).content_part(jpeg))
    assert data != jpeg  # not passed through at its original 2048 px
    with Image.open(io.BytesIO(data)) as img:
        assert img.size == (1024, 512)


def test_a_cut_large_jpeg_is_refused_even_at_a_reduced_scale():
    jpeg = _photo_jpeg((2400, 1800))
    with pytest.raises(ValueError, match=r"cannot decode image \(\d+ bytes"):
        ImageEncoder(max_side=512).data_url(jpeg[: len(jpeg) // 2])


def test_async_parts_equal_the_sync_ones_and_a_large_image_leaves_the_loop_free(tmp_path):
    import asyncio

    from mmtsb.llm.images import INLINE_MAX_BYTES

    small = _image_bytes((64, 64), "PNG")
    big = _photo_jpeg((3000, 2250), seed=1)
    assert len(small) <= INLINE_MAX_BYTES < len(big)
    path = tmp_path / "photo.jpg"
    path.write_bytes(big)

    async def encode_while_ticking(encoder: ImageEncoder, source) -> tuple[dict, int]:
        return await while_ticking(encoder.content_part_async(source))

    expected = ImageEncoder().content_part(big)
    from_path, ticks_path = asyncio.run(encode_while_ticking(ImageEncoder(), path))
    from_bytes, ticks_bytes = asyncio.run(encode_while_ticking(ImageEncoder(), big))
    assert from_path == from_bytes == expected
    # the loop ran other tasks while the photo was decoded and shrunk in a worker thread
    assert ticks_path > 10 and ticks_bytes > 10
    inline, ticks_inline = asyncio.run(encode_while_ticking(ImageEncoder(), small))
    assert inline == ImageEncoder().content_part(small) and ticks_inline <= 1  # encoded right there
    screenshot = _image_bytes((3840, 2160), "PNG", "white")   # few bytes, many pixels: slow to shrink
    assert len(screenshot) <= INLINE_MAX_BYTES
    shrunk, ticks_screenshot = asyncio.run(encode_while_ticking(ImageEncoder(), screenshot))
    assert shrunk == ImageEncoder().content_part(screenshot) and ticks_screenshot > 10


@pytest.mark.parametrize(("fmt", "size", "options"), [
    ("PNG", (3840, 2160), {}), ("GIF", (300, 200), {}), ("JPEG", (640, 480), {}),
    ("JPEG", (4000, 3000), {"progressive": True}), ("JPEG", (800, 600), {"exif": b"Exif\x00\x00" + b"\x00" * 40}),
])
def test_header_pixels_are_read_without_decoding(fmt, size, options):
    from mmtsb.llm.images import encodes_inline, header_pixels

    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, format=fmt, **options)
    data = out.getvalue()
    assert header_pixels(data) == size[0] * size[1]
    assert encodes_inline(data) == (size[0] * size[1] <= 1 << 20)


def test_other_formats_and_garbage_fall_back_to_pillow_for_the_size():
    from mmtsb.llm.images import encodes_inline, header_pixels

    out = io.BytesIO()
    Image.new("RGB", (2000, 1000), "white").save(out, format="WEBP")
    webp = out.getvalue()
    assert header_pixels(webp) is None and len(webp) <= 128 * 1024
    assert not encodes_inline(webp)   # 2 MP: to a worker thread, whatever its bytes
    assert header_pixels(b"\xff\xd8\xff") is None and header_pixels(b"junk") is None
    assert encodes_inline(b"junk")   # refused at once, no thread needed


def test_several_parts_at_once_give_an_undecodable_image_its_error_in_place():
    import asyncio

    good, other = _image_bytes((64, 64), "PNG"), _image_bytes((32, 32), "PNG", "white")
    parts = asyncio.run(ImageEncoder().content_parts_async([good, good[:40], other]))
    assert parts[0] == ImageEncoder().content_part(good) and parts[2] == ImageEncoder().content_part(other)
    assert isinstance(parts[1], ValueError) and "cannot decode image" in str(parts[1])
    in_turn = ImageEncoder().content_parts([good, good[:40], other])   # the same, one after the other
    assert in_turn[0] == parts[0] and in_turn[2] == parts[2]
    assert isinstance(in_turn[1], ValueError) and "cannot decode image" in str(in_turn[1])
