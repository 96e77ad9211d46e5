"""venmo."""

SEQUENCES = []
