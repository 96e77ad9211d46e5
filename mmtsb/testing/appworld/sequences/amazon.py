"""amazon."""

SEQUENCES = []
