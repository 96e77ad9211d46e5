"""``execute_code``: run Python in the episode's sandbox from a tool call (the hybrid interface)."""

from __future__ import annotations

from typing import Any

from mmtsb.tools.spec import tool
from mmtsb.vision.store import ImageResult


@tool(domain="meta", mutates=True, needs_context=True)
def execute_code(session: Any, code: str) -> Any:
    """Runs Python code in a persistent sandboxed interpreter where the discovered tools are plain functions.

    Variables persist between calls. The result is what was printed plus the repr of the last expression
    (or ``result = ...`` when a variable named ``result`` exists); errors come back as ``Error: <traceback>``.
    No file access outside a scratch folder, no network, no subprocesses.

    Args:
        code: Python source; the value of the last expression is returned REPL-style.

    Returns:
        str (stdout + repr of last value) | [text, images] when the code produced images
    """
    runner = getattr(session, "code_runner", None)
    if runner is None:
        raise RuntimeError("execute_code is not available: this episode has no code interpreter "
                           "(use the hybrid or code_exec interface)")
    result = runner.run(code)
    text = result.to_text()
    if result.images:
        return [text, [ImageResult(i) for i in result.images]]
    return text
