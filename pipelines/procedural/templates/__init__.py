"""The flow templates, one module per information-flow type, by flow name."""

from __future__ import annotations

from pipelines.procedural.templates import (
    aggregate, compare, compute, cross_reference, filter as filter_, lookup_chain, validate,
)
from pipelines.procedural.templates.base import FlowTemplate

__all__ = ["TEMPLATES", "FlowTemplate"]

#: every template, by flow (the paper's order)
TEMPLATES: dict[str, FlowTemplate] = {t.flow: t for t in (
    aggregate.TEMPLATE, compare.TEMPLATE, filter_.TEMPLATE, compute.TEMPLATE, validate.TEMPLATE,
    lookup_chain.TEMPLATE, cross_reference.TEMPLATE)}
