"""``serving(settings)``: the context manager a run is wrapped in, so the model server lives exactly as long
as the run.

    with serving(ServeSettings.from_config(cfg.serve, cfg.model.get("serve"), run_dir)) as endpoint:
        execute_run(settings)     # model configs reach the server through ${serve.api_base}

``serve=none`` starts nothing and yields the external endpoint (``serve.api_base``) or None; ``serve=vllm``
starts a VLLMServer, yields its Endpoint and stops the server on exit, also on errors and Ctrl-C.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mmtsb.serve.settings import ServeSettings
from mmtsb.serve.vllm import Endpoint, VLLMServer


@contextmanager
def serving(settings: ServeSettings | None) -> Iterator[Endpoint | None]:
    """Run the configured model server for the duration of the ``with`` block."""
    if settings is None or settings.kind == "none":
        if settings is None or settings.api_base is None:
            yield None
            return
        spec = settings.model
        yield Endpoint(settings.api_base, spec.litellm_model if spec else None, spec.name if spec else None)
        return
    with VLLMServer(settings) as server:
        yield server.endpoint
