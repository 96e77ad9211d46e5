"""VLLMServer: run ``vllm serve`` as a child process, wait until it is ready, and always stop it.

Lifecycle: ``start()`` picks the port, launches ``<vllm_executable> serve <hf_repo> ...`` in its own process
group with stdout/stderr going to ``<log_dir>/vllm-<name>-<port>.log``, then polls ``GET /health`` and
``GET /v1/models`` until the served name is listed. ``stop()`` sends SIGTERM to vLLM, waits
``stop_grace_s``, then SIGKILLs whatever is left of its process group (engine workers included). Stopping
happens on ``__exit__`` (also on exceptions and Ctrl-C), at interpreter exit (atexit), and — when started
from the main thread on Linux — when this process dies (PR_SET_PDEATHSIG).

Clients reach it through litellm's ``hosted_vllm/`` provider: ``model=server.litellm_model``,
``api_base=server.api_base``.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Self

from mmtsb.serve.errors import ServeError, VLLMStartError, VLLMStartTimeout
from mmtsb.serve.gpus import assign_gpus
from mmtsb.serve.health import check_ready, free_port, port_is_free, probe_host
from mmtsb.serve.settings import ModelServeSpec, ServeSettings

log = logging.getLogger("mmtsb.serve")

TAIL_LINES = 40


@dataclass(frozen=True)
class Endpoint:
    """Where clients send requests: litellm ``model`` id and ``api_base`` (``http://host:port/v1``)."""

    api_base: str | None
    litellm_model: str | None = None
    served_model_name: str | None = None


def vllm_command(executable: str, spec: ModelServeSpec, host: str, port: int) -> list[str]:
    """The ``vllm serve`` argv for ``spec``: the documented flags for multimodal tool calling."""
    cmd = [executable, "serve", spec.hf_repo, "--host", host, "--port", str(port),
           "--served-model-name", spec.name,
           "--tensor-parallel-size", str(spec.tensor_parallel_size),
           "--data-parallel-size", str(spec.data_parallel_size),
           "--limit-mm-per-prompt", json.dumps(spec.limit_mm_per_prompt, separators=(",", ":"))]
    if spec.tool_call_parser:
        cmd += ["--enable-auto-tool-choice", "--tool-call-parser", spec.tool_call_parser]
    if spec.reasoning_parser:
        cmd += ["--reasoning-parser", spec.reasoning_parser]
    if spec.max_model_len is not None:
        cmd += ["--max-model-len", str(spec.max_model_len)]
    if spec.gpu_memory_utilization is not None:
        cmd += ["--gpu-memory-utilization", f"{float(spec.gpu_memory_utilization):g}"]
    if spec.chat_template:
        cmd += ["--chat-template", spec.chat_template]
    return cmd + list(spec.extra_args)


def resolve_executable(name: str) -> str:
    """The path of the vllm executable, or a ServeError saying how to provide it."""
    if os.sep in name:
        if os.path.isfile(name) and os.access(name, os.X_OK):
            return name
        raise ServeError(f"vllm executable {name!r} (serve.vllm_executable) does not exist or is not executable")
    found = shutil.which(name)
    if found is None:
        raise ServeError(f"vllm executable {name!r} not found on PATH. vLLM is an optional extra that lives in "
                         f"its own environment (pip install 'mmtsb[serve]' there); point serve.vllm_executable "
                         f"at it, e.g. serve.vllm_executable=/opt/vllm-env/bin/vllm")
    return found


def _pdeathsig_hook() -> Callable[[], None] | None:
    """A preexec hook making the child get SIGTERM when its starting thread dies (PR_SET_PDEATHSIG), or None.

    Best effort, on top of the context manager and atexit: only on Linux, from the main thread of a
    single-threaded process (a preexec hook after fork is unsafe while other threads may hold locks), with
    libc resolved here in the parent so the child only makes one foreign call."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread() \
            or threading.active_count() > 1:
        return None
    try:
        prctl = ctypes.CDLL("libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    sigterm = int(signal.SIGTERM)

    def hook() -> None:
        prctl(1, sigterm)  # 1 = PR_SET_PDEATHSIG

    return hook


def read_tail(path: Path | None, lines: int = TAIL_LINES, max_bytes: int = 64 * 1024) -> str:
    """The last ``lines`` lines of a log file ('' when it does not exist)."""
    if path is None or not path.exists():
        return ""
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - max_bytes))
        data = fh.read().decode("utf-8", errors="replace")
    return "\n".join(data.splitlines()[-lines:])


class VLLMServer:
    """One ``vllm serve`` process for ``settings.model`` (see module docstring)."""

    def __init__(self, settings: ServeSettings, *, log_dir: str | Path | None = None) -> None:
        if settings.model is None:
            raise ServeError("VLLMServer needs settings.model (the model's serve: block)")
        self.settings = settings
        self.spec: ModelServeSpec = settings.model
        self.port: int | None = settings.port
        self.log_dir = Path(log_dir or settings.log_dir or "outputs/serve")
        self.log_path: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.gpu_source: str | None = None
        self._log_file: IO[bytes] | None = None
        self._atexit_registered = False

    # ---- addresses ---------------------------------------------------------------------------------------
    @property
    def served_model_name(self) -> str:
        return self.spec.name

    @property
    def litellm_model(self) -> str:
        return self.spec.litellm_model

    @property
    def api_base(self) -> str:
        if self.port is None:
            raise ServeError("the server has no port yet: call start() first")
        return f"http://{self.settings.advertised_host}:{self.port}/v1"

    @property
    def endpoint(self) -> Endpoint:
        return Endpoint(self.api_base, self.litellm_model, self.served_model_name)

    def command(self) -> list[str]:
        """The argv that start() runs (port chosen if needed)."""
        if self.port is None:
            self.port = free_port(None, self.settings.host)
        return vllm_command(self.settings.vllm_executable, self.spec, self.settings.host, self.port)

    # ---- lifecycle -----------------------------------------------------------------------------------------
    def start(self) -> Self:
        """Launch vLLM and wait until it serves the model; on any failure it is stopped and the error says
        why, with the tail of its log."""
        if self.process is not None:
            raise ServeError("this VLLMServer was already started")
        executable = resolve_executable(self.settings.vllm_executable)
        if self.port is not None and not port_is_free(self.port, self.settings.host):
            raise ServeError(f"port {self.port} on {self.settings.host} is already in use; choose another "
                             f"serve.port or leave it empty (null) to pick a free one")
        if not self.spec.tool_call_parser:
            log.warning("model.serve.tool_call_parser is not set: vLLM will reject requests with tools "
                        "(tool_choice=auto needs --enable-auto-tool-choice --tool-call-parser NAME)")
        cmd = self.command()
        cmd[0] = executable
        env = self._environment()
        self._check_api_base()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", self.served_model_name)
        self.log_path = self.log_dir / f"vllm-{safe}-{self.port}.log"
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 (closed in stop())
        self._log_file.write(f"# mmtsb: {' '.join(cmd)}\n# mmtsb: gpus from {self.gpu_source}\n".encode())
        self._log_file.flush()
        log.info("starting vLLM: %s (log: %s)", " ".join(cmd), self.log_path)
        try:
            self.process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self._log_file,
                                            stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                            preexec_fn=_pdeathsig_hook())
        except OSError as exc:
            self._close_log()
            raise VLLMStartError(f"could not launch {executable!r}: {exc}") from exc
        atexit.register(self.stop)
        self._atexit_registered = True
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        log.info("vLLM ready: %s at %s", self.served_model_name, self.api_base)
        return self

    def _environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(self.settings.env)
        assignment = assign_gpus(self.spec.gpus_needed, self.settings.gpus, env)
        self.gpu_source = assignment.source
        if assignment.cuda_visible_devices is not None:
            env["CUDA_VISIBLE_DEVICES"] = assignment.cuda_visible_devices
        return env

    def _check_api_base(self) -> None:
        configured = self.settings.api_base
        if configured and configured.rstrip("/") != self.api_base:
            raise ServeError(f"serve.api_base={configured!r} does not match the server's address {self.api_base!r};"
                             f" leave serve.api_base to its default (derived from serve.public_host/host and port)")

    def wait_ready(self) -> None:
        """Poll health and the model list until ready, the process exits, or the startup timeout passes."""
        assert self.process is not None
        timeout = float(self.settings.startup_timeout_s)
        deadline = time.monotonic() + timeout
        root = f"http://{probe_host(self.settings.host)}:{self.port}"
        detail = "not probed yet"
        while True:
            code = self.process.poll()
            if code is not None:
                raise VLLMStartError(self._explain(f"vLLM exited with code {code} before it became ready"))
            state = check_ready(root, self.served_model_name)
            if state.ready:
                return
            detail = state.detail
            if time.monotonic() >= deadline:
                raise VLLMStartTimeout(self._explain(
                    f"vLLM did not become ready within {timeout:g}s (serve.startup_timeout_s); last check: {detail}"))
            time.sleep(min(float(self.settings.poll_interval_s), max(0.01, deadline - time.monotonic())))

    def _explain(self, what: str) -> str:
        tail = self.log_tail()
        return (f"{what}. Command: {' '.join(self.command())}. Log: {self.log_path}\n"
                f"--- last lines of the vLLM log ---\n{tail or '(empty)'}")

    def log_tail(self, lines: int = TAIL_LINES) -> str:
        if self._log_file is not None:
            self._log_file.flush()
        return read_tail(self.log_path, lines)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> int | None:
        """SIGTERM vLLM, SIGKILL its process group after the grace period; returns its exit code. Idempotent."""
        if self._atexit_registered:
            atexit.unregister(self.stop)
            self._atexit_registered = False
        proc = self.process
        if proc is None:
            self._close_log()
            return None
        pgid = proc.pid  # start_new_session: the group id is vLLM's pid
        if proc.poll() is None:
            log.info("stopping vLLM (pid %d)", proc.pid)
            _signal_group(pgid, signal.SIGTERM, leader_only=proc.pid)
            try:
                proc.wait(timeout=float(self.settings.stop_grace_s))
            except subprocess.TimeoutExpired:
                log.warning("vLLM did not exit %gs after SIGTERM; killing it", self.settings.stop_grace_s)
        _signal_group(pgid, signal.SIGKILL)  # the leader if still alive, and any orphaned engine workers
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
            pass
        self._close_log()
        return proc.returncode

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _signal_group(pgid: int, sig: signal.Signals, leader_only: int | None = None) -> None:
    try:
        if leader_only is not None:
            os.kill(leader_only, sig)
        else:
            os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
