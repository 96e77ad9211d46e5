"""Agreement of our apps with AppWorld's real apps on the harness's call sequences, per app.

AppWorld runs in its own virtual environment (never ours: its licence and pins keep it apart). Set it up once:

    python3 -m venv /work/appworld-venv && /work/appworld-venv/bin/pip install appworld
    /work/appworld-venv/bin/appworld install        # unpacks its apps; no data download is needed

then run ``.venv/bin/python benchmarks/appworld_agreement.py [APP ...] [--show-disagreements]``
(``MMTSB_APPWORLD_PYTHON`` points at another interpreter). It prints outcome and table-change agreement per app.
"""

from __future__ import annotations

import argparse
import sys
import time

from mmtsb.testing.appworld.agreement import appworld_python, measure
from mmtsb.testing.appworld.sequences import all_sequences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", help="only sequences of these AppWorld apps")
    parser.add_argument("--show-disagreements", action="store_true", help="list each disagreeing call")
    args = parser.parse_args()
    python = appworld_python()
    if python is None:
        print("AppWorld is not installed (no interpreter at MMTSB_APPWORLD_PYTHON or /work/appworld-venv with "
              "`appworld install` done); see this script's docstring.", file=sys.stderr)
        return 2
    started = time.perf_counter()
    agreement = measure(all_sequences(tuple(args.apps) or None), python)
    print(agreement.table())
    print(f"\n{sum(a.calls for a in agreement.apps.values())} calls compared in "
          f"{time.perf_counter() - started:.0f} s")
    for error in agreement.harness_errors:
        print("harness:", error)
    if args.show_disagreements:
        for name, a in sorted(agreement.apps.items()):
            for d in a.disagreements:
                print(f"{name}: {d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
