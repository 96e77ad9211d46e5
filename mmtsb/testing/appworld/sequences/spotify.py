"""Spotify: playlist titles unique per user."""

from mmtsb.testing.appworld.plan import call, card_of, sequence

SEQUENCES = [
    sequence(
        "spotify playlists",
        call("spotify_create_playlist", label="p1", title="Road"),
        call("spotify_create_playlist", title="Road"),
        call("spotify_create_playlist", label="p2", title="Chill"),
        call("spotify_update_playlist", playlist_id="$p2.playlist_id", title="Road"),
        call("spotify_update_playlist", playlist_id="$p2.playlist_id", title="Calm"),
        call("spotify_create_playlist", as_="bob", title="Road"),
        call("spotify_show_playlist", playlist_id="$p1.playlist_id"),
        call("spotify_update_playlist", as_="bob", playlist_id="$p1.playlist_id", title="Mine"),
        call("spotify_delete_playlist", playlist_id="$p1.playlist_id"),
        call("spotify_delete_playlist", playlist_id="$p1.playlist_id"),
        call("spotify_show_playlist_library"),
        call("spotify_create_playlist", title=""),
    ),
]

CARD = card_of("alice")

SEQUENCES += [
    sequence(
        "spotify playlists, likes and reviews",
        call("spotify_create_playlist", label="p", title="Focus", is_public=True),
        call("spotify_like_playlist", as_="bob", playlist_id="$p.playlist_id"),
        call("spotify_like_playlist", as_="bob", playlist_id="$p.playlist_id"),
        call("spotify_show_liked_playlists", as_="bob"),
        call("spotify_unlike_playlist", as_="bob", playlist_id="$p.playlist_id"),
        call("spotify_unlike_playlist", as_="bob", playlist_id="$p.playlist_id"),
        call("spotify_review_playlist", as_="bob", label="r", playlist_id="$p.playlist_id", rating=4, title="Nice",
             text="Good for work"),
        call("spotify_review_playlist", as_="bob", playlist_id="$p.playlist_id", rating=5),
        call("spotify_review_playlist", as_="carol", playlist_id="$p.playlist_id", rating=9),
        call("spotify_update_playlist_review", as_="bob", review_id="$r.playlist_review_id", rating=5),
        call("spotify_update_playlist_review", review_id="$r.playlist_review_id", rating=1),
        call("spotify_delete_playlist_review", as_="bob", review_id="$r.playlist_review_id"),
        call("spotify_update_playlist", playlist_id="$p.playlist_id", is_public=False),
        call("spotify_like_playlist", as_="carol", playlist_id="$p.playlist_id"),
        call("spotify_add_song_to_playlist", playlist_id="$p.playlist_id", song_id=999),
        call("spotify_like_song", song_id=999),
        call("spotify_follow_artist", artist_id=999),
    ),
    sequence(
        "spotify cards, premium and player",
        call("spotify_add_payment_card", label="c", **CARD),
        call("spotify_add_payment_card", **{**CARD, "cvv_number": 12345}),        # a CVV has 3 digits
        call("spotify_update_payment_card", payment_card_id="$c.payment_card_id", card_name="Main"),
        call("spotify_subscribe_premium", payment_card_id="$c.payment_card_id", duration="monthly"),
        call("spotify_subscribe_premium", payment_card_id="$c.payment_card_id", duration="monthly"),
        call("spotify_show_premium_subscriptions"),
        call("spotify_delete_payment_card", as_="bob", payment_card_id="$c.payment_card_id"),
        call("spotify_delete_payment_card", payment_card_id="$c.payment_card_id"),
        call("spotify_set_volume", volume=30),
        call("spotify_set_volume", volume=130),
        call("spotify_show_volume"),
        call("spotify_loop_song", loop=True),
        call("spotify_clear_song_queue"),
        call("spotify_pause_music"),
        call("spotify_update_account_name", first_name="Al"),
    ),
]
