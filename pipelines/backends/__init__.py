"""Backends of the model-backed stages: ``procedural`` (offline, deterministic) and ``llm`` (any model)."""
