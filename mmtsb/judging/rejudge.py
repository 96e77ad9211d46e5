"""Judge a run's stored trajectories again with a judge config, or the same judge k times, without replaying
the agents.

The judge is any entry the run platform knows (``conf/judge/``: static, or an LLM judge over any model entry,
with the same overrides as ``mmtsb run``: ``judge=gpt_5_4 judge.model.api_base=...``). Each played episode's
evidence is rebuilt from its trajectory (:mod:`mmtsb.judging.evidence`) and judged by the judges the registry
gives that backend (agent and user; the UI judge for UI-mode episodes), made per episode by the role factory as
the episode loop makes them. Verdicts are stored beside the run (:mod:`mmtsb.judging.store`) as they come, so an
interrupted re-judging resumes; a verdict whose content key is stored (same trajectory, judge config and repeat)
is not asked again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.judging.evidence import EvidenceError, evidence_from_trajectory
from mmtsb.judging.views import played
from mmtsb.judging.store import (
    JudgeRecord, VerdictStore, cache_key, check_label, digest, find_cached, label_from, verdict_row,
)
from mmtsb.protocol import registry
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.protocol.failures import exception_class
from mmtsb.protocol.judges import Judge, JudgeVerdict
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.trajectory import Trajectory
from mmtsb.report.data import Row, RunData, episode_key

log = logging.getLogger("mmtsb.rejudge")

#: ``mmtsb rejudge`` options that are not judge config overrides
OPTION_KEYS = ("judge_repeats", "label", "parties", "concurrency", "images", "image_root", "replace", "report")


class RejudgeConfigError(ValueError):
    """Settings ``mmtsb rejudge`` cannot run with; the message names the key."""


# ---------------------------------------------------------------------------------------------- the judge
@dataclass
class JudgeSpec:
    """A judge config as the run platform composes it: the backend, its model settings, the entry's name."""

    kind: str
    settings: ModelSettings
    name: str                                       # the default label: the model entry's name, or the backend's
    config: dict[str, Any]                          # the composed ``judge`` section, secrets removed
    model_view: dict[str, Any] | None = None        # the model fields that change its answers (secrets removed)
    secrets: tuple[str, ...] = ()

    def episode_config(self, ui: bool) -> EpisodeConfig:
        return EpisodeConfig(judge=self.kind, judge_model=self.settings, ui=ui)


def is_judge_override(item: str) -> bool:
    key = item.split("=", 1)[0].lstrip("+~")
    return key == "judge" or key.startswith(("judge.", "model@judge"))


