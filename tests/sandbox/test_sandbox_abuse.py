"""A corpus of abusive programs: each runs with the static checks on (the reference's behaviour) and off (so
the OS layers alone must hold). In every case the parent and the template survive, the outcome is the expected
one (blocked / error / reset / ok), the abuse leaves no trace, and a following ``1 + 1`` returns "2"."""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from mmtsb.sandbox import ExecResult, Interpreter, SandboxLimits, SandboxServer
from mmtsb.sandbox.interpreter import _wait_exit

CAP = 10_000


@dataclass(frozen=True)
class Abuse:
    """One abusive program; ``{out}`` in the code stands for a path outside the scratch folder."""

    id: str
    code: str
    static: str  # expected outcome(s) with the static checks, e.g. "blocked" or "error|reset"
    runtime: str  # expected outcome(s) with the OS layers only
    check: Callable[[ExecResult, Path], None] | None = None
    wall: float = 1.0


def no_file(res: ExecResult, out: Path) -> None:
    assert not any(out.iterdir()), f"something was written outside the scratch folder: {list(out.iterdir())}"


def no_passwd(res: ExecResult, out: Path) -> None:
    assert "root:" not in f"{res.stdout}{res.value}{res.error}"


def capped(res: ExecResult, out: Path) -> None:
    for text in (res.stdout, res.value, res.error):
        assert text is None or len(text) < CAP + 200


def says(*words: str) -> Callable[[ExecResult, Path], None]:
    def check(res: ExecResult, out: Path) -> None:
        text = f"{res.stdout}{res.value}{res.error}{res.blocked}"
        assert any(w in text for w in words), f"none of {words} in {text[-500:]!r}"
    return check


def frame(obj: object) -> bytes:
    data = json.dumps(obj).encode()
    return struct.pack("!I", len(data)) + data


def write_to_channel(payload: bytes) -> str:
    return (f"import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, {payload!r})\n"
            "    except OSError:\n        pass\n'written'")


