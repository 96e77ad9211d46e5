"""``mmtsb report RUN_DIR... [--out DIR] [--wandb] [--paper]``: rebuild one run's report, compare several runs
(warning when they cover different scenario sets), summarize the jobs of a ``--multirun`` sweep folder, or lay
runs out as the paper's tables (``--paper``, :mod:`mmtsb.report.paper`)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from mmtsb.report.data import RunDataError


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = parser or argparse.ArgumentParser(prog="mmtsb report",
                                          description="Rebuild the report of a run folder, or compare several.")
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="run folders (episodes.parquet/), or one --multirun sweep folder (a summary across its jobs)")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (one run: default the run folder; several: default "
                        "outputs/compare/<timestamp>)")
    p.add_argument("--paper", action="store_true",
                   help="lay the runs out as the paper's tables and figures (Tables 2, 3, 4, 11, 12, the interface "
                        "and toolbox ablations, Figures 5-7); a folder of runs (a sweep) counts as its runs; "
                        "default --out outputs/paper/<timestamp>")
    p.add_argument("--wandb", action="store_true",
                   help="also log each run to W&B (offline without WANDB_API_KEY; needs the wandb extra)")
    return p


def run(args: argparse.Namespace) -> int:
    from mmtsb.report.sweep import is_sweep, sweep_report
    from mmtsb.report.markdown import agent_sr_label

    dirs: list[Path] = args.run_dirs
    if getattr(args, "paper", False):
        return run_paper(args)
    try:
        if len(dirs) == 1 and is_sweep(dirs[0]):
            result = sweep_report(dirs[0], args.out)
            for j in result["jobs"]:
                sr = "no results" if not j["has_results"] else (
                    f"{agent_sr_label(j)} –" if j["agent_sr"] is None else f"{agent_sr_label(j)} {100 * j['agent_sr']:.1f}%")
                print(f"{j['job']}: {' '.join(j['overrides']) or '(no overrides)'}: {sr}")
            _warn(result["warnings"])
            print(f"wrote {result['report']}")
        elif len(dirs) == 1:
            from mmtsb.report.build import build_report

            out = args.out or dirs[0]
            s = build_report(dirs[0], out_dir=out)
            sr = "–" if s["agent_sr"] is None else f"{100 * s['agent_sr']:.1f}%"
            f1 = "–" if s["entity_f1"] is None else f"{s['entity_f1']:.3f}"
            print(f"{s['label']}: {s['n_episodes']} episodes, {agent_sr_label(s)} {sr}, Entity F1 {f1}, "
                  f"not evaluated {s.get('not_evaluated', s['infra_failures'])}")
            print(f"wrote {Path(out) / 'report.md'}, {Path(out) / 'summary.json'}, {Path(out) / 'figures'}/")
        else:
            from mmtsb.report.compare import compare_runs

            out = args.out or Path("outputs") / "compare" / time.strftime("%Y%m%d_%H%M%S")
            result = compare_runs(dirs, out)
            for s in result["runs"]:
                sr = "–" if s["agent_sr"] is None else f"{100 * s['agent_sr']:.1f}%"
                print(f"{s['label']}: {s['n_episodes']} episodes, {agent_sr_label(s)} {sr}")
            _warn(result["warnings"])
            print(f"wrote {result['report']}")
        if args.wandb:
            from mmtsb.report.wandb_log import WandbUnavailable, log_wandb

            try:
                for d in dirs:
                    print(f"wandb: {log_wandb(d)}")
            except WandbUnavailable as e:
                print(f"mmtsb report: {e}", file=sys.stderr)
                return 2
    except RunDataError as e:
        print(f"mmtsb report: {e}", file=sys.stderr)
        return 2
    return 0


def run_paper(args: argparse.Namespace) -> int:
    """``--paper``: the paper's tables and figures (``mmtsb.report.paper``), and their W&B form with --wandb."""
    from mmtsb.report.paper import paper_report

    out = args.out or Path("outputs") / "paper" / time.strftime("%Y%m%d_%H%M%S")
    try:
        result = paper_report(args.run_dirs, out)
    except RunDataError as e:
        print(f"mmtsb report: {e}", file=sys.stderr)
        return 2
    for r in result["runs"]:
        print(f"{r['label']}: {r['summary']['n_episodes']} episodes ({r['run_dir']})")
    print(f"wrote {result['report']}, {Path(out) / 'paper.json'}, {Path(out) / 'figures'}/")
    if args.wandb:
        from mmtsb.report.paper_wandb import log_paper_wandb
        from mmtsb.report.wandb_log import WandbUnavailable

        try:
            print(f"wandb: {log_paper_wandb(result, Path(out))}")
        except WandbUnavailable as e:
            print(f"mmtsb report: {e}", file=sys.stderr)
            return 2
    return 0


def _warn(warnings: list[str]) -> None:
    for w in warnings:
        print(f"mmtsb report: warning: {w}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
