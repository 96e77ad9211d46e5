"""The entity-diff evaluator on plain table dicts: groups, matching, aggregation, guardrails, both modes.

Every expected number is computed by hand in the comment next to it.
"""

import json

import pytest

from mmtsb.eval import EvalOptions, evaluate_tables

EXACT, ROUGE, IGNORE = "column_exact_match_similarity", "column_rouge_l_similarity", "column_ignore_similarity"
STRICT = EvalOptions(strict_reference=True)
OURS = EvalOptions()
NO_COMPANIONS: dict = {}


def create(table, data, csm):
    key = "namespace" if "." not in table else "table"
    return {"operation": "create", "source": "appworld" if key == "table" else "agentsandbox", key: table,
            "entity_data": data, "column_similarity_measure": csm}


def task(id_, title, priority="high", user_id=50):
    return {"id": id_, "user_id": user_id, "title": title, "priority": priority}


TASK_CSM = {"user_id": EXACT, "title": ROUGE, "priority": EXACT}


def run(specs, initial, final, options=OURS, **kw):
    kw.setdefault("companions", NO_COMPANIONS)
    return evaluate_tables(specs, initial, final, options=options, **kw)


def test_create_group_extra_created_row_lowers_precision():
    spec = create("todoist.tasks", {"user_id": 50, "title": "Buy milk", "priority": "high"}, TASK_CSM)
    initial = {"todoist.tasks": [task(1, "Old", "low")]}
    final = {"todoist.tasks": [task(1, "Old", "low"), task(2, "Buy milk"), task(3, "Random", "low")]}
    for opts in (STRICT, OURS):
        res = run([spec], initial, final, opts)
        (g,) = res.groups
        # row 2 scores (1 + 1 + 1) / 3 = 1; M = 2 new rows, N = 1 -> P = 1/2, R = 1, F1 = 2/3
        assert (g.num_expected, g.num_actual) == (1, 2)
        assert (g.precision, g.recall) == (0.5, 1.0)
        assert res.f1 == pytest.approx(2 / 3) and res.macro_f1 == pytest.approx(2 / 3)
        assert g.entities[0].matched_key == 2 and g.unmatched_actual_keys == [3]
        assert res.guardrail_pass and not res.unexpected_writes


def test_partial_credit_and_the_minimum_match_similarity():
    spec = create("todoist.tasks", {"user_id": 50, "title": "Buy milk", "priority": "high"}, TASK_CSM)
    initial = {"todoist.tasks": []}
    final = {"todoist.tasks": [task(7, "Random", "low")]}
    # the only new row: user_id 1, title ROUGE 0, priority 0 -> 1/3
    strict = run([spec], initial, final, STRICT)
    assert strict.precision == pytest.approx(1 / 3) and strict.recall == pytest.approx(1 / 3)
    assert strict.f1 == pytest.approx(1 / 3) and strict.min_match_similarity == 0.0
    ours = run([spec], initial, final, OURS)
    ent = ours.groups[0].entities[0]
    assert ours.f1 == 0.0 and ent.score == 0.0 and ent.matched_key is None
    assert ent.raw_score == pytest.approx(1 / 3) and ent.closest_key == 7
    assert ent.reason == "best row left for it (key 7) scored 0.333 < min_match_similarity 0.5"
    assert ours.groups[0].unmatched_actual_keys == [7]
    lenient = run([spec], initial, final, EvalOptions(min_match_similarity=0.3))
    assert lenient.f1 == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="min_match_similarity must be within"):
        EvalOptions(min_match_similarity=1.5)


def test_hungarian_finds_the_best_total_assignment():
    # A = "alpha beta", B = "alpha"; rows r1 "alpha", r2 "alpha beta gamma"
    # A-r1 0.667, A-r2 0.8, B-r1 1.0, B-r2 0.5 -> best total: A-r2 + B-r1 = 1.8 -> P = R = 0.9
    specs = [create("todoist.tasks", {"title": t}, {"title": ROUGE}) for t in ("alpha beta", "alpha")]
    final = {"todoist.tasks": [task(1, "alpha"), task(2, "alpha beta gamma")]}
    res = run(specs, {"todoist.tasks": []}, final, STRICT)
    assert res.precision == pytest.approx(0.9) and res.recall == pytest.approx(0.9)
    assert [e.matched_key for e in res.groups[0].entities] == [2, 1]


