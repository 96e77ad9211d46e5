"""The real-vLLM check for a GPU machine: serve a small vision-language model through VLLMServer and send
one multimodal tool-calling request through LLMClient (litellm ``hosted_vllm/``).

Not part of the test suite (no GPU, no vLLM there). Run it in the mmtsb environment, pointing at vLLM's own:

    python -m mmtsb.serve.gpu_check --vllm /opt/vllm-env/bin/vllm --model Qwen/Qwen3-VL-2B-Instruct
    python -m mmtsb.serve.gpu_check --model /models/Qwen2.5-VL-3B-Instruct --out check.json   # local weights

Checks, printed as one JSON line (exit 0 only if all hold): vLLM accepted the flags and became ready; the
model answered an image + tools request with a parsed tool call naming the colour of the shape; the server
stopped and left no process behind. ``--dummy-weights`` (vLLM ``--load-format dummy``, needs only the model's
config and tokenizer) checks the serving path without real weights; the answer then cannot be judged, so only
a successful response is required.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from mmtsb.serve.errors import ServeError
from mmtsb.serve.settings import ModelServeSpec, ServeSettings
from mmtsb.serve.vllm import VLLMServer

TOOLS = [{"type": "function", "function": {
    "name": "report_shape_color",
    "description": "Report the colour of the shape in the user's image.",
    "parameters": {"type": "object", "properties": {
        "color": {"type": "string", "description": "the colour name in English, lower case, e.g. 'blue'"}},
        "required": ["color"]}}}]


def red_circle_png() -> str:
    """A data URL of a red disc on white (the image the model must describe through the tool)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (256, 256), "white")
    ImageDraw.Draw(image).ellipse((48, 48, 208, 208), fill=(220, 20, 20))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


async def ask(endpoint_model: str, api_base: str, route: str = "fast") -> dict[str, Any]:
    from mmtsb.llm import LLMClient, ModelSettings, flush_litellm_logging

    client = LLMClient(ModelSettings(model=endpoint_model, api_base=api_base, temperature=0.0, max_tokens=256,
                                   timeout_s=300, max_retries=1, compat_route=route))
    messages = [{"role": "user", "content": [
        {"type": "text", "text": "What colour is the shape in this image? Answer by calling report_shape_color."},
        {"type": "image_url", "image_url": {"url": red_circle_png()}}]}]
    try:
        response = await client.complete(messages, tools=TOOLS, tool_choice="auto")
    finally:
        await flush_litellm_logging()
    calls = [{"name": c.name, "arguments": c.parsed_arguments, "parse_error": c.parse_error}
             for c in response.tool_calls]
    return {"text": response.text, "tool_calls": calls, "latency_s": round(response.latency_s, 3),
            "usage": vars(response.usage), "finish_reason": response.finish_reason}


def run_check(args: argparse.Namespace) -> dict[str, Any]:
    extra = ["--enforce-eager"] + (["--load-format", "dummy"] if args.dummy_weights else [])
    spec = ModelServeSpec(hf_repo=args.model, served_model_name=args.served_name,
                          tool_call_parser=args.tool_call_parser, max_model_len=args.max_model_len,
                          limit_mm_per_prompt={"image": 2}, gpu_memory_utilization=args.gpu_memory_utilization,
                          extra_args=extra)
    env = {"HF_HUB_OFFLINE": "1"} if args.offline else {}
    settings = ServeSettings(kind="vllm", model=spec, vllm_executable=args.vllm, port=args.port,
                             startup_timeout_s=args.timeout, log_dir=args.log_dir, env=env)
    result: dict[str, Any] = {"model": args.model, "vllm": args.vllm, "dummy_weights": args.dummy_weights}
    server = VLLMServer(settings)
    started = time.monotonic()
    try:
        with server:
            result["startup_s"] = round(time.monotonic() - started, 1)
            result["api_base"], result["litellm_model"] = server.api_base, server.litellm_model
            result["command"] = server.command()
            result["answer"] = asyncio.run(ask(server.litellm_model, server.api_base))          # through litellm
            result["answer_direct"] = asyncio.run(ask(server.litellm_model, server.api_base, "direct"))
    except ServeError as exc:
        result["error"] = str(exc)
    except Exception as exc:  # noqa: BLE001 - reported in the JSON line
        result["error"] = f"{type(exc).__name__}: {exc}"
    result["stopped"] = server.process is not None and server.process.poll() is not None
    result["log"] = str(server.log_path)
    calls = result.get("answer", {}).get("tool_calls", [])
    colour = str((calls[0].get("arguments") or {}).get("color", "")).lower() if calls else ""
    result["tool_call_ok"] = bool(calls) and calls[0]["name"] == "report_shape_color" and "red" in colour
    result["ok"] = "error" not in result and result["stopped"] and (
        "answer" in result if args.dummy_weights else result["tool_call_ok"])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mmtsb.serve.gpu_check", description=__doc__.split("\n")[0])
    p.add_argument("--model", default="Qwen/Qwen3-VL-2B-Instruct", help="HF repo id or local model folder")
    p.add_argument("--served-name", default="mmtsb-gpu-check")
    p.add_argument("--vllm", default="vllm", help="vllm executable (its own environment)")
    p.add_argument("--tool-call-parser", default="hermes")
    p.add_argument("--max-model-len", type=int, default=8192)
    p.add_argument("--gpu-memory-utilization", type=float, default=0.85)
    p.add_argument("--port", type=int, default=None)
    p.add_argument("--timeout", type=float, default=900.0, help="startup timeout in seconds")
    p.add_argument("--log-dir", default=os.environ.get("OUT", "outputs/serve"))
    p.add_argument("--offline", action="store_true", help="HF_HUB_OFFLINE=1 for vLLM (weights already cached)")
    p.add_argument("--dummy-weights", action="store_true", help="vLLM --load-format dummy (config+tokenizer only)")
    p.add_argument("--out", default=None, help="also write the JSON result here")
    args = p.parse_args(argv)
    result = run_check(args)
    line = json.dumps(result, default=str)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(line + "\n")
    print(line, flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
