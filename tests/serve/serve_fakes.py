"""Fakes for the serving tests (import from here, not from conftest): a fake ``vllm`` executable.

It is a real program (shebang = this interpreter) that records its argv and environment to a JSON file, starts a
child process standing in for vLLM's engine workers (left running, so only a process-group kill removes it),
then serves the project's fake OpenAI server on the ``--host``/``--port`` it was given, listing the
``--served-model-name``. Behaviour is chosen by FAKE_VLLM_MODE: ok, fail (exit 3 with an error in the log),
hang (never listens), wrong_model (lists another name), ignore_term (survives SIGTERM).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

FAKE_VLLM = '''#!{python}
import asyncio, json, os, signal, subprocess, sys, time

args = sys.argv[1:]
mode = os.environ.get("FAKE_VLLM_MODE", "ok")
record = os.environ["FAKE_VLLM_RECORD"]


def opt(name):
    return args[args.index(name) + 1] if name in args else None


info = {{"argv": args, "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"), "pid": os.getpid(),
        "extra_env": os.environ.get("FAKE_EXTRA")}}
print("INFO fake vllm: loading", args[1] if len(args) > 1 else "?", flush=True)
if mode == "fail":
    json.dump(info, open(record, "w"))
    print("ERROR fake vllm: torch.OutOfMemoryError: CUDA out of memory (fake)", file=sys.stderr, flush=True)
    sys.exit(3)
worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
info["worker_pid"] = worker.pid
json.dump(info, open(record, "w"))
if mode == "hang":
    while True:
        time.sleep(1)
time.sleep(float(os.environ.get("FAKE_VLLM_DELAY", "0")))

from mmtsb.testing.fake_llm import FakeLLMServer

served = "some-other-model" if mode == "wrong_model" else opt("--served-model-name")


def respond(body):
    images = sum(1 for m in body["messages"] if isinstance(m.get("content"), list)
                 for p in m["content"] if p.get("type") == "image_url")
    if body.get("tools"):
        name = body["tools"][0]["function"]["name"]
        return {{"tool_calls": [{{"name": name, "arguments": {{"model_seen": body["model"], "images": images}}}}]}}
    return "served by " + body["model"]


server = FakeLLMServer(responder=respond, models=[served], host=opt("--host"), port=int(opt("--port")))
asyncio.run(server.serve_forever())
print("INFO fake vllm: shut down", flush=True)
if mode == "ignore_term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)
'''


class FakeVLLM:
    """Handle on the fake executable: its path and what it recorded."""

    def __init__(self, tmp: Path) -> None:
        self.path = tmp / "bin" / "vllm"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(FAKE_VLLM.format(python=sys.executable))
        self.path.chmod(0o755)
        self.record_path = tmp / "vllm-record.json"

    def env(self, mode: str = "ok", **extra: str) -> dict[str, str]:
        return {"FAKE_VLLM_MODE": mode, "FAKE_VLLM_RECORD": str(self.record_path), **extra}

    def record(self) -> dict[str, Any]:
        deadline = time.monotonic() + 10
        while not self.record_path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        return json.loads(self.record_path.read_text())


def pid_gone(pid: int, timeout: float = 5.0) -> bool:
    """True once ``pid`` no longer exists (or is a zombie awaiting its reaper)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z":
                return True
        except (FileNotFoundError, IndexError):
            return True
        time.sleep(0.05)
    return False