def test_threshold_is_applied_before_the_assignment():
    # spec A compares a1..a5, spec B compares b1..b5 (exact). r1 matches A on 5/5 and B on 4/5;
    # r2 matches A on 2/5 and B on 0/5. Raw: A-r1 1.0, A-r2 0.4, B-r1 0.8, B-r2 0.
    a = {f"a{i}": 1 for i in range(1, 6)}
    b = {f"b{i}": 1 for i in range(1, 6)}
    r1 = {"id": 1, **a, **b, "b5": 0}
    r2 = {"id": 2, **{f"a{i}": (1 if i <= 2 else 0) for i in range(1, 6)}, **{k: 0 for k in b}}
    specs = [create("x.items", a, {k: EXACT for k in a}), create("x.items", b, {k: EXACT for k in b})]
    initial, final = {"x.items": []}, {"x.items": [r1, r2]}
    # strict: the best raw total is A-r2 + B-r1 = 1.2 -> P = R = 0.6
    strict = run(specs, initial, final, STRICT)
    assert strict.precision == pytest.approx(0.6) and strict.recall == pytest.approx(0.6)
    # ours: 0.4 < 0.5 counts 0, so A-r1 (1.0) beats B-r1 (0.8); B stays unmatched -> P = R = 0.5
    ours = run(specs, initial, final, OURS)
    assert ours.precision == pytest.approx(0.5) and ours.recall == pytest.approx(0.5)
    ent_a, ent_b = ours.groups[0].entities
    assert (ent_a.matched_key, ent_a.score) == (1, 1.0)
    assert ent_b.matched_key is None and ent_b.closest_key == 1
    assert ent_b.reason == ("best row left for it (key 2) scored 0.000 < min_match_similarity 0.5; its closest "
                            "row key 1 scores 0.800 but fits another spec better")


def test_delete_group_and_soft_deleted_rows():
    spec = {"operation": "delete", "source": "appworld", "table": "todoist.projects", "entity_id_column": "id",
            "entity_id_value": 2, "column_similarity_measure": {"id": EXACT}}
    rows = [{"id": i, "name": f"p{i}", "deleted": False} for i in (1, 2, 3)]
    # 2 removed, 3 soft-deleted: M = 2, N = 1, score 1 -> P = 0.5, R = 1
    final = [rows[0], {**rows[2], "deleted": True}]
    res = run([spec], {"todoist.projects": rows}, {"todoist.projects": final}, STRICT)
    (g,) = res.groups
    assert (g.operation, g.num_actual, g.precision, g.recall) == ("delete", 2, 0.5, 1.0)
    assert g.entities[0].matched_key == 2 and g.unmatched_actual_keys == [3]
    nothing = run([spec], {"todoist.projects": rows}, {"todoist.projects": rows}, OURS)
    assert nothing.f1 == 0.0 and nothing.groups[0].entities[0].reason == "no row was deleted from todoist.projects"


def test_device_delete_by_runtime_id_column_is_exact():
    spec = {"operation": "delete", "source": "agentsandbox", "namespace": "reminder",
            "entity_id_column": "reminder_id", "entity_id_value": "reminder_100"}
    rows = [{"reminder_id": "reminder_100", "content": "a"}, {"reminder_id": "reminder_101", "content": "b"}]
    wrong = run([spec], {"REMINDER": rows}, {"REMINDER": rows[:1]}, STRICT)
    assert wrong.groups[0].table_key == "REMINDER" and wrong.f1 == 0.0    # the other reminder went
    right = run([spec], {"REMINDER": rows}, {"REMINDER": rows[1:]}, STRICT)
    assert right.f1 == 1.0


