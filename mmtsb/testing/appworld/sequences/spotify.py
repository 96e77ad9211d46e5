"""spotify."""

SEQUENCES = []
