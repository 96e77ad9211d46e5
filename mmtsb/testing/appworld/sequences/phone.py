"""phone."""

SEQUENCES = []
