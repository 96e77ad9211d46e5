"""The entity-diff evaluator: expected state changes vs the world after an episode (SPEC.md §6.2).

Reference semantics (``strict_reference=True`` reproduces its numbers): specs are grouped by
(table, operation); a create group matches the rows that are new in the final table to the specs'
``entity_data`` with a Hungarian assignment; a delete group does the same with the vanished rows and the
spec ids; update specs are scored one by one on the row with the given id; group P/R are averaged over
groups (macro); a changed device namespace that no spec names forces F1 to 0.

Our defaults (``strict_reference=False``), each documented where it is implemented:

- guardrails cover every table, and each unexpected write counts as one unmatched actual entity instead of
  zeroing the score (``guardrails.py``);
- the headline aggregate is micro (entity-level): Σscores / Σactual and Σscores / Σexpected over all
  groups, so a group of ten entities weighs ten times a group of one; macro is still reported;
- a Hungarian pair scoring below ``min_match_similarity`` earns nothing and is reported unmatched
  (``matching.py``; update specs are located by id, not matched, so the threshold does not apply to them);
- nulls mean the same on both sides (``rows.py``) and ROUGE-L ignores empty tokens (``similarity.py``);
- every expected entity carries evidence: the matched row, per-column scores and functions, and why it
  scored 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mmtsb.eval.guardrails import (
    UnexpectedWrite,
    default_companions,
    diff_tables,
    reference_guardrail_failures,
    unexpected_writes,
)
from mmtsb.eval.matching import Assignment, Expected, f1, match_rows, precision_recall
from mmtsb.eval.result import EntityDiffResult, EntityResult, GroupResult
from mmtsb.eval.rows import (
    ID_COLUMN_ORDER,
    Row,
    anti_join,
    fill_expected,
    infer_column_types,
    is_app_table,
    prepare_rows,
)
from mmtsb.eval.similarity import (
    BOOKKEEPING_TIMESTAMPS,
    EXACT,
    create_similarity_names,
    update_similarity_names,
)
from mmtsb.eval.specs import EntityDiffSpec

if TYPE_CHECKING:
    from mmtsb.world.diff import WorldDiff
    from mmtsb.world.world import Snapshot, World

SpecLike = EntityDiffSpec | Mapping[str, Any]


@dataclass(frozen=True)
class EvalOptions:
    """How to score.

    Attributes:
        strict_reference: reproduce the reference's numbers exactly (macro headline, no match threshold,
            device-namespace guardrail zeroing F1, reference null handling and ROUGE tokenisation).
        min_match_similarity: (default mode) the lowest pair score that still counts as a match. 0.5
            means a created row must agree with the spec on at least half of its compared columns'
            similarity mass before it earns credit, so an unrelated row cannot collect partial credit.
    """

    strict_reference: bool = False
    min_match_similarity: float = 0.5

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_match_similarity <= 1.0:
            raise ValueError(f"min_match_similarity must be within [0, 1]; got {self.min_match_similarity}")

    @property
    def threshold(self) -> float:
        return 0.0 if self.strict_reference else self.min_match_similarity


@dataclass
class _Table:
    """One spec table, prepared for comparison."""

    key: str
    types: dict[str, str]
    columns: set[str]
    initial: list[Row]
    final: list[Row]
    primary_key: str | None

    def key_of(self, row: Row | None) -> Any:
        return row.get(self.primary_key) if row is not None and self.primary_key else None


def parse_specs(specs: Iterable[SpecLike]) -> list[EntityDiffSpec]:
    """Validate raw spec dicts (models pass through); errors name the spec's position."""
    out = []
    for i, spec in enumerate(specs):
        if isinstance(spec, EntityDiffSpec):
            out.append(spec)
            continue
        try:
            out.append(EntityDiffSpec.model_validate(spec))
        except ValueError as exc:
            raise ValueError(f"entity_diff_specs[{i}]: {exc}") from exc
    return out


