"""One expected state change of a scenario file (``entity_diff_specs`` entries, SPEC.md §6.2).

The model accepts the files as the reference writes them (unknown keys are kept) and rejects specs the
evaluator could not score, naming the field and the allowed values.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from mmtsb.eval.similarity import check_similarity_name

Operation = Literal["create", "update", "delete"]
Source = Literal["appworld", "agentsandbox"]


class EntityDiffSpec(BaseModel):
    """An expected create, update or delete of one entity in one table.

    Attributes:
        operation: ``create``, ``update`` or ``delete``.
        source: ``appworld`` (app tables) or ``agentsandbox`` (device namespaces).
        table: an app table ``app.table`` (exactly one of ``table`` and ``namespace``).
        namespace: a device namespace such as ``CALENDAR_EVENTS`` (any case).
        entity_data: create: the full expected row.
        entity_id_column / entity_id_value: update and delete: which row.
        expected_fields: update: the expected values of the changed columns.
        column_similarity_measure: column -> similarity function name (see ``similarity.py``).
    """

    model_config = ConfigDict(extra="allow")

    operation: Operation
    source: Source
    table: str | None = None
    namespace: str | None = None
    entity_data: dict[str, Any] | None = None
    entity_id_column: str | None = None
    entity_id_value: Any = None
    expected_fields: dict[str, Any] | None = None
    column_similarity_measure: dict[str, str] = Field(default_factory=dict)

    @field_validator("column_similarity_measure")
    @classmethod
    def _known_functions(cls, value: dict[str, str]) -> dict[str, str]:
        for column, name in value.items():
            try:
                check_similarity_name(name)
            except ValueError as exc:
                raise ValueError(f"column_similarity_measure[{column!r}]: {exc}") from None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> EntityDiffSpec:
        if (self.table is None) == (self.namespace is None):
            got = "both" if self.table is not None else "neither"
            raise ValueError(f"give exactly one of 'table' (an app table such as 'simple_note.notes') or "
                             f"'namespace' (a device namespace such as 'REMINDER'); got {got}")
        if self.table is not None and (self.table.count(".") != 1 or not all(self.table.split("."))):
            raise ValueError(f"table {self.table!r} must be written 'app.table', e.g. 'gmail.emails'")
        if self.namespace is not None and (not self.namespace or "." in self.namespace):
            raise ValueError(f"namespace {self.namespace!r} must be a device namespace name without a dot, "
                             "e.g. 'CALENDAR_EVENTS'; app tables go in 'table'")
        if self.operation == "create":
            if self.entity_data is None:
                raise ValueError("a create spec needs 'entity_data' (the full expected row)")
        else:
            missing = [f for f in ("entity_id_column", "entity_id_value") if getattr(self, f) is None]
            if missing:
                raise ValueError(f"a{'n' if self.operation == 'update' else ''} {self.operation} spec needs "
                                 f"{' and '.join(repr(m) for m in missing)} (which row to check)")
        if self.operation == "update" and self.expected_fields is None:
            raise ValueError("an update spec needs 'expected_fields' (the expected values of the changed "
                             "columns)")
        return self

    @property
    def table_key(self) -> str:
        """``app.table`` for app tables, the upper-cased namespace for device tables."""
        return self.table if self.table is not None else str(self.namespace).upper()

    @property
    def is_app_table(self) -> bool:
        return self.table is not None

    def expected_row(self) -> dict[str, Any]:
        """The row the evaluator compares: entity_data (create), expected_fields + id (update), the id
        (delete)."""
        if self.operation == "create":
            return dict(self.entity_data or {})
        row = dict(self.expected_fields or {}) if self.operation == "update" else {}
        row[str(self.entity_id_column)] = self.entity_id_value
        return row
