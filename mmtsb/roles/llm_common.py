"""What the model-driven roles share: checked model settings, process-wide client resources, usage
accounting, image content parts, and :class:`ModelRole`, the base that keeps an append-only chat history.

Process-wide objects live in the ``shared`` dict owned by the RoleFactory (never in module globals):
``"limits"`` (ProviderLimits), ``"image_encoder"`` (ImageEncoder), ``"direct_transport"`` (the pooled HTTP
sessions of ``compat_route=direct``) and ``"response_cache:<dir>"`` (ResponseCache); the LLM judges use the same
keys. :func:`close_shared` releases them at the end of a run.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.llm import ImageEncoder, LLMClient, LLMResponse, ProviderLimits, ResponseCache
from mmtsb.llm.direct import DirectTransport
from mmtsb.protocol import Role, RoleUsage

if TYPE_CHECKING:
    from mmtsb.protocol.view import EpisodeView

OpenAIMessage = dict[str, Any]

LIMITS_KEY = "limits"
IMAGES_KEY = "image_encoder"
TRANSPORT_KEY = "direct_transport"
CACHE_KEY_PREFIX = "response_cache:"

_THINK = re.compile(r"^\s*<think>(.*?)</think>\s*", re.DOTALL)


def model_config(settings: ModelSettings, *, role: str = "agent") -> ModelSettings:
    """A role's settings checked for a model call (provider resolved); a bad setting raises ValueError naming
    the role's config section (``agent_model.model is empty``, ``user_model: compat_route=...``)."""
    return settings.checked(f"{role}_model")


def provider_limits(shared: dict[str, Any]) -> ProviderLimits:
    return shared.setdefault(LIMITS_KEY, ProviderLimits())


def image_encoder(shared: dict[str, Any]) -> ImageEncoder:
    return shared.setdefault(IMAGES_KEY, ImageEncoder())


def direct_transport(shared: dict[str, Any]) -> DirectTransport:
    return shared.setdefault(TRANSPORT_KEY, DirectTransport())


async def close_shared(shared: dict[str, Any]) -> None:
    """Close the process-wide connections the roles opened (the direct route's HTTP sessions)."""
    transport = shared.pop(TRANSPORT_KEY, None)
    if transport is not None:
        await transport.aclose()


def response_cache(shared: dict[str, Any], directory: str | None) -> ResponseCache | None:
    if not directory:
        return None
    return shared.setdefault(CACHE_KEY_PREFIX + str(directory), ResponseCache(directory))


def make_client(settings: ModelSettings, shared: dict[str, Any], *, role: str,
                response_cache_dir: str | None = None) -> LLMClient:
    """An LLMClient for one role of one episode, over the process-wide limits, encoder and cache."""
    return LLMClient(model_config(settings, role=role), limits=provider_limits(shared),
                     cache=response_cache(shared, response_cache_dir), images=image_encoder(shared),
                     transport=direct_transport(shared))


def add_usage(usage: RoleUsage, response: LLMResponse) -> None:
    """Accumulate one response's tokens, call and cost into a role's usage."""
    usage.prompt_tokens += response.usage.prompt_tokens
    usage.completion_tokens += response.usage.completion_tokens
    usage.api_calls += 1
    usage.cost_usd += response.cost
    usage.cost_known = usage.cost_known and response.cost_known


def split_think(text: str | None) -> tuple[str, str | None]:
    """(visible text, reasoning): a leading ``<think>...</think>`` block (models served without a reasoning
    parser) is removed from the text, so code or tool syntax inside the thinking is never acted upon."""
    if not text:
        return "", None
    m = _THINK.match(text)
    if m is None:
        return text.strip(), None
    return text[m.end():].strip(), m.group(1).strip() or None


def thinking_blocks(response: LLMResponse) -> dict[str, Any]:
    """``{"thinking_blocks": [...]}`` when the reply carried native thinking blocks (Anthropic's extended
    thinking, as litellm reports it), else ``{}``: merged into the assistant message kept in the history, because
    Anthropic refuses a tool-use turn whose assistant message lost its thinking block (and litellm then either
    fails or silently turns thinking off)."""
    choices = response.raw.get("choices") if isinstance(response.raw, dict) else None
    message = choices[0].get("message") if isinstance(choices, list) and choices and isinstance(choices[0], dict) \
        else None
    blocks = message.get("thinking_blocks") if isinstance(message, dict) else None
    return {"thinking_blocks": blocks} if isinstance(blocks, list) and blocks else {}


