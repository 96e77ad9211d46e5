"""The one registry of role kinds: interfaces, agents, users, judge backends and the parties judges judge.

Every kind is declared once, by a decorator (or ``register_*`` call) next to its code; the episode config's
choices, the Hydra ConfigStore options (``interface=...``), the role factory, the episode loop's judges and the
results columns all derive from here. Adding an agent interface or a judge kind is one module (plus, where
it has settings, one YAML file); nothing else names it.

Built-in kinds live in :mod:`mmtsb.roles` (imported on the first lookup). Kinds of your own are found through
the ``mmtsb.plugins`` entry-point group of installed packages, or the modules listed (comma-separated) in the
``MMTSB_PLUGINS`` environment variable; or register them by importing your module before the run.

Registration happens at import time, once per process, and never changes afterwards: the tables below are
declarations, like a module's functions, not run state.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from mmtsb.protocol.episode_config import EpisodeConfig
    from mmtsb.protocol.judges import Judge
    from mmtsb.protocol.model_settings import ModelSettings
    from mmtsb.protocol.roles import Role

BUILTIN_MODULES = ("mmtsb.roles",)
PLUGIN_GROUP = "mmtsb.plugins"
PLUGIN_ENV = "MMTSB_PLUGINS"


class UnknownKindError(ValueError):
    """A kind name that nothing registered; the message lists the registered ones."""


@dataclass(frozen=True)
class RoleRequest:
    """What a role factory gets: the episode config, the role's own model settings, and the process-wide
    objects the roles share (provider limits, image cache, response caches), owned by the process's factory."""

    cfg: EpisodeConfig
    settings: ModelSettings
    shared: dict[str, Any]

    @property
    def response_cache_dir(self) -> str | None:
        return self.cfg.response_cache_dir


RoleMaker = Callable[[RoleRequest], "Role"]
JudgeMaker = Callable[[RoleRequest], "Judge"]


@dataclass(frozen=True)
class InterfaceSpec:
    """How an agent acts, as the episode needs to know it: whether the episode starts a sandbox interpreter
    (``runs_code``), whether tools are offered as function calls from a discovery working set
    (``tool_calls``; else every tool is reachable from code), which tools are always offered, and whether UI
    mode can run with it (UI tools are called as tools)."""

    name: str
    description: str
    runs_code: bool = False
    tool_calls: bool = False
    pinned_tools: tuple[str, ...] = ()
    supports_ui: bool = True


@dataclass(frozen=True)
class AgentKind:
    """An ``agent=`` choice. ``interface`` is the interface it defines (a model agent), or None for an agent
    that plays whichever interface is configured (the oracle)."""

    name: str
    make: RoleMaker
    interface: str | None
    needs_model: bool
    description: str = ""
    #: with a tool-call interface, tools reach the agent through discovery (a working set); False: every tool
    #: is reachable at once (the oracle knows its solution's tools)
    discovery: bool = True
    #: plays each scenario's ``metadata.reference_solution`` (a run refuses files without one before starting)
    needs_solution: bool = False


@dataclass(frozen=True)
class UserKind:
    """A ``user=`` choice (``user.kind`` in ``mmtsb run``)."""

    name: str
    make: RoleMaker
    needs_model: bool
    description: str = ""


@dataclass(frozen=True)
class JudgeBackend:
    """A ``judge=`` choice (``judge.kind`` in ``mmtsb run``): how judging is done (static rules, an LLM rubric
    judge, none). It provides one judge per judged party it supports (see :func:`judge`)."""

    name: str
    needs_model: bool
    description: str = ""


@dataclass(frozen=True)
class JudgedParty:
    """What a judge judges (the agent, the user, the UI) and its rubric criteria. ``ui_only``: judged in UI mode
    only. ``optional_columns``: its results columns exist only where it ran (else they are always present,
    null when not judged). Criteria become columns ``<party>_<criterion>``, or the criterion itself when it
    already starts with ``<party>_`` (the UI criteria)."""

    name: str
    criteria: tuple[str, ...]
    ui_only: bool = False
    optional_columns: bool = False
    description: str = ""

    def column(self, criterion: str) -> str:
        return criterion if criterion.startswith(f"{self.name}_") else f"{self.name}_{criterion}"

    def applies(self, cfg: EpisodeConfig) -> bool:
        return cfg.ui or not self.ui_only


@dataclass
class _Tables:
    interfaces: dict[str, InterfaceSpec] = field(default_factory=dict)
    agents: dict[str, AgentKind] = field(default_factory=dict)
    users: dict[str, UserKind] = field(default_factory=dict)
    backends: dict[str, JudgeBackend] = field(default_factory=dict)
    parties: dict[str, JudgedParty] = field(default_factory=dict)
    judges: dict[tuple[str, str], JudgeMaker] = field(default_factory=dict)
    loaded: bool = False


