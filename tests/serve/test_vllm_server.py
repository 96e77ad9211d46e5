"""VLLMServer against a fake ``vllm`` executable: flags, health wait, routing through hosted_vllm/, shutdown,
failing and hanging starts."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

import pytest

from mmtsb.llm import LLMClient, ModelSettings, flush_litellm_logging
from mmtsb.serve import (Endpoint, ModelServeSpec, ServeError, ServeSettings, VLLMServer, VLLMStartError,
                         VLLMStartTimeout, serving, vllm_command)
from serve_fakes import FakeVLLM, pid_gone

SPEC = ModelServeSpec(hf_repo="Qwen/Qwen3-VL-2B-Instruct", served_model_name="qwen-vl-test",
                      tensor_parallel_size=1, data_parallel_size=2, tool_call_parser="hermes",
                      reasoning_parser="qwen3", max_model_len=32768, limit_mm_per_prompt={"image": 6},
                      gpu_memory_utilization=0.85, chat_template="/tmp/tpl.jinja",
                      extra_args=["--enforce-eager", "--seed", "7"])
TOOLS = [{"type": "function", "function": {
    "name": "describe_image", "description": "Describe an image.",
    "parameters": {"type": "object", "properties": {"model_seen": {"type": "string"}}}}}]
PNG_1PX = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGA"
           "hKmMIQAAAABJRU5ErkJggg==")


def settings(fake: FakeVLLM, tmp_path: Path, mode: str = "ok", spec: ModelServeSpec = SPEC, **over) -> ServeSettings:
    fields = {"kind": "vllm", "model": spec, "vllm_executable": str(fake.path), "startup_timeout_s": 30,
              "poll_interval_s": 0.1, "stop_grace_s": 5, "log_dir": str(tmp_path / "serve"), "gpus": [3, 5],
              "env": fake.env(mode, FAKE_EXTRA="yes")}
    fields.update(over)
    return ServeSettings(**fields)


def complete(endpoint: Endpoint, **kwargs) -> object:
    client = LLMClient(ModelSettings(model=endpoint.litellm_model, api_base=endpoint.api_base, timeout_s=10,
                                   max_retries=0))

    async def main():
        try:
            return await client.complete(**kwargs)
        finally:
            await flush_litellm_logging()

    return asyncio.run(main())


def test_vllm_command_has_the_documented_flags():
    cmd = vllm_command("vllm", SPEC, "127.0.0.1", 8123)
    assert cmd[:3] == ["vllm", "serve", "Qwen/Qwen3-VL-2B-Instruct"]
    pairs = {cmd[i]: cmd[i + 1] for i in range(3, len(cmd) - 1) if cmd[i].startswith("--")}
    assert pairs["--host"] == "127.0.0.1" and pairs["--port"] == "8123"
    assert pairs["--served-model-name"] == "qwen-vl-test"
    assert pairs["--tensor-parallel-size"] == "1" and pairs["--data-parallel-size"] == "2"
    assert json.loads(pairs["--limit-mm-per-prompt"]) == {"image": 6}
    assert "--enable-auto-tool-choice" in cmd and pairs["--tool-call-parser"] == "hermes"
    assert pairs["--reasoning-parser"] == "qwen3" and pairs["--max-model-len"] == "32768"
    assert pairs["--gpu-memory-utilization"] == "0.85" and pairs["--chat-template"] == "/tmp/tpl.jinja"
    assert cmd[-3:] == ["--enforce-eager", "--seed", "7"]


def test_optional_flags_are_omitted():
    cmd = vllm_command("vllm", ModelServeSpec(hf_repo="m/x", tool_call_parser=None), "0.0.0.0", 1)
    assert "--enable-auto-tool-choice" not in cmd and "--tool-call-parser" not in cmd
    assert not {"--reasoning-parser", "--max-model-len", "--gpu-memory-utilization", "--chat-template"} & set(cmd)
    assert cmd[cmd.index("--served-model-name") + 1] == "m/x"  # served name defaults to the repo


def test_start_route_and_stop(fake_vllm, tmp_path):
    server = VLLMServer(settings(fake_vllm, tmp_path))
    with server:
        assert server.running
        record = fake_vllm.record()
        argv = record["argv"]
        assert argv[:2] == ["serve", "Qwen/Qwen3-VL-2B-Instruct"]
        assert argv[argv.index("--port") + 1] == str(server.port)
        assert argv[argv.index("--host") + 1] == "127.0.0.1"
        assert argv[argv.index("--tool-call-parser") + 1] == "hermes" and "--enable-auto-tool-choice" in argv
        assert argv[argv.index("--data-parallel-size") + 1] == "2"
        assert record["cuda_visible_devices"] == "3,5" and record["extra_env"] == "yes"
        assert server.api_base == f"http://127.0.0.1:{server.port}/v1"
        assert server.litellm_model == "hosted_vllm/qwen-vl-test"
        # a real LLMClient call through litellm's hosted_vllm provider, with an image and a tool
        messages = [{"role": "user", "content": [{"type": "text", "text": "What is this?"},
                                                 {"type": "image_url", "image_url": {"url": PNG_1PX}}]}]
        response = complete(server.endpoint, messages=messages, tools=TOOLS, tool_choice="auto")
        call = response.tool_calls[0]
        assert call.name == "describe_image"
        assert call.parsed_arguments == {"model_seen": "qwen-vl-test", "images": 1}
        text = complete(server.endpoint, messages=[{"role": "user", "content": "hi"}])
        assert text.text == "served by qwen-vl-test"
        assert "# mmtsb: " in server.log_path.read_text()
    assert not server.running and server.process.returncode is not None
    assert pid_gone(record["pid"]) and pid_gone(record["worker_pid"])  # engine workers die with the group
    server.stop()  # idempotent


def test_failing_start_reports_the_log_tail(fake_vllm, tmp_path):
    server = VLLMServer(settings(fake_vllm, tmp_path, mode="fail"))
    with pytest.raises(VLLMStartError) as info:
        server.start()
    message = str(info.value)
    assert "exited with code 3 before it became ready" in message
    assert "CUDA out of memory (fake)" in message and "INFO fake vllm: loading" in message
    assert str(server.log_path) in message and server.log_path.is_file()
    assert not server.running


def test_start_timeout_stops_the_process(fake_vllm, tmp_path):
    server = VLLMServer(settings(fake_vllm, tmp_path, mode="hang", startup_timeout_s=1.0))
    with pytest.raises(VLLMStartTimeout) as info:
        server.start()
    message = str(info.value)
    assert "did not become ready within 1s" in message and "GET /health failed" in message
    assert "INFO fake vllm: loading" in message
    record = fake_vllm.record()
    assert pid_gone(record["pid"]) and pid_gone(record["worker_pid"])


def test_health_waits_for_the_served_name(fake_vllm, tmp_path):
    server = VLLMServer(settings(fake_vllm, tmp_path, mode="wrong_model", startup_timeout_s=5.0))
    with pytest.raises(VLLMStartTimeout) as info:
        server.start()
    assert "lists ['some-other-model'], not the served name 'qwen-vl-test'" in str(info.value)
    assert pid_gone(fake_vllm.record()["pid"])


def test_slow_start_is_waited_for(fake_vllm, tmp_path):
    s = settings(fake_vllm, tmp_path)
    s.env["FAKE_VLLM_DELAY"] = "1.0"
    with VLLMServer(s) as server:
        assert complete(server.endpoint, messages=[{"role": "user", "content": "hi"}]).text.startswith("served")


def test_sigkill_after_the_grace_period(fake_vllm, tmp_path):
    server = VLLMServer(settings(fake_vllm, tmp_path, mode="ignore_term", stop_grace_s=0.5))
    server.start()
    code = server.stop()
    assert code == -9
    assert pid_gone(fake_vllm.record()["worker_pid"])


def test_exception_inside_the_block_stops_the_server(fake_vllm, tmp_path):
    with pytest.raises(RuntimeError, match="boom"):
        with VLLMServer(settings(fake_vllm, tmp_path)) as server:
            raise RuntimeError("boom")
    assert not server.running and pid_gone(fake_vllm.record()["pid"])


def test_missing_executable(tmp_path, fake_vllm):
    with pytest.raises(ServeError, match="not found on PATH.*serve.vllm_executable"):
        VLLMServer(settings(fake_vllm, tmp_path, vllm_executable="vllm-does-not-exist-xyz")).start()
    with pytest.raises(ServeError, match="does not exist or is not executable"):
        VLLMServer(settings(fake_vllm, tmp_path, vllm_executable=str(tmp_path / "nope" / "vllm"))).start()


def test_port_in_use(fake_vllm, tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        with pytest.raises(ServeError, match=f"port {port} on 127.0.0.1 is already in use"):
            VLLMServer(settings(fake_vllm, tmp_path, port=port)).start()
    assert not fake_vllm.record_path.exists()  # nothing was launched


def test_api_base_must_match_the_server(fake_vllm, tmp_path):
    s = settings(fake_vllm, tmp_path, port=18777, api_base="http://127.0.0.1:9999/v1")
    with pytest.raises(ServeError, match="does not match the server's address 'http://127.0.0.1:18777/v1'"):
        VLLMServer(s).start()


def test_too_few_gpus(fake_vllm, tmp_path):
    with pytest.raises(ServeError, match=r"needs tensor_parallel_size \* data_parallel_size = 2 GPU\(s\), but only "
                                         r"1 are available from serve.gpus: 0"):
        VLLMServer(settings(fake_vllm, tmp_path, gpus=[0])).start()


def test_serving_context_manager(fake_vllm, tmp_path):
    with serving(None) as none:
        assert none is None
    with serving(ServeSettings(kind="none")) as none:
        assert none is None
    external = ServeSettings(kind="none", api_base="http://gpu-node:8000/v1", model=SPEC)
    with serving(external) as endpoint:
        assert endpoint == Endpoint("http://gpu-node:8000/v1", "hosted_vllm/qwen-vl-test", "qwen-vl-test")
    with serving(settings(fake_vllm, tmp_path)) as endpoint:
        assert endpoint.litellm_model == "hosted_vllm/qwen-vl-test"
        pid = fake_vllm.record()["pid"]
        assert complete(endpoint, messages=[{"role": "user", "content": "x"}]).text == "served by qwen-vl-test"
    assert pid_gone(pid)


def test_atexit_stops_a_forgotten_server(fake_vllm, tmp_path):
    """A script that starts a server and never stops it: the server dies with the interpreter."""
    log_dir = tmp_path / "serve"
    program = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from mmtsb.serve import ServeSettings, ModelServeSpec, VLLMServer
s = ServeSettings(kind="vllm", model=ModelServeSpec(hf_repo="m/x"), vllm_executable={str(fake_vllm.path)!r},
                  poll_interval_s=0.1, stop_grace_s=5, log_dir={str(log_dir)!r})
VLLMServer(s).start()
print("started")
"""
    import subprocess

    env = {**os.environ, **fake_vllm.env()}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "started" in out.stdout
    record = fake_vllm.record()
    assert pid_gone(record["pid"]) and pid_gone(record["worker_pid"])


def test_vllm_dies_with_a_killed_parent(fake_vllm, tmp_path):
    """kill -9 of the process that started vLLM (no atexit, no __exit__): PR_SET_PDEATHSIG still ends vLLM."""
    import signal
    import subprocess

    program = f"""
import time
from mmtsb.serve import ServeSettings, ModelServeSpec, VLLMServer
s = ServeSettings(kind="vllm", model=ModelServeSpec(hf_repo="m/x"), vllm_executable={str(fake_vllm.path)!r},
                  poll_interval_s=0.1, log_dir={str(tmp_path / "serve")!r})
VLLMServer(s).start()
print("started", flush=True)
time.sleep(120)
"""
    env = {**os.environ, **fake_vllm.env()}
    parent = subprocess.Popen([sys.executable, "-c", program], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline().strip() == "started"
        record = fake_vllm.record()
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        assert pid_gone(record["pid"], timeout=10)
    finally:
        parent.kill()
        try:  # the fake's stand-in engine worker is not cleaned up by the fake itself (real vLLM does that)
            os.kill(fake_vllm.record()["worker_pid"], signal.SIGKILL)
        except ProcessLookupError:
            pass
