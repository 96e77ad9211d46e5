"""CLIP image embeddings for stage 2 (grouping images by visual similarity).

``ClipSettings`` says which open_clip model to build and how; ``load_clip`` builds it (eval mode, on the chosen
device); ``ClipEmbedder`` is the callable class Ray Data's ``map_batches`` runs once per actor; ``embed_paths`` does
the same without Ray (tests, benchmarks); ``embed_with_ray`` wires the embedder into a Ray dataset.

Weights come from one of three places:

* ``pretrained``: an open_clip pretrained tag (e.g. ``"laion2b_s34b_b79k"``), fetched by open_clip (real runs,
  needs the network or a warm cache);
* ``checkpoint``: a local checkpoint file, loaded by open_clip itself (``pretrained=<path>``);
* neither: a randomly initialised model, seeded with ``init_seed`` so it is reproducible. Tests and the offline
  default use this; its embeddings reflect low-level appearance only (colour, layout, texture statistics), not
  semantics, so groups built from them are coherent in looks, not in meaning.

``model`` is an open_clip model name (``open_clip.list_models()``) or a path to a JSON model config (registered
with ``open_clip.add_model_config`` under the file's stem), e.g. ``pipelines/clip_configs/tiny-vit.json``, a tiny
ViT that builds in well under a second for tests and benchmarks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import ray.data
    import torch

__all__ = ["TINY_CONFIG", "ClipEmbedder", "ClipSettings", "embed_paths", "embed_with_ray", "load_clip"]

#: the tiny randomly initialised ViT config used by tests and benchmarks
TINY_CONFIG = str(Path(__file__).with_name("clip_configs") / "tiny-vit.json")

_REGISTERED: set[str] = set()  # JSON config paths already handed to open_clip.add_model_config (this process)
_CONFIG_KEYS = ("embed_dim", "vision_cfg", "text_cfg")


@dataclass(frozen=True)
class ClipSettings:
    """Which CLIP model embeds the images, and how.

    ``model``: an open_clip model name or a path to a JSON model config. ``pretrained``: an open_clip pretrained
    tag (real runs). ``checkpoint``: a local checkpoint file loaded by open_clip. With neither, the model is
    randomly initialised from ``init_seed``: reproducible, but its embeddings reflect low-level appearance only.
    ``device``: ``"auto"`` picks CUDA when available. ``image_size``: overrides the model's input size (open_clip's
    ``force_image_size``), e.g. to shrink a model for fast tests.
    """

    model: str = "ViT-B-32"
    pretrained: str | None = None
    checkpoint: str | None = None
    batch_size: int = 32
    device: str = "auto"
    init_seed: int = 0
    image_size: int | None = None

    def problems(self) -> list[str]:
        """Every impossible setting, one message each naming its key (empty when the settings can be built)."""
        import open_clip

        out: list[str] = []
        is_json = self.model.endswith(".json")
        if is_json:
            out += _config_file_problems(self.model)
        elif self.model not in open_clip.list_models():
            out.append(f"clip.model: unknown open_clip model {self.model!r} (see open_clip.list_models(), "
                       "or give a path to a JSON model config)")
        if self.pretrained is not None and self.checkpoint is not None:
            out.append("clip.pretrained / clip.checkpoint: give at most one of them")
        if self.pretrained is not None:
            if is_json:
                out.append("clip.pretrained: pretrained tags belong to built-in models; use clip.checkpoint with "
                           "a JSON model config")
            elif self.model in open_clip.list_models():
                tags = open_clip.list_pretrained_tags_by_model(self.model)
                if self.pretrained not in tags:
                    out.append(f"clip.pretrained: {self.pretrained!r} is not a pretrained tag of {self.model} "
                               f"(known: {', '.join(tags) or 'none'})")
        if self.checkpoint is not None and not Path(self.checkpoint).is_file():
            out.append(f"clip.checkpoint: no such file {self.checkpoint!r}")
        if self.batch_size < 1:
            out.append(f"clip.batch_size: must be >= 1, got {self.batch_size}")
        if self.image_size is not None and self.image_size < 1:
            out.append(f"clip.image_size: must be >= 1 (or null), got {self.image_size}")
        if not _known_device(self.device):
            out.append(f"clip.device: {self.device!r} is not auto, cpu, cuda, cuda:<n> or mps")
        return out


def _config_file_problems(path: str) -> list[str]:
    """What is wrong with a JSON model config file (missing, unreadable, not an open_clip CLIP config)."""
    p = Path(path)
    if not p.is_file():
        return [f"clip.model: no such model config file {path!r}"]
    try:
        cfg = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return [f"clip.model: cannot read model config {path!r}: {e}"]
    missing = [k for k in _CONFIG_KEYS if not isinstance(cfg, dict) or k not in cfg]
    if missing:
        return [f"clip.model: model config {path!r} lacks {', '.join(missing)}"]
    return []


def _known_device(device: str) -> bool:
    if device in ("auto", "cpu", "cuda", "mps"):
        return True
    head, _, idx = device.partition(":")
    return head == "cuda" and idx.isdigit()


def resolve_device(device: str) -> str:
    """``"auto"`` -> ``"cuda"`` when torch sees a GPU, else ``"cpu"``; any other value unchanged."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


