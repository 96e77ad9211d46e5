"""``mmtsb rejudge RUN_DIR judge=... [judge_repeats=k] [label=...] [parties=agent,user] [concurrency=8]``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

PROG = "mmtsb rejudge"
EXIT_CONFIG_ERROR = 2


def build_parser(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run folder (episodes.parquet/, trajectories/)")
    p.add_argument("overrides", nargs="*", metavar="key=value",
                   help="the judge as in `mmtsb run` (judge=gpt_5_4, judge.model.api_base=..., "
                        "model@judge.model=<entry>) and options: judge_repeats=k (default 1), label=NAME (default: "
                        "the judge entry's name), parties=agent,user (default: all the judge judges), "
                        "concurrency=8, images=require|placeholder, image_root=DIR, replace=true, report=false")
    return p


def run(args: argparse.Namespace) -> int:
    from mmtsb.judging.rejudge import RejudgeConfigError, compose_judge, judge_problems, rejudge, split_arguments
    from mmtsb.judging.store import StoreError
    from mmtsb.report.data import RunDataError

    try:
        options, overrides = split_arguments(args.overrides)
        spec = compose_judge(overrides)
        if problems := judge_problems(spec):
            raise RejudgeConfigError("; ".join(problems))
        outcome = asyncio.run(rejudge(args.run_dir, spec, options))
    except (RejudgeConfigError, StoreError, RunDataError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    print(f"{PROG}: {outcome.label}: {outcome.judged} verdict(s) judged ({outcome.model_calls} model call(s)), "
          f"{outcome.cached} already stored, {len(outcome.skipped)} episode(s) that did not play skipped, "
          f"{outcome.judge_errors} judge error(s) -> {outcome.folder}")
    for problem in outcome.problems:
        print(f"{PROG}: not judged: {problem}", file=sys.stderr)
    if outcome.report is not None:
        print(f"{PROG}: report rebuilt: {outcome.report}")
    return 1 if outcome.problems or outcome.judge_errors else 0
