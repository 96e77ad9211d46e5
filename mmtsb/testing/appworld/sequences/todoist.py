"""Todoist: unique project names, due-date filters that contradict each other, invites only their inviter
deletes."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "todoist projects and invites",
        call("todoist_create_project", label="p1", name="Garden"),
        call("todoist_create_project", name="Garden"),
        call("todoist_create_project", label="p2", name="Kitchen"),
        call("todoist_update_project", project_id="$p2.project_id", name="Garden"),
        call("todoist_update_project", project_id="$p2.project_id", name="Pantry"),
        call("todoist_create_project", as_="bob", name="Garden"),
        call("todoist_send_project_invite", label="i1", project_id="$p1.project_id", email="bob@gmail.com"),
        call("todoist_delete_project_invite", as_="bob", invite_code="$i1.invite_code"),
        call("todoist_delete_project_invite", invite_code="$i1.invite_code"),
        call("todoist_delete_project_invite", invite_code="$i1.invite_code"),
        call("todoist_create_project", name=""),
    ),
    sequence(
        "todoist task filters",
        call("todoist_create_project", label="p", name="Chores"),
        call("todoist_create_task", project_id="$p.project_id", title="Sweep", due_date="2024-05-01"),
        call("todoist_create_task", project_id="$p.project_id", title="Mop", due_date="2024-04-20"),
        call("todoist_show_tasks", project_id="$p.project_id"),
        call("todoist_show_tasks", project_id="$p.project_id", due_today=True),
        call("todoist_show_tasks", project_id="$p.project_id", overdue=True),
        call("todoist_show_tasks", project_id="$p.project_id", due_today=True, overdue=True),
        call("todoist_show_tasks", project_id="$p.project_id", due_today=True, min_due_date="2024-04-01"),
        call("todoist_show_tasks", project_id="$p.project_id", overdue=True, max_due_date="2024-06-01"),
        call("todoist_show_tasks", project_id="$p.project_id", min_due_date="2024-04-25"),
        call("todoist_show_tasks", project_id="$p.project_id", sort_by="due_date"),
        call("todoist_show_tasks", project_id="$p.project_id", sort_by="-priority"),
        call("todoist_create_label", name="urgent"),
        call("todoist_create_label", name="urgent"),
    ),
]
