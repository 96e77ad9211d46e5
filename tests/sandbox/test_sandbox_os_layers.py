"""The OS layers on their own: the seccomp program, Landlock rules, the template's isolation and
SandboxServer.active_layers."""

from __future__ import annotations

import os
import socket
import struct
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from mmtsb.sandbox import Interpreter, SandboxServer, forkserver, interpreter, landlock, seccomp


def in_forked_child(body: Callable[[], None]) -> int:
    """Run ``body`` in a forked process; its exit code (0 = every assertion held)."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            body()
        except BaseException as e:  # noqa: BLE001 - reported through the exit code
            print(f"child failed: {type(e).__name__}: {e}", file=sys.stderr)
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_seccomp_program_shape() -> None:
    prog = seccomp.build_filter("x86_64")
    insns = [struct.unpack("=HBBI", prog[i:i + 8]) for i in range(0, len(prog), 8)]
    assert insns[0] == (seccomp.BPF_LD_W_ABS, 0, 0, seccomp.OFF_ARCH)
    assert insns[1][3] == seccomp.AUDIT_ARCH["x86_64"]
    assert insns[2] == (seccomp.BPF_RET_K, 0, 0, seccomp.SECCOMP_RET_KILL_PROCESS)
    assert insns[-1] == (seccomp.BPF_RET_K, 0, 0, seccomp.SECCOMP_RET_ALLOW)
    denied = {k for code, _jt, _jf, k in insns[6:-1:2] if code == seccomp.BPF_JEQ_K}
    numbers = seccomp.SYSCALLS["x86_64"]
    assert {numbers[n] for n in ("clone", "fork", "execve", "kill", "ptrace", "socket")} <= denied
    assert numbers["capset"] not in denied
    assert len(insns) == 4 + 2 + 2 * len(seccomp.DENIED) + 1 <= 4096
    aarch = seccomp.build_filter("aarch64")  # no fork/vfork/mknod/iopl there, and no x32 check
    assert len(aarch) // 8 == 4 + 2 * sum(n in seccomp.SYSCALLS["aarch64"] for n in seccomp.DENIED) + 1


@pytest.mark.skipif(not seccomp.supported(), reason="no syscall table for this architecture")
def test_seccomp_denies_processes_signals_sockets_but_not_normal_work(tmp_path: Path) -> None:
    def body() -> None:
        seccomp.install()
        for attempt in (os.fork, lambda: socket.socket(), lambda: os.kill(os.getppid(), 0),
                        lambda: os.execv("/bin/true", ["true"])):
            try:
                attempt()
            except PermissionError:
                continue
            raise AssertionError(f"{attempt} was allowed")
        import threading

        with pytest.raises(RuntimeError):
            threading.Thread(target=print).start()
        (tmp_path / "ok.txt").write_text("fine")  # ordinary syscalls still work
        assert os.getpid() > 0

    assert in_forked_child(body) == 0
    assert (tmp_path / "ok.txt").read_text() == "fine"


@pytest.mark.skipif(landlock.abi_version() < 1, reason="Landlock unavailable")
def test_landlock_confines_reads_and_writes(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("secret")

    def body() -> None:
        landlock.restrict([sys.base_prefix, sys.prefix], [str(scratch)])
        (scratch / "a.txt").write_text("mine")
        assert (scratch / "a.txt").read_text() == "mine"
        assert os.__file__ and Path(os.__file__).read_text()[:3]  # the runtime stays readable
        for attempt in (lambda: Path("/etc/passwd").read_text(), lambda: outside.read_text(),
                        lambda: (tmp_path / "new.txt").write_text("x")):
            try:
                attempt()
            except PermissionError:
                continue
            raise AssertionError("Landlock let it through")

    assert in_forked_child(body) == 0
    assert not (tmp_path / "new.txt").exists()


def test_template_runs_without_secrets_and_in_its_own_network_namespace(sandbox_server: SandboxServer) -> None:
    template = sandbox_server.template()
    environ = Path(f"/proc/{template.pid}/environ").read_bytes().split(b"\0")
    names = {e.split(b"=", 1)[0].decode() for e in environ if e}
    assert names <= set(forkserver.template_env())
    if template.info["netns"]:
        assert os.readlink(f"/proc/{template.pid}/ns/net") != os.readlink("/proc/self/ns/net")


def test_active_layers_reports_every_layer(sandbox_server: SandboxServer) -> None:
    layers = sandbox_server.active_layers()
    assert set(layers) == set(interpreter.LAYER_NAMES)
    assert layers["static_checks"] and layers["rlimits"] and layers["env_scrub"]
    assert layers["seccomp"] == seccomp.supported()
    assert layers["landlock"] == (landlock.abi_version() >= 1)
    if os.geteuid() == 0:
        assert layers["netns"]


def test_missing_layers_warn_loudly_once(monkeypatch, sandbox_server: SandboxServer) -> None:
    with Interpreter(server=sandbox_server) as it:
        monkeypatch.setattr(sandbox_server, "_warned_layers", False)
        it.layer_details = {**it.layer_details, "landlock": False}
        with pytest.warns(RuntimeWarning, match="landlock"):
            it._warn_missing_layers()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            it._warn_missing_layers()  # once per server
    other = SandboxServer()  # once per owner: another server warns on its own (no template needed for that)
    with pytest.warns(RuntimeWarning, match="seccomp"):
        other.warn_missing_layers({**it.layers, "seccomp": False})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        other.warn_missing_layers({**it.layers, "netns": False})
        other.warn_missing_layers({**it.layers, "static_checks": False}, static_checks=False)
    other.close()


def test_static_checks_turned_off_are_not_a_missing_layer() -> None:
    server = SandboxServer()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        server.warn_missing_layers({name: name != "static_checks" for name in interpreter.LAYER_NAMES},
                                   static_checks=False)
    with pytest.warns(RuntimeWarning, match="static_checks"):
        server.warn_missing_layers({name: name != "static_checks" for name in interpreter.LAYER_NAMES})
    server.close()


def test_interpreter_process_is_confined(sandbox_server: SandboxServer) -> None:
    with Interpreter(static_checks=False, server=sandbox_server) as it:
        details = it.layer_details
        assert details["caps_dropped"] and details["landlock_abi"] == landlock.abi_version()
        env = it.run("import os\ndict(os.environ)").value
        assert "HOME" in env and str(it.scratch_dir) in env
        assert "PYTHONPATH" not in env and "PYTEST" not in env
        assert it.run("import os\nos.getcwd()").value == repr(str(it.scratch_dir))
        assert it.run("import resource\nresource.getrlimit(resource.RLIMIT_AS)").value == \
            repr((it.limits.memory_bytes, it.limits.memory_bytes))
        status = it.run("import pathlib\npathlib.Path('/proc/self/status').read_text()")
        assert "PermissionError" in status.error  # /proc is outside the allowed paths
