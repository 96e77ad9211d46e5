"""Scenario files: schema, loading, world building, validation, user scripts and reference solutions."""
