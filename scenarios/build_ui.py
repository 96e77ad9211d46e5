"""Regenerate ``scenarios/ui/`` (JSON files and images) from mmtsb.authoring.ui, byte-identically.

Usage: ``python scenarios/build_ui.py [--out DIR] [--only N ...]`` (same as ``python -m mmtsb.authoring ui``;
needs mmtsb installed, e.g. ``pip install -e .``).
"""

import sys

from mmtsb.authoring.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["ui", *sys.argv[1:]]))
