"""Venmo: one-sided friend lists."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "venmo friends",
        call("venmo_add_friend", user_email="bob@gmail.com"),
        call("venmo_add_friend", user_email="bob@gmail.com"),
        call("venmo_add_friend", user_email="alice@gmail.com"),
        call("venmo_add_friend", user_email="ghost@gmail.com"),
        call("venmo_search_friends"),
        call("venmo_search_friends", as_="bob"),
        call("venmo_remove_friend", as_="bob", user_email="alice@gmail.com"),
        call("venmo_add_friend", as_="bob", user_email="alice@gmail.com"),
        call("venmo_remove_friend", user_email="bob@gmail.com"),
        call("venmo_remove_friend", user_email="bob@gmail.com"),
    ),
]
