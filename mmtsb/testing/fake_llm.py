"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks, with scripted replies.

Why: the LLM client must be exercised over real HTTP (litellm -> OpenAI SDK -> socket), including retries,
timeouts and concurrency, without a network or a key. Endpoints: ``POST /v1/chat/completions`` (also
``/chat/completions``), ``GET /v1/models``, ``GET /health``, ``GET /stats``. It runs on asyncio (aiohttp,
already installed with litellm), so hundreds of concurrent requests cost no threads.

In a test::

    with FakeLLMServer(script=["hello", {"tool_calls": [{"name": "f", "arguments": {"x": 1}}]}]) as server:
        ...  # point the client at server.base_url; inspect server.requests afterwards

As a process: ``python -m mmtsb.testing.fake_llm --port 0 --script replies.json`` prints
``FAKE_LLM_READY <base_url>`` once it listens. The script file holds a list of replies, or an object with
``script``, ``rules``, ``default``, ``latency_s``, ``usage``, ``api_key``, ``models``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from aiohttp import web
from mmtsb.testing.background import BackgroundServer

from mmtsb.testing.fake_replies import (
    Reply,
    Responder,
    Rule,
    broken_body,
    completion_body,
    error_body,
    last_prompt_text,
)

ReplySpec = Reply | str | dict[str, Any]


