"""todoist."""

SEQUENCES = []
