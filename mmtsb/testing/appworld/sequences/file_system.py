"""file_system."""

SEQUENCES = []