def test_update_specs_are_scored_one_by_one():
    def note(id_, content, updated_at="2026-04-15T10:00:00"):
        return {"id": id_, "user_id": 50, "title": "t", "content": content, "tags": [], "updated_at": updated_at}

    def upd(id_, content):
        return {"operation": "update", "source": "appworld", "table": "simple_note.notes",
                "entity_id_column": "id", "entity_id_value": id_,
                "expected_fields": {"updated_at": "2026-04-15T10:00:00", "content": content, "tags": []},
                "column_similarity_measure": {"content": ROUGE, "id": EXACT}}

    initial = {"simple_note.notes": [note(1, "Budget: $500"), note(2, "Call dad")]}
    final = {"simple_note.notes": [note(1, "Remaining budget: $452", "2026-04-16T23:51:15"), note(2, "Call dad")]}
    specs = [upd(1, "Remaining Budget: $452"), upd(2, "Call mom"), upd(99, "x")]
    res = run(specs, initial, final, OURS)
    (g,) = res.groups
    one, two, missing = g.entities
    # 1: content ROUGE 1, updated_at strictly after its initial value 1, id 1 -> 1 (tags: [] ignored)
    assert one.score == 1.0 and {c.column: c.function for c in one.columns}["updated_at"] == \
        "column_datetime_similarity"
    # 2: untouched: ROUGE("call mom", "call dad") = 0.5, updated_at not after 0, id 1 -> 1.5 / 3 = 0.5
    assert two.score == pytest.approx(0.5)
    assert missing.score == 0.0 and "no row with id = 99" in missing.reason
    # group P = R = mean(1, 0.5, 0) = 0.5; for micro every update spec is one expected and one actual entity
    assert (g.precision, g.recall, g.num_expected, g.num_actual) == (0.5, 0.5, 3, 3)
    assert res.micro_f1 == pytest.approx(0.5) and res.macro_f1 == pytest.approx(0.5)
    assert run(specs, initial, final, STRICT).f1 == pytest.approx(0.5)


def test_update_evidence_notes_unchecked_changes_without_scoring_them():
    spec = {"operation": "update", "source": "appworld", "table": "simple_note.notes", "entity_id_column": "id",
            "entity_id_value": 1, "expected_fields": {"content": "new"},
            "column_similarity_measure": {"content": EXACT, "id": EXACT}}
    initial = {"simple_note.notes": [{"id": 1, "title": "a", "content": "old"}, {"id": 2, "title": "b",
                                                                                  "content": "x"}]}
    final = {"simple_note.notes": [{"id": 1, "title": "A", "content": "new"}, {"id": 2, "title": "b",
                                                                                "content": "y"}]}
    res = run([spec], initial, final, OURS)
    (g,) = res.groups
    assert res.f1 == 1.0
    assert g.entities[0].notes == ["columns changed but not checked by the spec: ['title']"]
    assert g.notes == ["rows updated but targeted by no spec (id): [2]"]
    missing_col = run([{**spec, "expected_fields": {"colour": "red"}}], initial, final, OURS)
    assert missing_col.f1 == 0.0 and "has no column(s) ['colour']" in missing_col.groups[0].entities[0].reason


def test_macro_and_micro_aggregation_differ():
    notes_spec = create("simple_note.notes", {"title": "Shopping"}, {"title": ROUGE})
    task_specs = [create("todoist.tasks", {"title": t}, {"title": ROUGE}) for t in ("one", "two", "three")]
    initial = {"simple_note.notes": [], "todoist.tasks": []}
    final = {"simple_note.notes": [{"id": 1, "title": "Shopping"}], "todoist.tasks": [task(1, "two")]}
    # notes group: P = R = 1. tasks group: 1 of 3 created, perfect -> P = 1, R = 1/3.
    # macro: P = 1, R = 2/3 -> F1 = 0.8. micro: scores 2, N = 4, M = 2 -> P = 1, R = 0.5 -> F1 = 2/3
    for opts in (STRICT, OURS):
        res = run([notes_spec, *task_specs], initial, final, opts)
        assert res.macro_precision == 1.0 and res.macro_recall == pytest.approx(2 / 3)
        assert res.macro_f1 == pytest.approx(0.8) and res.reference_f1 == pytest.approx(0.8)
        assert (res.micro_precision, res.micro_recall) == (1.0, 0.5)
        assert res.micro_f1 == pytest.approx(2 / 3)
    assert run([notes_spec, *task_specs], initial, final, STRICT).f1 == pytest.approx(0.8)
    assert run([notes_spec, *task_specs], initial, final, OURS).f1 == pytest.approx(2 / 3)


NOTE_SPEC = create("simple_note.notes", {"title": "Shopping"}, {"title": ROUGE})
NOTES_BEFORE = {"simple_note.notes": []}
NOTES_AFTER = {"simple_note.notes": [{"id": 1, "title": "Shopping"}]}


