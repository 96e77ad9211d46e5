"""The structured config of ``mmtsb generate`` (``conf/generate.yaml`` merges into it): a typo in an override
fails at composition with a message naming the key, as ``mmtsb run``'s config does.

Shape: what to read (``source``), how many scenarios to keep (``n_scenarios``), which backend answers the
model-backed stages (``backend``: ``procedural`` offline, ``llm`` for real models, with ``model`` as the
default of every stage and ``models.<stage>`` to pick one per stage), the CLIP model, the clustering sizes,
the balance targets, the oracle check, logging and Ray.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hydra.core.config_store import ConfigStore

from mmtsb.config.schema import LoggingConf, ModelConf
from pipelines.items import ARRIVALS, CHALLENGES, FLOWS

__all__ = ["GENERATE_SCHEMA", "MODEL_STAGES", "GenerateConfig", "register_generate_configs"]

GENERATE_SCHEMA = "mmtsb_generate_schema"

#: the stages that ask a backend (stage 3 outline sampling is deterministic code)
MODEL_STAGES = ("associate", "viability", "expand", "entities", "critique")


class SourceKind(Enum):
    procedural = "procedural"  # draw images with ground truth (the offline default)
    folder = "folder"  # every image file under source.path
    manifest = "manifest"  # a JSON-lines manifest as the reference's image download writes
    design = "design"  # a designed benchmark set (design.*): every scenario's images and outline fixed by the design


class DesignVariant(Enum):
    nominal = "nominal"  # the designed tasks over images drawn with the nominal knobs
    hard = "hard"  # the same tasks, images drawn with the difficulty knobs raised
    text = "text"  # the same tasks, each image's content handed over as text (no image)
    ui = "ui"  # UI-mode twins of the tasks that involve a choice: the user decides on a screen the agent designs


class BackendKind(Enum):
    procedural = "procedural"
    llm = "llm"


@dataclass
class SourceConf:
    kind: SourceKind = SourceKind.procedural
    path: str | None = None  # folder or manifest file (relative to where the command was started)
    n_images: int | None = None  # procedural: images to draw; null: enough for n_scenarios with reserve
    families: list[str] | None = None  # procedural: image families to draw (null: all)
    limit: int | None = None  # folder/manifest: read at most this many images


@dataclass
class DesignConf:
    """A designed benchmark set (``source.kind=design``; the presets are ``conf/benchmark/*.yaml``): the base
    design ``base`` with ``n`` slots from ``seed``, drawn as ``variant``; ``only`` regenerates just the named
    scenarios (the same bytes as in the whole set); ``publish`` is the folder the final set and its dataset card
    are written to (relative to where the command runs)."""

    base: str = "mmtsb_v1"
    n: int = 320
    variant: DesignVariant = DesignVariant.nominal
    n_ui: int = 64  # ui: how many twins
    only: list[str] | None = None
    publish: str | None = None


@dataclass
class ClipConf:
    """The fields of :class:`pipelines.embed.ClipSettings` plus the number of embedding actors."""

    model: str = "ViT-B-32"  # an open_clip model name, or a path to an open_clip model-config JSON
    pretrained: str | None = None  # an open_clip pretrained tag (downloads the weights once, outside tests)
    checkpoint: str | None = None  # a local checkpoint file
    batch_size: int = 32
    device: str = "auto"
    init_seed: int = 0  # no weights given: a randomly initialised model seeded with this (offline default)
    image_size: int | None = None
    concurrency: int = 1  # embedding actors (one per GPU on a GPU cluster)


@dataclass
class ClusterConf:
    min_size: int = 3
    max_size: int = 6


def _uniform(names: tuple[str, ...]) -> Any:
    return field(default_factory=lambda: dict.fromkeys(names, 1.0))


@dataclass
class BalanceConf:
    """Target weights of the final set per axis (every name of the axis -> weight, normalised into shares):
    ``balance.challenge.none=2`` doubles the baseline's share, ``balance.flow.validate=0`` leaves the flow out;
    a misspelled name fails at composition."""

    flow: dict[str, float] = _uniform(FLOWS)
    arrival: dict[str, float] = _uniform(ARRIVALS)
    challenge: dict[str, float] = _uniform(CHALLENGES)

    def shares(self, axis: str) -> dict[str, float]:
        names = {"flow": FLOWS, "arrival": ARRIVALS, "challenge": CHALLENGES}[axis]
        given: dict[str, float] = dict(getattr(self, axis))
        weights = {n: max(0.0, float(given.get(n, 0.0))) for n in names}
        total = sum(weights.values())
        return {n: w / total for n, w in weights.items()} if total > 0 else {n: 1 / len(names) for n in names}


def _unset_model() -> Any:
    return field(default_factory=lambda: ModelConf(name="", model=None))


@dataclass
class StageModels:
    """Per-stage models: a stage whose ``model`` is unset uses the top-level ``model`` entry
    (``models.associate.model=openai/gpt-5.4-mini models.associate.api_key_env=OPENAI_API_KEY``)."""

    associate: ModelConf = _unset_model()
    viability: ModelConf = _unset_model()
    expand: ModelConf = _unset_model()
    entities: ModelConf = _unset_model()
    critique: ModelConf = _unset_model()


@dataclass
class OracleConf:
    """The solvability check (paper §5.1): an oracle plays every selected scenario through the runner."""

    agent: str = "auto"  # auto: the reference-solution oracle for procedural, "informed" (an LLM) for llm
    judge: str = "auto"  # auto: static for procedural, the stage model as agent judge for llm
    min_f1: float = 0.9
    reserve: float = 0.5  # oracle-check this share more than n_scenarios, to replace failures
    interface: str = "tool_use"


@dataclass
class RayConf:
    address: str | None = None  # null: a local Ray; "auto" or ray://... for a cluster
    num_cpus: int | None = None


@dataclass
class GenerateConfig:
    n_scenarios: int = 8
    seed: int = 0
    backend: BackendKind = BackendKind.procedural
    source: SourceConf = field(default_factory=SourceConf)
    design: DesignConf = field(default_factory=DesignConf)
    model: ModelConf | None = None  # the default model of every model-backed stage (backend=llm)
    models: StageModels = field(default_factory=StageModels)
    structured_outputs: bool = False  # send a JSON schema as response_format (servers that support it)
    max_repairs: int = 2  # repair retries of a malformed or invalid model output
    entity_repairs: int = 2  # stage 5: regenerate with the validation errors fed back, at most this often
    concurrency: int = 64  # items in flight per model-backed stage
    # Ray actors per model-backed stage, sharing its items in flight; 0: one per CPU of the Ray cluster, each with
    # at least 32 of the items in flight (pipelines.raystage.auto_actors)
    stage_actors: int = 0
    clip: ClipConf = field(default_factory=ClipConf)
    cluster: ClusterConf = field(default_factory=ClusterConf)
    balance: BalanceConf = field(default_factory=BalanceConf)
    rounds_min: int = 2
    rounds_max: int = 5
    oracle: OracleConf = field(default_factory=OracleConf)
    logging: LoggingConf = field(default_factory=LoggingConf)
    ray: RayConf = field(default_factory=RayConf)
    response_cache_dir: str | None = None  # null: <run dir>/cache
    progress: bool = True
    serve: Any = field(default_factory=lambda: {"kind": "none", "api_base": None})

    def stage_run(self) -> dict[str, int]:
        """The keywords of :func:`pipelines.raystage.run_stage` every model-backed stage runs with."""
        return {"concurrency": self.concurrency, "actors": self.stage_actors}

    def stage_model(self, stage: str) -> ModelConf | None:
        """The model a stage uses: its own settings when they name a model, else the top-level ``model``."""
        own: ModelConf = getattr(self.models, stage)
        return own if own.model else self.model

    def problems(self) -> list[str]:
        """Impossible settings, each naming its key."""
        out = []
        if self.n_scenarios < 1:
            out.append(f"n_scenarios must be >= 1 (got {self.n_scenarios})")
        if not 2 <= self.rounds_min <= self.rounds_max <= 5:
            out.append(f"rounds_min/rounds_max must satisfy 2 <= min <= max <= 5 (got {self.rounds_min}, "
                       f"{self.rounds_max})")
        if not 2 <= self.cluster.min_size <= self.cluster.max_size:
            out.append(f"cluster.min_size/max_size must satisfy 2 <= min <= max (got {self.cluster.min_size}, "
                       f"{self.cluster.max_size})")
        if self.cluster.max_size > 6:
            out.append(f"cluster.max_size must be <= 6: a scenario holds at most 6 images (got {self.cluster.max_size})")
        if self.source.kind not in (SourceKind.procedural, SourceKind.design) and not self.source.path:
            out.append(f"source.path is required for source.kind={self.source.kind.value}")
        if self.source.kind is SourceKind.design:
            if self.backend is not BackendKind.procedural:
                out.append("source.kind=design builds from the design's ground truth: it needs backend=procedural")
            if self.design.n < 1 or self.design.n_ui < 1:
                out.append(f"design.n and design.n_ui must be >= 1 (got {self.design.n}, {self.design.n_ui})")
        if self.concurrency < 1:
            out.append(f"concurrency must be >= 1 (got {self.concurrency})")
        if not 0 <= self.stage_actors <= self.concurrency:
            out.append(f"stage_actors must be 0 (one per CPU) or between 1 and concurrency ({self.concurrency}), "
                       f"got {self.stage_actors}")
        if self.max_repairs < 0 or self.entity_repairs < 0:
            out.append("max_repairs and entity_repairs must be >= 0")
        if not 0.0 <= self.oracle.min_f1 <= 1.0:
            out.append(f"oracle.min_f1 must be within [0, 1] (got {self.oracle.min_f1})")
        if self.backend is BackendKind.llm:
            for stage in MODEL_STAGES:
                m = self.stage_model(stage)
                if m is None or not m.model:
                    out.append(f"backend=llm needs a model for stage {stage}: set model=<entry> (conf/model/) or "
                               f"models.{stage}.model=<litellm id>")
                    continue
                if m.kind != "llm":
                    out.append(f"models.{stage} (or model) must be an LLM entry (kind llm), got kind {m.kind!r}")
        for axis in ("flow", "arrival", "challenge"):
            names = {"flow": FLOWS, "arrival": ARRIVALS, "challenge": CHALLENGES}[axis]
            weights = getattr(self.balance, axis)
            for key, value in weights.items():
                if key not in names:
                    out.append(f"balance.{axis}.{key}: unknown {axis} (choose from {', '.join(names)})")
                elif value < 0:
                    out.append(f"balance.{axis}.{key} must be >= 0 (got {value})")
            if not any(v > 0 for k, v in weights.items() if k in names):
                out.append(f"balance.{axis}: at least one weight must be > 0")
        return out


def register_generate_configs() -> None:
    """Register the schema in Hydra's ConfigStore (idempotent); the run app's resolvers come with it."""
    import mmtsb.config.schema  # noqa: F401  (registers mmtsb.slug and the serving resolvers)

    ConfigStore.instance().store(name=GENERATE_SCHEMA, node=GenerateConfig)