# ----------------------------------------------------------------------------- entry points
def evaluate_world(specs: Iterable[SpecLike], world: World, initial_snapshot: Snapshot,
                   options: EvalOptions | None = None, *,
                   companions: Mapping[str, Iterable[str]] | None = None) -> EntityDiffResult:
    """Score a World's current state against its state at ``initial_snapshot``."""
    parsed = parse_specs(specs)
    initial: dict[str, list[Row]] = {}
    final: dict[str, list[Row]] = {}
    types: dict[str, dict[str, str]] = {}
    pks: dict[str, str] = {}
    warnings = []
    for key in dict.fromkeys(s.table_key for s in parsed):
        if not world.has_table(key):
            warnings.append(f"table {key!r} is not in this world; scored as empty")
            initial[key], final[key], types[key] = [], [], {}
            continue
        table = world.table(key)
        initial[key], final[key] = world.rows_at(initial_snapshot, table.key), world.rows(table.key)
        types[key] = {c.name: c.type for c in table.columns}
        pks[key] = table.primary_key
    pks.update({k: t.primary_key for k, t in world.tables.items()})
    ignored = {k for k, t in world.tables.items() if t.internal}
    result = evaluate_tables(parsed, initial, final, types, world.diff(initial_snapshot), companions, options,
                             primary_keys=pks, ignored_tables=ignored)
    result.warnings = warnings + result.warnings
    return result


def evaluate_tables(specs: Iterable[SpecLike], initial: Mapping[str, Sequence[Row]],
                    final: Mapping[str, Sequence[Row]],
                    column_types: Mapping[str, Mapping[str, str]] | None = None,
                    world_diff: WorldDiff | None = None,
                    companions: Mapping[str, Iterable[str]] | None = None,
                    options: EvalOptions | None = None, *,
                    primary_keys: Mapping[str, str] | None = None,
                    ignored_tables: Iterable[str] = ()) -> EntityDiffResult:
    """Score specs against plain table rows.

    Args:
        specs: the scenario's ``entity_diff_specs`` (dicts or models).
        initial / final: table key -> rows before / after the episode (may include non-spec tables; they
            feed the guardrails when ``world_diff`` is not given).
        column_types: table key -> {column: World column type}; inferred from the rows when missing.
        world_diff: the full row-level diff for guardrails (default: computed from ``initial``/``final``).
        companions: table key -> tables its actions also write (default: every app's ``companions``).
        options: scoring options (default: our mode, ``min_match_similarity`` 0.5).
        primary_keys: table key -> primary key column (evidence and guardrail keys).
        ignored_tables: tables never counted as unexpected writes (internal bookkeeping).
    """
    opts = options or EvalOptions()
    parsed = parse_specs(specs)
    if companions is None:
        companions = default_companions()
    tables = {key: _prepare(key, initial.get(key, ()), final.get(key, ()), (column_types or {}).get(key),
                            (primary_keys or {}).get(key), opts)
              for key in dict.fromkeys(s.table_key for s in parsed)}
    groups: dict[tuple[str, str], list[tuple[int, EntityDiffSpec]]] = {}
    for i, spec in enumerate(parsed):
        groups.setdefault((spec.table_key, spec.operation), []).append((i, spec))
    scorers = {"create": _score_create, "delete": _score_delete, "update": _score_update}
    results = [scorers[op](members, tables[key], opts) for (key, op), members in groups.items()]

    diff = world_diff if world_diff is not None else diff_tables(initial, final, primary_keys)
    failures = reference_guardrail_failures(diff, tables)
    unexpected = unexpected_writes(diff, tables, companions, ignored_tables, primary_keys)
    return _aggregate(results, failures, unexpected, opts, {
        k: {"initial": list(initial.get(k, ())), "final": list(final.get(k, ()))} for k in tables})


# ----------------------------------------------------------------------------- preparation
def _prepare(key: str, initial: Sequence[Row], final: Sequence[Row], types: Mapping[str, str] | None,
             primary_key: str | None, opts: EvalOptions) -> _Table:
    col_types = dict(types) if types else infer_column_types([*initial, *final])
    columns = set(col_types) | {c for r in [*initial, *final] for c in r}
    pk = primary_key or next((c for c in ID_COLUMN_ORDER if c in columns), None)
    strict = opts.strict_reference
    return _Table(key, col_types, columns, prepare_rows(key, initial, col_types, strict=strict),
                  prepare_rows(key, final, col_types, strict=strict), pk)


def _expected(row: Mapping[str, Any], functions: dict[str, str], table: _Table, opts: EvalOptions) -> Expected:
    """The expected row as compared: as written in strict mode, null-filled like the table otherwise."""
    compare = dict(row) if opts.strict_reference else fill_expected(row, table.types,
                                                                     app_table=is_app_table(table.key))
    return Expected(compare, functions, dict(row))


