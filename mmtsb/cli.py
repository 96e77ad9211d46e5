"""The ``mmtsb`` command: ``tools list``, ``scenarios validate``, ``scenarios gold-check``, ``scenarios stats``,
``run``, ``stop``, ``report``, ``view``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any
from collections.abc import Sequence

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def _registry_for_level(level: str):
    from mmtsb.tools.levels import registry_for_level

    try:
        return registry_for_level(level)
    except ValueError as e:
        raise SystemExit(f"mmtsb: {e}") from None


def cmd_tools_list(args: argparse.Namespace) -> int:
    registry = _registry_for_level(args.level)
    rows = [{"name": s.name, "domain": s.domain,
             "params": [{"name": p.name, "type": p.catalog_type, "required": p.required,
                         "default": _jsonable(p.catalog_default)} for p in s.params],
             "visible_to": list(s.visible_to), "mutates": s.mutates} for s in registry]
    if args.json:
        print(json.dumps(rows))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(rows)} tools at level {args.level}")
    # names are never cut or wrapped, however narrow the terminal: the other columns fold instead
    table.add_column("name", no_wrap=True, min_width=max((len(r["name"]) for r in rows), default=4))
    for col in ("domain", "params", "visible to", "mutates"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(r["name"], r["domain"], ", ".join(p["name"] + ("" if p["required"] else "?") for p in r["params"]),
                      ",".join(r["visible_to"]), "yes" if r["mutates"] else "")
    console = Console()
    if not console.is_terminal:   # piped or redirected: no terminal width to respect, so nothing folds
        console = Console(width=max(console.width, 240))
    console.print(table)
    return 0


def _jsonable(v: Any) -> Any:
    try:
        json.dumps(v)
        return v
    except TypeError:
        return repr(v)


def _scenario_paths(raw: Sequence[str]) -> list[Path]:
    from mmtsb.scenarios.loader import expand_paths

    paths = expand_paths(raw)
    if not paths:
        raise SystemExit("mmtsb: no scenario files found in " + " ".join(raw))
    return paths


def cmd_validate(args: argparse.Namespace) -> int:
    from mmtsb.scenarios.validate import validate_file

    registry = _registry_for_level("full")
    reports = [validate_file(p, registry, image_root=args.image_root, images=args.images)
               for p in _scenario_paths(args.paths)]
    if args.json:
        print(json.dumps([r.to_dict() for r in reports]))
    else:
        for r in reports:
            status = "ok" if r.ok else "FAIL"
            print(f"{status:4} {r.file}")
            for e in r.errors:
                print(f"     error: {e}")
            if r.missing_tools:
                print(f"     missing tools (not implemented yet): {', '.join(r.missing_tools)}")
            for w in r.warnings:
                print(f"     warning: {w}")
        n_ok = sum(r.ok for r in reports)
        print(f"{n_ok}/{len(reports)} scenario file(s) valid")
    return 0 if all(r.ok for r in reports) else 1


def cmd_stats(args: argparse.Namespace) -> int:
    from mmtsb.scenarios.stats import format_table, set_stats

    try:
        stats = set_stats(args.path)
    except FileNotFoundError as e:
        print(f"mmtsb scenarios stats: {e}", file=sys.stderr)
        return 2
    print(json.dumps(stats.to_dict(), indent=2) if args.json else format_table(stats))
    return 0 if stats.n else 1


def cmd_gold_check(args: argparse.Namespace) -> int:
    from mmtsb.scenarios.loader import ScenarioError
    from mmtsb.scenarios.validate import gold_check_file

    results = []
    ok = True
    for p in _scenario_paths(args.paths):
        try:
            r = gold_check_file(p, image_root=args.image_root, images=args.images,
                                strict_reference=args.strict_reference)
            row = {"file": r["file"], "f1_gold": r["f1_gold"], "f1_untouched": r["f1_untouched"],
                   "unsatisfiable": r["unsatisfiable"]}
            passed = r["passed"]
        except ScenarioError as e:
            row = {"file": str(p), "f1_gold": None, "f1_untouched": None, "error": "; ".join(e.problems)}
            passed = False
        except Exception as e:  # a file the world cannot take: reported against it, the other files go on
            row = {"file": str(p), "f1_gold": None, "f1_untouched": None,
                   "error": f"cannot gold-check: {type(e).__name__}: {e}"}
            passed = False
        ok &= passed
        results.append(row)
        if not args.json:
            if "error" in row:
                print(f"FAIL {row['file']}: {row['error']}")
            else:
                print(f"{'ok' if passed else 'FAIL':4} {row['file']}: F1 gold={row['f1_gold']:.3f} "
                      f"untouched={row['f1_untouched']:.3f}")
                for problem in row["unsatisfiable"]:
                    print(f"     {problem}")
    if args.json:
        print(json.dumps(results))
    return 0 if ok else 1


def cmd_episode(args: argparse.Namespace) -> int:
    import asyncio

    from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig, apply_overrides
    from mmtsb.episode.play import play_scenario
    from mmtsb.scenarios.loader import ScenarioError

    try:
        cfg = apply_overrides(EpisodeConfig(), list(args.overrides))
    except ConfigError as e:
        print(f"mmtsb episode: {e}", file=sys.stderr)
        return 2
    if args.images:
        cfg.images = args.images
    if args.image_root:
        cfg.image_root = args.image_root
    out_dir = Path(args.output_dir) if args.output_dir else None
    try:
        result = asyncio.run(play_scenario(args.scenario, cfg, trajectory_dir=out_dir))
    except ScenarioError as e:
        print(f"mmtsb episode: {e}", file=sys.stderr)
        return 2
    from mmtsb.episode.summary import render_summary

    if not args.json:
        render_summary(result)
    else:
        print(json.dumps(result.summary()))
    return 0 if result.end_reason != "error" else 1


def _recorded_kind(run_dir: Path) -> str | None:
    """``runner.kind`` from a run folder's config.yaml, if it says."""
    try:
        import yaml

        config = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8"))
        return str(config["runner"]["kind"])
    except Exception:  # noqa: BLE001 (no config, or not one of ours)
        return None


