"""ImageEncoder: correct MIME from the bytes, format kept, resized once, cached by content hash."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from mmtsb.llm import ImageEncoder, LLMClient
from mmtsb.vision.store import StoredImage


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
    assert again == url and type(again) is DataURL