# ----------------------------------------------------------------------------- groups
def _score_create(members: list[tuple[int, EntityDiffSpec]], table: _Table, opts: EvalOptions) -> GroupResult:
    """Rows new in the final table vs the specs' ``entity_data``."""
    actual = anti_join(table.final, table.initial, table.columns, table.columns)
    expected = [_expected(s.expected_row(), create_similarity_names(s.column_similarity_measure,
                                                                   s.expected_row()), table, opts)
                for _, s in members]
    return _matched_group("create", members, expected, actual, table, opts,
                          f"no row was added to {table.key}")


def _score_delete(members: list[tuple[int, EntityDiffSpec]], table: _Table, opts: EvalOptions) -> GroupResult:
    """Rows gone from the final table vs the specs' ids (exact match unless the spec names a function)."""
    actual = anti_join(table.initial, table.final, table.columns, table.columns)
    expected = []
    for _, s in members:
        col = str(s.entity_id_column)
        expected.append(_expected(s.expected_row(), {col: s.column_similarity_measure.get(col, EXACT)}, table,
                                  opts))
    return _matched_group("delete", members, expected, actual, table, opts,
                          f"no row was deleted from {table.key}")


def _matched_group(operation: str, members: list[tuple[int, EntityDiffSpec]], expected: list[Expected],
                   actual: list[Row], table: _Table, opts: EvalOptions, none_reason: str) -> GroupResult:
    assignments = match_rows(expected, actual, table.columns, strict=opts.strict_reference,
                             threshold=opts.threshold)
    entities = [_entity(i, e, a, actual, table, opts, none_reason)
                for (i, _), e, a in zip(members, expected, assignments)]
    matched = {a.actual_index for a in assignments if a.actual_index is not None}
    p, r = precision_recall(sum(e.score for e in entities), len(expected), len(actual))
    return GroupResult(table.key, operation, p, r, len(expected), len(actual), entities,
                       [table.key_of(row) for j, row in enumerate(actual) if j not in matched])


def _entity(index: int, expected: Expected, a: Assignment, actual: list[Row], table: _Table,
            opts: EvalOptions, none_reason: str) -> EntityResult:
    ent = EntityResult(index, expected.shown, a.score, a.raw_score)
    if a.actual_index is not None and a.pair is not None:
        ent.matched_row = actual[a.actual_index]
        ent.matched_key = table.key_of(ent.matched_row)
        ent.columns = a.pair.columns
        if not a.pair.compared:
            ent.reason = f"none of the expected columns exist in {table.key}"
        elif a.score == 0:
            ent.reason = "matched row scored 0: every compared column differs"
        return ent
    if not actual:
        ent.reason = none_reason
        return ent
    if a.closest is not None and a.closest_index is not None:
        ent.closest_key = table.key_of(actual[a.closest_index])
        ent.closest_columns = a.closest.columns
    closest = f"closest row key {ent.closest_key!r} scores {a.closest.score:.3f}" if a.closest else ""
    if a.closest is not None and not a.closest.compared:
        ent.reason = f"none of the expected columns exist in {table.key}"
    elif a.assigned_index is not None and a.raw_score is not None:
        left = table.key_of(actual[a.assigned_index])
        ent.reason = f"best row left for it (key {left!r}) scored {a.raw_score:.3f} < min_match_similarity " \
                     f"{opts.threshold}"
        if a.assigned_index != a.closest_index:
            ent.reason += f"; its {closest} but fits another spec better"
    else:
        ent.reason = f"unmatched: more expected than actual rows and the others fit other specs better; {closest}"
    return ent


def _score_update(members: list[tuple[int, EntityDiffSpec]], table: _Table, opts: EvalOptions) -> GroupResult:
    """Each spec scored alone on the row with its id; group P = R = the mean entity score. For the micro
    aggregate each update spec is one expected and one actual entity (its target row, found or not)."""
    entities = [_update_entity(i, s, table, opts) for i, s in members]
    mean = sum(e.score for e in entities) / len(entities)
    return GroupResult(table.key, "update", mean, mean, len(entities), len(entities), entities,
                       notes=_untargeted_updates(members, table))


def _same_id(value: Any, target: Any, strict: bool) -> bool:
    """Strict: plain equality (a text id never equals a numeric column). Ours: equal as text too."""
    return value == target or (not strict and str(value) == str(target))