def _model_name(model: str) -> str:
    """The open_clip name to build: a JSON config is registered once per process under its file stem."""
    if not model.endswith(".json"):
        return model
    import open_clip

    path = str(Path(model).resolve())
    if path not in _REGISTERED:
        open_clip.add_model_config(path)
        _REGISTERED.add(path)
    return Path(path).stem


def load_clip(settings: ClipSettings) -> tuple[torch.nn.Module, Callable[[Any], torch.Tensor]]:
    """Build the CLIP model (eval mode, on the chosen device) and its evaluation preprocessing transform.

    Raises ``ValueError`` listing ``settings.problems()`` when the settings are impossible.
    """
    problems = settings.problems()
    if problems:
        raise ValueError("impossible CLIP settings: " + "; ".join(problems))
    import open_clip
    import torch

    device = resolve_device(settings.device)
    weights = settings.pretrained or settings.checkpoint
    # a random init draws from torch's global generator: seed a forked copy so callers' RNG state is untouched
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(settings.init_seed)
        model, _, preprocess = open_clip.create_model_and_transforms(
            _model_name(settings.model), pretrained=weights, device=device, force_image_size=settings.image_size)
    model.eval()
    return model, preprocess


def _read_rgb(path: str) -> Any:
    from PIL import Image

    with Image.open(path) as im:
        return im.convert("RGB")


class ClipEmbedder:
    """Ray Data actor: loads the model once, then embeds each batch of image paths.

    ``__call__`` takes a batch with ``"path"`` (image file paths) and returns it with ``"embedding"`` added: float32,
    L2-normalised, shape (n, d).
    """

    def __init__(self, settings: ClipSettings) -> None:
        self.settings = settings
        self.model, self.preprocess = load_clip(settings)
        self.device = next(self.model.parameters()).device

    def embed(self, paths: Sequence[str]) -> np.ndarray:
        """Embeddings of ``paths`` (in order), float32 (n, d), rows of unit length; batched by ``batch_size``."""
        import torch

        chunks: list[np.ndarray] = []
        step = self.settings.batch_size
        with torch.inference_mode():
            for i in range(0, len(paths), step):
                pixels = torch.stack([self.preprocess(_read_rgb(str(p))) for p in paths[i:i + step]])
                feats = self.model.encode_image(pixels.to(self.device)).float()
                chunks.append(feats.cpu().numpy())
        if not chunks:
            return np.zeros((0, self.embed_dim), dtype=np.float32)
        emb = np.concatenate(chunks).astype(np.float32, copy=False)
        norms = np.linalg.norm(emb, axis=1, keepdims=True)
        return emb / np.maximum(norms, 1e-12)

    @property
    def embed_dim(self) -> int:
        return int(getattr(self.model, "embed_dim", None) or self.model.visual.output_dim)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        out = dict(batch)
        out["embedding"] = self.embed([str(p) for p in batch["path"]])
        return out


def embed_paths(paths: Sequence[str | Path], settings: ClipSettings) -> np.ndarray:
    """Embed image files without Ray: float32 (n, d), L2-normalised, in the order of ``paths``."""
    return ClipEmbedder(settings).embed([str(p) for p in paths])


def embed_with_ray(ds: ray.data.Dataset, settings: ClipSettings, *, concurrency: int = 1,
                   num_gpus: float = 0) -> ray.data.Dataset:
    """Add an ``"embedding"`` column to a dataset with a ``"path"`` column, with a pool of ``concurrency`` actors.

    ``num_gpus`` (per actor) is used only when the Ray cluster has GPUs; otherwise the actors run on CPU.
    """
    import ray
    import ray.data

    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    gpus = num_gpus if num_gpus > 0 and ray.cluster_resources().get("GPU") else 0
    if not gpus and settings.device == "auto":
        settings = ClipSettings(**{**asdict(settings), "device": "cpu"})  # an actor without a GPU must not grab one
    return ds.map_batches(
        ClipEmbedder,
        fn_constructor_kwargs={"settings": settings},
        batch_size=settings.batch_size,
        compute=ray.data.ActorPoolStrategy(size=concurrency),
        num_gpus=gpus or None,
        batch_format="numpy",
    )
