"""OmegaConf resolvers the ``serve`` configs use; registered when ``mmtsb.serve`` is imported.

``${mmtsb_free_port:8000}`` resolves to 8000 when that port is free on this machine, else to a free port
the OS picks. The result is cached per config, so ``serve.port`` and ``serve.api_base`` agree. Keep the
``serve`` group out of the config hash used for episode ids (the port is where, not what, is evaluated).
"""

from __future__ import annotations

from omegaconf import OmegaConf

from mmtsb.serve.health import free_port


def _free_port(preferred: int | str | None = None) -> int:
    return free_port(int(preferred) if preferred not in (None, "") else None)


def register_resolvers() -> None:
    """Idempotent registration of ``mmtsb_free_port``."""
    if not OmegaConf.has_resolver("mmtsb_free_port"):
        OmegaConf.register_new_resolver("mmtsb_free_port", _free_port, use_cache=True)
