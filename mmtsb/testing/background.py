"""An aiohttp application served on 127.0.0.1 from a daemon thread with its own event loop: the lifecycle the
test servers share (the fake OpenAI-compatible server, the fake hub and file server)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, ClassVar, Self

from aiohttp import web


class BackgroundServer:
    """Subclasses build their application in :meth:`_app`; ``with Server() as s:`` listens until the block ends
    (``s.port`` is the bound port when 0 was asked for)."""

    NAME: ClassVar[str] = "test server"
    BACKLOG: ClassVar[int] = 128
    RUNNER_OPTIONS: ClassVar[dict[str, Any]] = {}

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopped: asyncio.Event | None = None

    def _app(self) -> web.Application:
        raise NotImplementedError

    async def _start_site(self) -> None:
        self._runner = web.AppRunner(self._app(), access_log=None, shutdown_timeout=0.5, **self.RUNNER_OPTIONS)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port, backlog=self.BACKLOG).start()
        self.port = self._runner.addresses[0][1]
        self._stopped = asyncio.Event()

    async def _serve(self, ready: threading.Event, failure: list[BaseException]) -> None:
        try:
            await self._start_site()
        except Exception as exc:  # noqa: BLE001  (reported to the starting thread)
            failure.append(exc)
            ready.set()
            return
        ready.set()
        assert self._stopped is not None and self._runner is not None
        await self._stopped.wait()
        await self._runner.cleanup()

    def start(self) -> Self:
        """Listen in a daemon thread with its own event loop; returns once the port is bound."""
        ready, failure = threading.Event(), []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._serve(ready, failure),),
                                        name=self.NAME.replace(" ", "-"), daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError(f"{self.NAME} did not start within 10 s on {self.host}:{self.port}")
        if failure:
            raise RuntimeError(f"{self.NAME} failed to start on {self.host}:{self.port}") from failure[0]
        return self

    def stop(self) -> None:
        """Stop listening, cancel pending requests and join the thread."""
        if self._loop is None or self._thread is None:
            return
        if self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(10)
        self._loop.close()
        self._loop = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
