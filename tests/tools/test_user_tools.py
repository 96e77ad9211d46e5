"""User-role tools: end_conversation and send_message_with_image (role visibility, validation)."""

import pytest
from PIL import Image

from mmtsb.tools.user_tools import conversation_ended, parse_image_ids


def _user_call(session, name, **args):
    return session.call(name, args, role="user")


def _add_images(world, n):
    for i in range(n):
        world.images.add_pil(Image.new("RGB", (4, 4), (i * 40, 0, 0)), source=f"image_{i + 1}.jpg")


def test_end_conversation_once(session, world):
    assert not conversation_ended(world)
    out = _user_call(session, "end_conversation")
    assert out.ok and out.value is None and world.episode.conversation_ended is True
    again = _user_call(session, "end_conversation")
    assert not again.ok and "already ended" in again.error.message


def test_user_tools_are_hidden_from_the_agent(session, world):
    out = session.call("end_conversation", {}, role="agent")
    assert not out.ok and out.error.type == "PermissionError"
    assert not conversation_ended(world)
    names = {s.name for s in session.available("user")}
    assert {"end_conversation", "send_message_with_image"} <= names
    assert "end_conversation" not in {s.name for s in session.available("agent")}


def test_send_message_with_image(session, world):
    _add_images(world, 3)
    out = _user_call(session, "send_message_with_image", message="Here are the receipts", image_ids="1,2")
    assert out.ok and out.value == {"message": "Here are the receipts", "image_ids": [1, 2]}
    out = _user_call(session, "send_message_with_image", message="one", image_ids="[0]")
    assert out.value["image_ids"] == [0]


def test_send_message_with_image_rejects_unknown_ids(session, world):
    _add_images(world, 2)
    out = _user_call(session, "send_message_with_image", message="hi", image_ids="1,5")
    assert not out.ok and "Unknown image id(s) 5" in out.error.message and "0, 1" in out.error.message
    out = _user_call(session, "send_message_with_image", message="hi", image_ids="image_1")
    assert not out.ok and "not an integer image id" in out.error.message


@pytest.mark.parametrize("text, ids", [("0", [0]), ("1,2", [1, 2]), (" [3, 4] ", [3, 4]), ("'2','2'", [2])])
def test_parse_image_ids(text, ids):
    assert parse_image_ids(text) == ids


@pytest.mark.parametrize("text", ["", "[]", "1,,2", "one"])
def test_parse_image_ids_rejects(text):
    with pytest.raises(ValueError, match="image"):
        parse_image_ids(text)