_TABLES = _Tables()   # declarations made at import time (see the module docstring)
F = TypeVar("F", bound=Callable[..., Any])


# ---------------------------------------------------------------------------------------------- declaring
def _add(table: dict[Any, Any], key: Any, value: Any, what: str) -> None:
    if key in table and table[key] != value:
        raise ValueError(f"{what} {key!r} is registered twice")
    table[key] = value


def register_interface(spec: InterfaceSpec) -> InterfaceSpec:
    """Declare an agent interface."""
    _add(_TABLES.interfaces, spec.name, spec, "interface")
    return spec


def agent_kind(name: str, *, interface: str | InterfaceSpec | None, needs_model: bool = True,
               discovery: bool = True, needs_solution: bool = False, description: str = "") -> Callable[[F], F]:
    """Decorate a factory ``(RoleRequest) -> Role`` as the ``agent=name`` choice. An InterfaceSpec given here
    is registered too (the agent defines that interface)."""
    if isinstance(interface, InterfaceSpec):
        register_interface(interface)
        interface = interface.name

    def deco(make: F) -> F:
        kind = AgentKind(name, make, interface, needs_model, description or _doc(make), discovery, needs_solution)
        _add(_TABLES.agents, name, kind, "agent")
        return make
    return deco


def user_kind(name: str, *, needs_model: bool = True, description: str = "") -> Callable[[F], F]:
    """Decorate a factory ``(RoleRequest) -> Role`` as the ``user=name`` choice."""
    def deco(make: F) -> F:
        _add(_TABLES.users, name, UserKind(name, make, needs_model, description or _doc(make)), "user")
        return make
    return deco


def register_judge_backend(backend: JudgeBackend) -> JudgeBackend:
    """Declare a ``judge=`` choice; its judges are declared with :func:`judge`."""
    _add(_TABLES.backends, backend.name, backend, "judge backend")
    return backend


def register_judged_party(party: JudgedParty) -> JudgedParty:
    """Declare something judges judge (a new judge kind: its name and rubric criteria)."""
    _add(_TABLES.parties, party.name, party, "judged party")
    return party


def judge(backend: str, *, party: str) -> Callable[[F], F]:
    """Decorate a factory ``(RoleRequest) -> Judge`` as backend ``backend``'s judge of ``party``."""
    def deco(make: F) -> F:
        _add(_TABLES.judges, (backend, party), make, "judge")
        return make
    return deco


def _doc(obj: Any) -> str:
    return (obj.__doc__ or "").strip().splitlines()[0] if obj.__doc__ else ""


# ---------------------------------------------------------------------------------------------- loading
def load_kinds() -> _Tables:
    """The declarations, after importing the built-in kinds and the plugins (once per process)."""
    if not _TABLES.loaded:
        _TABLES.loaded = True   # set first: the modules imported below may look kinds up while they load
        try:
            for module in BUILTIN_MODULES:
                importlib.import_module(module)
            for ep in entry_points(group=PLUGIN_GROUP):
                ep.load()
            for module in filter(None, (m.strip() for m in os.environ.get(PLUGIN_ENV, "").split(","))):
                try:
                    importlib.import_module(module)
                except ImportError as e:
                    raise ImportError(f"{PLUGIN_ENV}: cannot import plugin module {module!r}: {e}") from e
        except BaseException:
            _TABLES.loaded = False   # a failed load is tried again (and fails again, loudly), never half-used
            raise
    return _TABLES


def _lookup(table: dict[str, Any], name: str, what: str, key: str) -> Any:
    try:
        return table[name]
    except KeyError:
        raise UnknownKindError(f"{key}={name!r} is not a registered {what}; choose one of "
                               f"{', '.join(table) or '(none)'}") from None


def interfaces() -> dict[str, InterfaceSpec]:
    return dict(load_kinds().interfaces)


def agents() -> dict[str, AgentKind]:
    return dict(load_kinds().agents)


def users() -> dict[str, UserKind]:
    return dict(load_kinds().users)


def judge_backends() -> dict[str, JudgeBackend]:
    return dict(load_kinds().backends)


def judged_parties() -> dict[str, JudgedParty]:
    """Every judged party, in declaration order (agent, user, ui for the built-ins)."""
    return dict(load_kinds().parties)


def interface(name: str) -> InterfaceSpec:
    return _lookup(load_kinds().interfaces, name, "interface", "interface")


def agent(name: str) -> AgentKind:
    return _lookup(load_kinds().agents, name, "agent kind", "agent")


def user(name: str) -> UserKind:
    return _lookup(load_kinds().users, name, "user kind", "user")


def judge_backend(name: str) -> JudgeBackend:
    return _lookup(load_kinds().backends, name, "judge kind", "judge")


def judge_maker(backend: str, party: str) -> JudgeMaker | None:
    """Backend ``backend``'s judge of ``party``, or None when it has none."""
    return load_kinds().judges.get((backend, party))