CORPUS = [
    # runaway computation
    Abuse("infinite_loop", "while True:\n    pass", "reset", "reset", says("TimeoutError")),
    Abuse("endless_comprehension", "all(True for _ in iter(int, 1))", "reset", "reset", says("TimeoutError")),
    Abuse("deep_recursion", "def f(n):\n    return f(n + 1)\nf(0)", "error", "error", says("RecursionError")),
    Abuse("deep_c_recursion", "a = []\nfor _ in range(200000):\n    a = [a]\nrepr(a)", "error|reset",
          "error|reset"),
    Abuse("sleep", "import time\ntime.sleep(1000)", "blocked", "reset", says("time.sleep", "TimeoutError")),
    # processes and threads
    Abuse("fork", "import os\nos.fork()", "blocked", "error", says("os.fork", "PermissionError")),
    Abuse("fork_bomb", "import os\nwhile True:\n    os.fork()", "blocked", "error", says("PermissionError",
                                                                                       "os.fork")),
    Abuse("multiprocessing", "import multiprocessing\nmultiprocessing.Process(target=print).start()",
          "blocked", "error"),
    Abuse("threading_bomb",
          "import threading\nwhile True:\n    threading.Thread(target=lambda: None).start()", "blocked",
          "error", says("can't start new thread", "threading")),
    Abuse("subprocess", "import subprocess\nsubprocess.run(['touch', '{out}/pwned'])", "blocked", "error",
          no_file),
    Abuse("os_system", "import os\nos.system('touch {out}/pwned')", "blocked", "ok|error", no_file),
    Abuse("os_popen", "import os\nos.popen('touch {out}/pwned').read()", "blocked", "error", no_file),
    Abuse("os_exec", "import os\nos.execv('/usr/bin/touch', ['touch', '{out}/pwned'])", "blocked", "error",
          no_file),
    Abuse("posix_spawn", "import os\nos.posix_spawn('/usr/bin/touch', ['touch', '{out}/pwned'], {{}})",
          "blocked", "error", no_file),
    # memory and output
    Abuse("memory_bytearray", "bytearray(10**10)", "error", "error", says("MemoryError")),
    Abuse("memory_list_growth", "x = []\nwhile True:\n    x.append(bytearray(10**7))", "error|reset",
          "error|reset", says("MemoryError", "InterpreterDied"), wall=10),
    Abuse("output_flood_loop", "for i in range(200000):\n    print('x' * 500)", "ok|reset", "ok|reset",
          capped, wall=10),
    Abuse("output_flood_single", "print('x' * (100 * 2**20))", "ok", "ok", capped, wall=10),
    Abuse("huge_value", "'y' * (200 * 2**20)", "ok", "ok", capped, wall=10),
    Abuse("huge_error", "raise ValueError('e' * 10**7)", "error", "error", capped),
    Abuse("file_size_bomb", "import pathlib\n[pathlib.Path('big.bin')][0].write_bytes(b'x' * (100 * 2**20))",
          "error", "error", says("File too large")),
    # files
    Abuse("read_passwd_open", "open('/etc/passwd').read()", "blocked", "error", no_passwd),
    Abuse("read_passwd_pathlib", "import pathlib\npathlib.Path('/etc/passwd').read_text()", "error", "error",
          no_passwd),
    Abuse("read_passwd_io", "import io\nio.open('/etc/passwd').read()", "blocked", "error", no_passwd),
    Abuse("read_passwd_getattr", "g = getattr\ng(__builtins__, 'open')('/etc/passwd').read()", "blocked",
          "error", no_passwd),
    Abuse("read_via_symlink", "import os, pathlib\nos.symlink('/etc/passwd', 'link')\n"
                              "pathlib.Path('link').read_text()", "error", "error", no_passwd),
    Abuse("read_proc_environ", "import pathlib\npathlib.Path('/proc/self/environ').read_text()", "error",
          "error", says("PermissionError")),
    Abuse("write_outside_open", "open('{out}/pwned', 'w').write('x')", "blocked", "error", no_file),
    Abuse("write_outside_pathlib", "import pathlib\n[pathlib.Path('{out}/pwned')][0].write_text('x')",
          "error", "error", no_file),
    Abuse("environment", "import os\ndict(os.environ)", "blocked", "ok", says("os.environ", "C.UTF-8")),
    # network
    Abuse("socket", "import socket\nsocket.create_connection(('127.0.0.1', 9))", "blocked", "error",
          says("socket", "PermissionError")),
    Abuse("urllib_urlopen", "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:9/')", "blocked",
          "error"),
    Abuse("urllib_opener", "import urllib.request\nurllib.request.build_opener().open('http://127.0.0.1:9/')",
          "error", "error", says("Operation not permitted", "PermissionError")),
    Abuse("http_client", "import http.client\nhttp.client.HTTPConnection('127.0.0.1', 9).request('GET', '/')",
          "blocked", "error"),
    # signals and other processes
    Abuse("kill_parent", "import os\nos.kill(os.getppid(), 9)", "blocked", "error", says("PermissionError",
                                                                                       "os.kill")),
    Abuse("killpg", "import os\nos.killpg(0, 9)", "blocked", "error"),
    Abuse("signal_module", "import signal\nsignal.raise_signal(signal.SIGKILL)", "blocked", "error"),
    Abuse("ctypes_kill", "import ctypes\nctypes.CDLL(None).kill(0, 9)", "blocked", "ok",
          says("-1", "ctypes")),
    Abuse("ctypes_ptrace", "import ctypes, os\nctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0)", "blocked",
          "ok", says("-1", "ctypes")),
    Abuse("ctypes_segfault", "import ctypes\nctypes.string_at(0)", "blocked", "reset",
          says("SIGSEGV", "ctypes")),
    # import and introspection tricks
    Abuse("importlib",
          "import importlib\nimportlib.import_module('subprocess').run(['touch', '{out}/pwned'])", "blocked",
          "error", no_file),
    Abuse("dunder_import", "__builtins__.__import__('os').system('touch {out}/pwned')", "blocked", "ok|error",
          no_file),
    Abuse("globals_builtins", "globals()['__builtins__']", "blocked", "ok"),
    Abuse("subclasses_walk", "().__class__.__base__.__subclasses__()", "blocked", "ok"),
    Abuse("exec_string", "exec('import subprocess')", "blocked", "ok"),
    # leaving
    Abuse("sys_exit", "import sys\nsys.exit(1)", "blocked", "error", says("SystemExit", "sys")),
    Abuse("raise_system_exit", "raise SystemExit(0)", "error", "error", says("SystemExit")),
    Abuse("keyboard_interrupt", "raise KeyboardInterrupt", "error", "error", says("KeyboardInterrupt")),
    Abuse("os_exit", "import os\nos._exit(0)", "blocked", "reset", says("os._exit", "exited with code 0")),
    Abuse("close_all_fds", "import os\nos.closerange(0, 1000)", "reset", "reset", says("InterpreterDied")),
    Abuse("close_fds_loop", "import os\nfor fd in range(100):\n    try:\n        os.close(fd)\n"
                            "    except OSError:\n        pass", "blocked", "reset"),
    # lying to the parent over the channel
    Abuse("forged_huge_frame", write_to_channel(b"\xff\xff\xff\xff"), "blocked", "reset", says("SandboxError",
                                                                                               "os.write")),
    Abuse("forged_garbage_frame", write_to_channel(b"\x00\x00\x00\x03abc"), "blocked", "reset"),
]


