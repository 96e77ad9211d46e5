"""Local stand-ins for the fetch's sources, on 127.0.0.1: a plain file server and a Hugging Face hub.

``FakeFileServer`` serves bytes at URL paths with ``ETag``, ``Content-Length`` and ``Range`` (206) support,
and can inject faults into the next GETs of a path: ``"503"`` (a server error), ``"cut"`` (the body stops
half-way and the connection closes) or ``"no-range"`` (a range request answered with the whole file).
``FakeHub`` adds the hub API that huggingface_hub calls for dataset repositories: repository info
(``/api/datasets/<repo>[/revision/<rev>]``), the file tree (``/api/datasets/<repo>/tree/<rev>[/<path>]``) and
file downloads (``/datasets/<repo>/resolve/<rev>/<path>``, with ``X-Repo-Commit``). Point huggingface_hub at
it with ``HF_ENDPOINT=<server.endpoint>`` (or ``endpoint=``).

    with FakeHub() as hub:
        hub.add_dataset("org/name", {"README.md": b"...", "data/test-00000-of-00001.parquet": data})
        ...  # HF_ENDPOINT=hub.endpoint; hub.requests lists what was asked for
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from mmtsb.testing.background import BackgroundServer

RepoHandler = Callable[[web.Request, str, dict[str, bytes]], Awaitable[web.StreamResponse]]


class FakeFileServer(BackgroundServer):
    """Files by URL path, served in a daemon thread with its own event loop (a context manager)."""

    NAME = "fake file server"

    def __init__(self, files: dict[str, bytes] | None = None, *, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host, port)
        self.files: dict[str, bytes] = dict(files or {})
        self.faults: dict[str, list[str]] = defaultdict(list)
        self._log: list[tuple[str, str, str | None]] = []
        self._lock = threading.Lock()

    # ---- what tests use --------------------------------------------------------------------------------
    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str) -> str:
        return self.endpoint + "/" + path.lstrip("/")

    def fail_next(self, path: str, *faults: str) -> None:
        """Faults for the next GETs of ``path`` (one per request): ``503``, ``cut`` or ``no-range``."""
        with self._lock:
            self.faults["/" + path.lstrip("/")].extend(faults)

    @property
    def requests(self) -> list[tuple[str, str, str | None]]:
        """(method, path, Range header) of every request, in order."""
        with self._lock:
            return list(self._log)

    def gets(self, contains: str = "") -> list[str]:
        """Paths of the GET requests whose path contains ``contains``."""
        return [p for m, p, _ in self.requests if m == "GET" and contains in p]

    # ---- serving ---------------------------------------------------------------------------------------
    def _note(self, request: web.Request) -> None:
        with self._lock:
            self._log.append((request.method, unquote(request.path), request.headers.get("Range")))

    def _fault(self, request: web.Request, key: str) -> str | None:
        if request.method != "GET":
            return None
        with self._lock:
            queue = self.faults.get(key)
            return queue.pop(0) if queue else None

    async def send(self, request: web.Request, key: str, body: bytes, headers: dict[str, str] | None = None
                   ) -> web.StreamResponse:
        """Serve ``body`` for ``request`` with ranges, ETag and any queued fault of ``key``."""
        fault = self._fault(request, key)
        if fault == "503":
            return web.Response(status=503, text="fake: unavailable")
        head = {"ETag": f'"{hashlib.sha256(body).hexdigest()}"', "Accept-Ranges": "bytes", **(headers or {})}
        start, status = 0, 200
        wanted = request.headers.get("Range", "")
        if wanted.startswith("bytes=") and fault != "no-range":
            start = int(wanted[6:].split("-", 1)[0] or 0)
            if start >= len(body):
                return web.Response(status=416, headers={"Content-Range": f"bytes */{len(body)}"})
            status = 206
            head["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
        part = body[start:]
        if fault == "cut" and request.method == "GET":
            response = web.StreamResponse(status=status, headers={**head, "Content-Length": str(len(part))})
            await response.prepare(request)
            await response.write(part[: max(1, len(part) // 2)])
            if request.transport is not None:
                request.transport.close()
            return response
        return web.Response(status=status, body=part, headers=head)

    async def _file(self, request: web.Request) -> web.StreamResponse:
        self._note(request)
        key = unquote(request.path)
        if key not in self.files:
            return web.Response(status=404, text=f"fake: no file {key}")
        return await self.send(request, key, self.files[key])

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/{tail:.*}", self._file)

    def _app(self) -> web.Application:
        app = web.Application()
        self.routes(app)
        return app


class FakeHub(FakeFileServer):
    """Dataset repositories as huggingface_hub reads them; each repository's commit is a hash of its files."""

    NAME = "fake hub"

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host=host, port=port)
        self.datasets: dict[str, dict[str, bytes]] = {}

    def add_dataset(self, repo: str, files: dict[str, bytes]) -> str:
        """Add (or replace) a dataset repository; returns its commit id."""
        with self._lock:
            self.datasets[repo] = dict(files)
        return self.commit(repo)

    def commit(self, repo: str) -> str:
        digest = hashlib.sha1()
        for path, data in sorted(self.datasets[repo].items()):
            digest.update(path.encode() + b"\0" + hashlib.sha1(data).digest())
        return digest.hexdigest()

    def _in_repo(self, handler: RepoHandler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """A route of one repository: the request logged, the repository and revision checked (404s with the
        hub's ``X-Error-Code``), then ``handler(request, repo, files)``."""
        async def route(request: web.Request) -> web.StreamResponse:
            self._note(request)
            repo = f"{request.match_info['owner']}/{request.match_info['name']}"
            if repo not in self.datasets:
                return web.json_response({"error": "Repository not found"}, status=404,
                                         headers={"X-Error-Code": "RepoNotFound"})
            if unquote(request.match_info.get("rev", "main")) not in ("main", self.commit(repo)):
                return web.json_response({"error": "Invalid rev id"}, status=404,
                                         headers={"X-Error-Code": "RevisionNotFound"})
            return await handler(request, repo, self.datasets[repo])
        return route

    async def _info(self, request: web.Request, repo: str, files: dict[str, bytes]) -> web.StreamResponse:
        return web.json_response({"id": repo, "sha": self.commit(repo), "private": False, "disabled": False,
                                  "siblings": [{"rfilename": p} for p in sorted(files)], "tags": []})

    async def _tree(self, request: web.Request, repo: str, files: dict[str, bytes]) -> web.StreamResponse:
        base = unquote(request.match_info.get("path", "")).strip("/")
        recursive = request.query.get("recursive", "false").lower() == "true"
        entries: dict[str, dict[str, Any]] = {}
        for path, data in sorted(files.items()):
            if base and not path.startswith(base + "/"):
                continue
            rest = path[len(base) + 1:] if base else path
            parts = rest.split("/")
            for depth in range(1, len(parts)):
                folder = "/".join(([base] if base else []) + parts[:depth])
                if recursive or depth == 1:
                    entries.setdefault(folder, {"type": "directory", "oid": hashlib.sha1(folder.encode()).hexdigest(),
                                                "path": folder})
            if recursive or len(parts) == 1:
                entries[path] = {"type": "file", "oid": hashlib.sha1(data).hexdigest(), "size": len(data),
                                 "path": path}
        return web.json_response(list(entries.values()))

    async def _resolve(self, request: web.Request, repo: str, files: dict[str, bytes]) -> web.StreamResponse:
        path = unquote(request.match_info["path"])
        if path not in files:
            return web.json_response({"error": "Entry not found"}, status=404, headers={"X-Error-Code": "EntryNotFound"})
        return await self.send(request, f"/datasets/{repo}/resolve/{path}", files[path],
                                {"X-Repo-Commit": self.commit(repo)})

    def fail_next_file(self, repo: str, path: str, *faults: str) -> None:
        """Faults for the next downloads of a repository file (see :meth:`FakeFileServer.fail_next`)."""
        self.fail_next(f"/datasets/{repo}/resolve/{path}", *faults)

    def routes(self, app: web.Application) -> None:
        repo = "/api/datasets/{owner}/{name}"
        info, tree = self._in_repo(self._info), self._in_repo(self._tree)
        for route, handler in ((repo, info), (repo + "/revision/{rev}", info), (repo + "/tree/{rev}", tree),
                               (repo + "/tree/{rev}/{path:.*}", tree),
                               ("/datasets/{owner}/{name}/resolve/{rev}/{path:.*}", self._in_repo(self._resolve))):
            app.router.add_get(route, handler)
