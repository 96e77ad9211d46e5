"""``mmtsb serve MODEL`` (mmtsb.serve.cli): dry run, config errors, and serving until Ctrl-C / SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from mmtsb.llm import LLMClient, ModelSettings, flush_litellm_logging
from mmtsb.serve.cli import main
from serve_fakes import FakeVLLM, pid_gone

CONF = Path(__file__).resolve().parents[2] / "conf"


@pytest.fixture
def conf_dir(tmp_path: Path) -> Path:
    root = tmp_path / "conf"
    (root / "model").mkdir(parents=True)
    (root / "serve").mkdir()
    (root / "serve" / "vllm.yaml").write_text((CONF / "serve" / "vllm.yaml").read_text())
    (root / "model" / "qwen-test.yaml").write_text(OmegaConf.to_yaml({
        "model": "hosted_vllm/${model.serve.served_model_name}", "api_base": "${serve.api_base}",
        "serve": {"hf_repo": "Qwen/Qwen3-VL-2B-Instruct", "served_model_name": "qwen-test",
                  "tensor_parallel_size": 2, "limit_mm_per_prompt": {"image": 4}}}))
    (root / "model" / "gpt.yaml").write_text("model: openai/gpt-5.4\napi_key_env: OPENAI_API_KEY\n")
    return root


def test_dry_run_prints_the_command(conf_dir, fake_vllm, capsys):
    code = main(["qwen-test", "--conf-dir", str(conf_dir), "--dry-run", "--vllm", str(fake_vllm.path),
                 "--port", "8123", "--gpus", "4,5,6", "max_model_len=8192", "extra_args=[--enforce-eager]"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"{fake_vllm.path} serve Qwen/Qwen3-VL-2B-Instruct --host 127.0.0.1 --port 8123" in out
    assert "--served-model-name qwen-test --tensor-parallel-size 2" in out
    assert "--limit-mm-per-prompt '{\"image\":4}'" in out and "--max-model-len 8192" in out
    assert out.splitlines()[0].endswith("--enforce-eager")
    assert "CUDA_VISIBLE_DEVICES=4,5 (serve.gpus)" in out
    assert "api_base=http://127.0.0.1:8123/v1 model=hosted_vllm/qwen-test" in out


def test_model_path_and_public_host(conf_dir, capsys):
    code = main([str(conf_dir / "model" / "qwen-test.yaml"), "--conf-dir", str(conf_dir), "--dry-run",
                 "--host", "0.0.0.0", "--public-host", "10.9.8.7", "--port", "9000", "--gpus", "0,1"])
    assert code == 0
    assert "api_base=http://10.9.8.7:9000/v1" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["nope"], "model config {conf}/model/nope.yaml not found; models in {conf}/model: gpt, qwen-test"),
    (["gpt"], "has no `serve:` block: it is not an open-weight model"),
    (["qwen-test", "tp=2"], "serve: unknown key(s) tp; allowed: hf_repo"),
    (["qwen-test", "tensor_parallel_size"], "argument 'tensor_parallel_size' must look like key=value"),
])
def test_config_errors(conf_dir, capsys, args, message):
    assert main([*args, "--conf-dir", str(conf_dir), "--dry-run"]) == 2
    assert message.format(conf=conf_dir) in capsys.readouterr().err


def _start_cli(conf_dir: Path, fake: FakeVLLM, tmp_path: Path) -> tuple[subprocess.Popen[str], dict[str, str]]:
    env = {**os.environ, **fake.env(), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.serve.cli", "qwen-test", "--conf-dir", str(conf_dir),
                             "--vllm", str(fake.path), "--log-dir", str(tmp_path / "logs"), "--timeout", "60",
                             "--gpus", "0,1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    info: dict[str, str] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        if ":" in line and line.startswith("  "):
            key, value = line.strip().split(":", 1)
            info[key] = value.strip()
        if line.startswith("Press Ctrl-C"):
            break
    else:
        proc.wait(10)
        pytest.fail(f"mmtsb serve did not come up: {proc.stderr.read() if proc.stderr else ''}")
    return proc, info


def test_serves_until_ctrl_c_then_stops_vllm(conf_dir, fake_vllm, tmp_path):
    proc, info = _start_cli(conf_dir, fake_vllm, tmp_path)
    try:
        assert info["litellm model"] == "hosted_vllm/qwen-test"
        assert info["api_base"].startswith("http://127.0.0.1:") and info["log"].endswith(".log")
        client = LLMClient(ModelSettings(model=info["litellm model"], api_base=info["api_base"], max_retries=0))

        async def ask():
            try:
                return await client.complete([{"role": "user", "content": "hello"}])
            finally:
                await flush_litellm_logging()

        assert asyncio.run(ask()).text == "served by qwen-test"
        record = fake_vllm.record()
        assert record["argv"][record["argv"].index("--tensor-parallel-size") + 1] == "2"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert pid_gone(record["pid"]) and pid_gone(record["worker_pid"])
    finally:
        proc.kill()


def test_sigterm_stops_vllm_and_a_dead_vllm_is_reported(conf_dir, fake_vllm, tmp_path):
    proc, _ = _start_cli(conf_dir, fake_vllm, tmp_path)
    try:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert pid_gone(fake_vllm.record()["pid"])
    finally:
        proc.kill()
    fake_vllm.record_path.unlink()
    proc, _ = _start_cli(conf_dir, fake_vllm, tmp_path)
    try:
        os.kill(fake_vllm.record()["pid"], signal.SIGKILL)
        assert proc.wait(30) == 1
        err = proc.stderr.read() if proc.stderr else ""
        assert "vLLM exited unexpectedly (code -9)" in err and "INFO fake vllm: loading" in err
    finally:
        proc.kill()
    time.sleep(0)  # the worker child is cleaned up by the CLI's stop()
    assert pid_gone(fake_vllm.record()["worker_pid"])


def test_two_gpus_listed_for_a_one_gpu_model_serve_two_replicas(capsys):
    """Issue 13: `mmtsb serve qwen3_5_9b --gpus 0,1 --dry-run` used GPU 0 only; every listed GPU is used."""
    code = main(["qwen3_5_9b", "--gpus", "0,1", "--dry-run"])
    out = capsys.readouterr().out
    assert code == 0
    assert "--tensor-parallel-size 1 --data-parallel-size 2" in out and "CUDA_VISIBLE_DEVICES=0,1 (serve.gpus)" in out
