"""The command line that regenerates a shipped scenario set: ``python -m mmtsb.authoring nominal|ui``."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

__all__ = ["SETS", "default_out", "main"]

#: set name -> (module with ``build(out_dir, only)``, what the set is)
SETS: dict[str, tuple[str, str]] = {
    "nominal": ("mmtsb.authoring.nominal", "the 14 starter scenarios"),
    "ui": ("mmtsb.authoring.ui", "the 6 UI-mode scenarios"),
}


def default_out(set_name: str) -> Path:
    """Where a set is committed: ``scenarios/<set>`` in the checkout this package lives in."""
    return Path(__file__).resolve().parents[2] / "scenarios" / set_name


def main(argv: list[str] | None = None) -> int:
    """Build one set (``--out DIR``, ``--only N ...``) and say how many files were written where."""
    parser = argparse.ArgumentParser(
        prog="python -m mmtsb.authoring",
        description="Regenerate a shipped scenario set (JSON files and images); the output is byte-identical "
                    "for the same source.")
    parser.add_argument("set", choices=list(SETS), help="; ".join(f"{k}: {v[1]}" for k, v in SETS.items()))
    parser.add_argument("--out", type=Path, help="output folder (default: scenarios/<set> in this checkout)")
    parser.add_argument("--only", type=int, nargs="*", help="scenario numbers to build (default: all)")
    args = parser.parse_args(argv)
    out = args.out or default_out(args.set)
    build = importlib.import_module(SETS[args.set][0]).build
    paths = build(out, set(args.only) if args.only else None)
    print(f"wrote {len(paths)} files under {out}")
    return 0
