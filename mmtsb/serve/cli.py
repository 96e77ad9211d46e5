"""``mmtsb serve MODEL``: start vLLM for a model config's ``serve:`` block and keep it up until Ctrl-C.

    mmtsb serve qwen3.5-9b                          # conf/model/qwen3.5-9b.yaml, serve defaults of conf/serve/vllm.yaml
    mmtsb serve qwen3.5-27b tensor_parallel_size=2 --gpus 0,1 --port 8001
    mmtsb serve path/to/model.yaml --vllm /opt/vllm-env/bin/vllm --dry-run

``key=value`` arguments override fields of the model's ``serve:`` block. It prints the ``api_base`` and the
litellm model id; evaluate against it with ``mmtsb run model=MODEL serve=none serve.api_base=<api_base>``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from mmtsb.serve.errors import ServeError
from mmtsb.serve.gpus import assign_gpus
from mmtsb.serve.resolvers import register_resolvers
from mmtsb.serve.settings import ModelServeSpec, ServeConfigError, ServeSettings
from mmtsb.serve.vllm import VLLMServer


class _Stop(Exception):
    """Raised by the SIGTERM handler to leave the serving loop."""


def default_conf_dir() -> Path:
    """``$MMTSB_CONF_DIR``, else ``./conf`` when it exists, else the checkout's ``conf/``."""
    if env := os.environ.get("MMTSB_CONF_DIR"):
        return Path(env)
    local = Path("conf")
    return local if local.is_dir() else Path(__file__).resolve().parents[2] / "conf"


def model_config_path(model: str, conf_dir: Path) -> Path:
    """``MODEL`` as a yaml path, or ``<conf_dir>/model/<MODEL>.yaml``."""
    if model.endswith((".yaml", ".yml")):
        path = Path(model)
    else:
        path = conf_dir / "model" / f"{model}.yaml"
    if path.is_file():
        return path
    known = sorted(p.stem for p in (conf_dir / "model").glob("*.yaml")) if (conf_dir / "model").is_dir() else []
    raise ServeConfigError(f"model config {path} not found; models in {conf_dir / 'model'}: "
                           f"{', '.join(known) or '(none)'}")


def load_model_serve(path: Path) -> dict[str, Any]:
    """The ``serve:`` block of a model config (top level, or under ``model:`` for global-package files)."""
    cfg = OmegaConf.load(path)
    if not isinstance(cfg, DictConfig):
        raise ServeConfigError(f"{path}: expected a mapping")
    node = cfg.get("serve")
    if node is None and isinstance(cfg.get("model"), DictConfig):
        node = cfg.model.get("serve")
    if node is None:
        raise ServeConfigError(f"{path} has no `serve:` block: it is not an open-weight model that mmtsb serves "
                               f"with vLLM (add hf_repo, served_model_name, tensor_parallel_size, ...)")
    try:
        return dict(OmegaConf.to_container(node, resolve=True))  # type: ignore[arg-type]
    except OmegaConfBaseException as exc:
        raise ServeConfigError(f"{path}: the serve: block must not refer to other config keys ({exc})") from None


