"""What to serve (a model's ``serve:`` block) and how to run the server (the ``serve`` config group).

Two plain dataclasses, validated on construction with messages that name the key and the allowed values:

- ``ModelServeSpec``: model-specific facts that live in ``conf/model/<name>.yaml`` under ``serve:``
  (Hugging Face repo, served name, parallelism, tool/reasoning parsers, context length, images per prompt).
- ``ServeSettings``: the ``serve`` group (``conf/serve/none.yaml`` / ``vllm.yaml``): kind, address, executable,
  timeouts, log folder, GPUs; it carries the model's spec in ``model``.
"""

from __future__ import annotations

import dataclasses

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

SERVE_KINDS = ("none", "vllm")


class ServeConfigError(ValueError):
    """A serve setting that names no field or has a wrong value."""


def _check_keys(data: Mapping[str, Any], allowed: list[str], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ServeConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}")


def _to_plain(data: Any) -> Any:
    """A DictConfig/ListConfig (resolved) or any mapping as plain Python containers."""
    try:
        from omegaconf import DictConfig, ListConfig, OmegaConf
    except ImportError:  # pragma: no cover - omegaconf is a core dependency
        return data
    if isinstance(data, DictConfig | ListConfig):
        return OmegaConf.to_container(data, resolve=True)
    return data


@dataclass
class ModelServeSpec:
    """How vLLM serves one open-weight model (the ``serve:`` block of a model config)."""

    hf_repo: str
    served_model_name: str | None = None       # default: hf_repo
    tensor_parallel_size: int = 1
    data_parallel_size: int = 1
    tool_call_parser: str | None = None        # vLLM --tool-call-parser (hermes, qwen3_coder, ...); None: no tools
    reasoning_parser: str | None = None        # vLLM --reasoning-parser (thinking models), optional
    max_model_len: int | None = None
    limit_mm_per_prompt: dict[str, int] = field(default_factory=lambda: {"image": 16})
    gpu_memory_utilization: float | None = None
    chat_template: str | None = None           # path or inline Jinja template for --chat-template
    extra_args: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        where = "model.serve"
        if not isinstance(self.hf_repo, str) or not self.hf_repo.strip():
            raise ServeConfigError(f"{where}.hf_repo must be a Hugging Face repo id or a local model folder")
        for name in ("tensor_parallel_size", "data_parallel_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ServeConfigError(f"{where}.{name} must be an integer >= 1, got {value!r}")
        if self.max_model_len is not None and (not isinstance(self.max_model_len, int) or self.max_model_len < 1):
            raise ServeConfigError(f"{where}.max_model_len must be a positive integer or null, "
                                   f"got {self.max_model_len!r}")
        if self.gpu_memory_utilization is not None and not 0 < float(self.gpu_memory_utilization) <= 1:
            raise ServeConfigError(f"{where}.gpu_memory_utilization must be in (0, 1], "
                                   f"got {self.gpu_memory_utilization!r}")
        if not isinstance(self.limit_mm_per_prompt, Mapping):
            raise ServeConfigError(f"{where}.limit_mm_per_prompt must be a mapping like {{image: 8}}, "
                                   f"got {self.limit_mm_per_prompt!r}")
        for modality, count in self.limit_mm_per_prompt.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ServeConfigError(f"{where}.limit_mm_per_prompt.{modality} must be an integer >= 0, "
                                       f"got {count!r}")
        self.limit_mm_per_prompt = dict(self.limit_mm_per_prompt)
        if isinstance(self.extra_args, str):
            self.extra_args = shlex.split(self.extra_args)
        if not all(isinstance(a, str | int | float) for a in self.extra_args):
            raise ServeConfigError(f"{where}.extra_args must be a list of command-line strings, "
                                   f"got {self.extra_args!r}")
        self.extra_args = [str(a) for a in self.extra_args]

    @property
    def name(self) -> str:
        """The name vLLM serves the model under (what ``/v1/models`` lists)."""
        return self.served_model_name or self.hf_repo

    @property
    def litellm_model(self) -> str:
        """The litellm id that routes to this server: ``hosted_vllm/<served name>``."""
        return f"hosted_vllm/{self.name}"

    @property
    def gpus_needed(self) -> int:
        return self.tensor_parallel_size * self.data_parallel_size

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "model.serve") -> ModelServeSpec:
        data = dict(_to_plain(data))
        allowed = [f.name for f in fields(cls)]
        _check_keys(data, allowed, where)
        if "hf_repo" not in data:
            raise ServeConfigError(f"{where}: hf_repo is required (the Hugging Face repo or local model folder)")
        return cls(**data)


