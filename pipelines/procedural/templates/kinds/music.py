"""Recipes over music (gig posters, album sleeves, now-playing screens; each shows an artist, an album and one
song): a playlist of the songs, liking the longest or the long ones, following the artists, and liking the
songs not liked yet."""

from __future__ import annotations

from mmtsb.authoring.rows import album, artist, song, user_link
from pipelines.procedural.families.music import minutes
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity
from pipelines.procedural.templates.kinds.common import misstate, nth

__all__ = ["RECIPES", "music_rows"]


def sid(k: int) -> int:
    """The Spotify id of image ``k``'s song, album and artist."""
    return 900 + k


def music_rows(items: list[Item]) -> dict[str, list[dict]]:
    """The artists, albums and songs on the images, as Spotify knows them."""
    return {"spotify.artists": [artist(sid(k), c["artist"], c["genre"]) for k, c in items],
            "spotify.albums": [album(sid(k), c["album"], [sid(k)], c["year"], c["genre"]) for k, c in items],
            "spotify.songs": [song(sid(k), c["song"], [sid(k)], sid(k), c["duration"], c["year"], c["genre"])
                              for k, c in items]}


def like(m: Material, key: str, k: int, c: Content) -> Entity:
    return Entity(key, "like", {"query": c["song"], "song_id": sid(k)}, f"the like of the song on {nth(m, k)}")


def wrong_length(m: Material, k: int):
    c = m.items[k - 1][1]
    cands = [minutes(max(60, c["duration"] + d)) for d in (m.rng.choice([-1, 1]) * m.rng.randint(20, 70), 45, -35)]
    return misstate(m, k, "song length", minutes(c["duration"]), cands)


def wrong_song(m: Material, k: int):
    from pipelines.procedural.families.music import SONGS

    c = m.items[k - 1][1]
    return misstate(m, k, "song title", c["song"], [s for s in m.rng.sample(SONGS, len(SONGS)) if s != c["song"]])


def _distinct(cs: list[Content]) -> bool:
    return all(len({c[f] for c in cs}) == len(cs) for f in ("artist", "album", "song", "duration"))


def _aggregate(m: Material) -> Plan:
    title = m.rng.choice(["Gig finds", "New music", "Weekend mix", "Discoveries"])

    def playlist(items: list[Item], final: bool) -> list[Entity]:
        return [Entity("mix", "playlist", {"title": title, "songs": [[c["song"], sid(k)] for k, c in items]},
                       f"the playlist '{title}'")]

    goal = Goal(f"make a Spotify playlist called '{title}' with the song shown on each image (add each new one as it "
                "comes)", playlist,
                lambda items: f"A playlist '{title}' must hold exactly: " + "; ".join(c["song"] for _, c in items) + ".")
    pivot = Goal("just like each of those songs on Spotify instead of making a playlist",
                 lambda items, final: [like(m, f"like_{k}", k, c) for k, c in items],
                 lambda items: "Liked songs must include: " + "; ".join(c["song"] for _, c in items) + ".")
    return Plan(title, f"{m.user.first} saves the music they came across.", goal, pivot, rows=music_rows(m.items),
                misstatement=wrong_song(m, m.rng.randint(1, len(m.items))))


def _compare(m: Material) -> Plan:
    def pick(items: list[Item], sign: int) -> Item:
        return max(items, key=lambda it: (sign * it[1]["duration"], -it[0]))

    goal = Goal("like on Spotify only the longest of these songs (if a later one is longer, like that one instead "
                "and unlike the first)", lambda items, final: [like(m, "longest", *pick(items, 1))],
                lambda items: f"Exactly the song '{pick(items, 1)[1]['song']}' must be liked.")
    pivot = Goal("like only the shortest one instead", lambda items, final: [like(m, "shortest", *pick(items, -1))],
                 lambda items: f"Exactly the song '{pick(items, -1)[1]['song']}' must be liked.")
    return Plan("Longest song", f"{m.user.first} keeps the longest track.", goal, pivot, rows=music_rows(m.items),
                misstatement=wrong_length(m, pick(m.items, 1)[0]))


#: the families that show a song's length
LENGTHS = ("now_playing",)


