"""Todoist: projects (shared through collaborator links), sections, tasks, sub-tasks, labels, comments with
attachments, project invites and notifications."""

from mmtsb.apps.base import App
from mmtsb.apps.todoist.schema import (ATTACHMENTS, COMMENTS, INVITES, LABELS, LINKS, NOTIFICATIONS, PROJECTS, SECTIONS,
                                       SUB_TASKS, TABLES, TASK_LABELS, TASKS, USERS)
from mmtsb.apps.todoist.seed import seed

_TASK_TREE = (SUB_TASKS, TASK_LABELS, COMMENTS, ATTACHMENTS)

APP = App(
    name="todoist",
    tables=TABLES,
    tool_modules=(
        "mmtsb.apps.todoist.tools_account",
        "mmtsb.apps.todoist.tools_projects",
        "mmtsb.apps.todoist.tools_tasks",
        "mmtsb.apps.todoist.tools_labels",
        "mmtsb.apps.todoist.tools_comments",
        "mmtsb.apps.todoist.tools_notifications",
    ),
    seed=seed,
    companions={
        # changes to a shared project, its sections, tasks and comments notify its other members (AppWorld)
        USERS: (PROJECTS, LINKS),                      # signing up creates the new user's Inbox
        PROJECTS: (LINKS, SECTIONS, TASKS, INVITES, NOTIFICATIONS, *_TASK_TREE),  # owner link; cascade on delete
        LINKS: (TASKS, INVITES, NOTIFICATIONS),        # accepting an invite / removing a collaborator
        INVITES: ("gmail.emails", "gmail.user_email_threads", "gmail.global_email_threads"),
        SECTIONS: (TASKS, NOTIFICATIONS, *_TASK_TREE),  # order shifts; deleting a section deletes its tasks
        TASKS: (NOTIFICATIONS, *_TASK_TREE),           # assignment notifies; deleting a task cascades
        LABELS: (TASK_LABELS,),                        # deleting a label detaches it everywhere
        COMMENTS: (ATTACHMENTS, NOTIFICATIONS),        # posting with attachments; deleting cascades
        ATTACHMENTS: ("file_system.files", "file_system.directories", NOTIFICATIONS),  # downloads land in the file system
    },
    id_offsets={"todoist.tasks": 6400, "todoist.projects": 300, "todoist.labels": 2300},
)

__all__ = ["APP"]
