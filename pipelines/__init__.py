"""The scenario-generation pipeline (paper §5): six stages on Ray Data, from a folder of images to validated,
oracle-solvable scenario files in the reference format. Entry point: ``mmtsb generate``."""