def cuts(cs: list[Content]) -> list[int]:
    """Whole minutes some songs reach and some do not."""
    durations = sorted(c["duration"] for c in cs)
    return sorted({d // 60 * 60 + 60 for d in durations if durations[0] < d // 60 * 60 + 60 <= durations[-1]})


def _filter(m: Material) -> Plan:
    cut = m.rng.choice(cuts([c for _, c in m.items]))

    def chosen(items: list[Item], long: bool) -> list[Item]:
        return [(k, c) for k, c in items if (c["duration"] >= cut) == long]

    goal = Goal(f"like on Spotify only the songs that are {cut // 60} minutes or longer",
                lambda items, final: [like(m, f"like_{k}", k, c) for k, c in chosen(items, True)],
                lambda items: "Exactly these songs must be liked: " + "; ".join(
                    c["song"] for _, c in chosen(items, True)) + ".")
    pivot = Goal(f"like only the ones shorter than {cut // 60} minutes instead",
                 lambda items, final: [like(m, f"short_{k}", k, c) for k, c in chosen(items, False)],
                 lambda items: "Exactly these songs must be liked: " + "; ".join(
                     c["song"] for _, c in chosen(items, False)) + ".")
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Long songs", f"{m.user.first} likes long tracks.", goal, pivot, rows=music_rows(m.items),
                misstatement=wrong_length(m, k))


def _chain(m: Material) -> Plan:
    def follow(k: int, c: Content) -> Entity:
        return Entity(f"follow_{k}", "follow", {"query": c["artist"], "artist_id": sid(k)},
                      f"following the artist on {nth(m, k)}")

    goal = Goal("find the artist of each image on Spotify and follow them",
                lambda items, final: [follow(k, c) for k, c in items],
                lambda items: "The user must follow: " + "; ".join(c["artist"] for _, c in items) + ".")
    pivot = Goal("not follow anyone after all; like the song shown on each image instead",
                 lambda items, final: [like(m, f"like_{k}", k, c) for k, c in items],
                 lambda items: "Liked songs must include: " + "; ".join(c["song"] for _, c in items) + "; no artist "
                 "may be followed.")
    return Plan("Follow the artists", f"{m.user.first} follows new artists.", goal, pivot, rows=music_rows(m.items),
                misstatement=wrong_song(m, m.rng.randint(1, len(m.items))))


def _cross(m: Material) -> Plan:
    ks = [k for k, _ in m.items]
    liked = set(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))
    rows = music_rows(m.items)
    rows["spotify.song_likes"] = [user_link(700 + k, m.user.id, "song_id", sid(k)) for k in sorted(liked)]

    def check(k: int, c: Content) -> tuple:
        return (("spotify_show_liked_songs", {}, None),)

    goal = Goal("check which of these songs I have already liked on Spotify and like the ones I haven't",
                lambda items, final: [Entity(f"like_{k}", "like", {"query": c["song"], "song_id": sid(k)},
                                             f"the like of the song on {nth(m, k)}", check(k, c))
                                      for k, c in items if k not in liked],
                lambda items: "These songs must be newly liked: " + "; ".join(
                    c["song"] for k, c in items if k not in liked) + " (the others were liked already).")
    pivot = Goal("put the songs I haven't liked yet into a new playlist called 'To listen' instead of liking them",
                 lambda items, final: [Entity("later", "playlist", {"title": "To listen", "songs": [
                     [c["song"], sid(k)] for k, c in items if k not in liked]}, "the playlist 'To listen'")]
                 if any(k not in liked for k, _ in items) else [],
                 lambda items: "A playlist 'To listen' must hold exactly: " + "; ".join(
                     c["song"] for k, c in items if k not in liked) + ".")
    return Plan("Like the new ones", f"{m.user.first} catches up on liked songs.", goal, pivot, rows=rows,
                misstatement=wrong_song(m, m.rng.choice([k for k in ks if k not in liked])),
                preexisting=tuple(f"liked song '{c['song']}'" for k, c in m.items if k in liked))


RECIPES = {
    "aggregate": Recipe(_aggregate, ("spotify_create_playlist", "spotify_search_songs",
                                     "spotify_add_song_to_playlist"), fits=_distinct),
    "compare": Recipe(_compare, ("spotify_search_songs", "spotify_like_song", "spotify_unlike_song"),
                      fits=_distinct, families=LENGTHS),
    "filter": Recipe(_filter, ("spotify_search_songs", "spotify_like_song"), fits=lambda cs: _distinct(cs) and
                     bool(cuts(cs)), families=LENGTHS),
    "lookup_chain": Recipe(_chain, ("spotify_search_artists", "spotify_follow_artist"), fits=_distinct),
    "cross_reference": Recipe(_cross, ("spotify_show_liked_songs", "spotify_search_songs", "spotify_like_song"),
                              fits=_distinct),
}