def _update_entity(index: int, spec: EntityDiffSpec, table: _Table, opts: EvalOptions) -> EntityResult:
    col, target = str(spec.entity_id_column), spec.entity_id_value
    expected_row = spec.expected_row()
    ent = EntityResult(index, expected_row, 0.0)
    missing = [c for c in expected_row if c not in table.columns]
    if missing:
        ent.reason = f"{table.key} has no column(s) {missing}"
        return ent
    found = [r for r in table.final if _same_id(r.get(col), target, opts.strict_reference)]
    if not found:
        existed = any(_same_id(r.get(col), target, opts.strict_reference) for r in table.initial)
        ent.reason = (f"no row with {col} = {target!r} in the final {table.key}"
                      + (" (it existed initially: deleted)" if existed else ""))
        return ent
    functions = update_similarity_names(spec.column_similarity_measure, expected_row, table.columns, table.key)
    a = match_rows([_expected(expected_row, functions, table, opts)], found, table.columns,
                   strict=opts.strict_reference)[0]
    ent.score, ent.raw_score = a.score, a.raw_score
    if a.pair is not None and a.actual_index is not None:
        ent.matched_row = found[a.actual_index]
        ent.matched_key = table.key_of(ent.matched_row)
        ent.columns = a.pair.columns
        if ent.score == 0:
            ent.reason = "every compared column differs"
        ent.notes = _unlisted_changes(ent.matched_row, expected_row, col, target, table, opts)
    return ent


def _unlisted_changes(final_row: Row, expected_row: Mapping[str, Any], col: str, target: Any, table: _Table,
                      opts: EvalOptions) -> list[str]:
    """Evidence only (not scored, as in the reference): columns the episode changed that the spec does
    not check."""
    before = next((r for r in table.initial if _same_id(r.get(col), target, opts.strict_reference)), None)
    if before is None:
        return []
    changed = sorted(c for c in final_row if c not in expected_row and c not in BOOKKEEPING_TIMESTAMPS
                     and before.get(c) != final_row.get(c))
    return [f"columns changed but not checked by the spec: {changed}"] if changed else []


def _untargeted_updates(members: list[tuple[int, EntityDiffSpec]], table: _Table) -> list[str]:
    """Evidence only: rows of an update table that changed although no update spec targets them."""
    targets = {(str(s.entity_id_column), str(s.entity_id_value)) for _, s in members}
    pk = table.primary_key
    if pk is None:
        return []
    before = {str(r.get(pk)): r for r in table.initial}
    changed = []
    for row in table.final:
        old = before.get(str(row.get(pk)))
        if old is None or old == row:
            continue
        if not any(str(row.get(c)) == v for c, v in targets):
            changed.append(row.get(pk))
    return [f"rows updated but targeted by no spec ({pk}): {changed}"] if changed else []


# ----------------------------------------------------------------------------- aggregation
def _aggregate(groups: list[GroupResult], failures: list[str], unexpected: list[UnexpectedWrite], opts: EvalOptions,
               tables: dict[str, dict[str, list[Row]]]) -> EntityDiffResult:
    if groups:
        macro_p = sum(g.precision for g in groups) / len(groups)
        macro_r = sum(g.recall for g in groups) / len(groups)
    else:
        macro_p = macro_r = 1.0
    macro_f1 = f1(macro_p, macro_r)
    reference_f1 = 0.0 if failures else macro_f1
    score = sum(g.score_sum for g in groups)
    n_expected = sum(g.num_expected for g in groups)
    n_actual = sum(g.num_actual for g in groups) + len(unexpected)
    micro_p, micro_r = precision_recall(score, n_expected, n_actual)
    micro_f1 = f1(micro_p, micro_r)
    strict = opts.strict_reference
    return EntityDiffResult(
        f1=reference_f1 if strict else micro_f1,
        precision=macro_p if strict else micro_p,
        recall=macro_r if strict else micro_r,
        macro_precision=macro_p, macro_recall=macro_r, macro_f1=macro_f1, reference_f1=reference_f1,
        micro_precision=micro_p, micro_recall=micro_r, micro_f1=micro_f1,
        guardrail_pass=not failures if strict else not unexpected,
        guardrail_failures=failures, unexpected_writes=unexpected, groups=groups,
        strict_reference=strict, min_match_similarity=opts.threshold, tables=tables)
