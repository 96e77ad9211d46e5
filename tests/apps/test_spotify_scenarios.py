"""The released scenarios that use Spotify, replayed by an oracle through the tools: the entity diff must
score F1 = 1.0 with no unexpected writes."""

from __future__ import annotations

import pytest
from testkit import REFERENCE, call_ok

SCENARIOS = REFERENCE / "scenarios"
S0448 = SCENARIOS / "nominal" / "scenario_0448.json"
S0064 = SCENARIOS / "ui" / "scenario_0064.json"


def _play(path):
    from mmtsb.scenarios.build import build_world
    from mmtsb.scenarios.loader import load_scenario
    from mmtsb.tools.session import ToolSession
    from mmtsb.tools.toolbox import full_registry

    scenario = load_scenario(path)
    built = build_world(scenario, images="placeholder", file=path)
    return scenario, built, ToolSession(built.world, full_registry())


def _score(scenario, built):
    from mmtsb.eval.entity_diff import EvalOptions, evaluate_world

    return evaluate_world(scenario.entity_diff_specs, built.world, built.initial, EvalOptions())


@pytest.mark.skipif(not S0448.exists(), reason="reference scenarios are absent")
def test_scenario_0448_albums_to_library_songs_to_queue_and_a_text():
    scenario, built, session = _play(S0448)
    try:
        # round 1: the dashboard's top album, then the recently played albums missing from the top 10
        top = call_ok(session, "spotify_show_album", album_id=200)
        assert top["title"] == "Yummy" and top["artists"] == [{"id": 200, "name": None}]
        for title in ("Born To Die", "Impossible Princess", "Gimmie Dat", "Obsessions"):
            (album,) = call_ok(session, "spotify_search_albums", query=title, page_limit=1)
            assert album["title"] == title
            call_ok(session, "spotify_add_album_to_library", album_id=album["album_id"])
        # round 2: the songs playing in the screenshots, queued and recommended to Bob Miller
        queued = []
        for title in ("对面的女孩看过来", "We Just Call It Love"):
            song = call_ok(session, "spotify_search_songs", query=title)[0]
            assert call_ok(session, "spotify_show_song", song_id=song["song_id"])["title"].startswith(title)
            call_ok(session, "spotify_add_to_queue", song_id=song["song_id"])
            queued.append(song["song_id"])
        assert queued == [200, 201]
        assert [s["song_id"] for s in call_ok(session, "spotify_show_song_queue")] == [200, 201]
        call_ok(session, "messages_send_text_message", phone_number="555-0101",
                message="Hey Bob, I highly recommend you check out these songs: 对面的女孩看过来 and "
                        "We Just Call It Love - 薛之谦.")
        result = _score(scenario, built)
        assert result.f1 == 1.0, result
        assert not result.unexpected_writes
        assert built.world.get("spotify.music_players", 300)["queue_song_ids"] == [200, 201]
    finally:
        built.world.close()


@pytest.mark.skipif(not S0064.exists(), reason="reference scenarios are absent")
def test_scenario_0064_stage_and_theatre_playlist():
    scenario, built, session = _play(S0064)
    try:
        playlist_id = call_ok(session, "spotify_create_playlist", title="Stage & Theatre")["playlist_id"]
        assert playlist_id == 800  # the id the file's specs use
        for query in ("Peace Dance", "La Fille mal gardée", "L'Après-midi d'un faune", "The Blue Bird",
                      "The Little Mermaid", "The Red Lantern"):
            song = call_ok(session, "spotify_search_songs", query=query)[0]
            call_ok(session, "spotify_add_song_to_playlist", playlist_id=playlist_id, song_id=song["song_id"])
        shown = call_ok(session, "spotify_show_playlist", playlist_id=playlist_id)
        assert [s["song_id"] for s in shown["songs"]] == [200, 201, 202, 203, 204, 205]
        assert shown["is_public"] is False and shown["owner"]["email"] == "ron.harrison@gmail.com"
        call_ok(session, "gmail_send_email", email_addresses=["sarah@example.com"],
                subject="Stage & Theatre Spotify Playlist",
                body="Hi Sarah,\n\nHere is the 'Stage & Theatre' Spotify playlist I just created. It features "
                     "soundtracks and themes from Peace Dance, La Fille mal gardée, L'Après-midi d'un faune, "
                     "The Blue Bird, The Little Mermaid, and The Red Lantern.\n\nEnjoy the music!\n\nBest,\nRonald")
        call_ok(session, "simple_note_create_note", title="Stage & Theatre Performances",
                content="Peace Dance\nLa Fille mal gardée\nL'Après-midi d'un faune\nThe Blue Bird\n"
                        "The Little Mermaid\nThe Red Lantern")
        result = _score(scenario, built)
        assert result.f1 == 1.0, result
        assert not result.unexpected_writes
    finally:
        built.world.close()
