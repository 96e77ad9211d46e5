"""``mmtsb agreement RUN_DIR... [--labels FILE...] [--out DIR]``: the judge study over run folders (their own
judges and every ``mmtsb rejudge`` label) and human labels files; writes agreement.json, agreement.md and
figures/."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

PROG = "mmtsb agreement"
EXIT_INPUT_ERROR = 2


def build_parser(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="run folders; each brings its own judge and its re-judged labels (rejudge/)")
    p.add_argument("--labels", nargs="+", default=[], metavar="FILE",
                   help="human labels: CSV or Parquet files, one per annotator, or folders of them (columns "
                        "annotator, run, episode_id, party, criterion, label, note)")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: RUN_DIR/agreement for one run, outputs/agreement/<timestamp> "
                        "for several)")
    return p


def run(args: argparse.Namespace) -> int:
    from mmtsb.eval.agreement import LabelsError, write_study
    from mmtsb.report.data import RunDataError

    out = args.out or (args.run_dirs[0] / "agreement" if len(args.run_dirs) == 1
                       else Path("outputs") / "agreement" / time.strftime("%Y%m%d_%H%M%S"))
    try:
        result = write_study(args.run_dirs, args.labels, out)
    except (LabelsError, RunDataError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    for note in result["notes"]:
        print(f"{PROG}: {note}", file=sys.stderr)
    for party, data in result["agreement"].items():
        for judge, v in (data["overall"].get("vs_majority") or {}).items():
            print(f"{party}: {judge} vs human majority: n={v['n']} raw={_f(v['raw'])} kappa={_f(v['kappa'])} "
                  f"FPR={_f(v['fpr'])} FNR={_f(v['fnr'])}")
    print(f"wrote {out / 'agreement.md'}, {out / 'agreement.json'}, {out / 'figures'}/")
    return 0


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"
