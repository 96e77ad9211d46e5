"""Normal use of the sandboxed interpreter: REPL semantics, tracebacks, limits, and tools proxied to a real
ToolSession."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

from mmtsb.sandbox import ExecResult, Interpreter, SandboxLimits, forkserver
from mmtsb.tools.session import ToolError, ToolOutcome

FAST = SandboxLimits(wall_seconds=2.0, cpu_seconds=2)


@pytest.fixture
def interp() -> Iterator[Interpreter]:
    with Interpreter(limits=FAST) as it:
        yield it


@pytest.fixture
def tooled(session) -> Iterator[Interpreter]:
    """An interpreter whose tools are the full registry, proxied to a real ToolSession."""
    with Interpreter(tools=list(session.registry), tool_handler=lambda name, args: session.call(name, args),
                     limits=FAST) as it:
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


def test_output_and_value_are_capped() -> None:
    with Interpreter(limits=SandboxLimits(output_chars=100, wall_seconds=5)) as it:
        res = it.run("print('x' * 1000)\n'y' * 5000")
        assert res.stdout.startswith("x" * 100) and "output truncated: 901 more characters" in res.stdout
        assert res.value.startswith("'" + "y" * 99) and "value truncated" in res.value
        assert len(res.stdout) < 200 and len(res.value) < 200
        err = it.run("raise ValueError('e' * 10_000)")
        assert len(err.error) < 400 and "error truncated" in err.error


def test_timeout_resets_the_interpreter_and_says_so() -> None:
    with Interpreter(limits=SandboxLimits(wall_seconds=0.5)) as it:
        it.run("kept = 1")
        pid = it.pid
        res = it.run("while True:\n    pass")
        assert res.timed_out and res.reset and "TimeoutError" in res.error and "restarted" in res.error
        assert 0.5 <= res.duration < 3 and it.pid != pid and it.restarts == 1
        assert "NameError" in it.run("kept").error
        assert it.run("1 + 1").value == "2"


def test_cpu_limit_is_enforced_by_the_kernel() -> None:
    with Interpreter(limits=SandboxLimits(wall_seconds=20, cpu_seconds=1)) as it:
        res = it.run("while True:\n    pass")
        assert res.reset and not res.timed_out and "CPU time limit exceeded" in res.error
        assert res.duration < 10
        assert it.run("1 + 1").value == "2"


def test_memory_limit_is_enforced_by_the_kernel() -> None:
    with Interpreter(limits=SandboxLimits(memory_bytes=400 * 2**20)) as it:
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


def test_close_kills_the_process_and_removes_the_scratch_folder() -> None:
    it = Interpreter()
    scratch, pidfd = it.scratch_dir, it._state.child.pidfd
    assert scratch.is_dir()
    it.close()
    assert it.closed and not scratch.exists()
    with pytest.raises(RuntimeError, match="closed"):
        it.run("1")
    it.close()  # idempotent
    assert pidfd >= 0


def test_given_scratch_dir_is_kept(tmp_path) -> None:
    with Interpreter(scratch_dir=tmp_path / "work") as it:
        it.run("import numpy as np\nnp.save('keep.npy', np.zeros(2))")
    assert (tmp_path / "work" / "keep.npy").exists()


def test_explicit_reset_and_seed() -> None:
    with Interpreter(seed=7) as a, Interpreter(seed=7) as b, Interpreter() as c, Interpreter() as d:
        code = "import random\nimport numpy as np\n(random.random(), float(np.random.rand()))"
        assert a.run(code).value == b.run(code).value
        assert c.run(code).value != d.run(code).value  # unseeded: not the template's shared state
        a.run("z = 1")
        a.reset()
        assert "NameError" in a.run("z").error


def test_interpreters_run_concurrently_from_threads() -> None:
    results: dict[int, str | None] = {}

    def work(i: int) -> None:
        with Interpreter() as it:
            results[i] = it.run(f"sum(range({i} * 1000))").value

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: str(sum(range(i * 1000))) for i in range(4)}


def test_start_is_cheap_once_the_template_is_warm() -> None:
    forkserver.get_template()
    with Interpreter() as it:
        assert it.start_seconds < 2.0  # milliseconds in practice; generous for a loaded CI machine
        assert it.run("1 + 1").value == "2"


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


def test_tool_bridge_error_types_and_dynamic_tools() -> None:
    handler = FakeHandler()
    with Interpreter(tools={"echo": ["a", "b"], "fail": None}, tool_handler=handler,
                     limits=SandboxLimits(wall_seconds=0.5)) as it:
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


def test_tool_calls_per_run_are_capped() -> None:
    handler = FakeHandler()
    limits = SandboxLimits(max_tool_calls=5)
    with Interpreter(tools={"echo": ["a"]}, tool_handler=handler, limits=limits) as it:
        res = it.run("n = 0\ntry:\n    while True:\n        echo(n)\n        n += 1\n"
                     "except RuntimeError as e:\n    print(e)\nn")
        assert res.value == "5" and "the limit per run" in res.stdout and len(handler.calls) == 5
        assert it.run("echo(1)['args']").value == "{'a': 1}"  # the budget is per run
