"""Starter scenario 8 (aggregate / progressive / goal_change): recipes merged into one shopping list, then
trimmed."""

from __future__ import annotations

from mmtsb.authoring.images import phone_screen, recipe_card
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import THOMAS
from mmtsb.authoring.specs import create_note, create_task


def definition() -> Definition:
    """The definition of mmtsb_nominal_008."""
    uid = THOMAS.id
    title = "Weekend shopping list"
    chicken = ["Chicken thighs: 2 lb", "Lemons: 2", "Garlic: 6 cloves", "Fresh thyme: 1 bunch", "Olive oil"]
    pasta = ["Spaghetti: 1 lb", "Cherry tomatoes: 2 pints", "Fresh basil: 1 bunch", "Garlic: 4 cloves",
             "Parmesan: 1 cup", "Olive oil"]
    parfait = ["Greek yogurt: 32 oz", "Mixed berries: 2 pints", "Granola: 2 cups", "Honey"]
    first_list = ["Chicken thighs: 2 lb", "Lemons: 2", "Garlic: 10 cloves", "Fresh thyme: 1 bunch", "Olive oil",
                  "Spaghetti: 1 lb", "Cherry tomatoes: 2 pints", "Fresh basil: 1 bunch", "Parmesan: 1 cup"]
    second_list = first_list + parfait
    final_list = ["Chicken thighs: 2 lb", "Lemons: 2", "Fresh thyme: 1 bunch", "Greek yogurt: 32 oz",
                  "Mixed berries: 2 pints", "Granola: 2 cups"]

    def lines(items: list[str]) -> str:
        return "\n".join(f"- {i}" for i in items)

    images = [
        ("recipe_chicken", lambda: recipe_card("Lemon Herb Chicken", "Serves 4", chicken, (198, 40, 40))),
        ("recipe_pasta", lambda: recipe_card("Tomato Basil Pasta", "Serves 4", pasta, (230, 81, 0))),
        ("recipe_parfait", lambda: recipe_card("Berry Yogurt Parfait", "Serves 4", parfait, (106, 27, 154))),
        ("pantry_note", lambda: phone_screen("Notes", (255, 179, 0), "Pantry check - Apr 16", [
            ("Already have", "Olive oil, garlic, honey, spaghetti, rice, flour", ""),
            ("Running low", "Salt, black pepper", "")], note="Checked the fridge and the pantry on Thursday.")),
    ]
    rounds = [
        Round([1, 2],
              "I'm cooking these two recipes this weekend. Create a note called 'Weekend shopping list' that combines "
              "all their ingredients into one list, adding up quantities for anything that appears in both.",
              "Send the two recipe cards and ask for one combined shopping list note, with quantities summed for "
              "shared ingredients. If it asks about the format, say one '- item: quantity' line per ingredient. Once "
              "the note exists, move on.",
              [step("simple_note_create_note", "shopping", title=title, content=lines(first_list))],
              "The note 'Weekend shopping list' has 9 items; garlic appears in both recipes, so it's 10 cloves."),
        Round([3],
              "Add this dessert's ingredients to the list too.",
              "Send the dessert recipe and ask the assistant to add its ingredients to the same note. Once it "
              "confirms, move on.",
              [step("simple_note_update_note", note_id="$shopping.note_id", content=lines(second_list))],
              "I added Greek yogurt, mixed berries, granola and honey to the list."),
        Round([4],
              "Change of plans: we're eating out on Saturday, so drop the pasta completely. Here's what's already in "
              "my pantry, so remove anything I already have. Then add a task 'Buy groceries for Sunday' to my Todoist "
              "Inbox, due Saturday, April 18.",
              "Tell the assistant you no longer make the pasta, send the pantry screenshot and ask it to remove the "
              "pasta's ingredients and everything you already have from the list, then to create the Inbox task due "
              "April 18. If it asks whether the chicken still needs garlic, say you already have garlic. End the "
              "conversation once the list is updated and the task created.",
              [step("simple_note_update_note", note_id="$shopping.note_id", content=lines(final_list)),
               step("todoist_show_projects", "inbox", query="Inbox"),
               step("todoist_create_task", project_id="$inbox.0.project_id", title="Buy groceries for Sunday",
                    due_date="2026-04-18")],
              "The list now has 6 items (chicken thighs, lemons, thyme, Greek yogurt, berries and granola), and the "
              "task 'Buy groceries for Sunday' is in your Inbox, due April 18."),
    ]
    specs = [create_note(uid, title, lines(final_list)),
             create_task(uid, uid, "Buy groceries for Sunday", due="2026-04-18")]
    criteria = ("A note 'Weekend shopping list' must end with exactly: chicken thighs 2 lb, lemons 2, fresh thyme 1 "
                "bunch, Greek yogurt 32 oz, mixed berries 2 pints, granola 2 cups (the pasta's ingredients are dropped "
                "after the change of plans, and olive oil, garlic and honey are already in the pantry). A Todoist "
                "task 'Buy groceries for Sunday' must be in the Inbox, due 2026-04-18.")
    return Definition(8, THOMAS, "Thomas plans his weekend cooking from recipe cards, merges the ingredients into one "
                      "shopping list, then changes plans and trims the list against his pantry.", "aggregate",
                      "progressive", "goal_change", False, "synthetic_poster", images, rounds, specs, criteria)
