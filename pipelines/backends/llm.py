"""LLMBackend: the model-backed stages answered by real models, one configured model per stage.

Each question becomes a prompt of ours (``pipelines/prompts/*.md``), one call to the stage's model through
:class:`mmtsb.llm.LLMClient`, and a parse into the stage's pydantic model. A reply that is not usable
(malformed JSON, a schema violation, a refusal, an empty text) gets a bounded repair retry quoting the exact
problem; after that, or on an :class:`~mmtsb.llm.LLMError`, the answer is ``Generated(None, calls,
rejection="<kind>: <problem>")``: this backend never raises for what a model or provider does.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import functools
import hashlib
import json
import threading
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from mmtsb.llm.cache import ResponseCache, canonical_json
from mmtsb.llm.client import LLMClient, prepare_for
from mmtsb.llm.direct import DirectTransport
from mmtsb.llm.errors import LLMError
from mmtsb.llm.images import ImageEncoder
from mmtsb.llm.ledger import UsageLedger
from mmtsb.llm.limits import ProviderLimits
from mmtsb.llm.types import LLMResponse
from mmtsb.protocol.model_settings import ModelSettings
from pipelines.backends import llm_prompts as prompts
from pipelines.backends.base import CallRecord, Generated, GroupContext
from pipelines.backends.llm_checks import CheckedCritique, CheckedDraft, CheckedEntitySet, CheckedViability, plain
from pipelines.backends.llm_parse import Parsed, parse_reply, shorten
from pipelines.items import (
    ARRIVALS, CRITERIA, FLOWS, Critique, EntitySet, ImageVerdict, Outline, ScenarioDraft, SourceImage, Viability,
)

__all__ = ["STAGES", "LLMBackend", "UnreadableImage", "prompt_hash"]

#: the stages a model must be configured for (``generate.models.<stage>``)
STAGES = ("associate", "viability", "expand", "entities", "critique")

M = TypeVar("M", bound=BaseModel)
Messages = list[dict[str, Any]]

_LAZY_LOCK = threading.Lock()  # guards the per-process creation of clients (a module global: not pickled)


def _scrub_images(value: Any) -> Any:
    """``value`` with every data URL replaced by the sha256 of its bytes (a stable, short stand-in)."""
    if isinstance(value, dict):
        return {k: _scrub_images(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_images(v) for v in value]
    if isinstance(value, str) and value.startswith("data:") and ";base64," in value:
        if known := getattr(value, "content_sha256", None):   # a DataURL of our encoder knows it
            return "sha256:" + known
        data = base64.b64decode(value.split(";base64,", 1)[1], validate=False)
        return "sha256:" + hashlib.sha256(data).hexdigest()
    return value


@functools.lru_cache(maxsize=64)
def _text_message_json(role: str, content: str) -> bytes:
    """The canonical JSON of a plain text message, kept: a stage sends every item the same system prompt
    (several KB), whose encoding was most of a prompt hash's cost."""
    return canonical_json({"content": content, "role": role}).encode("utf-8")


def _message_json(message: dict[str, Any]) -> bytes:
    role, content = message.get("role"), message.get("content")
    if len(message) == 2 and isinstance(role, str) and type(content) is str and not content.startswith("data:"):
        return _text_message_json(role, content)
    return canonical_json(_scrub_images(message)).encode("utf-8")


def prompt_hash(messages: Messages) -> str:
    """First 16 hex digits of the sha256 of the canonical JSON of ``messages``, images by their hash. (The list's
    JSON is ``[`` + its messages' JSON joined by ``,`` + ``]``, so it is hashed message by message.)"""
    digest = hashlib.sha256(b"[")
    for i, message in enumerate(messages):
        if i:
            digest.update(b",")
        digest.update(_message_json(message))
    digest.update(b"]")
    return digest.hexdigest()[:16]


def _structured(settings: ModelSettings, model: type[BaseModel]) -> ModelSettings:
    """A copy of ``settings`` asking the server for JSON of ``model``'s schema (OpenAI ``response_format``)."""
    fmt = {"type": "json_schema",
           "json_schema": {"name": model.__name__, "schema": model.model_json_schema(), "strict": False}}
    return dataclasses.replace(settings, extra_params={**settings.extra_params, "response_format": fmt})


def _refusal_of(response: LLMResponse) -> str | None:
    """The provider's own refusal (OpenAI ``message.refusal``, or a content-filter stop), if any."""
    try:
        message = response.raw["choices"][0]["message"] or {}
    except (KeyError, IndexError, TypeError):
        message = {}
    if isinstance(message.get("refusal"), str) and message["refusal"].strip():
        return message["refusal"]
    if response.finish_reason == "content_filter" and not (response.text or "").strip():
        return "the provider stopped the reply (content filter)"
    return None


