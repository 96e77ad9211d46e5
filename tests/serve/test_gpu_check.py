"""The GPU check script runs end to end against the fake vllm (the real run needs a GPU and vLLM)."""

from __future__ import annotations

import json

from mmtsb.serve import gpu_check
from serve_fakes import pid_gone


def test_gpu_check_script_against_the_fake(fake_vllm, tmp_path, monkeypatch, capsys):
    for key, value in fake_vllm.env().items():
        monkeypatch.setenv(key, value)
    out = tmp_path / "check.json"
    args = ["--vllm", str(fake_vllm.path), "--log-dir", str(tmp_path / "logs"), "--timeout", "60",
            "--dummy-weights", "--out", str(out)]
    assert gpu_check.main(args) == 0
    result = json.loads(out.read_text())
    assert result["ok"] and result["stopped"] and result["litellm_model"] == "hosted_vllm/mmtsb-gpu-check"
    assert result["answer"]["tool_calls"][0]["name"] == "report_shape_color"
    assert result["answer"]["tool_calls"][0]["arguments"]["images"] == 1  # the image reached the server
    assert result["answer_direct"]["tool_calls"] == result["answer"]["tool_calls"]   # both routes alike
    assert "--load-format" in result["command"] and "--enable-auto-tool-choice" in result["command"]
    record = fake_vllm.record()
    assert pid_gone(record["pid"]) and pid_gone(record["worker_pid"])
    # with real weights the colour must be right: the fake does not name one, so the check fails
    assert gpu_check.main(args[:-3]) == 1
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["tool_call_ok"] is False and line["ok"] is False and "error" not in line
