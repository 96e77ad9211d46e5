"""The viewer's web app (aiohttp): the static front end in ``static/`` and a small JSON API over a RunCatalog.

Routes (the front end asks for ``api/<key>.json``; the static export writes the same keys as
``data/<key>.js``, see :mod:`mmtsb.view.export`):

- ``GET api/runs.json``: every run's card (configuration, summary, scenarios);
- ``GET api/runs/<run>/index.json``: the run's episode index (columns + rows; the list pages filter and page it);
- ``GET api/runs/<run>/episodes/<episode>.json``: one episode's page data;
- ``GET api/runs/<run>/judge_requests/<episode>.json``: what each model judge reads of it (annotation page);
- ``GET api/runs/<run>/labels/<annotator>.json`` / ``POST api/runs/<run>/labels/<annotator>``: human labels;
- ``GET runs/<run>/images/<sha256>.<ext>``, ``GET runs/<run>/figures/<name>``: files of the run folder.

Reading rows and trajectories is blocking work: it runs in threads, so one slow page never stalls the others.
The server listens on 127.0.0.1 by default; a label is saved only from a same-origin JSON request.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from mmtsb.jsonio import dumps_bytes
from mmtsb.report.data import RunDataError
from mmtsb.runner.results import IMAGES_DIR
from mmtsb.view.episode import EpisodeNotFound, episode_payload, judge_requests_payload
from mmtsb.view.labels import Label, LabelError, LabelStore, check_annotator
from mmtsb.view.runs import RunCatalog, RunEntry

STATIC_DIR = Path(str(resources.files("mmtsb.view") / "static"))
_IMAGE_NAME = re.compile(r"^[0-9a-f]{64}\.[a-z]{2,5}$")
_FIGURE_NAME = re.compile(r"^[A-Za-z0-9_.-]+\.(png|svg|jpg)$")
CATALOG: web.AppKey[RunCatalog] = web.AppKey("catalog", RunCatalog)
STORES: web.AppKey[dict[str, LabelStore]] = web.AppKey("label_stores", dict)


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=dumps_bytes(data), status=status, content_type="application/json")


def _error(status: int, message: str) -> web.Response:
    return json_response({"error": message}, status)


def _entry(request: web.Request) -> RunEntry:
    try:
        return request.app[CATALOG].get(request.match_info["run"])
    except KeyError as e:
        raise web.HTTPNotFound(text=str(e.args[0])) from None


async def _blocking(call: Callable[[], Any]) -> web.Response:
    """Run ``call`` in a thread; its known failures become JSON errors naming the problem."""
    try:
        return json_response(await asyncio.to_thread(call))
    except EpisodeNotFound as e:
        return _error(404, str(e.args[0]))
    except (RunDataError, LabelError, OSError) as e:
        return _error(400 if isinstance(e, LabelError) else 500, str(e))


async def runs(request: web.Request) -> web.Response:
    return await _blocking(request.app[CATALOG].summaries)


async def index(request: web.Request) -> web.Response:
    return await _blocking(_entry(request).index)


async def episode(request: web.Request) -> web.Response:
    entry = _entry(request)
    return await _blocking(lambda: episode_payload(entry, request.match_info["episode"]))


async def judge_requests(request: web.Request) -> web.Response:
    entry = _entry(request)
    return await _blocking(lambda: judge_requests_payload(entry, request.match_info["episode"]))


def label_store(request: web.Request, entry: RunEntry) -> LabelStore:
    stores = request.app[STORES]
    if entry.run_id not in stores:
        stores[entry.run_id] = LabelStore(entry.run_dir)
    return stores[entry.run_id]


async def get_labels(request: web.Request) -> web.Response:
    entry = _entry(request)
    store = label_store(request, entry)

    def read() -> dict[str, Any]:
        annotator = check_annotator(request.match_info["annotator"])
        return {"annotator": annotator, "run": store.run, "annotators": store.annotators(),
                "labels": [vars(label) for label in store.read(annotator)]}

    return await _blocking(read)


async def post_labels(request: web.Request) -> web.Response:
    """Save labels: ``{"labels": [{"episode_id", "party", "criterion", "label", "note"}]}`` (JSON only, and
    from this viewer's own pages: a JSON POST from another origin would need a CORS preflight we never grant)."""
    if request.content_type != "application/json":
        return _error(415, "labels are posted as application/json")
    origin = request.headers.get("Origin")
    if origin and origin.split("://", 1)[-1] != request.host:
        return _error(403, f"labels are saved from this viewer's own pages only (origin {origin})")
    entry = _entry(request)
    store = label_store(request, entry)
    try:
        body = await request.json()
        items = body["labels"]
        annotator = check_annotator(request.match_info["annotator"])
        labels = [Label(annotator=annotator, run=store.run, episode_id=str(i["episode_id"]), party=str(i["party"]),
                        criterion=str(i["criterion"]), label=str(i["label"]), note=str(i.get("note") or ""))
                  for i in items]
    except (ValueError, KeyError, TypeError) as e:
        return _error(400, f"a labels request is {{\"labels\": [{{episode_id, party, criterion, label, note}}]}} "
                           f"({type(e).__name__}: {e})")
    return await _blocking(lambda: {"saved": len(labels), "file": str(store.save(labels))})


def _run_file(folder: str, pattern: re.Pattern[str]) -> Callable[[web.Request], Any]:
    async def handler(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if not pattern.match(name):
            raise web.HTTPNotFound(text=f"not a {folder} file name: {name}")
        path = _entry(request).run_dir / folder / name
        if not path.is_file():
            raise web.HTTPNotFound(text=f"{folder}/{name} is not in this run folder")
        return web.FileResponse(path, headers={"Cache-Control": "max-age=86400"})

    return handler


async def home(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC_DIR / "index.html")


def make_app(catalog: RunCatalog) -> web.Application:
    """The viewer's app over ``catalog``."""
    app = web.Application(client_max_size=4 * 1024 * 1024)
    app[CATALOG] = catalog
    app[STORES] = {}
    app.router.add_get("/", home)
    app.router.add_get("/index.html", home)
    app.router.add_static("/static/", STATIC_DIR, show_index=False)
    app.router.add_get("/api/runs.json", runs)
    app.router.add_get("/api/runs/{run}/index.json", index)
    app.router.add_get("/api/runs/{run}/episodes/{episode}.json", episode)
    app.router.add_get("/api/runs/{run}/judge_requests/{episode}.json", judge_requests)
    app.router.add_get("/api/runs/{run}/labels/{annotator}.json", get_labels)
    app.router.add_post("/api/runs/{run}/labels/{annotator}", post_labels)
    app.router.add_get("/runs/{run}/images/{name}", _run_file(IMAGES_DIR, _IMAGE_NAME))
    app.router.add_get("/runs/{run}/figures/{name}", _run_file("figures", _FIGURE_NAME))
    return app


class BackgroundViewer:
    """The viewer served from a thread of this process on 127.0.0.1 (tests, benchmarks)::

        with BackgroundViewer(catalog) as base_url:   # e.g. "http://127.0.0.1:40123/"
            ...
    """

    def __init__(self, catalog: RunCatalog, port: int = 0) -> None:
        self.catalog, self.port = catalog, port
        self.base_url = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        runner = web.AppRunner(make_app(self.catalog), access_log=None)
        try:
            loop.run_until_complete(runner.setup())
            loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", self.port).start())
            self.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
        except BaseException as e:  # noqa: BLE001 (re-raised by __enter__)
            self._error = e
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.close()

    def __enter__(self) -> str:
        self._thread = threading.Thread(target=self._serve, name="mmtsb-view", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.base_url

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