def apply_overrides(data: dict[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """``key=value`` (value parsed as YAML: ``2``, ``null``, ``{image: 4}``, ``[--enforce-eager]``)."""
    out = dict(data)
    for item in overrides:
        if "=" not in item:
            raise ServeConfigError(f"argument {item!r} must look like key=value (a field of the serve: block)")
        key, value = item.split("=", 1)
        out[key.strip()] = yaml.safe_load(value) if value else None
    return out


def load_serve_defaults(conf_dir: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``conf/serve/vllm.yaml`` with the command-line flags applied before interpolation (so ``api_base``
    follows ``--host``/``--port``)."""
    path = conf_dir / "serve" / "vllm.yaml"
    cfg = OmegaConf.load(path) if path.is_file() else OmegaConf.create({})
    register_resolvers()
    flags = {"host": args.host, "public_host": args.public_host, "port": args.port,
             "vllm_executable": args.vllm, "startup_timeout_s": args.timeout, "log_dir": args.log_dir,
             "gpus": [int(g) for g in args.gpus.split(",") if g.strip()] if args.gpus else None}
    for key, value in flags.items():
        if value is not None:
            cfg[key] = value
    data = dict(OmegaConf.to_container(cfg, resolve=True))  # type: ignore[arg-type]
    data.pop("kind", None)
    if data.get("log_dir") is None:
        data["log_dir"] = "outputs/serve"
    return data


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mmtsb serve", description="Serve an open-weight model with vLLM until "
                                                                "Ctrl-C (OpenAI-compatible, for `mmtsb run`).")
    p.add_argument("model", help="model config name (conf/model/<name>.yaml) or a yaml path")
    p.add_argument("overrides", nargs="*", help="key=value overrides of the model's serve: block")
    p.add_argument("--conf-dir", default=None, help="config tree (default: ./conf)")
    p.add_argument("--host", default=None, help="bind address (default 127.0.0.1; 0.0.0.0 for other nodes)")
    p.add_argument("--public-host", default=None, help="host written into api_base (e.g. this node's IP)")
    p.add_argument("--port", type=int, default=None, help="port (default: 8000 if free, else a free one)")
    p.add_argument("--gpus", default=None, help="GPU indices, e.g. 0,1 (default: CUDA_VISIBLE_DEVICES)")
    p.add_argument("--vllm", default=None, help="vllm executable (default: vllm on PATH)")
    p.add_argument("--timeout", type=float, default=None, help="seconds to wait for readiness")
    p.add_argument("--log-dir", default=None, help="folder of the vLLM log (default outputs/serve)")
    p.add_argument("--dry-run", action="store_true", help="print the vllm command and exit")
    return p


def settings_from_args(args: argparse.Namespace) -> ServeSettings:
    conf_dir = Path(args.conf_dir) if args.conf_dir else default_conf_dir()
    path = model_config_path(args.model, conf_dir)
    spec = ModelServeSpec.from_mapping(apply_overrides(load_model_serve(path), args.overrides),
                                       where=f"{path}: serve")
    defaults = load_serve_defaults(conf_dir, args)
    return ServeSettings.from_config({**defaults, "kind": "vllm"}, spec.__dict__)


def _serve_forever(server: VLLMServer, model: str) -> int:
    print(f"mmtsb serve: vLLM is serving {server.spec.hf_repo} as {server.served_model_name!r} "
          f"(pid {server.process.pid if server.process else '?'}, GPUs: {server.gpu_source})\n"
          f"  api_base:      {server.api_base}\n"
          f"  litellm model: {server.litellm_model}\n"
          f"  log:           {server.log_path}\n"
          f"Evaluate with: mmtsb run model={model} serve=none serve.api_base={server.api_base}\n"
          f"Press Ctrl-C to stop.", flush=True)
    while server.running:
        time.sleep(0.5)
    print(f"mmtsb serve: vLLM exited unexpectedly (code {server.process.returncode if server.process else '?'});"
          f" last lines of {server.log_path}:\n{server.log_tail()}", file=sys.stderr, flush=True)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_intermixed_args(argv)  # key=value overrides may follow the options
    try:
        settings = settings_from_args(args)
    except (ServeConfigError, OmegaConfBaseException, yaml.YAMLError) as exc:
        print(f"mmtsb serve: {exc}", file=sys.stderr)
        return 2
    server = VLLMServer(settings)
    if args.dry_run:
        assert settings.model is not None
        gpus = assign_gpus(settings.model.gpus_needed, settings.gpus)
        print(shlex.join(server.command()))
        print(f"# CUDA_VISIBLE_DEVICES={gpus.cuda_visible_devices or '(inherited)'} ({gpus.source})")
        print(f"# api_base={server.api_base} model={server.litellm_model}")
        return 0

    def on_term(signum: int, frame: object) -> None:
        raise _Stop

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        server.start()
        return _serve_forever(server, args.model)
    except ServeError as exc:
        print(f"mmtsb serve: {exc}", file=sys.stderr, flush=True)
        return 1
    except (KeyboardInterrupt, _Stop):
        print("mmtsb serve: stopping vLLM", flush=True)
        return 0
    finally:
        server.stop()
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
