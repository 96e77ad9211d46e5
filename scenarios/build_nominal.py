"""Regenerate ``scenarios/nominal/`` (JSON files and images) from mmtsb.authoring.nominal, byte-identically.

Usage: ``python scenarios/build_nominal.py [--out DIR] [--only N ...]`` (same as
``python -m mmtsb.authoring nominal``; needs mmtsb installed, e.g. ``pip install -e .``).
"""

import sys

from mmtsb.authoring.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["nominal", *sys.argv[1:]]))
