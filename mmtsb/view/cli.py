"""``mmtsb view [RUN_DIR...] [--port P] [--host H] [--export DIR]``: browse runs in a local web app, or write a
static copy of it that opens from disk."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from mmtsb.report.data import RunDataError
from mmtsb.view.links import DEFAULT_PORT

DEFAULT_RUNS = Path("outputs")


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = parser or argparse.ArgumentParser(prog="mmtsb view", description=__doc__)
    p.add_argument("run_dirs", nargs="*", type=Path, metavar="RUN_DIR",
                   help="run folders, or folders holding run folders (a --multirun sweep, outputs/); "
                        f"default: {DEFAULT_RUNS}/")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to serve on (default {DEFAULT_PORT}, the one report.md links to; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--export", type=Path, metavar="DIR",
                   help="write a static copy that opens from disk (DIR/index.html) instead of serving")
    return p


async def serve(catalog, host: str, port: int) -> None:  # type: ignore[no-untyped-def]
    """Serve until interrupted; prints the address once listening."""
    from aiohttp import web

    from mmtsb.view.server import make_app

    runner = web.AppRunner(make_app(catalog), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    print(f"mmtsb view: {len(catalog.runs)} run(s) at http://{host}:{bound}/  (Ctrl-C to stop)", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def run(args: argparse.Namespace) -> int:
    from mmtsb.view.runs import RunCatalog

    paths = list(args.run_dirs) or [DEFAULT_RUNS]
    try:
        catalog = RunCatalog.from_paths(paths)
    except RunDataError as e:
        print(f"mmtsb view: {e}", file=sys.stderr)
        return 2
    if args.export is not None:
        from mmtsb.view.export import ExportError, export_static

        try:
            result = export_static(catalog, args.export, progress=lambda line: print(f"mmtsb view: {line}", flush=True))
        except ExportError as e:
            print(f"mmtsb view: {e}", file=sys.stderr)
            return 2
        for rid, counts in result["runs"].items():
            print(f"mmtsb view: {rid}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        print(f"mmtsb view: wrote {result['index']} (open it in a browser)")
        return 0
    try:
        asyncio.run(serve(catalog, args.host, args.port))
    except KeyboardInterrupt:
        pass
    except OSError as e:   # the port is taken, or the address is not this machine's
        print(f"mmtsb view: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
