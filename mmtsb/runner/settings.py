"""What a run needs, independent of how it was configured (Hydra builds these; tests build them directly)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mmtsb.protocol.episode_config import EpisodeConfig


@dataclass
class RunnerSettings:
    """How episodes are executed.

    ``kind``: ``local`` starts a local Ray with sensible memory settings, ``cluster`` connects to an
    existing one at ``address``; ``inprocess`` plays everything in this process with asyncio (no Ray;
    used by tests and tiny runs).
    """

    kind: Literal["local", "cluster", "inprocess"] = "local"
    address: str | None = None                 # ray address for kind=cluster (e.g. "auto" or "ray://host:10001")
    num_actors: int | None = None              # episode actors; None: from CPUs and concurrency
    episodes_per_actor: int = 32               # concurrent asyncio episodes inside one actor
    max_concurrency: int = 256                 # episodes in flight across the run
    max_infra_retries: int = 2                 # extra attempts for an episode that failed for infrastructure reasons
    object_store_memory_mb: int | None = 512   # local Ray: keep the object store small (episodes pass little data)
    num_cpus: int | None = None                # local Ray: CPUs to use (None: all)
    provider_limits: dict[str, int] = field(default_factory=dict)   # provider -> cap across the whole run
    gate_timeout_s: float = 1800.0             # longest wait for a provider slot before the episode fails (infra)
    progress_interval_s: float = 30.0          # off a terminal: seconds between two plain progress lines

    def problems(self) -> list[str]:
        """Settings no run can execute under, each naming its ``runner.*`` key (config errors, exit 2)."""
        at_least_one = {"num_actors": self.num_actors, "episodes_per_actor": self.episodes_per_actor,
                        "max_concurrency": self.max_concurrency, "num_cpus": self.num_cpus,
                        "object_store_memory_mb": self.object_store_memory_mb}
        out = [f"runner.{k}={v}: must be at least 1" + (" (or null)" if k in ("num_actors", "num_cpus",
                                                                           "object_store_memory_mb") else "")
               for k, v in at_least_one.items() if v is not None and v < 1]
        if self.max_infra_retries < 0:
            out.append(f"runner.max_infra_retries={self.max_infra_retries}: must be 0 or more")
        if not self.gate_timeout_s > 0:
            out.append(f"runner.gate_timeout_s={self.gate_timeout_s}: must be greater than 0 seconds")
        out += [f"runner.provider_limits.{k}={v}: must be at least 1" for k, v in self.provider_limits.items()
                if v < 1]
        return out


@dataclass
class LoggingSettings:
    wandb: bool = False
    project: str = "mmtsb"
    entity: str | None = None
    group: str | None = None                   # sweep jobs share a group
    mode: Literal["auto", "online", "offline"] = "auto"   # auto: online with WANDB_API_KEY, else offline


@dataclass
class RunSettings:
    """A run: which scenarios, how each episode is configured, how often, where results go."""

    run_dir: Path
    scenarios: list[Path]
    episode: EpisodeConfig
    repeats: int = 1
    runner: RunnerSettings = field(default_factory=RunnerSettings)
    logging: LoggingSettings = field(default_factory=LoggingSettings)
    dataset: str = "nominal"
    resolved_config: dict[str, Any] = field(default_factory=dict)   # secrets removed; recorded with results
    config_hash: str = ""

    def __post_init__(self) -> None:
        self.run_dir = Path(self.run_dir)
        self.scenarios = [Path(p) for p in self.scenarios]
        if not self.config_hash:
            self.config_hash = config_hash(self.resolved_config or {"episode": repr(self.episode)})


def config_hash(config: dict[str, Any]) -> str:
    """A short stable hash of a resolved config (keys sorted)."""
    blob = json.dumps(config, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


def episode_seed(scenario: str, repeat: int, cfg_hash: str, base_seed: int = 0) -> int:
    """A distinct, reproducible seed per (scenario, repeat, config hash)."""
    digest = hashlib.sha256(f"{scenario}|{repeat}|{cfg_hash}|{base_seed}".encode()).hexdigest()
    return int(digest[:8], 16)


def episode_id(scenario: str, repeat: int, cfg_hash: str) -> str:
    """The key of one episode in a run: unique, so a resumed run never duplicates it."""
    return f"{scenario}__r{repeat}__{cfg_hash}"
