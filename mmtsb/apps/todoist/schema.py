"""Todoist tables (AppWorld layout; every column the released scenario files use, STATS.md §4).

Per-user project flags (favorite, archived) live on ``project_collaborator_links``: each user who can
see a project, its owner included, has one link row. Attachments of task comments are kept in their
own table so that uploading or deleting one does not rewrite the comment.
"""

from mmtsb.apps.accounts import users_table
from mmtsb.world.schema import table

APP = "todoist"
USERS = "todoist.users"
PROJECTS = "todoist.projects"
LINKS = "todoist.project_collaborator_links"
SECTIONS = "todoist.sections"
TASKS = "todoist.tasks"
SUB_TASKS = "todoist.sub_tasks"
LABELS = "todoist.labels"
TASK_LABELS = "todoist.task_label_links"
COMMENTS = "todoist.task_comments"
ATTACHMENTS = "todoist.task_comment_attachments"
INVITES = "todoist.project_invites"
NOTIFICATIONS = "todoist.notifications"

_WORK_ITEM = {"title": "str", "description": "str", "due_date": "datetime", "priority": "str",
              "is_completed": "bool", "duration": "float", "duration_unit": "str", "order_index": "int"}

TABLES = (
    users_table(APP),
    table(APP, "projects", {"id": "int", "user_id": "int", "name": "str", "color": "str", "is_inbox": "bool",
                            "description": "str", "created_at": "datetime"}),
    table(APP, "project_collaborator_links", {"id": "int", "project_id": "int", "user_id": "int",
                                              "is_favorite": "bool", "is_archived": "bool",
                                              "created_at": "datetime"}),
    table(APP, "sections", {"id": "int", "project_id": "int", "name": "str", "order_index": "int",
                            "created_at": "datetime"}),
    table(APP, "tasks", {"id": "int", "project_id": "int", "section_id": "int", "user_id": "int", **_WORK_ITEM,
                         "assignee_id": "int", "assigner_id": "int", "created_at": "datetime"}),
    table(APP, "sub_tasks", {"id": "int", "task_id": "int", "user_id": "int", **_WORK_ITEM,
                             "created_at": "datetime"}),
    table(APP, "labels", {"id": "int", "user_id": "int", "name": "str", "color": "str", "created_at": "datetime"}),
    table(APP, "task_label_links", {"id": "int", "task_id": "int", "label_id": "int", "created_at": "datetime"}),
    table(APP, "task_comments", {"id": "int", "task_id": "int", "user_id": "int", "content": "str",
                                 "created_at": "datetime"}),
    table(APP, "task_comment_attachments", {"id": "int", "task_comment_id": "int", "file_name": "str",
                                            "file_content": "str", "created_at": "datetime"}),
    table(APP, "project_invites", {"id": "int", "project_id": "int", "inviter_id": "int", "invitee_email": "str",
                                   "invite_code": "str", "created_at": "datetime"}),
    table(APP, "notifications", {"id": "int", "user_id": "int", "type": "str", "title": "str", "message": "str",
                                 "read": "bool", "data": "json", "created_at": "datetime"}),
)