def test_device_namespace_change_zeroes_f1_in_strict_mode_only():
    initial = {**NOTES_BEFORE, "SETTING": [{"device_id": "d", "wifi": True}],
               "SANDBOX": [], "IMAGE": []}
    final = {**NOTES_AFTER, "SETTING": [{"device_id": "d", "wifi": False}],
             "SANDBOX": [{"sender": "USER"}], "IMAGE": [{"image_id": 0}]}
    pks = {"SETTING": "device_id"}
    strict = run([NOTE_SPEC], initial, final, STRICT, primary_keys=pks)
    assert strict.guardrail_failures == ["SETTING: changed although no spec names it (+0 ~1 -0)"]
    assert not strict.guardrail_pass and strict.f1 == 0.0 and strict.reference_f1 == 0.0
    assert strict.macro_f1 == 1.0 and strict.precision == 1.0
    # ours: the setting change (and the SANDBOX/IMAGE rows the reference exempts, here plain tables) are
    # unexpected writes -> 3 extra actual entities: P = 1/4, R = 1 -> F1 = 0.4
    ours = run([NOTE_SPEC], initial, final, OURS, primary_keys=pks, ignored_tables={"SANDBOX", "IMAGE"})
    assert [(w.table, w.operation, w.key, w.changed_columns) for w in ours.unexpected_writes] == [
        ("SETTING", "update", "d", ["wifi"])]
    # with SANDBOX/IMAGE ignored: P = 1/2, R = 1 -> 2/3; the reference verdict is still reported
    assert ours.f1 == pytest.approx(2 / 3) and not ours.guardrail_pass and ours.reference_f1 == 0.0


def test_app_table_side_effect_lowers_precision_in_default_mode_only():
    initial = {**NOTES_BEFORE, "gmail.emails": []}
    final = {**NOTES_AFTER, "gmail.emails": [{"id": 5001, "subject": "oops"}]}
    strict = run([NOTE_SPEC], initial, final, STRICT)
    assert strict.f1 == 1.0 and strict.guardrail_pass           # the reference's AW guardrail never fires
    assert [(w.table, w.operation, w.key) for w in strict.unexpected_writes] == [("gmail.emails", "create",
                                                                                  5001)]
    ours = run([NOTE_SPEC], initial, final, OURS)
    # one extra actual entity: P = 1/2, R = 1 -> F1 = 2/3; macro (per group) is untouched
    assert (ours.precision, ours.recall) == (0.5, 1.0) and ours.f1 == pytest.approx(2 / 3)
    assert ours.macro_f1 == 1.0 and not ours.guardrail_pass


def test_companion_and_ignored_writes_are_not_penalised():
    spec = create("gmail.emails", {"subject": "Hi"}, {"subject": ROUGE})
    initial = {"gmail.emails": [], "gmail.user_email_threads": [], "gmail.drafts": [], "main.auth": []}
    final = {"gmail.emails": [{"id": 1, "subject": "Hi"}], "gmail.user_email_threads": [{"id": 9, "read": True}],
             "gmail.drafts": [], "main.auth": [{"id": "gmail"}]}
    companions = {"gmail.emails": ("gmail.user_email_threads",)}
    res = run([spec], initial, final, OURS, companions=companions, ignored_tables={"main.auth"})
    assert res.f1 == 1.0 and res.guardrail_pass and res.unexpected_writes == []
    final["gmail.drafts"] = [{"id": 3, "subject": "draft"}]
    res = run([spec], initial, final, OURS, companions=companions, ignored_tables={"main.auth"})
    assert [w.table for w in res.unexpected_writes] == ["gmail.drafts"] and res.f1 == pytest.approx(2 / 3)


def test_empty_specs():
    for opts in (STRICT, OURS):
        res = run([], {}, {}, opts)
        assert (res.f1, res.precision, res.recall, res.groups) == (1.0, 1.0, 1.0, [])
    initial, final = {"gmail.emails": []}, {"gmail.emails": [{"id": 1}]}
    assert run([], initial, final, STRICT).f1 == 1.0
    # ours: nothing expected, one unexpected write -> P = 0, R = 1 -> F1 = 0
    ours = run([], initial, final, OURS)
    assert (ours.precision, ours.recall, ours.f1) == (0.0, 1.0, 0.0)


def test_expected_null_against_filled_columns():
    spec = create("amazon.orders", {"user_id": 5, "address_id": None},
                  {"user_id": EXACT, "address_id": EXACT})
    types = {"amazon.orders": {"id": "int", "user_id": "int", "address_id": "int"}}
    old = {"id": 1, "user_id": 5, "address_id": 400}
    new = {"id": 2, "user_id": 5, "address_id": None}
    initial, final = {"amazon.orders": [old]}, {"amazon.orders": [old, new]}
    # strict: address_id is an int column holding data, so the new row's null became 0 and the expected
    # null does not match it: (1 + 0) / 2 = 0.5
    strict = run([spec], initial, final, STRICT, column_types=types)
    assert strict.f1 == 0.5
    # strict, but the column is null in every row: polars leaves a Null-typed column alone -> 1
    all_null = {"amazon.orders": [{**old, "address_id": None}, new]}
    assert run([spec], {"amazon.orders": all_null["amazon.orders"][:1]}, all_null, STRICT,
               column_types=types).f1 == 1.0
    # ours: null and "empty" mean the same on both sides -> 1
    assert run([spec], initial, final, OURS, column_types=types).f1 == 1.0


