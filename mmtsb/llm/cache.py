"""ResponseCache: content-keyed on-disk cache of completions, for exact re-runs without HTTP.

The key is the sha256 of the canonical JSON of everything that determines a request (model, api_base,
messages, tools, tool_choice, sampling params, seed). One JSON file per key, sharded by the first two hex
digits, written atomically (temp file + rename) so concurrent writers and crashes never leave a torn entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from mmtsb.llm.types import LLMResponse


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def cache_key(*, model: str, api_base: str | None, messages: list[dict[str, Any]],
              tools: list[dict[str, Any]] | None, tool_choice: Any, params: dict[str, Any]) -> str:
    """sha256 hex of the request's canonical JSON (params include the seed)."""
    material = {"model": model, "api_base": api_base, "messages": messages, "tools": tools,
                "tool_choice": tool_choice, "params": params, "seed": params.get("seed")}
    return hashlib.sha256(canonical_json(material).encode("utf-8")).hexdigest()


class ResponseCache:
    """A directory of cached LLMResponses keyed by :func:`cache_key`."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> LLMResponse | None:
        """The cached response (marked ``cached=True``), or None; an unreadable entry counts as a miss."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            response = LLMResponse.from_dict(data["response"])
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        response.cached = True
        return response

    def put(self, key: str, response: LLMResponse) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = canonical_json({"key": key, "response": {**response.to_dict(), "cached": False}})
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:8]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
