"""The UI state of one World: surfaces (components, data model, root), the active surface, the latest render
and the interaction history.

It lives in the World's episode state (``world.episode.ui``, never in a module global), so two episodes in one
process never share a screen. Tools work on a copy (:meth:`UIState.copy`) and store it back when the call has
done its work (:func:`commit`); a call that fails afterwards is undone by the tool-call savepoint, which restores
the state it found.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from mmtsb.ui.pointer import apply_contents, get_at, set_at
from mmtsb.ui.validation import A2UIValidationError
from mmtsb.world.world import World

_LITERAL_KEYS = ("literalString", "literalNumber", "literalBoolean", "literalArray")


@dataclass
class Surface:
    """One UI surface: its components by id, its data model and the root to draw from."""

    surface_id: str
    components: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> {"type", "props", "weight"}
    data: dict[str, Any] = field(default_factory=dict)
    root: str | None = None
    catalog_id: str | None = None
    styles: dict[str, Any] = field(default_factory=dict)
    #: values the user entered into fields bound to literals (no data path to write to), by instance id
    local_values: dict[str, Any] = field(default_factory=dict)

    def component(self, cid: str) -> dict[str, Any] | None:
        return self.components.get(cid)


@dataclass
class RenderRecord:
    """The latest screenshot: which surface, at which state version, and its interactive-elements text."""

    surface_id: str | None
    version: int
    image_id: int
    elements: str
    highlight: str | None = None


@dataclass
class UIState:
    """Everything the UI tools know about one episode."""

    surfaces: dict[str, Surface] = field(default_factory=dict)
    active: str | None = None
    #: bumped by every change; a render is reusable while the version is unchanged
    version: int = 0
    last_render: RenderRecord | None = None
    #: one record per ui_user_interact call: userAction, field values, highlighted image id
    history: list[dict[str, Any]] = field(default_factory=list)
    #: one record per show_ui_to_user call
    shown: list[dict[str, Any]] = field(default_factory=list)
    #: one record per screenshot drawn: image id, surface, highlight and its structure summary
    #: (:func:`mmtsb.ui.inspect.structure`), so judges see every screen, not only the last one
    renders: list[dict[str, Any]] = field(default_factory=list)

    def copy(self) -> "UIState":
        return copy.deepcopy(self)

    def surface(self, surface_id: str) -> Surface:
        """The surface with this id; an error naming the known surfaces otherwise."""
        found = self.surfaces.get(surface_id)
        if found is None:
            known = ", ".join(repr(s) for s in self.surfaces) or "none (render a UI first with render_ui_screen)"
            raise ValueError(f"Unknown surface_id {surface_id!r}. Known surfaces: {known}.")
        return found

    def _get_or_create(self, surface_id: str) -> Surface:
        if surface_id not in self.surfaces:
            self.surfaces[surface_id] = Surface(surface_id)
        return self.surfaces[surface_id]

    # ---------------------------------------------------------------------------------- messages
    def apply(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Apply validated messages in order; returns warnings. Raises on an impossible data-model write."""
        warnings: list[str] = []
        for i, (kind, body) in enumerate(messages):
            getattr(self, f"_apply_{kind}")(body, f"messages[{i}].{kind}", warnings)
        self.version += 1
        return warnings

    def _apply_beginRendering(self, body: dict[str, Any], where: str, warnings: list[str]) -> None:
        s = self._get_or_create(body["surfaceId"])
        s.root = body["root"]
        s.catalog_id = body.get("catalogId")
        s.styles = dict(body.get("styles") or {})
        self.active = s.surface_id

    def _apply_surfaceUpdate(self, body: dict[str, Any], where: str, warnings: list[str]) -> None:
        s = self._get_or_create(body["surfaceId"])
        seen: set[str] = set()
        for entry in body["components"]:
            cid = entry["id"]
            if cid in seen:
                warnings.append(f"{where}: component id '{cid}' appears twice; the later definition is used")
            seen.add(cid)
            (ctype, props), = entry["component"].items()
            s.components[cid] = {"type": ctype, "props": copy.deepcopy(props), "weight": entry.get("weight")}
            s.local_values = {k: v for k, v in s.local_values.items() if k.split("@")[0] != cid}
            _initialise_paths(s, props)

    def _apply_dataModelUpdate(self, body: dict[str, Any], where: str, warnings: list[str]) -> None:
        s = self._get_or_create(body["surfaceId"])
        try:
            s.data = apply_contents(s.data, body.get("path"), body["contents"])
        except ValueError as e:
            raise A2UIValidationError([f"{where}: {e}"]) from None

    def _apply_deleteSurface(self, body: dict[str, Any], where: str, warnings: list[str]) -> None:
        sid = body["surfaceId"]
        if self.surfaces.pop(sid, None) is None:
            warnings.append(f"{where}: there is no surface '{sid}' to delete")
        if self.active == sid:
            begun = [k for k, v in self.surfaces.items() if v.root]
            self.active = begun[-1] if begun else None

    # ---------------------------------------------------------------------------------- rendering target
    def target_surface(self, touched: list[str], warnings: list[str]) -> Surface | None:
        """The surface to draw after a batch: the active one, else a touched surface that has a 'root'."""
        if self.active and self.active in self.surfaces:
            for sid in touched:
                s = self.surfaces.get(sid)
                if s is not None and s.root is None:
                    warnings.append(f"surface '{sid}' was updated but is not shown (no beginRendering yet); the "
                                    f"screenshot shows '{self.active}'")
            return self.surfaces[self.active]
        for sid in reversed(touched):
            s = self.surfaces.get(sid)
            if s is not None and "root" in s.components:
                s.root = "root"
                self.active = sid
                warnings.append(f"surface '{sid}' has no beginRendering message; drew its component 'root'. "
                                f"Send {{\"beginRendering\": {{\"surfaceId\": \"{sid}\", \"root\": \"root\"}}}}")
                return s
        return None


def _initialise_paths(surface: Surface, props: Any) -> None:
    """A bound value with both an absolute path and a literal initialises the path when it holds nothing yet."""
    if isinstance(props, dict):
        literal = next((k for k in _LITERAL_KEYS if k in props), None)
        path = props.get("path")
        if isinstance(path, str) and path.startswith("/") and literal is not None:
            found, _ = get_at(surface.data, path)
            if not found:
                try:
                    surface.data = set_at(surface.data, path, copy.deepcopy(props[literal]))
                except ValueError:
                    pass  # an unusable path is reported as unresolved when drawn
        for value in props.values():
            _initialise_paths(surface, value)
    elif isinstance(props, list):
        for value in props:
            _initialise_paths(surface, value)


def ui_state(world: World) -> UIState:
    """The World's UI state (created empty on first use)."""
    state = world.episode.ui
    if state is None:
        state = world.episode.ui = UIState()
    return state


def commit(world: World, state: UIState) -> None:
    """Store a modified copy back (the last step of a successful tool call)."""
    world.episode.ui = state