def _unreadable(image_id: int, error: Exception) -> str:
    return f"[image {image_id} could not be loaded: {error}]"


class ModelRole(Role):
    """A role backed by one chat model, with an append-only OpenAI-format history.

    Messages are converted once, when observed (``conversions`` counts them), so a turn costs the same
    whatever the history length; images are encoded once per distinct image by the shared ImageEncoder.
    """

    kind = "model"
    role_key = "agent"  # the ledger role and the config section name

    def __init__(self, settings: ModelSettings, shared: dict[str, Any], *,
                 response_cache_dir: str | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.client = make_client(settings, shared, role=self.role_key, response_cache_dir=response_cache_dir)
        self.name = f"{self.kind}:{settings.model}"
        self.history: list[OpenAIMessage] = []
        self.conversions = 0
        self._unencoded: list[tuple[dict[str, Any], int, Any]] = []   # image parts complete() fills in
        self.reasoning: list[str] = []
        self.ctx: EpisodeView | None = None

    def usage_record(self) -> dict[str, Any]:
        """Usage with the failed attempts of this role's calls (counted by its client's ledger)."""
        self.usage.failed_calls = int(self.client.ledger.totals().get(self.role_key, {}).get("failed_calls", 0))
        return self.usage.to_dict()

    # ---- history -----------------------------------------------------------------------------------------
    def _add(self, message: OpenAIMessage) -> OpenAIMessage:
        self.conversions += 1
        self.history.append(message)
        return message

    def image_parts(self, image_ids: list[int]) -> list[dict[str, Any]]:
        """Per image: a text part ``image_id: N`` then its ``image_url`` part (a note if it cannot be read).

        The image part is filled in by :meth:`complete`, just before the history is sent: observing is
        synchronous, and decoding and shrinking a large picture (a screenshot, a scan, a photo) there would
        hold up every other episode of the process; ``complete`` encodes it off the event loop instead."""
        assert self.ctx is not None, "start() was not called"
        parts: list[dict[str, Any]] = []
        for image_id in image_ids:
            parts.append({"type": "text", "text": f"image_id: {image_id}"})
            try:
                image = self.ctx.world.images.get(image_id)
            except (KeyError, IndexError) as e:
                parts.append({"type": "text", "text": _unreadable(image_id, e)})
                continue
            part: dict[str, Any] = {"type": "image_url", "image_url": None}   # filled in by complete()
            self._unencoded.append((part, image_id, image))
            parts.append(part)
        return parts

    async def _encode_images(self) -> None:
        """Fill in the image parts observed since the last call (concurrently; a large image in a worker
        thread); an image that cannot be decoded becomes a note in its place."""
        pending, self._unencoded = self._unencoded, []
        encoded = await self.client.image_parts_async([image for _, _, image in pending])
        for (part, image_id, _), done in zip(pending, encoded, strict=True):
            part.clear()
            part.update({"type": "text", "text": _unreadable(image_id, done)} if isinstance(done, ValueError)
                        else done)

    def multimodal(self, text: str, image_ids: list[int]) -> str | list[dict[str, Any]]:
        """Plain text, or the text part followed by each image (labelled with its id)."""
        if not image_ids:
            return text
        return [{"type": "text", "text": text}, *self.image_parts(image_ids)]

    # ---- model calls -------------------------------------------------------------------------------------
    async def complete(self, tools: list[dict[str, Any]] | None = None) -> LLMResponse:
        """One model call over the current history; usage is accumulated; provider errors propagate."""
        if self._unencoded:
            await self._encode_images()
        response = await self.client.complete(self.history, tools=tools or None, role=self.role_key)
        add_usage(self.usage, response)
        if response.reasoning:
            self.reasoning.append(response.reasoning)
        return response

    async def close(self) -> None:
        self.ctx = None
        self._unencoded = []
