"""Every implemented tool matches ../shared/reference/tool_catalog.json: parameter names and order, types,
required flags, defaults, domain, role visibility, mutation flag and state dependencies."""

from __future__ import annotations

import json

import pytest

from testkit import REFERENCE
from mmtsb.tools.toolbox import full_registry

CATALOG_PATH = REFERENCE / "tool_catalog.json"
pytestmark = pytest.mark.skipif(not CATALOG_PATH.exists(), reason="reference tool_catalog.json is absent")


def _catalog() -> dict[str, dict]:
    return {t["name"]: t for t in json.loads(CATALOG_PATH.read_text())}


def _ours():
    return list(full_registry())


def test_every_registered_tool_is_in_the_catalog():
    catalog = _catalog()
    extra = [s.name for s in _ours() if s.name not in catalog]
    assert not extra, f"tools not in the reference catalog: {extra}"


@pytest.mark.parametrize("spec", _ours(), ids=lambda s: s.name)
def test_signature_matches_catalog(spec):
    entry = _catalog()[spec.name]
    ours = [(p.name, p.catalog_type, p.required, p.catalog_default) for p in spec.params]
    theirs = [(p["name"], p["type"], p["required"], p["default"]) for p in entry["params"]]
    assert ours == theirs
    assert spec.domain == entry["domain"]
    assert list(spec.visible_to) == entry["visible_to"]
    assert spec.mutates == entry["mutates"], "mutates flag differs"
    assert bool(spec.requires.auth) == entry["requires_auth"], "requires_auth differs"
    assert (spec.requires.network or spec.requires.wifi) == entry["requires_network"], "requires_network differs"
    if entry.get("uses_token_of") and not entry["requires_auth"]:
        assert spec.requires.token_of == entry["uses_token_of"]


@pytest.mark.parametrize("spec", _ours(), ids=lambda s: s.name)
def test_openai_schema_is_well_formed(spec):
    schema = spec.openai_schema()
    fn = schema["function"]
    assert fn["name"] == spec.name and fn["description"]
    assert set(fn["parameters"]["required"]) <= set(fn["parameters"]["properties"])
    json.dumps(schema)
