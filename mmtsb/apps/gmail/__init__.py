"""Gmail: emails in conversations (threads), drafts, labels and flags, and attachments from the file system."""

from mmtsb.apps.base import App
from mmtsb.apps.gmail.schema import ATTACHMENTS, DRAFTS, EMAILS, GLOBAL_THREADS, TABLES, USER_THREADS
from mmtsb.apps.gmail.seed import seed

_SENDING = (GLOBAL_THREADS, USER_THREADS, ATTACHMENTS)

APP = App(
    name="gmail",
    tables=TABLES,
    tool_modules=("mmtsb.apps.gmail.tools_account", "mmtsb.apps.gmail.tools_threads",
                  "mmtsb.apps.gmail.tools_compose", "mmtsb.apps.gmail.tools_attachments"),
    seed=seed,
    companions={
        EMAILS: _SENDING,
        DRAFTS: (ATTACHMENTS, EMAILS, *_SENDING[:2]),
        USER_THREADS: (DRAFTS, ATTACHMENTS),
        "file_system.files": (ATTACHMENTS, "file_system.directories"),
    },
    id_offsets={EMAILS: 5000, DRAFTS: 600, USER_THREADS: 47900, GLOBAL_THREADS: 100},
)

__all__ = ["APP"]
