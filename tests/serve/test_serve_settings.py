"""Serve settings, GPU assignment, the conf/serve group (composed with Hydra) and the health probe command."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from mmtsb.serve import ModelServeSpec, ServeConfigError, ServeError, ServeSettings
from mmtsb.serve.gpus import assign_gpus
from mmtsb.serve.health import free_port, main as health_main, port_is_free
from mmtsb.testing import FakeLLMServer

CONF = Path(__file__).resolve().parents[2] / "conf"
MODEL_SERVE = {"hf_repo": "Qwen/Qwen3.5-9B", "served_model_name": "qwen3.5-9b", "tensor_parallel_size": 2,
               "data_parallel_size": 1, "tool_call_parser": "hermes", "max_model_len": 65536,
               "limit_mm_per_prompt": {"image": 16}, "gpu_memory_utilization": 0.9, "extra_args": []}


# ---- settings ---------------------------------------------------------------------------------------------
def test_from_config_merges_group_and_model_block(tmp_path):
    s = ServeSettings.from_config({"kind": "vllm", "port": 8001, "host": "0.0.0.0", "public_host": "10.1.2.3"},
                                  MODEL_SERVE, run_dir=tmp_path)
    assert s.model.name == "qwen3.5-9b" and s.model.litellm_model == "hosted_vllm/qwen3.5-9b"
    assert s.model.gpus_needed == 2 and s.port == 8001 and s.advertised_host == "10.1.2.3"
    assert s.log_dir == str(tmp_path / "serve")


def test_from_config_accepts_dictconfig():
    cfg = OmegaConf.create({"serve": {"kind": "none", "api_base": "http://h:1/v1"}, "model": {"serve": MODEL_SERVE}})
    s = ServeSettings.from_config(cfg.serve, cfg.model.serve)
    assert s.kind == "none" and s.api_base == "http://h:1/v1" and s.model.tensor_parallel_size == 2


@pytest.mark.parametrize(("serve", "model", "message"), [
    ({"kind": "vllm", "prot": 1}, MODEL_SERVE, "serve: unknown key(s) prot; allowed: kind, host"),
    ({"kind": "sglang"}, None, "serve.kind='sglang' is not one of none, vllm"),
    ({"kind": "vllm"}, None, "serve=vllm needs a model config with a `serve:` block"),
    ({"kind": "vllm", "port": 70000}, MODEL_SERVE, "serve.port must be 0..65535"),
    ({"kind": "none", "api_base": "gpu:8000"}, None, "serve.api_base must be an http(s) URL"),
    ({"kind": "vllm", "stop_grace_s": 0}, MODEL_SERVE, "serve.stop_grace_s must be > 0"),
    ({"kind": "vllm"}, {**MODEL_SERVE, "tp": 2}, "model.serve: unknown key(s) tp; allowed: hf_repo"),
    ({"kind": "vllm"}, {"served_model_name": "x"}, "model.serve: hf_repo is required"),
    ({"kind": "vllm"}, {**MODEL_SERVE, "tensor_parallel_size": 0}, "tensor_parallel_size must be an integer >= 1"),
    ({"kind": "vllm"}, {**MODEL_SERVE, "gpu_memory_utilization": 1.5}, "gpu_memory_utilization must be in (0, 1]"),
    ({"kind": "vllm"}, {**MODEL_SERVE, "limit_mm_per_prompt": {"image": -1}}, "limit_mm_per_prompt.image must be"),
    ({"kind": "vllm"}, {**MODEL_SERVE, "limit_mm_per_prompt": 4}, "limit_mm_per_prompt must be a mapping"),
    ({"kind": "vllm"}, {**MODEL_SERVE, "max_model_len": 0}, "max_model_len must be a positive integer"),
])
def test_wrong_settings_fail_with_clear_messages(serve, model, message):
    with pytest.raises(ServeConfigError) as info:
        ServeSettings.from_config(serve, model)
    assert message in str(info.value)


def test_extra_args_string_is_split_and_port_zero_means_free():
    spec = ModelServeSpec(hf_repo="m/x", extra_args="--enforce-eager --seed 3")
    assert spec.extra_args == ["--enforce-eager", "--seed", "3"]
    assert ServeSettings(kind="vllm", model=spec, port=0).port is None
    assert ServeSettings(kind="vllm", model=spec, gpus="1,2").gpus == [1, 2]


# ---- GPU assignment -----------------------------------------------------------------------------------------
def test_gpu_assignment_precedence(monkeypatch):
    assert assign_gpus(1, [4, 5], {}).cuda_visible_devices == "4"
    env = {"CUDA_VISIBLE_DEVICES": "0,1,2,3"}
    picked = assign_gpus(2, None, env)
    assert (picked.cuda_visible_devices, picked.source) == ("0,1", "CUDA_VISIBLE_DEVICES")
    assert assign_gpus(1, None, {}).cuda_visible_devices is None  # inherit: vLLM sees all GPUs
    with pytest.raises(ServeError, match="= 3 GPU.*only 1 are available from CUDA_VISIBLE_DEVICES: 0"):
        assign_gpus(3, None, {"CUDA_VISIBLE_DEVICES": "0"})
    with pytest.raises(ServeError, match=r"only 0 are available from CUDA_VISIBLE_DEVICES: \(none\)"):
        assign_gpus(1, None, {"CUDA_VISIBLE_DEVICES": ""})
    # inside a Ray task that was granted GPUs, Ray's ids win over the inherited environment
    fake_ray = types.SimpleNamespace(is_initialized=lambda: True, get_gpu_ids=lambda: [6, 7])
    monkeypatch.setitem(sys.modules, "ray", fake_ray)
    ray_pick = assign_gpus(2, None, env)
    assert (ray_pick.cuda_visible_devices, ray_pick.source) == ("6,7", "ray.get_gpu_ids()")
    assert assign_gpus(1, [1], env).source == "serve.gpus"
    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(is_initialized=lambda: True, get_gpu_ids=lambda: []))
    assert assign_gpus(1, None, env).source == "CUDA_VISIBLE_DEVICES"  # the driver: no Ray GPUs of its own


# ---- conf/serve ---------------------------------------------------------------------------------------------
def test_serve_group_yaml_keys_are_settings_fields():
    allowed = {f for f in ServeSettings.__dataclass_fields__ if f != "model"}
    for name in ("none", "vllm"):
        data = OmegaConf.load(CONF / "serve" / f"{name}.yaml")
        assert set(data) <= allowed, set(data) - allowed
        assert data.kind == name and "api_base" in data


def _tree(tmp_path: Path) -> Path:
    """A config tree: our serve group plus a primary config and a model that interpolates ${serve.api_base}."""
    root = tmp_path / "conf"
    (root / "serve").mkdir(parents=True)
    (root / "model").mkdir()
    for name in ("none", "vllm"):
        (root / "serve" / f"{name}.yaml").write_text((CONF / "serve" / f"{name}.yaml").read_text())
    (root / "config.yaml").write_text("defaults:\n  - model: qwen\n  - serve: none\n  - _self_\n")
    (root / "model" / "qwen.yaml").write_text(OmegaConf.to_yaml({
        "model": "hosted_vllm/${model.serve.served_model_name}", "api_base": "${serve.api_base}",
        "serve": MODEL_SERVE}))
    return root


def test_hydra_composes_the_serve_group_and_models_interpolate_api_base(tmp_path):
    import mmtsb.serve  # noqa: F401  (registers the mmtsb_free_port resolver)

    with initialize_config_dir(config_dir=str(_tree(tmp_path)), version_base="1.3"):
        cfg = compose("config", overrides=["serve=vllm"])
        resolved = OmegaConf.to_container(cfg, resolve=True)
        port = resolved["serve"]["port"]
        assert isinstance(port, int) and port > 0
        assert resolved["serve"]["api_base"] == f"http://127.0.0.1:{port}/v1" == resolved["model"]["api_base"]
        assert resolved["model"]["model"] == "hosted_vllm/qwen3.5-9b"
        assert OmegaConf.to_container(cfg, resolve=True)["serve"]["port"] == port  # cached: stable
        s = ServeSettings.from_config(cfg.serve, cfg.model.serve, run_dir=tmp_path)
        assert s.kind == "vllm" and s.port == port and s.api_base == resolved["serve"]["api_base"]

        cfg = compose("config", overrides=["serve.api_base=http://gpu7:8000/v1"])
        assert cfg.model.api_base == "http://gpu7:8000/v1" and cfg.serve.kind == "none"

        cfg = compose("config", overrides=["serve=vllm", "serve.host=0.0.0.0", "serve.public_host=10.0.0.5",
                                           "serve.port=9001"])
        assert cfg.model.api_base == "http://10.0.0.5:9001/v1"


def test_free_port_resolver_prefers_the_given_port():
    import socket

    import mmtsb.serve  # noqa: F401

    port = free_port()
    assert OmegaConf.create({"p": f"${{mmtsb_free_port:{port}}}"}).p == port
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        sock.listen()
        taken = sock.getsockname()[1]
        assert not port_is_free(taken)
        other = OmegaConf.create({"p": f"${{mmtsb_free_port:{taken}}}"}).p
        assert isinstance(other, int) and other != taken


# ---- health command (used by the SLURM template) --------------------------------------------------------------
def test_health_command(capsys):
    with FakeLLMServer(models=["served-x"]) as server:
        assert health_main([server.base_url, "--model", "served-x", "--timeout", "2"]) == 0
        assert "ready: " in capsys.readouterr().out
        assert health_main([server.base_url, "--model", "other", "--timeout", "0.3", "--interval", "0.1"]) == 1
        assert "lists ['served-x'], not the served name 'other'" in capsys.readouterr().err
    port = free_port()
    assert health_main([f"http://127.0.0.1:{port}/v1", "--timeout", "0.2", "--interval", "0.1"]) == 1
    assert "GET /health failed" in capsys.readouterr().err
