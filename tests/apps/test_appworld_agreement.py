"""The AppWorld differential harness: our side plays every sequence; with AppWorld installed in its own
environment, both sides agree per app at the targets of issue 14 (skipped, saying why, when it is absent)."""

from __future__ import annotations

import pytest

from mmtsb.testing.appworld import ours
from mmtsb.testing.appworld.agreement import appworld_python, compare, measure
from mmtsb.testing.appworld.plan import APPS, to_plan
from mmtsb.testing.appworld.sequences import all_sequences


def test_our_side_plays_every_sequence_and_the_plan_names_appworld_apis():
    sequences = all_sequences()
    assert {q.app for q in sequences} >= set(APPS)
    results = ours.play(sequences)
    assert len(results) == sum(len(q.steps) for q in sequences)
    played = [r for r in results if not r.get("skip")]
    assert any(r["ok"] for r in played) and any(not r["ok"] for r in played)
    plan = to_plan(sequences)
    steps = [s for q in plan["sequences"] for s in q["steps"] if "api" in s]
    assert {s["app"] for s in steps} == set(APPS)
    assert all(not s["api"].startswith(s["app"]) for s in steps)   # the domain prefix is gone
    # a side compared with itself agrees everywhere
    same = compare(sequences, results, results)
    assert all(a.outcome == 1.0 and a.tables == 1.0 for a in same.apps.values())


def test_compare_counts_outcome_and_table_disagreements():
    sequences = all_sequences(("simple_note",))[:1]
    mine = ours.play(sequences)
    flipped = [{**r, "ok": not r["ok"], "changed": ["simple_note.notes"]} if r["index"] == 0 else r for r in mine]
    agreement = compare(sequences, flipped, mine)
    a = agreement.apps["simple_note"]
    assert a.same_outcome == a.calls - 1 and len(a.disagreements) >= 1


@pytest.mark.skipif(appworld_python() is None, reason="AppWorld is not installed in its own environment "
                    "(MMTSB_APPWORLD_PYTHON or /work/appworld-venv; see benchmarks/appworld_agreement.py)")
def test_agreement_with_appworld_meets_the_target():
    """Issue 14's target, per app: 98 % outcome agreement and 95 % table-change agreement."""
    agreement = measure(all_sequences(), appworld_python())
    assert not agreement.harness_errors
    assert set(agreement.apps) == set(APPS)
    for name, a in agreement.apps.items():
        assert a.outcome >= 0.98, (name, a.disagreements)
        assert a.tables >= 0.95, (name, a.disagreements)


def test_references_resolve_nested_paths_alternatives_codes_and_tokens():
    """``$label.path`` walks lists and dicts, ``a|b`` takes the first that resolves, and ``$code:``/``$token:``
    ask the side (each side resolves against its own ids, codes and tokens)."""
    from mmtsb.testing.appworld.appworld_side import resolve

    results = {"n": {"list": [{"notification_id": 7}]}, "d": {"attachments": [{"id": 3}]}}
    asked = []

    def lookup(kind, arg):
        asked.append((kind, arg))
        return f"{kind}-{arg}"

    assert resolve("$n.list.0.notification_id", results, lookup) == 7
    assert resolve("$n.list.5.notification_id", results, lookup) is None
    assert resolve("$d.attachments.0.attachment_id|$d.attachments.0.id", results, lookup) == 3
    assert resolve({"t": ["$token:file_system", "$code:a@b.c"]}, results, lookup) == {
        "t": ["token-file_system", "code-a@b.c"]}
    assert asked == [("token", "file_system"), ("code", "a@b.c")]