def test_device_create_with_forced_ignored_runtime_id_and_naive_datetimes():
    spec = create("REMINDER", {"reminder_id": "reminder_100", "content": "Review annotation.py",
                               "creation_datetime": "2026-04-17T00:01:20Z",
                               "reminder_datetime": "2026-04-18T10:00:00Z"},
                  {"reminder_id": EXACT, "content": ROUGE, "creation_datetime": IGNORE,
                   "reminder_datetime": "column_datetime_naive_equal_similarity"})
    row = {"reminder_id": "3f2a", "content": "Review annotation.py", "creation_datetime": "2026-04-16T23:51:15",
           "reminder_datetime": "2026-04-18T10:00:00-07:00", "latitude": None}
    res = run([spec], {"REMINDER": []}, {"REMINDER": [row]}, STRICT)
    ent = res.groups[0].entities[0]
    assert res.f1 == 1.0 and ent.column_scores["reminder_datetime"] == 1.0
    assert {c.column: c.function for c in ent.columns}["reminder_id"] == IGNORE


def test_created_rows_without_an_id_column_use_a_full_row_anti_join():
    spec = create("MESSAGING", {"content": "On my way"}, {"content": ROUGE})
    old = {"sender": "a", "content": "hello"}
    res = run([spec], {"MESSAGING": [old]}, {"MESSAGING": [old, {"sender": "me", "content": "On my way"}]},
              STRICT)
    assert res.groups[0].num_actual == 1 and res.f1 == 1.0


def test_evidence_is_json_ready_and_has_the_reference_shape():
    spec = create("todoist.tasks", {"user_id": 50, "title": "Buy milk", "priority": "high"}, TASK_CSM)
    res = run([spec, create("todoist.tasks", {"title": "Walk dog"}, {"title": ROUGE})],
              {"todoist.tasks": []}, {"todoist.tasks": [task(2, "Buy milk", "low")]}, OURS)
    d = json.loads(json.dumps(res.to_dict(include_tables=True)))
    ent = d["groups"][0]["entities"][0]
    assert ent["matched_key"] == 2 and ent["score"] == pytest.approx(2 / 3)
    assert {c["column"]: (c["function"], c["score"]) for c in ent["columns"]}["priority"] == (EXACT, 0.0)
    assert d["groups"][1 - 1]["entities"][1]["reason"]
    assert d["tables"]["todoist.tasks"]["final"][0]["id"] == 2
    ref = d["reference"]
    assert set(ref) == {"overall_precision", "overall_recall", "group_results", "guardrail_pass",
                        "guardrail_failures"}
    assert set(ref["group_results"][0]) == {"table_key", "operation", "precision", "recall", "per_entity_scores",
                                            "per_entity_column_scores", "num_actual", "num_expected",
                                            "per_entity_actual_values"}
    assert d["strict_reference"] is False and d["min_match_similarity"] == 0.5


def test_invalid_spec_names_its_position():
    with pytest.raises(ValueError, match=r"(?s)entity_diff_specs\[1\]: .*needs 'entity_data'"):
        run([NOTE_SPEC, {"operation": "create", "source": "appworld", "table": "a.b"}], {}, {})


def test_released_specs_score_zero_when_nothing_happens_and_one_for_an_oracle_create():
    from testkit import REFERENCE

    files = sorted(REFERENCE.glob("scenarios/*/*.json"))
    if not files:
        pytest.skip("reference scenarios not available")
    for path in files:
        specs = json.loads(path.read_text()).get("entity_diff_specs", [])
        if not specs:
            continue
        assert run(specs, {}, {}, STRICT).f1 == 0.0, path.name
        creates = [s for s in specs if s["operation"] == "create"]
        final: dict = {}
        for i, s in enumerate(creates):
            key = s.get("table") or s["namespace"].upper()
            final.setdefault(key, []).append({"id": 10_000 + i, **s["entity_data"]})
        res = run(creates, {k: [] for k in final}, final, OURS)
        assert [(g.table_key, g.f1) for g in res.groups if g.f1 != 1.0] == [], path.name
