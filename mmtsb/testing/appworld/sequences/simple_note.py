"""SimpleNote: notes, tags, uniqueness of titles, sorting, ownership."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "simple_note notes",
        call("simple_note_create_note", label="n1", title="Groceries", content="milk", tags=["home"]),
        call("simple_note_create_note", title="Groceries", content="again"),
        call("simple_note_create_note", title="Work", content="x", tags=["  "]),
        call("simple_note_create_note", title="", content="x"),
        call("simple_note_create_note", label="n2", title="Trip", content="pack", pinned=True),
        call("simple_note_show_note", note_id="$n1.note_id"),
        call("simple_note_show_note", note_id=999),
        call("simple_note_show_note", as_="bob", note_id="$n1.note_id"),
        call("simple_note_search_notes", query="groceries"),
        call("simple_note_search_notes", sort_by="-pinned"),
        call("simple_note_search_notes", sort_by="title"),
        call("simple_note_search_notes", page_limit=50),
        call("simple_note_update_note", note_id="$n1.note_id", title="Trip"),
        call("simple_note_update_note", note_id="$n1.note_id", title="Shopping", pinned=True),
        call("simple_note_update_note", note_id="$n1.note_id", title=""),
        call("simple_note_update_note", as_="bob", note_id="$n1.note_id", content="mine"),
        call("simple_note_add_content_to_note", note_id="$n1.note_id", append_or_prepend="append",
             added_content="eggs"),
        call("simple_note_add_content_to_note", note_id="$n1.note_id", append_or_prepend="middle",
             added_content="eggs"),
        call("simple_note_delete_note", as_="bob", note_id="$n2.note_id"),
        call("simple_note_delete_note", note_id="$n2.note_id"),
        call("simple_note_delete_note", note_id="$n2.note_id"),
        call("simple_note_search_notes", as_=None),
    ),
]

SEQUENCES += [
    sequence(
        "simple_note editing",
        call("simple_note_create_note", label="a", title="Recipes", content="pancakes", tags=["food", "home"]),
        call("simple_note_create_note", label="b", title="Books", content="Dune"),
        call("simple_note_update_note", note_id="$a.note_id", tags=["food"]),
        call("simple_note_update_note", note_id="$a.note_id", tags=[]),
        call("simple_note_update_note", note_id="$a.note_id", tags=[" "]),
        call("simple_note_update_note", note_id="$a.note_id", content="waffles", pinned=False),
        call("simple_note_update_note", note_id="$b.note_id", pinned=True),
        call("simple_note_add_content_to_note", note_id="$b.note_id", append_or_prepend="prepend",
             added_content="To read:"),
        call("simple_note_add_content_to_note", as_="bob", note_id="$b.note_id", append_or_prepend="append",
             added_content="mine"),
        call("simple_note_search_notes", tags=["food"]),
        call("simple_note_search_notes", pinned=True),
        call("simple_note_create_note", as_="bob", title="Recipes", content="soup"),
        call("simple_note_delete_note", note_id="$a.note_id"),
        call("simple_note_create_note", title="Recipes", content="again"),
        call("simple_note_update_account_name", first_name="Alicia", last_name="Stone"),
        call("simple_note_show_account"),
        call("simple_note_delete_account"),
        call("simple_note_show_note", as_="bob", note_id="$b.note_id"),
    ),
]
