"""Judges: static (offline) and rubric LLM judges; ``judge=none`` runs none (declared in :mod:`.static`)."""
