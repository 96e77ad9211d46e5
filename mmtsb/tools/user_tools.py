"""Tools of the simulated user (role ``user``): ending the conversation and sending images to the agent.

The episode loop watches both: ``end_conversation`` sets ``world.episode.conversation_ended``,
after which the loop stops; a ``send_message_with_image`` call becomes a user message carrying the
images. Unlike the reference, whose simulator intercepts ``send_message_with_image`` so that its body
never runs, ours runs and validates the ids, so a wrong id comes back to the user as an error it can fix.
"""

from __future__ import annotations

from typing import Any

from mmtsb.tools.spec import tool
from mmtsb.world.world import World

DOMAIN = "user"
_STRIP = "[]()'\" \t\r\n"


def conversation_ended(world: World) -> bool:
    """Whether the user has ended the conversation."""
    return world.episode.conversation_ended


@tool(domain=DOMAIN, mutates=True, visible_to=("user",))
def end_conversation(world: World) -> None:
    """Ends the conversation with the assistant. Call it once, when the task is done or cannot be done.

    Returns:
        None
    """
    if conversation_ended(world):
        raise ValueError("The conversation has already ended.")
    world.episode.conversation_ended = True


def parse_image_ids(image_ids: str) -> list[int]:
    """``"0"``, ``"1,2"``, ``"[1, 2]"`` -> integer ids (duplicates dropped, order kept)."""
    text = str(image_ids).strip().strip(_STRIP)
    parts = [p.strip().strip(_STRIP) for p in text.split(",")] if text else []
    if not parts or any(not p for p in parts):
        raise ValueError(f"image_ids {image_ids!r} must be comma-separated integer image ids, e.g. '0' or '1,2'.")
    out: list[int] = []
    for part in parts:
        try:
            value = int(part)
        except ValueError:
            raise ValueError(f"image_ids {image_ids!r}: {part!r} is not an integer image id; use e.g. '0' or "
                             "'1,2'.") from None
        if value not in out:
            out.append(value)
    return out


@tool(domain=DOMAIN, visible_to=("user",))
def send_message_with_image(world: World, message: str, image_ids: str) -> dict[str, Any]:
    """Sends the assistant a message with one or more images attached.

    Args:
        message: the text to send with the images.
        image_ids: comma-separated zero-based integer image ids, e.g. "0" or "1,2".

    Returns:
        {message, image_ids}: the message and the attached ids as integers.
    """
    ids = parse_image_ids(image_ids)
    valid = world.images.ids()
    unknown = [i for i in ids if i not in valid]
    if unknown:
        choices = ", ".join(map(str, valid)) if valid else "none (this episode has no images)"
        raise ValueError(f"Unknown image id(s) {', '.join(map(str, unknown))}. Valid image ids: {choices}.")
    return {"message": message, "image_ids": ids}
