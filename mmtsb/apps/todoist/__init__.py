"""Todoist: projects (shared through collaborator links), sections, tasks, sub-tasks, labels, comments with
attachments, project invites and notifications."""

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.todoist.schema import (
    ATTACHMENTS,
    COMMENTS,
    INVITES,
    LABELS,
    LINKS,
    NOTIFICATIONS,
    PROJECTS,
    SECTIONS,
    SUB_TASKS,
    TABLES,
    TASK_LABELS,
    TASKS,
    USERS,
)
from mmtsb.world.world import World

#: base rows are written before a scenario's: Inbox projects and their links take ids 1..110 (the user's
#: id), below the 400+ projects and 50000+ links that scenario files insert
SEED_CREATED_AT = "2023-01-01T00:00:00"


def seed(world: World, base: BaseContext) -> None:
    """Every base person is a Todoist user with an Inbox project (and the owner's collaborator link)."""
    seed_users(world, "todoist", base.people)
    for p in base.people:
        world.insert(PROJECTS, {"id": p.id, "user_id": p.id, "name": "Inbox", "color": "charcoal", "is_inbox": True,
                                "description": "", "created_at": SEED_CREATED_AT})
        world.insert(LINKS, {"id": p.id, "project_id": p.id, "user_id": p.id, "is_favorite": False,
                             "is_archived": False, "created_at": SEED_CREATED_AT})


_TASK_TREE = (SUB_TASKS, TASK_LABELS, COMMENTS, ATTACHMENTS)

APP = App(
    name="todoist",
    tables=TABLES,
    tool_modules=(
        "mmtsb.apps.todoist.account_tools",
        "mmtsb.apps.todoist.project_tools",
        "mmtsb.apps.todoist.task_tools",
        "mmtsb.apps.todoist.label_tools",
        "mmtsb.apps.todoist.comment_tools",
        "mmtsb.apps.todoist.notification_tools",
    ),
    seed=seed,
    companions={
        USERS: (PROJECTS, LINKS),                      # signing up creates the new user's Inbox
        PROJECTS: (LINKS, SECTIONS, TASKS, INVITES, *_TASK_TREE),  # owner link on create; cascade on delete
        LINKS: (TASKS, INVITES, NOTIFICATIONS),        # accepting an invite / removing a collaborator
        INVITES: (NOTIFICATIONS, "gmail.emails", "gmail.user_email_threads", "gmail.global_email_threads"),
        SECTIONS: (TASKS, *_TASK_TREE),                # order shifts; deleting a section deletes its tasks
        TASKS: (NOTIFICATIONS, *_TASK_TREE),           # assignment notifies; deleting a task cascades
        LABELS: (TASK_LABELS,),                        # deleting a label detaches it everywhere
        COMMENTS: (ATTACHMENTS,),                      # posting with attachments; deleting cascades
        ATTACHMENTS: ("file_system.files", "file_system.directories"),  # downloads land in the file system
    },
    id_offsets={"todoist.tasks": 6400, "todoist.projects": 300, "todoist.labels": 2300},
)
