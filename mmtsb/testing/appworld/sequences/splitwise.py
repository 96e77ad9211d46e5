"""splitwise."""

SEQUENCES = []
