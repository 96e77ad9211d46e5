"""Normal use of the sandboxed interpreter: REPL semantics, tracebacks, limits, and tools proxied to a real
ToolSession."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

from mmtsb.sandbox import ExecResult, Interpreter, SandboxLimits, SandboxServer
from mmtsb.sandbox.interpreter import _wait_exit
from mmtsb.tools.session import ToolError, ToolOutcome

FAST = SandboxLimits(wall_seconds=2.0, cpu_seconds=2)


@pytest.fixture
def interp(sandbox_server: SandboxServer) -> Iterator[Interpreter]:
    with Interpreter(limits=FAST, server=sandbox_server) as it:
        yield it


@pytest.fixture
def tooled(session, sandbox_server: SandboxServer) -> Iterator[Interpreter]:
    """An interpreter whose tools are the full registry, proxied to a real ToolSession."""
    with Interpreter(tools=list(session.registry), tool_handler=lambda name, args: session.call(name, args),
                     limits=FAST, server=sandbox_server) as it:
        yield it


def test_repl_keeps_state_and_returns_stdout_and_value(interp: Interpreter) -> None:
    first = interp.run("x = 20\nprint('hello')\nx + 1")
    assert (first.stdout, first.value, first.error, first.blocked, first.reset) == \
        ("hello\n", "21", None, None, False)
    assert first.ok and first.duration > 0
    assert interp.run("def double(v):\n    return 2 * v\ndouble(x)").value == "40"
    assert interp.run("x = None\nx").value is None  # a None value shows nothing, as in a REPL
    assert interp.run("'text'").value == "'text'"
    assert interp.run("import math\nmath.sqrt(16)").value == "4.0"
    assert interp.run("math.pi > 3").value == "True"  # imports persist too
    assert interp.run("json.dumps({'a': 1})").value == "'{\"a\": 1}'"  # json is preloaded


def test_statements_only_and_result_variable(interp: Interpreter) -> None:
    quiet = interp.run("y = 3")
    assert quiet.value is None and quiet.stdout == ""
    assert quiet.to_text() == "Code executed successfully (no output)"
    res = interp.run("result = {'total': 7}")
    assert res.result_var == "{'total': 7}" and res.to_text() == "result = {'total': 7}"
    assert interp.run("print('a')\n5").to_text() == "a\n5"


def test_exceptions_give_short_tracebacks_of_the_agents_code(interp: Interpreter) -> None:
    res = interp.run("a = 1\nb = 0\na / b")
    assert res.value is None and not res.ok and not res.reset
    assert res.error.startswith("Traceback (most recent call last):")
    assert 'File "<cell-1>", line 3' in res.error and "a / b" in res.error
    assert res.error.endswith("ZeroDivisionError: division by zero")
    assert "mmtsb" not in res.error and "child.py" not in res.error
    assert res.to_text().startswith("Error: Traceback")
    deep = interp.run("def f(n):\n    return f(n + 1)\nf(0)")
    assert deep.error.count('File "') == 3 and "RecursionError" in deep.error
    syntax = interp.run("x = (")
    assert syntax.error.startswith('  File "<cell-')
    assert syntax.error.endswith("SyntaxError: '(' was never closed")
    assert "ast.py" not in syntax.error
    assert interp.run("a").value == "1"  # the interpreter survived all of it


def test_output_and_value_are_capped(sandbox_server: SandboxServer) -> None:
    with Interpreter(limits=SandboxLimits(output_chars=100, wall_seconds=5), server=sandbox_server) as it:
        res = it.run("print('x' * 1000)\n'y' * 5000")
        assert res.stdout.startswith("x" * 100) and "output truncated: 901 more characters" in res.stdout
        assert res.value.startswith("'" + "y" * 99) and "value truncated" in res.value
        assert len(res.stdout) < 200 and len(res.value) < 200
        err = it.run("raise ValueError('e' * 10_000)")
        assert len(err.error) < 400 and "error truncated" in err.error


def test_timeout_resets_the_interpreter_and_says_so(sandbox_server: SandboxServer) -> None:
    with Interpreter(limits=SandboxLimits(wall_seconds=0.5), server=sandbox_server) as it:
        it.run("kept = 1")
        pid = it.pid
        res = it.run("while True:\n    pass")
        assert res.timed_out and res.reset and "TimeoutError" in res.error and "restarted" in res.error
        assert 0.5 <= res.duration < 3 and it.pid != pid and it.restarts == 1
        assert "NameError" in it.run("kept").error
        assert it.run("1 + 1").value == "2"


def test_cpu_limit_is_enforced_by_the_kernel(sandbox_server: SandboxServer) -> None:
    with Interpreter(limits=SandboxLimits(wall_seconds=20, cpu_seconds=1), server=sandbox_server) as it:
        res = it.run("while True:\n    pass")
        assert res.reset and not res.timed_out and "CPU time limit exceeded" in res.error
        assert res.duration < 10
        assert res.cpu_s >= 1.0 and it.child_cpu_s >= 1.0  # the killed process counts, as the kernel counted it
        assert it.run("1 + 1").value == "2"


def test_memory_limit_is_enforced_by_the_kernel(sandbox_server: SandboxServer) -> None:
    with Interpreter(limits=SandboxLimits(memory_bytes=400 * 2**20), server=sandbox_server) as it:
        assert it.run("len(bytearray(100 * 2**20))").value == str(100 * 2**20)
        res = it.run("big = bytearray(600 * 2**20)")
        assert "MemoryError" in res.error and not res.reset
        assert it.run("1 + 1").value == "2"


def test_scratch_folder_is_writable_and_plots_work(interp: Interpreter) -> None:
    res = interp.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig('plot.png')\n"
                     "from PIL import Image\nImage.open('plot.png').size")
    assert res.ok, res.error
    assert (interp.scratch_dir / "plot.png").stat().st_size > 0
    assert interp.run("import numpy as np\nnp.save('a.npy', np.arange(3))\nnp.load('a.npy').tolist()").value \
        == "[0, 1, 2]"


def test_close_kills_the_process_and_removes_the_scratch_folder(sandbox_server: SandboxServer) -> None:
    it = Interpreter(server=sandbox_server)
    scratch, pidfd = it.scratch_dir, it._state.child.pidfd
    assert scratch.is_dir()
    it.close()
    assert it.closed and not scratch.exists()
    with pytest.raises(RuntimeError, match="closed"):
        it.run("1")
    it.close()  # idempotent
    assert pidfd >= 0


def test_given_scratch_dir_is_kept(tmp_path, sandbox_server: SandboxServer) -> None:
    with Interpreter(scratch_dir=tmp_path / "work", server=sandbox_server) as it:
        it.run("import numpy as np\nnp.save('keep.npy', np.zeros(2))")
    assert (tmp_path / "work" / "keep.npy").exists()


def test_explicit_reset_and_seed(sandbox_server: SandboxServer) -> None:
    server = sandbox_server
    with Interpreter(seed=7, server=server) as a, Interpreter(seed=7, server=server) as b, \
            Interpreter(server=server) as c, Interpreter(server=server) as d:
        code = "import random\nimport numpy as np\n(random.random(), float(np.random.rand()))"
        assert a.run(code).value == b.run(code).value
        assert c.run(code).value != d.run(code).value  # unseeded: not the template's shared state
        a.run("z = 1")
        a.reset()
        assert "NameError" in a.run("z").error


def test_interpreters_run_concurrently_from_threads(sandbox_server: SandboxServer) -> None:
    results: dict[int, str | None] = {}

    def work(i: int) -> None:
        with Interpreter(server=sandbox_server) as it:
            results[i] = it.run(f"sum(range({i} * 1000))").value

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: str(sum(range(i * 1000))) for i in range(4)}


def test_a_start_forks_the_warm_template_instead_of_starting_one(sandbox_server: SandboxServer) -> None:
    """How fast that is, is measured by benchmarks/sandbox_start.py."""
    template = sandbox_server.template()
    with Interpreter(server=sandbox_server) as first, Interpreter(server=sandbox_server) as second:
        assert first.run("1 + 1").value == "2" and second.run("2 + 2").value == "4"
        for it in (first, second):  # both forked by the one running template, which is still the same
            assert parent_pid(it.pid) == template.pid
        assert sandbox_server.template() is template and sandbox_server.template_pid == template.pid
        assert first.start_seconds > 0


def parent_pid(pid: int) -> int:
    """The parent process id, from /proc/<pid>/stat (field 4, after the command name in parentheses)."""
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def test_without_a_server_an_interpreter_owns_a_private_one_whose_close_closes_the_others() -> None:
    it = Interpreter()
    server = it.server
    assert it.run("1 + 1").value == "2" and parent_pid(it.pid) == server.template_pid
    other = Interpreter(server=server)
    template, watch, scratch = server.template(), os.dup(other._state.child.pidfd), other.scratch_dir
    it.close()  # stops its private server, which closes every interpreter made with it
    try:
        assert _wait_exit(watch, 5), "an interpreter's process outlived its server"
    finally:
        os.close(watch)
    assert server.closed and other.closed and not scratch.exists() and template.proc.poll() is not None
    with pytest.raises(RuntimeError, match="closed"):
        other.run("1")
    with pytest.raises(RuntimeError, match="SandboxServer is closed"):
        Interpreter(server=server)
    server.close()  # idempotent


def test_child_cpu_is_counted_per_run_and_in_total(sandbox_server: SandboxServer) -> None:
    with Interpreter(server=sandbox_server) as it:
        started = it.child_cpu_s
        assert started > 0  # its start (confinement) ran in the child
        busy = it.run("n = 0\nfor i in range(300_000):\n    n += i\nn")
        assert busy.value == str(sum(range(300_000))) and busy.cpu_s > 0
        assert it.child_cpu_s == pytest.approx(started + busy.cpu_s)
        assert it.run("open('/etc/passwd')").cpu_s == 0  # blocked: nothing ran
        before = it.child_cpu_s
    assert it.child_cpu_s >= before  # the process, ended at close, as the kernel counted it
    total = it.child_cpu_s
    usage = sandbox_server.cpu()
    assert usage.template_s > 0 and usage.interpreters_s >= total - 0.05


def test_a_fork_of_the_owner_leaves_the_owners_template_and_interpreters_alone(sandbox_server: SandboxServer) -> None:
    with Interpreter(server=sandbox_server) as it:
        template = sandbox_server.template()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the forked child: never talks to, signals or stops what the owner holds
            code = 1
            try:
                os.close(read)
                ok = not template.alive()  # so a fork would start a template of its own
                ok = ok and template.exit_status(it.pid) == (None, None)  # and never uses the owner's socket
                sandbox_server.close()
                it.close()
                code = 0 if ok else 1
            finally:
                os._exit(code)
        os.close(write)
        os.close(read)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert template.alive() and sandbox_server.template() is template and not sandbox_server.closed
        assert it.run("1 + 1").value == "2" and not it.closed


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="wall_seconds"):
        SandboxLimits(wall_seconds=0)
    with pytest.raises(ValueError, match="memory_bytes"):
        SandboxLimits(memory_bytes=2**20)
    with pytest.raises(ValueError, match="tool_handler"):
        Interpreter(tools=["x"])
    with pytest.raises(ValueError, match="identifier"):
        Interpreter(tools={"not valid": None}, tool_handler=lambda n, a: None)


def test_exec_result_text_rendering() -> None:
    assert ExecResult(blocked="Execution blocked: x").to_text() == "Execution blocked: x"
    assert ExecResult(stdout="out\n", error="Traceback...\nValueError: v").to_text() == \
        "out\nError: Traceback...\nValueError: v"
    assert ExecResult(stdout="", value="3").to_text() == "3"
    assert ExecResult(value="3", reset=True).to_text().startswith("[The Python interpreter was restarted")


# --- tools --------------------------------------------------------------------------------------------


def test_tool_call_reaches_the_world(tooled: Interpreter, session) -> None:
    res = tooled.run("r = simple_note_create_note(title='Groceries', content='milk, eggs')\n"
                     "print(r['message'])\nr")
    assert res.ok, res.error
    assert res.stdout == "Note created.\n" and res.tool_calls == 1
    rows = session.world.select("simple_note.notes", "title = ?", ["Groceries"])
    assert len(rows) == 1 and rows[0]["content"] == "milk, eggs"
    assert eval(res.value)["note_id"] == rows[0]["id"]
    positional = tooled.run("simple_note_create_note('Todo', 'call mum')['note_id']")
    assert positional.ok and session.world.get("simple_note.notes", int(positional.value))["title"] == "Todo"
    assert session.history[-1].tool == "simple_note_create_note"


def test_failing_tool_raises_the_same_exception_inside(tooled: Interpreter) -> None:
    caught = tooled.run("try:\n    simple_note_show_note(note_id=99999)\nexcept ValueError as e:\n"
                        "    print('caught:', e)")
    assert caught.ok and caught.stdout.startswith("caught: API error:") and "99999" in caught.stdout
    uncaught = tooled.run("simple_note_show_note(note_id=99999)")
    assert uncaught.error.endswith("ValueError: API error: Note with note_id=99999 does not exist.")
    assert "mmtsb" not in uncaught.error and uncaught.error.count('File "') == 1
    bad_args = tooled.run("simple_note_show_note(nope=1)")
    assert "TypeError: Tool 'simple_note_show_note' has no parameter(s) 'nope'" in bad_args.error
    too_many = tooled.run("simple_note_show_note(1, 2)")
    assert "TypeError: simple_note_show_note() takes at most 1 positional argument(s)" in too_many.error
    not_json = tooled.run("simple_note_create_note(title='t', content=object())")
    assert "JSON-serialisable" in not_json.error and not_json.tool_calls == 0


def test_image_results_round_trip(tooled: Interpreter, session) -> None:
    image_id = session.world.images.add_pil(Image.new("RGB", (200, 100), "red"))
    res = tooled.run(f"crop = crop_image({image_id}, 0, 0, 500, 500)\nprint(crop)\nget_image_size(crop)")
    assert res.ok, res.error
    new_id = len(session.world.images) - 1
    assert res.stdout == f"ImageResult(image_id={new_id})\n" and res.value == "[100, 50]"
    assert res.images == [new_id]  # returned by a tool during the run
    shown = tooled.run("[crop, crop.image_id]")
    assert shown.value == f"[ImageResult(image_id={new_id}), {new_id}]" and shown.images == [new_id]


class FakeHandler:
    """A tool handler with scripted outcomes (to test the bridge without a World)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, name: str, args: dict[str, Any]) -> Any:
        self.calls.append((name, args))
        if name == "echo":
            return ToolOutcome(name, args, value={"args": args, "tuple": (1, 2), "set": {3}})
        if name == "slow":
            time.sleep(0.8)
            return SimpleNamespace(ok=True, value="done", error=None, images=[])
        if name == "broken":
            raise RuntimeError("handler bug")
        return ToolOutcome(name, args, error=ToolError(args.get("kind", "UnknownToolError"), "it failed"))


