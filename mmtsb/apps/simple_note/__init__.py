"""SimpleNote: a note-taking app (notes with titles, content, tags and a pin flag)."""

from mmtsb.apps.base import App
from mmtsb.apps.simple_note.schema import TABLES
from mmtsb.apps.simple_note.seed import seed

APP = App(name="simple_note", tables=TABLES, tool_modules=("mmtsb.apps.simple_note.tools",), seed=seed,
          id_offsets={"simple_note.notes": 3100})

__all__ = ["APP"]
