"""The reference's static safety check: allowed imports, forbidden call paths through aliases, dunders."""

from __future__ import annotations

import pytest

from mmtsb.sandbox.static_check import ALLOWED_MODULES, blocked_message, check_code, is_forbidden


@pytest.mark.parametrize("code", [
    "1 + 1",
    "import json\njson.loads('[1]')",
    "import numpy as np\nnp.arange(3).sum()",
    "from PIL import Image\nImage.new('RGB', (2, 2))",
    "import matplotlib.pyplot as plt\nplt.plot([1, 2])",
    "import pathlib\npathlib.Path('a').name",
    "import os\nos.path.join('a', 'b')",
    "from collections import Counter\nCounter('abc')",
    "open = print\n",  # rebinding a builtin name is not a use of the builtin
    "def f(eval):\n    return eval\nf(1)",
    "x = (",  # a syntax error is "safe": it fails at execution
])
def test_allowed_programs_pass(code: str) -> None:
    assert check_code(code) is None


def test_module_message_matches_reference_wording() -> None:
    assert blocked_message("import socket") == \
        "Execution blocked: Usage of the following module(s) is not allowed: socket"
    assert blocked_message("import subprocess, ctypes") == \
        "Execution blocked: Usage of the following module(s) is not allowed: subprocess, ctypes"
    assert "importlib" in blocked_message("from importlib import import_module")
    assert "http.client" in blocked_message("import http.client")
    assert blocked_message("from . import x") is not None  # relative imports name no allowed module


def test_function_message_matches_reference_wording() -> None:
    assert blocked_message("import os\nos.system('id')") == \
        "Execution blocked: Usage of the following function(s) is not allowed: os.system"


@pytest.mark.parametrize("code, name", [
    ("import os as o\no.system('id')", "os.system"),
    ("from os import system as run\nrun('id')", "os.system"),
    ("import os\nf = os.system\n", "os.system"),
    ("g = getattr\ng(1, 'x')", "getattr"),
    ("h = open\nh('/etc/passwd')", "open"),
    ("import pathlib\np = pathlib.Path('x')\np.unlink()", "pathlib.Path.unlink"),
    ("from pathlib import Path\nPath('x').write_text('a')", "pathlib.Path.write_text"),
    ("from pathlib import PosixPath\nPosixPath('x').touch()", "pathlib.Path.touch"),
    ("import pathlib\nwith pathlib.Path('x').open() as f:\n    pass", "pathlib.Path.open"),
    ("import io\nio.open('x')", "io.open"),
    ("import os\nos.execv('/bin/sh', ['sh'])", "os.execv"),
    ("import os\nos.spawnl(0, '/bin/sh')", "os.spawnl"),
    ("import os\nos.posix_spawn('/bin/sh', ['sh'], {})", "os.posix_spawn"),
    ("import os\nos.environ['X']", "os.environ"),
    ("import time\ntime.sleep(1)", "time.sleep"),
    ("import json\njson.load(1)", "json.load"),
    ("import csv\ncsv.DictReader([])", "csv.DictReader"),
    ("import shutil\nshutil.copyfile('a', 'b')", "shutil.copyfile"),
    ("import tempfile\ntempfile.mkdtemp()", "tempfile.mkdtemp"),
    ("import urllib.request\nurllib.request.urlopen('http://x')", "urllib.request.urlopen"),
    ("import matplotlib.pyplot as plt\nplt.show()", "matplotlib.pyplot.show"),
    ("exec('1')", "exec"),
    ("eval('1')", "eval"),
    ("globals()", "globals"),
    ("quit()", "quit"),
    ("import builtins\nbuiltins.open('x')", "open"),
    ("from builtins import open as o\no('x')", "open"),
    ("x = (y := open)", "open"),
])
def test_forbidden_paths_are_resolved(code: str, name: str) -> None:
    msg = blocked_message(code)
    assert msg is not None and msg.startswith("Execution blocked: ")
    functions = msg.split("Usage of the following function(s) is not allowed: ")[1].split("; ")[0]
    assert name in functions.split(", ")


@pytest.mark.parametrize("code, name", [
    ("().__class__", "__class__"),
    ("object.__subclasses__()", "__subclasses__"),
    ("__builtins__", "__builtins__"),
    ("f = lambda: 0\nf.__globals__", "__globals__"),
    ("f = lambda: 0\nf.__code__", "__code__"),
    ("x = 1\nx.__dict__", "__dict__"),
    ("__import__('os')", "__import__"),
])
def test_dunder_access_is_blocked(code: str, name: str) -> None:
    msg = blocked_message(code)
    assert msg is not None and name in msg


def test_several_reasons_are_all_reported() -> None:
    msg = blocked_message("import socket\nimport os\nos.fork()\n().__class__")
    assert "module(s) is not allowed: socket" in msg
    assert "function(s) is not allowed: os.fork" in msg
    assert "__class__" in msg


def test_pathological_nesting_does_not_crash_the_checker() -> None:
    assert check_code("-" * 100_000 + "1") is not None
    assert check_code("[" * 5000 + "]" * 5000) is None  # the parser's own limit: a SyntaxError at run time


def test_allow_list_and_prefixes() -> None:
    assert {"json", "numpy", "PIL", "matplotlib", "os", "pathlib", "math", "re"} <= ALLOWED_MODULES
    assert not {"socket", "subprocess", "ctypes", "importlib", "sys", "threading"} & ALLOWED_MODULES
    assert is_forbidden("os.execvpe") and is_forbidden("shutil.copytree") and is_forbidden("fileinput.input")
    assert not is_forbidden("os.path.join") and not is_forbidden("json.loads")
