"""SimpleNote: a note-taking app (notes with titles, content, tags and a pin flag)."""

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.simple_note.schema import TABLES
from mmtsb.world.world import World


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "simple_note", base.people)


APP = App(name="simple_note", tables=TABLES, tool_modules=("mmtsb.apps.simple_note.tools",), seed=seed,
          id_offsets={"simple_note.notes": 3100})
