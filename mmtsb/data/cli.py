"""``mmtsb data fetch reference [--dest DIR] [--sources ...] [--all]``: download the released benchmark."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mmtsb.data.image_sources import DEFAULT_HIERTEXT_URL, IMAGE_SOURCES
from mmtsb.data.manifest import ManifestError
from mmtsb.data.reference import (
    DEFAULT_DEST, DEFAULT_SCENARIOS_URL, SOURCES, FetchOptions, FetchReport, fetch_reference,
)


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    sub = parser.add_subparsers(dest="data_command", required=True)
    fetch = sub.add_parser("fetch", help="download a benchmark's files and images")
    fetch.add_argument("what", choices=("reference",),
                       help="reference: the released MM-ToolSandBox scenario files and the images they name")
    fetch.add_argument("--dest", type=Path, default=DEFAULT_DEST,
                       help=f"fetch folder (default {DEFAULT_DEST}, where dataset=reference looks): scenarios/, "
                            "images/, manifest.json")
    fetch.add_argument("--sources", nargs="+", choices=SOURCES, default=list(SOURCES), metavar="SOURCE",
                       help=f"what to fetch (default: all): {', '.join(SOURCES)}")
    fetch.add_argument("--all", dest="everything", action="store_true",
                       help="every image of each source (about 7 GB), not only those the scenario files name")
    fetch.add_argument("--scenarios-url", default=DEFAULT_SCENARIOS_URL,
                       help="archive (tar or zip) of the scenario repository (default: the public repository's "
                            "main branch)")
    fetch.add_argument("--hiertext-url", default=DEFAULT_HIERTEXT_URL, help="HierText's test.tgz")
    fetch.add_argument("--hf-endpoint", default=None,
                       help="Hugging Face hub endpoint (default: huggingface_hub's, i.e. $HF_ENDPOINT or the hub)")
    fetch.add_argument("--hf-cache-dir", type=Path, default=None,
                       help="huggingface_hub cache for raw hub files (default: its own, $HF_HOME)")
    fetch.add_argument("--retries", type=int, default=5, help="attempts per request on transient errors (5)")
    fetch.add_argument("--jobs", type=int, default=8, help="parallel file downloads (8)")
    fetch.add_argument("--json", action="store_true", help="print the outcome as JSON (last line), no bars")
    fetch.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        options = FetchOptions(dest=args.dest, sources=tuple(args.sources), everything=args.everything,
                               scenarios_url=args.scenarios_url, hiertext_url=args.hiertext_url,
                               hf_endpoint=args.hf_endpoint, hf_cache_dir=args.hf_cache_dir, attempts=args.retries,
                               jobs=args.jobs, progress=not args.json and sys.stderr.isatty())
        report = fetch_reference(options)
    except (ValueError, ManifestError) as exc:
        print(f"mmtsb data fetch: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print_report(report)
    return 0 if report.ok else 1


def print_report(report: FetchReport) -> None:
    print(f"fetch folder {report.dest}: {report.scenario_files} scenario file(s), images under {report.image_root}")
    for name, s in report.sources.items():
        title = "scenario files" if name == "scenarios" else IMAGE_SOURCES[name].title
        status = "ok" if s.ok else "FAIL"
        wanted = "all" if s.wanted is None else s.wanted
        line = f"{status:4} {name:15} wanted {wanted}, verified {s.verified}, saved {s.saved}"
        print(line + (f" ({s.skipped})" if s.skipped else "") + f"  [{title}]")
        if s.error:
            print(f"     error: {s.error}")
        for rel in s.missing[:20]:
            print(f"     missing: {rel}")
        if len(s.missing) > 20:
            print(f"     ... and {len(s.missing) - 20} more")
    for item in report.unknown_images:
        print(f"     image of no known source: {item}")
    if report.ok:
        print("done: run `mmtsb run dataset=reference images=require ...`")
