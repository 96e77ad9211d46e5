"""``mmtsb scenarios validate`` and ``gold-check`` on a corpus of broken files the test makes from a shipped
scenario (wrong types, missing and out-of-range fields, bad bytes, deep nesting, broken specs, escaping image
paths): every file is refused with a message naming its field, none crashes the command, and the good file
among them is still checked."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mmtsb.config.paths import find_project_root

ROOT = find_project_root()
BASE = ROOT / "scenarios" / "nominal" / "mmtsb_nominal_001.json"

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: tuple[Any, ...], value: Any) -> Mutation:
    def apply(d: dict[str, Any]) -> dict[str, Any]:
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return d
    return apply


def _drop(key: str) -> Mutation:
    return lambda d: {k: v for k, v in d.items() if k != key}


WRONG_VALUES: list[Any] = [None, 12345, True, 1.5, "text", [], {}, [1, 2]]


def corpus() -> list[tuple[str, Mutation | bytes]]:
    """(name, mutation or raw bytes): every one of them is an invalid scenario file."""
    out: list[tuple[str, Mutation | bytes]] = []
    for key in ("name", "device_state_id", "reference_time", "messages"):
        out.append((f"missing_{key}", _drop(key)))
    typed = {"name": [None, 12345, [], {}], "device_state_id": [None, 12345, "no-at-sign", []],
             "reference_time": [None, 12345, True, "yesterday", [], {}], "messages": [None, [], "text", {}, [1, 2]],
             "max_messages": [None, True, 1.5, "text", 0, -3, []], "image_paths": [None, "a.png", 12345, {}, [1]],
             "entity_diff_specs": [None, "text", 12345, {}, [1, 2]], "appworld_entities": [None, "text", [], 5],
             "agentsandbox_entities": [None, "text", [], 5], "task_completion_criteria": [None, 12345, []],
             "metadata": ["text", 12345, []], "categories": ["text", 12345, {}]}
    for key, values in typed.items():
        out += [(f"{key}_{i}", _set((key,), v)) for i, v in enumerate(values)]
    spec = ("entity_diff_specs", 0)
    out += [(f"spec_operation_{i}", _set((*spec, "operation"), v)) for i, v in enumerate(["explode", None, 7])]
    out += [(f"spec_table_{i}", _set((*spec, "table"), v)) for i, v in enumerate(["no_such.table", None, 7])]
    out += [(f"spec_entity_data_{i}", _set((*spec, "entity_data"), v)) for i, v in enumerate(["x", 7, [1]])]
    # (a spec column the table lacks is a warning, as the reference plays such files: test_spec_columns.py)
    out += [(f"spec_measure_{i}", _set((*spec, "column_similarity_measure", "title"), v))
            for i, v in enumerate(["no_such_measure", 7])]
    msg = ("messages", 0)
    out += [(f"message_sender_{i}", _set((*msg, "sender"), v)) for i, v in enumerate(["ROBOT", None, 5])]
    out += [(f"message_content_{i}", _set((*msg, "content"), v)) for i, v in enumerate([None, 5, []])]
    out += [(f"image_path_{i}", _set(("image_paths", 0), v))
            for i, v in enumerate(["/etc/passwd", "../../../../etc/hostname", "images/missing.png"])]
    out += [(f"message_recipient_{i}", _set((*msg, "recipient"), v)) for i, v in enumerate(["NOBODY", None, 5])]
    out += [(f"message_image_ids_{i}", _set(("messages", 1, "image_ids"), v))
            for i, v in enumerate(["x", [99], [-1], {}])]
    out += [(f"expected_tools_{i}", _set(("metadata", "expected_tools"), v))
            for i, v in enumerate(["x", [5]])]  # (a name outside the toolbox is a warning, by design)
    out += [(f"taxonomy_{i}", _set(("metadata", "scenario_metadata", key), v))
            for i, (key, v) in enumerate([("num_images", "many"), ("num_user_rounds", [])])]
    out += [(f"spec_source_{i}", _set((*spec, "source"), v)) for i, v in enumerate(["nowhere", 7])]
    out += [("spec_missing_operation", lambda d: {**d, "entity_diff_specs": [
        {k: v for k, v in d["entity_diff_specs"][0].items() if k != "operation"}]}),
        ("spec_update_without_id", _set(("entity_diff_specs",), [{"operation": "update", "source": "appworld",
                                                                   "table": "simple_note.notes",
                                                                   "expected_fields": {"title": "x"}}])),
        ("spec_delete_unknown_table", _set(("entity_diff_specs",), [{"operation": "delete", "source": "appworld",
                                                                      "table": "no_such.table", "entity_id_column": "id",
                                                                      "entity_id_value": 1}]))]
    out += [("entity_row_not_object", _set(("appworld_entities", "phone.contacts", 0), "x")),
            ("unknown_entity_table", _set(("appworld_entities", "no_such.table"), [{"id": 1}]))]
    raw: list[tuple[str, bytes]] = [("not_utf8", b"\xff\xfe{\"name\": 1}"), ("empty_file", b""),
                                    ("truncated", BASE.read_bytes()[:500]), ("json_list", b"[1, 2, 3]"),
                                    ("json_string", b"\"a scenario\""), ("nested_deep", b"[" * 20000 + b"]" * 20000),
                                    ("nested_object", b"{\"a\":" * 3000 + b"1" + b"}" * 3000), ("nul_bytes", b"\x00" * 64)]
    return out + raw


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "images").symlink_to(BASE.parent / "images")
    base = json.loads(BASE.read_text())
    for name, mutation in corpus():
        path = root / f"{name}.json"
        if isinstance(mutation, bytes):
            path.write_bytes(mutation)
        else:
            path.write_text(json.dumps(mutation(copy.deepcopy(base))))
    (root / "good.json").write_text(BASE.read_text())
    return root


def mmtsb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_the_corpus_is_large_enough():
    assert len(corpus()) >= 100


def test_validate_refuses_every_broken_file_and_checks_the_good_one(folder):
    proc = mmtsb("scenarios", "validate", "--json", str(folder))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    reports = {Path(r["file"]).stem: r for r in json.loads(proc.stdout)}
    assert len(reports) == len(corpus()) + 1 and reports["good"]["ok"], reports["good"]
    accepted = sorted(name for name, r in reports.items() if r["ok"] and name != "good")
    assert accepted == [], accepted
    for name, r in reports.items():
        if name != "good":
            assert r["errors"] or r["missing_tools"], name
    # the message names the field
    assert any(e.startswith("reference_time") for e in reports["reference_time_1"]["errors"])
    assert any(e.startswith("max_messages") for e in reports["max_messages_1"]["errors"])
    assert any(e.startswith("messages") for e in reports["messages_1"]["errors"])
    assert any("not UTF-8" in e for e in reports["not_utf8"]["errors"])
    assert any("nested too deeply" in e for e in reports["nested_deep"]["errors"])
    for escaping in ("image_path_0", "image_path_1"):  # /etc/passwd and ../ paths are never read
        assert any("lead outside the image root" in e for e in reports[escaping]["errors"]), reports[escaping]


def test_gold_check_reports_every_file_without_a_traceback(folder):
    proc = mmtsb("scenarios", "gold-check", "--json", str(folder))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    rows = {Path(r["file"]).stem: r for r in json.loads(proc.stdout)}
    assert len(rows) == len(corpus()) + 1
    assert rows["good"]["f1_gold"] == 1.0 and "error" in rows["not_utf8"]


def test_the_text_mode_reports_every_file_too(folder):
    proc = mmtsb("scenarios", "validate", str(folder))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert f"ok   {folder / 'good.json'}" in lines
    assert sum(line.startswith("FAIL ") for line in lines) == len(corpus())
    assert f"1/{len(corpus()) + 1} scenario file(s) valid" in lines