def compose_judge(overrides: Sequence[str]) -> JudgeSpec:
    """The ``judge`` section of the run platform's config composed with ``overrides`` (Hydra, ``conf/``)."""
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    from mmtsb.config import schema  # noqa: F401  (registers the structured configs and interface options)
    from mmtsb.config.build import HASHED_MODEL_FIELDS, RunConfigError, model_settings
    from mmtsb.config.paths import conf_dir
    from mmtsb.config.secrets import collect_secrets, redact
    from mmtsb.protocol.registry import UnknownKindError

    if not any(item.split("=", 1)[0].lstrip("+~") == "judge" for item in overrides):
        raise RejudgeConfigError("judge=...: name the judge to re-judge with (an entry of conf/judge/, e.g. "
                                 "judge=gpt_5_4, or judge=static)")
    try:
        with initialize_config_dir(config_dir=str(conf_dir()), version_base="1.3"):
            cfg = compose("config", overrides=list(overrides))
        section = OmegaConf.to_container(cfg.judge, resolve=True, enum_to_str=True, throw_on_missing=True)
    except (HydraException, OmegaConfBaseException, ValueError) as e:
        raise RejudgeConfigError(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    assert isinstance(section, dict)
    kind = str(section.get("kind"))
    try:
        backend = registry.judge_backend(kind)
    except UnknownKindError as e:
        raise RejudgeConfigError(f"judge.kind: {e}") from None
    if kind == "none":
        raise RejudgeConfigError("judge=none judges nothing: choose a judge (an entry of conf/judge/)")
    model_view = None
    settings = ModelSettings()
    if backend.needs_model:
        try:
            settings = model_settings(section.get("model"), where="judge.model")
        except RunConfigError as e:
            raise RejudgeConfigError(str(e)) from None
        model_view = redact({k: (section.get("model") or {}).get(k) for k in HASHED_MODEL_FIELDS})
    # from the composed section: secret keys (extra_params.api_key...), URL passwords, the key api_key_env names
    # (the overrides' own values are in it; read raw, `api_key_env=null` would make "null" a secret)
    secrets = tuple(collect_secrets(section))
    entry = (section.get("model") or {}).get("name") if backend.needs_model else None
    return JudgeSpec(kind, settings, str(entry or section.get("name") or kind), redact(section), model_view, secrets)


def judge_problems(spec: JudgeSpec) -> list[str]:
    """What stops the judge from being asked at all (a missing key, credentials in a URL): before any call."""
    from mmtsb.config.preflight import key_problem, url_credentials_problem

    if not registry.judge_backend(spec.kind).needs_model:
        return []
    return [p for check in (url_credentials_problem, key_problem)
            if (p := check(spec.settings, "judge.model")) is not None]


# ---------------------------------------------------------------------------------------------- options
@dataclass
class RejudgeOptions:
    judge_repeats: int = 1
    label: str | None = None                 # default: the judge entry's name
    parties: tuple[str, ...] | None = None   # default: every party the judge judges
    concurrency: int = 8                     # episodes judged at once
    images: str | None = None                # default: the run's own (config.yaml)
    image_root: str | None = None
    replace: bool = False                    # drop another judge config's verdicts under the same label
    report: bool = True                      # rebuild the run's report afterwards

    def checked(self) -> RejudgeOptions:
        if self.judge_repeats < 1:
            raise RejudgeConfigError(f"judge_repeats={self.judge_repeats}: must be at least 1")
        if self.concurrency < 1:
            raise RejudgeConfigError(f"concurrency={self.concurrency}: must be at least 1")
        if self.images not in (None, "require", "placeholder"):
            raise RejudgeConfigError(f"images={self.images!r}: require or placeholder")
        if self.parties is not None:
            known = registry.judged_parties()
            if unknown := [p for p in self.parties if p not in known]:
                raise RejudgeConfigError(f"parties: {', '.join(unknown)} not judged parties; choose among "
                                         f"{', '.join(known)}")
        if self.label is not None:
            try:
                check_label(self.label)
            except ValueError as e:
                raise RejudgeConfigError(str(e)) from None
        return self


def split_arguments(tokens: Sequence[str]) -> tuple[RejudgeOptions, list[str]]:
    """``key=value`` tokens -> the rejudge options and the judge overrides (anything else is refused)."""
    options = RejudgeOptions()
    overrides: list[str] = []
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise RejudgeConfigError(f"{token!r}: settings look like key=value")
        if key in OPTION_KEYS:
            _set_option(options, key, value)
        elif is_judge_override(token):
            overrides.append(token)
        else:
            raise RejudgeConfigError(f"{key}: not a rejudge setting; give the judge (judge=..., judge.model.*=..., "
                                     f"model@judge.model=...) and the options {', '.join(OPTION_KEYS)}")
    return options.checked(), overrides


def _set_option(options: RejudgeOptions, key: str, value: str) -> None:
    try:
        if key in ("judge_repeats", "concurrency"):
            setattr(options, key, int(value))
        elif key in ("replace", "report"):
            if value.lower() not in ("true", "false"):
                raise ValueError("true or false")
            setattr(options, key, value.lower() == "true")
        elif key == "parties":
            setattr(options, key, tuple(p.strip() for p in value.split(",") if p.strip()))
        else:
            setattr(options, key, value or None)
    except ValueError as e:
        raise RejudgeConfigError(f"{key}={value!r}: {e}") from None


# ---------------------------------------------------------------------------------------------- judging
@dataclass
class RejudgeOutcome:
    label: str
    folder: Path
    judged: int = 0                     # verdict rows written by a new judgement
    cached: int = 0                     # verdict rows already stored (or copied from another label)
    model_calls: int = 0
    skipped: list[str] = field(default_factory=list)     # episodes that did not play to the end
    problems: list[str] = field(default_factory=list)    # episodes whose evidence could not be rebuilt
    judge_errors: int = 0               # verdicts the judge could not give (stored with their error)
    report: Path | None = None


def run_images_setting(run_dir: Path, options: RejudgeOptions) -> tuple[str, str | None]:
    """Images mode and image root of the run (its config.yaml), unless given."""
    images, root = options.images, options.image_root
    recorded: dict[str, Any] = {}
    try:
        import yaml

        recorded = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8")) or {}
    except (OSError, ValueError):
        pass
    if images is None:
        images = str(recorded.get("images") or "require")
    if root is None:
        raw = (recorded.get("dataset") or {}).get("image_root")
        if raw:
            from mmtsb.config.paths import resolve_project_path

            root = str(resolve_project_path(raw)[0])
    return images, root


async def fingerprint_of(spec: JudgeSpec, factory: Any) -> tuple[dict[str, Any], str]:
    """What decides the judge's answers (its kind, model fields and each judge's prompt version, outside and in
    UI mode), and the judges' own name (``static``, ``llm:<model id>``: as the run's rows name their judge)."""
    prompts: dict[str, str] = {}
    names: dict[str, None] = {}
    for ui in (False, True):
        judges = factory.judges(spec.episode_config(ui))
        try:
            for party, judge in judges.items():
                prompts[f"{party}{'_ui' if ui else ''}"] = str(getattr(judge, "prompt_version", judge.name))
                names.setdefault(judge.name, None)
        finally:
            for judge in judges.values():
                await judge.close()
    return {"kind": spec.kind, "model": spec.model_view, "prompts": prompts}, "+".join(names) or spec.name


async def _verdict(judge: Judge, evidence: Any) -> JudgeVerdict:
    """As the episode loop asks a judge: a judge that raises gives a verdict-less outcome with its class."""
    try:
        return await judge.judge(evidence)
    except Exception as e:  # noqa: BLE001 (reported in the verdict, never a crash of the re-judging)
        return JudgeVerdict(judge.kind, judge.name, [], error=f"{type(e).__name__}: {e}",
                            error_class=exception_class(e, role="judge").value)


class _Rejudge:
    def __init__(self, run_dir: Path, spec: JudgeSpec, options: RejudgeOptions, store: VerdictStore,
                 factory: Any, fingerprint: str) -> None:
        self.run_dir, self.spec, self.options, self.store = run_dir, spec, options, store
        self.factory, self.fingerprint = factory, fingerprint
        self.images, self.image_root = run_images_setting(run_dir, options)
        self.outcome = RejudgeOutcome(store.label, store.folder)

    def wanted_parties(self, trajectory: Trajectory) -> list[str]:
        cfg = self.spec.episode_config(trajectory.ui_mode)
        backend = registry.judge_backend(self.spec.kind).name
        out = [name for name, party in registry.judged_parties().items()
               if registry.judge_maker(backend, name) is not None and party.applies(cfg)]
        return [p for p in out if self.options.parties is None or p in self.options.parties]

    def cached(self, row: dict[str, Any] | None, key: str, parties: list[str]) -> bool:
        """A stored row counts when it has this key, covers the parties asked for, and holds no judge error."""
        if row is None or row.get("cache_key") != key:
            return False
        judged = set(json.loads(row.get("parties") or "[]"))
        return all(p in judged and not row.get(f"{p}_judge_error") for p in parties)

    async def episode(self, data: RunData, row: Row, gate: asyncio.Semaphore) -> None:
        async with gate:
            eid = episode_key(row)
            trajectory = data.record(row)
            if trajectory is None:
                self.outcome.problems.append(f"episode {eid}: no readable trajectory in {self.run_dir}")
                return
            sha = digest(trajectory.to_dict())
            parties = self.wanted_parties(trajectory)
            todo: list[tuple[int, str]] = []
            for r in range(self.options.judge_repeats):
                key = cache_key(sha, self.fingerprint, r)
                stored = self.store.read(eid, r) if self.store.key_of(eid, r) == key else None
                if self.cached(stored, key, parties):
                    self.outcome.cached += 1
                    continue
                other = find_cached(self.run_dir, eid, r, key)
                if self.cached(other, key, parties):
                    assert other is not None
                    self.store.write({**other, "judge_label": self.store.label})
                    self.outcome.cached += 1
                    continue
                todo.append((r, key))
            if not todo:
                return
            try:
                evidence = await asyncio.to_thread(evidence_from_trajectory, trajectory, self.run_dir,
                                                   image_root=self.image_root, images=self.images)  # type: ignore[arg-type]
            except EvidenceError as e:
                self.outcome.problems.append(str(e))
                return
            for r, key in todo:
                verdicts = await self.judge_once(trajectory, evidence, parties)
                self.store.write(verdict_row(
                    episode_id=eid, scenario=trajectory.scenario, repeat=row.get("repeat"), judge_repeat=r,
                    label=self.store.label, key=key, trajectory_sha256=sha, fingerprint=self.fingerprint,
                    verdicts=verdicts))
                self.outcome.judged += 1
                self.outcome.model_calls += sum(int(v.usage.get("api_calls") or 0) for v in verdicts.values())
                self.outcome.judge_errors += sum(1 for v in verdicts.values() if v.error)

    async def judge_once(self, trajectory: Trajectory, evidence: Any, parties: list[str]) -> dict[str, JudgeVerdict]:
        """One judgement of every party asked for, by judges made for this episode (as the loop makes them)."""
        judges = self.factory.judges(self.spec.episode_config(trajectory.ui_mode))
        try:
            return {party: await _verdict(judges[party], evidence) for party in parties if party in judges}
        finally:
            for judge in judges.values():
                await judge.close()


async def rejudge(run_dir: str | Path, spec: JudgeSpec, options: RejudgeOptions | None = None) -> RejudgeOutcome:
    """Judge every played episode of ``run_dir`` with ``spec`` ``options.judge_repeats`` times (stored verdicts
    with the same content key are kept), then rebuild the run's report (summary.json and report.md gain a
    column per judge)."""
    from mmtsb.roles.factory import RoleFactory

    run_dir = Path(run_dir)
    options = (options or RejudgeOptions()).checked()
    data = RunData.load(run_dir)
    factory = RoleFactory()
    try:
        view, name = await fingerprint_of(spec, factory)
        fingerprint = digest(view)
        label = options.label or label_from(spec.name)
        store = VerdictStore(run_dir, label, spec.secrets)
        store.claim(JudgeRecord(label=label, kind=spec.kind, name=name, fingerprint=fingerprint,
                                fingerprint_view=view, config=spec.config, judge_repeats=options.judge_repeats),
                    replace=options.replace)
        job = _Rejudge(run_dir, spec, options, store, factory, fingerprint)
        gate = asyncio.Semaphore(options.concurrency)
        rows = [r for r in data.rows if played(r)]
        job.outcome.skipped = [episode_key(r) for r in data.rows if not played(r)]
        await asyncio.gather(*(job.episode(data, r, gate) for r in rows))
    finally:
        await factory.aclose()
        from mmtsb.llm.runtime import flush_litellm_logging   # litellm queued logging work on this loop

        await flush_litellm_logging()
    if options.report:
        from mmtsb.report.build import build_report

        build_report(run_dir)
        job.outcome.report = run_dir / "report.md"
    return job.outcome