def test_tool_bridge_error_types_and_dynamic_tools(sandbox_server: SandboxServer) -> None:
    handler = FakeHandler()
    with Interpreter(tools={"echo": ["a", "b"], "fail": None}, tool_handler=handler,
                     limits=SandboxLimits(wall_seconds=0.5), server=sandbox_server) as it:
        assert it.run("echo(1, b=[2])").value == "{'args': {'a': 1, 'b': [2]}, 'tuple': [1, 2], 'set': [3]}"
        assert handler.calls[-1] == ("echo", {"a": 1, "b": [2]})
        generic = it.run("try:\n    fail(kind='UnknownToolError')\nexcept ToolCallError as e:\n"
                         "    print(type(e).__name__, e)")
        assert generic.stdout == "UnknownToolError it failed\n"
        for kind in ("PermissionError", "ConnectionError", "KeyError", "LookupError", "TypeError"):
            assert it.run(f"fail(kind='{kind}')").error.splitlines()[-1].startswith(kind)
        assert "keyword arguments only" in it.run("fail(1)").error
        assert "NameError" in it.run("slow()").error
        it.add_tools({"slow": [], "broken": []})
        res = it.run("slow()")  # 0.8 s in the tool does not count against the 0.5 s budget
        assert res.value == "'done'" and not res.timed_out
        assert it.run("broken()").error.endswith("RuntimeError: handler bug")
        it.remove_tools(["slow"])
        assert "NameError: name 'slow' is not defined" in it.run("slow()").error
        assert it.tool_names == ["echo", "fail", "broken"]


def test_tool_calls_per_run_are_capped(sandbox_server: SandboxServer) -> None:
    handler = FakeHandler()
    limits = SandboxLimits(max_tool_calls=5)
    with Interpreter(tools={"echo": ["a"]}, tool_handler=handler, limits=limits, server=sandbox_server) as it:
        res = it.run("n = 0\ntry:\n    while True:\n        echo(n)\n        n += 1\n"
                     "except RuntimeError as e:\n    print(e)\nn")
        assert res.value == "5" and "the limit per run" in res.stdout and len(handler.calls) == 5
        assert it.run("echo(1)['args']").value == "{'a': 1}"  # the budget is per run
