"""gmail."""

SEQUENCES = []
