"""UI scenario 8, converting starter scenario 8: the user picks the project for the grocery task in a form (choice
input + Add button)."""

from __future__ import annotations

from mmtsb.authoring.model import Definition, step
from mmtsb.authoring.nominal import s008
from mmtsb.authoring.rows import project
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.ui.screens import quick_start, render, show
from mmtsb.ui.examples import button, column, comp, lit, ref, screen, text


def variant() -> UIVariant:
    """The variant behind mmtsb_ui_008."""
    base = s008.definition()
    r3 = base.rounds[2]
    note_step = r3.steps[0]
    projects = ["Inbox", "Meal prep", "Home"]

    def add_projects(d: Definition) -> None:
        uid = d.user.id
        rows = [project(401, uid, "Meal prep", "green"), project(402, uid, "Home", "blue")]
        d.appworld = {**d.appworld, "todoist.projects": [r for r, _ in rows],
                      "todoist.project_collaborator_links": [link for _, link in rows]}

    form = screen("task-project", [
        comp("root", "Card", child="body"),
        column("body", "title", "task", "due", "project", "add"),
        text("title", "New task", hint="h3"),
        text("task", "Buy groceries for Sunday", hint="h4"),
        text("due", "Due Saturday, April 18", hint="caption"),
        comp("project", "MultipleChoice", selections=ref("/choice/project"), maxAllowedSelections=1,
             options=[{"label": lit(p), "value": p} for p in projects]),
        text("add-label", "Add task"),
        button("add", "add-label", "add_task", primary=True, context={
            "project": ref("/choice/project"), "title": lit("Buy groceries for Sunday"), "due": lit("2026-04-18")}),
    ])
    ui = UIRound(
        3,
        "Change of plans: we're eating out on Saturday, so drop the pasta completely. Here's what's already in my "
        "pantry, so remove anything I already have. Then I need a task 'Buy groceries for Sunday', due Saturday, "
        "April 18: show me my Todoist projects so I can choose where it goes.",
        "Tell the assistant you no longer make the pasta, send the pantry screenshot and ask it to remove the "
        "pasta's ingredients and everything you already have from the list. Then ask for the task due April 18 "
        "and to see your projects. When the assistant shows them, select Inbox and add the task via "
        "`ui_user_interact`. If no interactive UI is shown, tell it to use your Inbox. If it asks whether the "
        "chicken still needs garlic, say you already have garlic. End the conversation once the list is updated "
        "and the task created.",
        "Round 3: The agent must present the user's Todoist projects in a structured interactive UI that lets the "
        "user choose the project for the new task and confirm it.",
        [note_step, step("todoist_show_projects", "projects"), quick_start(), render(form), show()],
        "The shopping list is trimmed to 6 items. Choose the project for 'Buy groceries for Sunday' on the screen "
        "and press Add task.",
        [step("todoist_show_projects", "target", query="$picked.context.project.0"),
         step("todoist_create_task", project_id="$target.0.project_id", title="$picked.context.title",
              due_date="$picked.context.due")],
        "The list now has 6 items (chicken thighs, lemons, thyme, Greek yogurt, berries and granola), and the task "
        "'Buy groceries for Sunday' is in your Inbox, due April 18.",
        {"name": "add_task", "context": {"project": ["Inbox"], "title": "Buy groceries for Sunday",
                                         "due": "2026-04-18"}},
        "Add task", "Done, I picked Inbox and added it.", "Put it in my Inbox.",
        field_values={"project": ["Inbox"]})
    return UIVariant(8, s008.definition, "(UI mode: the task's project is chosen in a form.)", [ui], edit=add_projects)
