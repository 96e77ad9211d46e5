"""EntityDiffSpec: the spec shapes scenario files use, and precise errors for specs that cannot be scored."""

import json

import pytest
from testkit import REFERENCE
from pydantic import ValidationError

from mmtsb.eval.specs import EntityDiffSpec


def test_create_update_delete_shapes_and_table_key():
    create = EntityDiffSpec.model_validate({
        "operation": "create", "source": "agentsandbox", "namespace": "calendar_events",
        "entity_data": {"title": "Gym"}, "column_similarity_measure": {"title": "column_rouge_l_similarity"},
        "note": "kept"})
    assert create.table_key == "CALENDAR_EVENTS" and create.expected_row() == {"title": "Gym"}
    assert create.model_extra == {"note": "kept"}
    update = EntityDiffSpec.model_validate({
        "operation": "update", "source": "appworld", "table": "simple_note.notes", "entity_id_column": "id",
        "entity_id_value": 3200, "expected_fields": {"content": "x"}})
    assert update.table_key == "simple_note.notes" and update.expected_row() == {"content": "x", "id": 3200}
    delete = EntityDiffSpec.model_validate({
        "operation": "delete", "source": "agentsandbox", "namespace": "REMINDER",
        "entity_id_column": "reminder_id", "entity_id_value": "reminder_100"})
    assert delete.expected_row() == {"reminder_id": "reminder_100"}


@pytest.mark.parametrize("spec, message", [
    ({"operation": "update", "source": "appworld", "table": "a.b", "entity_id_value": 1, "expected_fields": {}},
     "an update spec needs 'entity_id_column'"),
    ({"operation": "update", "source": "appworld", "table": "a.b", "entity_id_column": "id",
      "entity_id_value": 1}, "needs 'expected_fields'"),
    ({"operation": "delete", "source": "appworld", "table": "a.b"},
     "a delete spec needs 'entity_id_column' and 'entity_id_value'"),
    ({"operation": "create", "source": "appworld", "table": "a.b"}, "needs 'entity_data'"),
    ({"operation": "create", "source": "appworld", "entity_data": {}}, "exactly one of 'table'.*got neither"),
    ({"operation": "create", "source": "appworld", "table": "a.b", "namespace": "X", "entity_data": {}},
     "got both"),
    ({"operation": "create", "source": "appworld", "table": "notes", "entity_data": {}}, "'app.table'"),
    ({"operation": "create", "source": "agentsandbox", "namespace": "a.b", "entity_data": {}}, "without a dot"),
    ({"operation": "upsert", "source": "appworld", "table": "a.b", "entity_data": {}}, "'create'"),
    ({"operation": "create", "source": "sqlite", "table": "a.b", "entity_data": {}}, "'appworld'"),
    ({"operation": "create", "source": "appworld", "table": "a.b", "entity_data": {},
      "column_similarity_measure": {"title": "column_fuzzy"}},
     r"column_similarity_measure\['title'\]: unknown similarity function 'column_fuzzy'; valid names: .*rouge"),
    ({"operation": "create", "source": "appworld", "table": "a.b", "entity_data": {},
      "column_similarity_measure": {"price": "column_close_similarity"}}, "cannot be used in a scenario file"),
])
def test_invalid_specs_get_precise_messages(spec, message):
    with pytest.raises(ValidationError, match=message):
        EntityDiffSpec.model_validate(spec)


def test_every_released_spec_validates():
    files = sorted(REFERENCE.glob("scenarios/*/*.json"))
    if not files:
        pytest.skip("reference scenarios not available")
    count = 0
    for path in files:
        for spec in json.loads(path.read_text()).get("entity_diff_specs", []):
            EntityDiffSpec.model_validate(spec)
            count += 1
    assert count > 0