@dataclass
class ServeSettings:
    """The ``serve`` group: whether and how a model server runs next to the evaluation."""

    kind: Literal["none", "vllm"] = "none"
    model: ModelServeSpec | None = None
    host: str = "127.0.0.1"                    # bind address; 0.0.0.0 to serve other nodes
    public_host: str | None = None             # host in api_base (default: host); a node IP on clusters
    port: int | None = None                    # None or 0: a free port is picked at start
    api_base: str | None = None                # none: an external server; vllm: derived from host/port
    vllm_executable: str = "vllm"              # name on PATH or a path (vLLM lives in its own environment)
    startup_timeout_s: float = 1800.0          # big checkpoints take many minutes to load
    poll_interval_s: float = 2.0
    stop_grace_s: float = 30.0                 # SIGTERM, then SIGKILL after this many seconds
    log_dir: str | None = None                 # where vllm-<name>-<port>.log goes (default: <run dir>/serve)
    gpus: list[int] | None = None              # explicit GPU indices (else Ray's / CUDA_VISIBLE_DEVICES)
    env: dict[str, str] = field(default_factory=dict)   # extra environment for the vllm process

    def __post_init__(self) -> None:
        if self.kind not in SERVE_KINDS:
            raise ServeConfigError(f"serve.kind={self.kind!r} is not one of {', '.join(SERVE_KINDS)}")
        if self.port is not None and (isinstance(self.port, bool) or not 0 <= int(self.port) <= 65535):
            raise ServeConfigError(f"serve.port must be 0..65535 or null, got {self.port!r}")
        self.port = int(self.port) if self.port else None
        for name in ("startup_timeout_s", "poll_interval_s", "stop_grace_s"):
            if float(getattr(self, name)) <= 0:
                raise ServeConfigError(f"serve.{name} must be > 0, got {getattr(self, name)!r}")
        if self.gpus is not None:
            if isinstance(self.gpus, str):
                self.gpus = [int(g) for g in self.gpus.split(",") if g.strip()]
            self.gpus = [int(g) for g in self.gpus]
            self._use_every_gpu()
        self.env = {str(k): str(v) for k, v in (self.env or {}).items()}
        if self.kind == "vllm" and self.model is None:
            raise ServeConfigError("serve=vllm needs a model config with a `serve:` block (hf_repo, "
                                   "served_model_name, tensor_parallel_size, ...); the chosen model has none")
        if self.api_base is not None and not self.api_base.startswith(("http://", "https://")):
            raise ServeConfigError(f"serve.api_base must be an http(s) URL ending in /v1, got {self.api_base!r}")

    def _use_every_gpu(self) -> None:
        """Explicit GPUs beyond what the model's parallelism uses are put to work: a model served with
        data_parallel_size 1 gets one data-parallel replica per ``tensor_parallel_size`` GPUs listed (``--gpus 0,1``
        for a one-GPU model: two replicas). A count that does not divide keeps the first GPUs (as before)."""
        model = self.model
        if model is None or not self.gpus or model.data_parallel_size != 1:
            return
        tp = max(1, model.tensor_parallel_size)
        if len(self.gpus) > tp and len(self.gpus) % tp == 0:
            self.model = dataclasses.replace(model, data_parallel_size=len(self.gpus) // tp)

    @property
    def advertised_host(self) -> str:
        return self.public_host or self.host

    @classmethod
    def from_config(cls, serve: Mapping[str, Any] | None, model_serve: Mapping[str, Any] | None = None,
                    run_dir: str | Path | None = None) -> ServeSettings:
        """Build from the resolved ``serve`` group and the model's ``serve:`` block (either may be a
        DictConfig). ``run_dir`` supplies the default log folder ``<run_dir>/serve``."""
        data = dict(_to_plain(serve) or {})
        allowed = [f.name for f in fields(cls) if f.name != "model"]
        _check_keys(data, allowed, "serve")
        spec = ModelServeSpec.from_mapping(model_serve) if model_serve else None
        if data.get("log_dir") is None and run_dir is not None:
            data["log_dir"] = str(Path(run_dir) / "serve")
        return cls(model=spec, **data)