class UnreadableImage(ValueError):
    """An image file that cannot be read or decoded; its message is the item's rejection reason, naming the file."""


def _rejects_unreadable_images(question: Any) -> Any:
    """A stage question whose image cannot be read answers with a rejection naming the file (the funnel counts
    it under ``unreadable_image``) instead of failing as a stage error."""
    @functools.wraps(question)
    async def asked(self: LLMBackend, *args: Any, **kwargs: Any) -> Generated[Any]:
        try:
            return await question(self, *args, **kwargs)
        except UnreadableImage as e:
            return Generated(None, rejection=str(e))
    return asked


class LLMBackend:
    """The :class:`~pipelines.backends.base.Backend` of real models.

    ``models``: one :class:`ModelSettings` per stage of :data:`STAGES`. ``cache_dir``: an on-disk response
    cache (a rerun with the same prompts costs nothing). ``max_repairs``: repair retries per question after
    an unusable reply. ``structured_outputs``: also ask the server for schema-constrained JSON (off by default:
    not every OpenAI-compatible server supports ``response_format``).

    Picklable: clients, limits, encoder and cache are made on first use in each process (Ray actors)."""

    name = "llm"

    def __init__(self, models: dict[str, ModelSettings], *, cache_dir: str | None = None, max_repairs: int = 2,
                 structured_outputs: bool = False) -> None:
        for stage in STAGES:
            if models.get(stage) is None:
                raise ValueError(f"generate.models.{stage} is not set: the LLM backend needs a model for the "
                                 f"{stage} stage (stages: {', '.join(STAGES)})")
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be at least 0, got {max_repairs}")
        self.models = {stage: models[stage].checked(f"generate.models.{stage}") for stage in STAGES}
        self.cache_dir = cache_dir
        self.max_repairs = max_repairs
        self.structured_outputs = structured_outputs
        self._reset_process_state()

    # ------------------------------------------------------------------ per-process state
    def _reset_process_state(self) -> None:
        self._clients: dict[str, LLMClient] = {}
        self._limits: ProviderLimits | None = None
        self._images: ImageEncoder | None = None
        self._cache: ResponseCache | None = None
        self._ledger: UsageLedger | None = None
        self._transport: DirectTransport | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for key in ("_clients", "_limits", "_images", "_cache", "_ledger", "_transport"):
            state.pop(key, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._reset_process_state()

    def prepare(self) -> None:
        """Per-process warm-up before the first item (a stage actor calls it when it starts): load litellm and
        the models' price lookups now, so the first concurrent calls do not wait on a ~2 s import."""
        prepare_for(self.models.values())
        self._shared()

    @property
    def ledger(self) -> UsageLedger:
        """Tokens and cost of this process's calls, per stage (role ``generate.<stage>``)."""
        self._shared()
        assert self._ledger is not None
        return self._ledger

    def _shared(self) -> None:
        with _LAZY_LOCK:
            if self._limits is None:
                self._limits, self._images, self._ledger = ProviderLimits(), ImageEncoder(), UsageLedger()
                self._cache = ResponseCache(self.cache_dir) if self.cache_dir else None
                # keep-alive connections per event loop for the direct route (one session per loop)
                self._transport = DirectTransport(pooled=True)

    def _client(self, stage: str, output: type[BaseModel]) -> LLMClient:
        """The stage's client, made on first use in this process (all sharing one ProviderLimits)."""
        if (client := self._clients.get(stage)) is not None:
            return client
        self._shared()
        settings = self.models[stage]
        if self.structured_outputs:
            settings = _structured(settings, output)
        with _LAZY_LOCK:
            if stage not in self._clients:
                self._clients[stage] = LLMClient(settings, limits=self._limits, ledger=self._ledger,
                                                 cache=self._cache, images=self._images, transport=self._transport)
            return self._clients[stage]

    async def _image_part(self, image: SourceImage) -> dict[str, Any]:
        """The image's content part; a large file is read and encoded off the event loop (see ImageEncoder)."""
        self._shared()
        assert self._images is not None
        try:
            return await self._images.content_part_async(Path(image.path))
        except (OSError, ValueError) as e:   # one reason segment after the kind: the funnel buckets by the kind
            detail = str(e).replace(": ", "; ")
            raise UnreadableImage(f"unreadable_image: {image.path} ({detail})") from None

    # ------------------------------------------------------------------ the call and repair loop
    async def _ask(self, stage: str, messages: Messages, output: type[M], checked: type[BaseModel] | None = None,
                   context: dict[str, Any] | None = None) -> Generated[M]:
        """Ask ``stage``'s model, parse the reply as ``checked`` (default ``output``), repair up to
        ``max_repairs`` times, and return the plain ``output`` value or the rejection."""
        client = self._client(stage, output)
        model_id = str(self.models[stage].model)
        convo = list(messages)
        calls: list[CallRecord] = []
        parsed: Parsed[Any] = Parsed(kind="empty", problem="no call was made")
        for attempt in range(self.max_repairs + 1):
            digest = prompt_hash(convo)
            try:
                response = await client.complete(convo, role=f"generate.{stage}")
            except LLMError as exc:
                reason = f"llm_error: {shorten(str(exc), 200)}"
                calls.append(CallRecord(model=model_id, prompt_hash=digest, error=reason))
                return Generated(None, calls, rejection=reason)
            parsed = parse_reply(response.text, checked or output, refused=_refusal_of(response), context=context)
            calls.append(CallRecord(
                model=model_id, prompt_hash=digest, prompt_tokens=response.usage.prompt_tokens,
                completion_tokens=response.usage.completion_tokens, cost=response.cost, cached=response.cached,
                error=None if parsed.value is not None else parsed.reason))
            if parsed.value is not None:
                return Generated(plain(parsed.value, output), calls)
            if attempt < self.max_repairs:
                convo = [*convo, *self._repair_turns(response.text, parsed, output)]
        return Generated(None, calls, rejection=parsed.reason)

    @staticmethod
    def _repair_turns(reply: str | None, parsed: Parsed[Any], output: type[BaseModel]) -> Messages:
        """The assistant's unusable reply (when it said anything) and our request to fix it."""
        ask = prompts.render(prompts.section("repair", str(parsed.kind)),
                             {"problem": shorten(parsed.problem or "", 1200), "model_name": output.__name__})
        turns: Messages = []
        if reply and reply.strip():
            turns.append({"role": "assistant", "content": reply})
        turns.append({"role": "user", "content": ask})
        return turns

    # ------------------------------------------------------------------ message building
    async def _user(self, template: str, values: dict[str, Any],
                    images: list[tuple[str, SourceImage]]) -> dict[str, Any]:
        """A user message: the rendered text with each ``(label, image)`` inserted at ``{{images}}`` (the images
        encoded concurrently)."""
        before, after = prompts.split_images(prompts.render(template, values))
        parts: list[dict[str, Any]] = [{"type": "text", "text": before}] if before else []
        encoded = await asyncio.gather(*(self._image_part(image) for _, image in images))
        for (label, _), part in zip(images, encoded, strict=True):
            parts.append({"type": "text", "text": label})
            parts.append(part)
        if after:
            parts.append({"type": "text", "text": after})
        return {"role": "user", "content": parts}

    @staticmethod
    def _messages(system: str, user: dict[str, Any]) -> Messages:
        return [{"role": "system", "content": system}, user]

    @staticmethod
    def _described(ctx: GroupContext, order: list[str] | None = None) -> list[tuple[str, SourceImage]]:
        """(label, image) per image of ``ctx`` (in ``order`` of image ids when given), each label carrying
        the stage-1 facts and domains."""
        by_id = {img.image_id: (img, verdict) for img, verdict in zip(ctx.images, ctx.verdicts, strict=False)}
        ids = order if order is not None else [img.image_id for img in ctx.images]
        out = []
        for number, image_id in enumerate(ids, start=1):
            if image_id not in by_id:
                continue
            img, verdict = by_id[image_id]
            facts = "; ".join(verdict.facts) or "(none noted)"
            out.append((f"Image {number} ({img.dataset_type}). Domains: {', '.join(verdict.domains) or '-'}. "
                        f"Facts: {facts}", img))
        return out

    @staticmethod
    def _outline_text(outline: Outline) -> str:
        return (f"domain {outline.domain}, flow {outline.flow}, arrival {outline.arrival}, challenge "
                f"{outline.challenge}, {outline.n_rounds} rounds, {len(outline.image_ids)} images, required tools: "
                f"{', '.join(outline.required_tools) or '-'}")

    # ------------------------------------------------------------------ the five questions
    @_rejects_unreadable_images
    async def associate(self, image: SourceImage, catalog: str) -> Generated[ImageVerdict]:
        """Stage 1: the image with the catalog -> ImageVerdict."""
        values = {"catalog": catalog, "schema": prompts.compact_schema(ImageVerdict),
                  "dataset_type": image.dataset_type, "image_id": image.image_id}
        system = prompts.render(prompts.section("associate", "system"), values)
        user = await self._user(prompts.section("associate", "user"), values, [("The image:", image)])
        return await self._ask("associate", self._messages(system, user), ImageVerdict)

    @_rejects_unreadable_images
    async def viability(self, ctx: GroupContext) -> Generated[Viability]:
        """Stage 2: the group's images and stage-1 notes -> a 0..3 score per flow and arrival."""
        values = {"flows": ", ".join(FLOWS), "arrivals": ", ".join(ARRIVALS), "domain": ctx.group.domain,
                  "schema": prompts.compact_schema(Viability)}
        system = prompts.render(prompts.section("viability", "system"), values)
        user = await self._user(prompts.section("viability", "user"), values, self._described(ctx))
        return await self._ask("viability", self._messages(system, user), Viability, CheckedViability)

    @staticmethod
    def _expand_prompt(outline: Outline) -> tuple[str, dict[str, Any]]:
        """The stage-4 system prompt (the common part with the outline's flow, challenge and arrival sections)
        and the values that filled it."""
        values: dict[str, Any] = {
            "schema": prompts.compact_schema(ScenarioDraft), "people": prompts.people_block(),
            "flow": outline.flow, "challenge": outline.challenge, "arrival": outline.arrival,
            "n_rounds": outline.n_rounds, "n_images": len(outline.image_ids), "domain": outline.domain,
            "tools": ", ".join(outline.required_tools) or "(any tool of the domain)"}
        for kind, name in (("flow", outline.flow), ("challenge", outline.challenge), ("arrival", outline.arrival)):
            values[f"{kind}_rules"] = prompts.render(prompts.section("expand", f"{kind}: {name}"), values)
        return prompts.render(prompts.section("expand", "system"), values), values

    @_rejects_unreadable_images
    async def expand(self, outline: Outline, ctx: GroupContext) -> Generated[ScenarioDraft]:
        """Stage 4: the outline (flow-, challenge- and arrival-specific prompt) -> ScenarioDraft."""
        system, values = self._expand_prompt(outline)
        user = await self._user(prompts.section("expand", "user"), values, self._described(ctx, outline.image_ids))
        context = {"n_rounds": outline.n_rounds, "n_images": len(outline.image_ids), "arrival": outline.arrival}
        return await self._ask("expand", self._messages(system, user), ScenarioDraft, CheckedDraft, context)

    @_rejects_unreadable_images
    async def entities(self, outline: Outline, draft: ScenarioDraft, ctx: GroupContext,
                       errors: list[str]) -> Generated[EntitySet]:
        """Stage 5: draft -> initial rows, expected entity-diff specs, reference solution; ``errors`` (the
        previous attempt's validation problems) are quoted verbatim."""
        from mmtsb.eval.similarity import JSON_SIMILARITY_NAMES
        from mmtsb.world.people import KNOWN_PEOPLE, make_person

        person = make_person(draft.user_id, *KNOWN_PEOPLE.get(draft.user_id, ()))  # as the base world builds them
        values = {
            "schema": prompts.compact_schema(EntitySet), "similarity_names": ", ".join(JSON_SIMILARITY_NAMES),
            "tables": prompts.table_schema(outline.domain, outline.required_tools),
            "tool_signatures": prompts.tool_signatures(outline.domain, outline.required_tools),
            "main_user": f"id {person.id} ({person.full_name}, {person.email})", "n_rounds": len(draft.rounds),
            "outline": self._outline_text(outline), "draft": json.dumps(draft.model_dump(), indent=1),
            "errors": "\n".join(f"- {e}" for e in errors)}
        system = prompts.render(prompts.section("entities", "system"), values)
        template = prompts.section("entities", "user")
        if errors:
            template += "\n\n" + prompts.section("entities", "errors")
        user = await self._user(template, values, self._described(ctx, outline.image_ids))
        return await self._ask("entities", self._messages(system, user), EntitySet, CheckedEntitySet,
                               {"n_rounds": len(draft.rounds)})

    @_rejects_unreadable_images
    async def critique(self, outline: Outline, scenario: dict[str, Any], ctx: GroupContext) -> Generated[Critique]:
        """Stage 6: the images and the assembled scenario file -> a verdict on each of the seven criteria."""
        values = {"criteria": ", ".join(CRITERIA), "schema": prompts.compact_schema(Critique),
                  "outline": self._outline_text(outline), "scenario": json.dumps(scenario, indent=1, default=str)}
        system = prompts.render(prompts.section("critique", "system"), values)
        by_id = {img.image_id: img for img in ctx.images}
        images = [(f"Image {n}:", by_id[i]) for n, i in enumerate(outline.image_ids, start=1) if i in by_id]
        user = await self._user(prompts.section("critique", "user"), values, images)
        return await self._ask("critique", self._messages(system, user), Critique, CheckedCritique)