class FakeLLMServer(BackgroundServer):
    """Scripted OpenAI-compatible server: serve in a background thread (context manager) or forever (CLI).

    Reply selection per request: ``responder(body)`` if given and it returns non-None, else the next
    unused ``script`` entry (in arrival order), else the first matching ``rules`` entry, else ``default``,
    else HTTP 400 "script exhausted" (non-retryable, so a test that under-scripts fails loudly).
    """

    def __init__(self, script: Sequence[ReplySpec] | None = None, *, rules: Iterable[Rule | dict] = (),
                 responder: Responder | None = None, default: ReplySpec | None = None,
                 latency_s: float = 0.0, usage: dict[str, int] | None = None, api_key: str | None = None,
                 models: Sequence[str] = ("fake-model",), host: str = "127.0.0.1", port: int = 0) -> None:
        self._script = [Reply.parse(r) for r in script or ()]
        self._rules = [Rule.parse(r) for r in rules]
        self._responder = responder
        self._default = Reply.parse(default) if default is not None else None
        self.latency_s = latency_s
        self.usage = usage
        self.api_key = api_key
        self.models = list(models)
        super().__init__(host, port)
        self._lock = threading.Lock()
        self._requests: list[dict[str, Any]] = []
        self._headers: list[dict[str, str]] = []
        self._served = 0
        self._in_flight = 0
        self.max_in_flight = 0

    # ---- what tests read -------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """The OpenAI base URL (ends in /v1), usable as api_base."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """JSON bodies of every chat-completion request received (faulted ones included), in order."""
        with self._lock:
            return list(self._requests)

    @property
    def request_headers(self) -> list[dict[str, str]]:
        """Headers (lower-cased names) of every chat-completion request, parallel to :attr:`requests`."""
        with self._lock:
            return list(self._headers)

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self._requests)

    def reset(self, script: Sequence[ReplySpec] | None = None) -> None:
        """Forget the request log and peak concurrency; optionally load a new script."""
        with self._lock:
            self._requests.clear()
            self._headers.clear()
            self.max_in_flight = 0
            if script is not None:
                self._script, self._served = [Reply.parse(r) for r in script], 0

    # ---- reply selection -------------------------------------------------------------------------------
    def _choose(self, body: dict[str, Any]) -> tuple[Reply | None, int]:
        if self._responder is not None:
            picked = self._responder(body)
            if picked is not None:
                with self._lock:
                    return Reply.parse(picked), len(self._requests)
        with self._lock:
            seq = len(self._requests)
            if self._served < len(self._script):
                self._served += 1
                return self._script[self._served - 1], seq
        text = last_prompt_text(body)
        for rule in self._rules:
            if rule.match.search(text):
                return rule.reply, seq
        return self._default, seq

    # ---- HTTP handlers ---------------------------------------------------------------------------------
    async def _chat(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return web.json_response(error_body(400, "fake server: body is not JSON"), status=400)
        with self._lock:
            self._requests.append(body)
            self._headers.append({k.lower(): v for k, v in request.headers.items()})
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            return await self._answer(request, body)
        finally:
            with self._lock:
                self._in_flight -= 1

    async def _answer(self, request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
        if self.api_key is not None and request.headers.get("Authorization") != f"Bearer {self.api_key}":
            return web.json_response(error_body(401, "fake server: invalid API key"), status=401)
        if body.get("stream"):
            return web.json_response(error_body(400, "fake server: streaming is not supported"), status=400)
        reply, seq = self._choose(body)
        if reply is None:
            return web.json_response(error_body(400, "fake server: script exhausted, no rule or default"),
                                     status=400)
        delay = reply.latency_s if reply.latency_s is not None else self.latency_s
        await asyncio.sleep(delay + (reply.hang_s or 0.0))
        if reply.status is not None and reply.status >= 400:
            headers = {} if reply.retry_after is None else {"Retry-After": f"{reply.retry_after:g}"}
            return web.json_response(error_body(reply.status, reply.error), status=reply.status,
                                     headers=headers)
        completion = completion_body(reply, body, seq, self.usage)
        if reply.wire is not None:
            return await self._broken(request, reply.wire, completion)
        return web.json_response(completion)

    @staticmethod
    async def _broken(request: web.Request, wire: str, completion: dict[str, Any]) -> web.StreamResponse:
        """A broken HTTP 200 answer (see ``fake_replies.WIRE_FAULTS``)."""
        if wire in ("reset", "cut"):
            if wire == "cut":   # headers promise the whole body; half of it arrives, then the connection ends
                encoded = json.dumps(completion).encode()
                response = web.StreamResponse(headers={"Content-Type": "application/json",
                                                       "Content-Length": str(len(encoded))})
                await response.prepare(request)
                await response.write(encoded[: len(encoded) // 2])
            transport = request.transport
            if transport is not None:
                transport.abort()
            raise asyncio.CancelledError   # aiohttp drops the request: nothing more is sent
        payload, content_type = broken_body(wire, completion)
        return web.Response(body=payload, headers={"Content-Type": content_type})

    async def _models(self, _: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [
            {"id": m, "object": "model", "created": 0, "owned_by": "mmtsb-fake"} for m in self.models]})

    async def _health(self, _: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def _stats(self, _: web.Request) -> web.Response:
        with self._lock:
            return web.json_response({"requests": len(self._requests), "in_flight": self._in_flight,
                                      "max_in_flight": self.max_in_flight})

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=256 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/models", self._models)
        app.router.add_get("/health", self._health)
        app.router.add_get("/stats", self._stats)
        return app

    # ---- lifecycle (BackgroundServer: start, stop, a context manager) ------------------------------------
    NAME = "fake LLM server"
    BACKLOG = 2048
    RUNNER_OPTIONS = {"handler_cancellation": True}   # a request whose client gave up stops sleeping at once

    async def serve_forever(self) -> None:
        """Run in the current event loop until SIGINT/SIGTERM (the CLI path)."""
        await self._start_site()
        assert self._stopped is not None and self._runner is not None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self._stopped.set)
        print(f"FAKE_LLM_READY {self.base_url}", flush=True)
        await self._stopped.wait()
        await self._runner.cleanup()


def server_from_file(path: str, **overrides: Any) -> FakeLLMServer:
    """Build a server from a JSON script file: a list of replies, or an object of constructor fields."""
    with open(path, encoding="utf-8") as fh:
        spec = json.load(fh)
    if isinstance(spec, list):
        spec = {"script": spec}
    allowed = {"script", "rules", "default", "latency_s", "usage", "api_key", "models"}
    unknown = set(spec) - allowed
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}; allowed: {sorted(allowed)}")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return FakeLLMServer(**spec)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mmtsb.testing.fake_llm", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (printed on start)")
    parser.add_argument("--script", help="JSON file of replies (see module docstring)")
    parser.add_argument("--latency", type=float, default=None, help="seconds added to every reply")
    parser.add_argument("--default", default=None, help="text reply once the script is used up")
    args = parser.parse_args(argv)
    if args.script:
        server = server_from_file(args.script, host=args.host, port=args.port, latency_s=args.latency,
                                  default=args.default)
    else:
        server = FakeLLMServer(host=args.host, port=args.port, latency_s=args.latency or 0.0,
                               default=args.default if args.default is not None else "OK")
    asyncio.run(server.serve_forever())
    return 0


if __name__ == "__main__":
    sys.exit(main())
