"""What the entity diff reports: headline scores, both aggregations, guardrails and per-entity evidence."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from mmtsb.eval.guardrails import UnexpectedWrite
from mmtsb.eval.matching import ColumnScore, f1


@dataclass
class EntityResult:
    """One expected entity (one spec): its credited score and the evidence behind it.

    ``matched_key``/``matched_row`` are the actual row credited to it; ``reason`` says why it scored 0 or
    was left unmatched; ``closest_key``/``closest_columns`` show the best candidate when it was not matched.
    """

    spec_index: int
    expected: dict[str, Any]
    score: float
    raw_score: float | None = None
    matched_key: Any = None
    matched_row: dict[str, Any] | None = None
    columns: list[ColumnScore] = field(default_factory=list)
    reason: str | None = None
    closest_key: Any = None
    closest_columns: list[ColumnScore] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def column_scores(self) -> dict[str, float]:
        return {c.column: c.score for c in self.columns}


@dataclass
class GroupResult:
    """One (table, operation) group: P/R, the entities, the actual rows nothing was matched to, and notes
    (evidence that does not change the score, e.g. rows of an update table that no spec targets)."""

    table_key: str
    operation: str
    precision: float
    recall: float
    num_expected: int
    num_actual: int
    entities: list[EntityResult] = field(default_factory=list)
    unmatched_actual_keys: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def score_sum(self) -> float:
        return sum(e.score for e in self.entities)

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)


@dataclass
class EntityDiffResult:
    """The entity-diff verdict of one episode.

    Headline ``precision``/``recall``/``f1``: micro (entity-level, unexpected writes counted as extra actual
    entities) by default; in strict mode the reference's numbers (macro P/R, F1 zeroed by a failed device
    guardrail). Both aggregations are always reported; ``reference_f1`` is what the reference would report.
    """

    f1: float
    precision: float
    recall: float
    macro_precision: float
    macro_recall: float
    macro_f1: float
    reference_f1: float
    micro_precision: float
    micro_recall: float
    micro_f1: float
    guardrail_pass: bool
    guardrail_failures: list[str]
    unexpected_writes: list[UnexpectedWrite]
    groups: list[GroupResult]
    strict_reference: bool
    min_match_similarity: float
    warnings: list[str] = field(default_factory=list)
    tables: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict, repr=False)

    def to_dict(self, *, include_tables: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (for ``entity_diff_evidence.json``); spec-table rows only on request."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "tables"}
        out["groups"] = [_group_dict(g) for g in self.groups]
        out["reference"] = self.reference_result()
        if include_tables:
            out["tables"] = self.tables
        return _jsonable(out)

    def reference_result(self) -> dict[str, Any]:
        """The ``result`` object in the reference's evidence-file shape."""
        return _jsonable({
            "overall_precision": self.macro_precision,
            "overall_recall": self.macro_recall,
            "group_results": [{
                "table_key": g.table_key, "operation": g.operation, "precision": g.precision,
                "recall": g.recall, "per_entity_scores": [e.score for e in g.entities],
                "per_entity_column_scores": [e.column_scores for e in g.entities],
                "num_actual": g.num_actual, "num_expected": g.num_expected,
                "per_entity_actual_values": [e.matched_row for e in g.entities],
            } for g in self.groups],
            "guardrail_pass": not self.guardrail_failures,
            "guardrail_failures": self.guardrail_failures,
        })


def _group_dict(g: GroupResult) -> dict[str, Any]:
    d = dataclasses.asdict(g)
    d["f1"] = g.f1
    for e, ed in zip(g.entities, d["entities"]):
        ed["column_scores"] = e.column_scores
    return d


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
