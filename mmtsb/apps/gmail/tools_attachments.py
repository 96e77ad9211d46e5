"""Gmail attachment tools: attaching file-system files to drafts, removing them, and downloading attachments."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.gmail import core, files
from mmtsb.apps.gmail.core import APP
from mmtsb.apps.gmail.schema import ATTACHMENTS, DRAFTS
from mmtsb.apps.gmail.tools_compose import own_draft
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)


def _accessible_attachment(world: World, attachment_id: int) -> dict[str, Any]:
    att = world.get(ATTACHMENTS, attachment_id)
    uid = core.me(world)["id"]
    if att is not None:
        if att.get("draft_id") is not None:
            draft = world.get(DRAFTS, att["draft_id"])
            if draft is not None and draft["user_id"] == uid:
                return att
        elif att.get("email_id") is not None:
            try:
                core.visible_email(world, uid, att["email_id"])
                return att
            except ValueError:
                pass
    raise api_error(f"Attachment with attachment_id={attachment_id} does not exist in your mailbox.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ATTACHMENTS, "file_system.files"))
def gmail_download_attachment(world: World, attachment_id: int, file_system_access_token: str,
                              download_to_file_path: str | None = None,
                              overwrite: bool | None = False) -> dict[str, str]:
    """Saves an email attachment into the file-system app.

    Args:
        attachment_id: the attachment's id (from gmail_show_email or gmail_show_draft).
        file_system_access_token: the access_token from file_system_login.
        download_to_file_path: where to save: a file path, or a directory ending with '/' (the attachment's
            file name is kept); absolute or ~/...; default ~/downloads/.
        overwrite: replace an existing file at that path; otherwise an existing file is an error.

    Returns:
        {message, file_path}
    """
    att = _accessible_attachment(world, attachment_id)
    path = files.write_file(world, file_system_access_token, download_to_file_path, att["file_name"],
                            att.get("file_content"), att.get("file_compressed_data"), bool(overwrite))
    world.update(ATTACHMENTS, attachment_id, {"download_count": int(att.get("download_count") or 0) + 1})
    return {"message": "Attachment downloaded.", "file_path": path}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ATTACHMENTS, DRAFTS))
def gmail_upload_attachments_to_draft(world: World, draft_id: int, attachment_file_paths: list[str],
                                      file_system_access_token: str, overwrite: bool | None = False) -> dict[str, Any]:
    """Attaches file-system files to a draft.

    Args:
        draft_id: the draft's id.
        attachment_file_paths: file-system paths of the files (absolute /... or ~/...).
        file_system_access_token: the access_token from file_system_login.
        overwrite: replace a draft attachment with the same file name; otherwise a duplicate name is an error.

    Returns:
        {message, attachments: list[{attachment_id, file_name}]} (the attachments just added)
    """
    own_draft(world, draft_id)
    new = files.read_files(world, file_system_access_token, attachment_file_paths, "attachment_file_paths")
    names = [f.file_name for f in new]
    if len(set(names)) != len(names):
        raise api_error("attachment_file_paths has two files with the same name.")
    existing = {a["file_name"]: a for a in core.attachments_of(world, draft_id=draft_id)}
    clashes = [n for n in names if n in existing]
    if clashes and not overwrite:
        raise api_error(f"The draft already has attachment(s) named {', '.join(map(repr, clashes))}; "
                        "pass overwrite=true to replace them.")
    for n in clashes:
        world.delete(ATTACHMENTS, existing[n]["id"])
    ids = core.add_attachments(world, new, draft_id=draft_id)
    world.update(DRAFTS, draft_id, {"updated_at": core.now(world)})
    return {"message": f"{len(ids)} attachment(s) added to the draft.",
            "attachments": [{"attachment_id": i, "file_name": n} for i, n in zip(ids, names)]}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ATTACHMENTS,))
def gmail_remove_attachment_from_draft(world: World, draft_id: int, attachment_id: int) -> dict[str, str]:
    """Removes an attachment from a draft.

    Args:
        draft_id: the draft's id.
        attachment_id: the attachment's id (from gmail_show_draft).

    Returns:
        {message}
    """
    own_draft(world, draft_id)
    att = world.get(ATTACHMENTS, attachment_id)
    if att is None or att.get("draft_id") != draft_id:
        raise api_error(f"Attachment with attachment_id={attachment_id} is not attached to draft {draft_id}.")
    world.delete(ATTACHMENTS, attachment_id)
    world.update(DRAFTS, draft_id, {"updated_at": core.now(world)})
    return {"message": "Attachment removed from the draft."}