def outcome(res: ExecResult) -> str:
    if res.blocked:
        return "blocked"
    if res.reset:
        return "reset"
    return "error" if res.error else "ok"


@pytest.mark.parametrize("static", [True, False], ids=["static", "os-only"])
@pytest.mark.parametrize("case", CORPUS, ids=[c.id for c in CORPUS])
def test_abuse_is_contained(case: Abuse, static: bool, tmp_path: Path, sandbox_server: SandboxServer) -> None:
    out = tmp_path / "outside"
    out.mkdir()
    template = sandbox_server.template()
    limits = SandboxLimits(wall_seconds=case.wall, cpu_seconds=30, output_chars=CAP)
    with Interpreter(limits=limits, static_checks=static, server=sandbox_server) as it:
        assert it.run("marker = 42").ok
        res = it.run(case.code.format(out=out))
        expected = (case.static if static else case.runtime).split("|")
        assert outcome(res) in expected, f"{case.id}: got {outcome(res)}: {res}"
        if case.check is not None:
            case.check(res, out)
        no_file(res, out)
        assert sandbox_server.template() is template and template.alive(), "the template died"
        after = it.run("1 + 1")
        assert after.value == "2" and after.ok, after
        survived = it.run("marker")
        if res.reset:
            assert "NameError" in survived.error
        else:
            assert survived.value == "42"


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 25


def test_forged_tool_call_for_an_unknown_tool_is_refused(sandbox_server: SandboxServer) -> None:
    calls: list[str] = []

    def handler(name: str, args: dict) -> object:
        calls.append(name)
        raise AssertionError("never called")

    code = write_to_channel(frame({"op": "call", "tool": "delete_everything", "args": {}}))
    with Interpreter(tools={"harmless": None}, tool_handler=handler, static_checks=False,
                     server=sandbox_server) as it:
        assert it.run(code).value == "'written'"
        assert it.run("1 + 1").value == "2"  # the stray reply is skipped, the protocol stays in step
    assert calls == []


def test_forged_results_are_ignored(sandbox_server: SandboxServer) -> None:
    forged = frame({"op": "done", "stdout": 5, "value": {"x": 1}, "images": 7, "error": None, "cpu_s": 1e300})
    with Interpreter(static_checks=False, server=sandbox_server) as it:
        res = it.run(write_to_channel(forged))
        assert res.value == "'written'" and res.stdout == "" and res.images == []
        assert it.run("1 + 1").value == "2"
        assert it.child_cpu_s <= it.limits.cpu_seconds_total + 1  # a forged CPU figure stays plausible


def test_parent_secrets_never_reach_the_interpreter(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-123")
    with SandboxServer() as server, Interpreter(static_checks=False, server=server) as it:
        # the template started from this environment
        env = it.run("import os\ndict(os.environ)").value
        assert "sk-canary" not in env and "OPENAI_API_KEY" not in env
        template_env = Path(f"/proc/{server.template().pid}/environ").read_bytes()
        assert b"sk-canary" not in template_env


def test_template_death_is_survived(sandbox_server: SandboxServer) -> None:
    server = sandbox_server
    with Interpreter(server=server) as it:
        it.run("kept = 1")
        old = server.template()
        os.kill(old.pid, 9)
        old.proc.wait(5)
        assert _wait_exit(it._state.child.pidfd, 5)  # its interpreter died with it (PDEATHSIG)
        res = it.run("1 + 1")  # a fresh template and interpreter answer
        assert res.value == "2" and res.reset
        assert server.template() is not old
        with Interpreter(server=server) as other:
            assert other.run("2 + 2").value == "4"
