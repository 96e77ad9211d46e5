"""Judges: static (offline) and rubric LLM judges."""