def cmd_stop(args: argparse.Namespace) -> int:
    """End what a run left running (a killed driver's local Ray), from its folder's ray_session.json."""
    from mmtsb.runner.leftovers import end_leftovers

    run_dir = Path(args.run_dir)
    if not run_dir.is_dir():
        print(f"mmtsb stop: {run_dir} is not a folder", file=sys.stderr)
        return 2
    report = end_leftovers(run_dir, stop_live_driver=True)
    if report.record is None and _recorded_kind(run_dir) == "cluster":
        report.lines.append(f"{run_dir} ran on an existing Ray cluster: mmtsb never stops a cluster it did not "
                            "start (stop the cluster itself with `ray stop` on its nodes if you mean to)")
    for line in report.lines:
        print(line)
    return 0 if report.ok else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mmtsb", description="Evaluate visually grounded tool-calling agents.")
    sub = parser.add_subparsers(dest="command", required=True)

    tools = sub.add_parser("tools", help="inspect the toolbox").add_subparsers(dest="tools_command", required=True)
    tl = tools.add_parser("list", help="list every registered tool")
    tl.add_argument("--json", action="store_true", help="print JSON")
    tl.add_argument("--level", default="full", choices=("full", "medium", "compact", "mini"),
                    help="toolbox level (the reference's FULL / MEDIUM / COMPACT / MINI)")
    tl.set_defaults(func=cmd_tools_list)

    scen = sub.add_parser("scenarios", help="check scenario files").add_subparsers(dest="scen_command", required=True)
    for name, func, helptext in (("validate", cmd_validate, "check files: schema, world loading, tables, tools"),
                                 ("gold-check", cmd_gold_check, "score each file's expected changes (F1 must be 1)")):
        p = scen.add_parser(name, help=helptext)
        p.add_argument("paths", nargs="+", help="scenario files or directories")
        p.add_argument("--json", action="store_true", help="print JSON")
        p.add_argument("--images", choices=("require", "placeholder"), default="require",
                       help="require real images, or draw placeholders for missing ones")
        p.add_argument("--image-root", default=os.environ.get("MMTSB_IMAGE_ROOT"),
                       help="folder that image_paths are relative to (default: $MMTSB_IMAGE_ROOT, else the file's folder)")
        if name == "gold-check":
            p.add_argument("--strict-reference", action="store_true",
                           help="score exactly as the reference does (macro F1, its guardrails)")
        p.set_defaults(func=func)
    st = scen.add_parser("stats", help="a set's coverage: scenarios per flow, arrival, challenge, domain, image "
                                       "category, source type, number of images and rounds")
    st.add_argument("path", help="a scenario folder (its *.json files) or one file")
    st.add_argument("--json", action="store_true", help="print JSON: counts per axis and the balance check")
    st.set_defaults(func=cmd_stats)
    sub.add_parser("run", help="the experiment platform (Hydra app): `mmtsb run [overrides] [--multirun]`; "
                              "see `mmtsb run --help`", add_help=False)

    stop = sub.add_parser("stop", help="end what a run left running: the local Ray processes of a killed "
                                       "`mmtsb run` (or a run still going), from RUN_DIR/ray_session.json",
                          description="End the processes of the local Ray that a run started, as recorded in "
                                      "RUN_DIR/ray_session.json (each by PID and start time: a process that "
                                      "reused a PID is never touched), and the run's driver if it still runs. "
                                      "A run on an existing cluster (runner=cluster) never stops the cluster. "
                                      "Exit 0 when everything is ended or nothing was left; 1 when something "
                                      "survived or the run was recorded on another host.")
    stop.add_argument("run_dir", help="the run folder (hydra.run.dir of the run)")
    stop.set_defaults(func=cmd_stop)

    from mmtsb.data import cli as data_cli

    data = sub.add_parser("data", help="download data: `mmtsb data fetch reference [--dest DIR] [--sources ...]`")
    data_cli.build_parser(data)

    sub.add_parser("serve", help="serve an open-weight model with vLLM: `mmtsb serve MODEL [key=value] "
                                "[--gpus 0,1] [--dry-run]`", add_help=False)

    from mmtsb.view import cli as view_cli

    view = sub.add_parser("view", help="browse runs in a local web app (episodes, conversations, diffs, judges, "
                                       "labels), or --export a static copy")
    view_cli.build_parser(view)
    view.set_defaults(func=view_cli.run)

    from mmtsb.report import cli as report_cli

    rep = sub.add_parser("report", help="rebuild the report of a run, or compare several runs side by side")
    report_cli.build_parser(rep)
    rep.set_defaults(func=report_cli.run)

    from mmtsb.judging import cli as rejudge_cli

    rj = sub.add_parser("rejudge", help="judge a run's stored trajectories again with another judge, or the same "
                                        "judge k times (judge_repeats=k), without replaying the agents")
    rejudge_cli.build_parser(rj)
    rj.set_defaults(func=rejudge_cli.run)

    from mmtsb.eval.agreement import cli as agreement_cli

    ag = sub.add_parser("agreement", help="the judge study over run folders and human labels: kappa, confusion "
                                          "matrices, rankings across judges, judge and rollout variance, pass^k")
    agreement_cli.build_parser(ag)
    ag.set_defaults(func=agreement_cli.run)

    ep = sub.add_parser("episode", help="play one scenario (default: oracle agent, scripted user, static judge)")
    ep.add_argument("scenario", help="a scenario JSON file")
    ep.add_argument("overrides", nargs="*",
                    help="key=value settings, e.g. agent=tool_use agent_model.model=openai/gpt-5.4 "
                         "agent_model.api_base=http://127.0.0.1:8000/v1 user=llm judge=llm budgets.max_steps=40")
    ep.add_argument("--json", action="store_true", help="print the summary as JSON (last line)")
    ep.add_argument("--output-dir", help="write the trajectory JSON into this folder")
    ep.add_argument("--images", choices=("require", "placeholder"), help="missing images: fail or draw placeholders")
    ep.add_argument("--image-root", default=os.environ.get("MMTSB_IMAGE_ROOT"),
                    help="folder that image_paths are relative to (default: the scenario file's folder)")
    ep.set_defaults(func=cmd_episode)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["run"]:  # a Hydra application: overrides, --multirun and hydra.* options pass straight through
        from mmtsb.config.app import main as run_main

        return run_main(argv[1:])
    if argv[:1] == ["generate"]:  # the generation pipeline's Hydra application (and its review/import commands)
        from pipelines.app import main as generate_main

        return generate_main(argv[1:])
    if argv[:1] == ["serve"]:  # options mixed with key=value edits of the model's serve block
        from mmtsb.serve.cli import main as serve_main

        return serve_main(argv[1:])
    parser = build_parser()
    # key=value overrides may come before or after options (argparse stops a positional list at the first
    # option), so collect stray ones for the commands that take them
    args, extra = parser.parse_known_args(argv)
    stray = [x for x in extra if "=" in x and not x.startswith("-")]
    unknown = [x for x in extra if x not in stray]
    if unknown or (stray and args.command not in ("episode", "rejudge")):
        parser.error(f"unrecognized arguments: {' '.join(unknown or stray)}")
    if stray:
        args.overrides = [*args.overrides, *stray]
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
