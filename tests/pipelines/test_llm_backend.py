"""LLMBackend over real HTTP against the fake OpenAI-compatible server: parsing, the repair loop, refusals,
provider errors, images, per-flow prompts, pickling, the response cache and the configuration check."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from mmtsb.llm import ModelSettings
from mmtsb.testing import FakeLLMServer
from testkit import run_async
from pipelines.backends.base import GroupContext
from pipelines.backends.llm import STAGES, LLMBackend, prompt_hash
from pipelines.backends.llm_parse import extract_json, parse_reply
from pipelines.backends.llm_prompts import section
from pipelines.items import (
    ARRIVALS, CRITERIA, FLOWS, Critique, EntitySet, Group, ImageVerdict, Outline, ScenarioDraft, SourceImage,
    Viability,
)
from pipelines.run import rejection_kind

# ------------------------------------------------------------------------------------------ fixtures
VERDICT = {"actionable": True, "needs_visual_extraction": True, "needs_tool_call": True, "domains": ["simple_note"],
           "tools": [{"tool": "simple_note_create_note", "reason": "log the receipt"}],
           "facts": ["vendor: Bluebird Cafe", "total: $12.50"], "reason": "a legible receipt"}
VIABILITY = {"flows": {f: 2 for f in FLOWS}, "arrivals": {a: 3 for a in ARRIVALS}, "reason": "receipts"}
DRAFT = {"title": "Cafe receipts", "description": "Log two receipts.", "persona": "Brenda, an office manager.",
         "user_id": 50, "goal": "A note 'Receipts' lists Bluebird Cafe $12.50 and Rainier Cab $8.00.",
         "rounds": [{"provide": [1], "query": "Log this receipt in a note called Receipts.",
                     "instructions": "Send the first receipt.", "transition": "once the note exists"},
                    {"provide": [2], "query": "Add this one too.", "instructions": "Send the second receipt."}],
         "preexisting": [], "criteria": "The note lists both receipts."}
SPEC = {"operation": "create", "source": "appworld", "table": "simple_note.notes",
        "entity_data": {"user_id": 50, "title": "Receipts", "content": "Bluebird Cafe $12.50\nRainier Cab $8.00"},
        "column_similarity_measure": {"user_id": "column_exact_match_similarity",
                                      "title": "column_rouge_l_similarity", "content": "column_rouge_l_similarity"}}
ENTITIES = {"appworld_entities": {}, "entity_diff_specs": [SPEC],
            "solution": [[{"tool": "simple_note_create_note", "arguments": {"title": "Receipts", "content": "x"},
                           "save_as": "note"}],
                         [{"tool": "simple_note_update_note", "arguments": {"note_id": "$note.note_id",
                                                                            "content": "y"}}]],
            "replies": ["Created the note.", "Added the second receipt."]}
CRITIQUE = {"criteria": {c: {"passed": True, "reason": "fine"} for c in CRITERIA}}


run = run_async


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


def settings(server: FakeLLMServer, **overrides: Any) -> ModelSettings:
    fields: dict[str, Any] = {"model": "openai/fake-model", "api_base": server.base_url, "timeout_s": 5.0,
                              "max_retries": 1, "retry_base_s": 0.01, "retry_max_wait_s": 0.05,
                              "compat_route": "direct"}
    fields.update(overrides)
    return ModelSettings(**fields)


def backend(server: FakeLLMServer, **kwargs: Any) -> LLMBackend:
    return LLMBackend({stage: settings(server) for stage in STAGES}, **kwargs)


def png(path: Path, color: tuple[int, int, int]) -> Path:
    Image.new("RGB", (24, 16), color).save(path)
    return path


@pytest.fixture
def ctx(tmp_path: Path) -> GroupContext:
    images = [SourceImage(image_id=f"img-{i:016x}", path=str(png(tmp_path / f"r{i}.png", (40 * i, 90, 200))),
                          dataset_type="synthetic_receipt") for i in (1, 2)]
    verdicts = [ImageVerdict.model_validate(VERDICT) for _ in images]
    group = Group(cluster_id="c-1", domain="simple_note", image_ids=[i.image_id for i in images],
                  mean_similarity=0.8)
    return GroupContext(group=group, images=images, verdicts=verdicts)


def outline(ctx: GroupContext, **overrides: Any) -> Outline:
    fields: dict[str, Any] = {"outline_id": "o-1", "cluster_id": "c-1", "domain": "simple_note", "flow": "aggregate",
                              "arrival": "progressive", "challenge": "none", "n_rounds": 2,
                              "image_ids": ctx.group.image_ids, "required_tools": ["simple_note_create_note"],
                              "seed": 7}
    fields.update(overrides)
    return Outline(**fields)


def ask(b: LLMBackend, stage: str, ctx: GroupContext, **outline_overrides: Any) -> Any:
    """Call ``stage`` of ``b`` with the standard inputs."""
    o = outline(ctx, **outline_overrides)
    draft = ScenarioDraft.model_validate(DRAFT)
    calls = {
        "associate": lambda: b.associate(ctx.images[0], "- simple_note (notes): simple_note_create_note"),
        "viability": lambda: b.viability(ctx),
        "expand": lambda: b.expand(o, ctx),
        "entities": lambda: b.entities(o, draft, ctx, []),
        "critique": lambda: b.critique(o, {"name": "s-1", "entity_diff_specs": [SPEC]}, ctx),
    }
    return run(calls[stage]())


def texts(request: dict[str, Any]) -> str:
    """Every text of a request's messages, joined (what the model read)."""
    out = []
    for m in request["messages"]:
        content = m.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out += [p.get("text", "") for p in content if p.get("type") == "text"]
    return "\n".join(out)


GOOD = {"associate": (VERDICT, ImageVerdict), "viability": (VIABILITY, Viability), "expand": (DRAFT, ScenarioDraft),
        "entities": (ENTITIES, EntitySet), "critique": (CRITIQUE, Critique)}


# ------------------------------------------------------------------------------------------ good replies
@pytest.mark.parametrize("form", ["bare", "fenced"])
@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_parses_a_good_reply(server: FakeLLMServer, ctx: GroupContext, stage: str, form: str) -> None:
    payload, model = GOOD[stage]
    text = json.dumps(payload)
    if form == "fenced":
        text = f"Here you go.\n```json\n{json.dumps(payload, indent=2)}\n```\nDone."
    server.reset(script=[text])
    got = ask(backend(server), stage, ctx)
    assert got.ok and got.rejection is None
    assert type(got.value) is model and got.value == model.model_validate(payload)
    assert len(got.calls) == 1 and got.calls[0].error is None and not got.calls[0].cached
    assert got.calls[0].model == "openai/fake-model" and len(got.calls[0].prompt_hash) == 16
    assert got.calls[0].prompt_tokens > 0 and got.calls[0].completion_tokens > 0
    assert server.request_count == 1


# ------------------------------------------------------------------------------------------ repairs
def test_malformed_json_is_repaired(server: FakeLLMServer, ctx: GroupContext) -> None:
    bad = '{"actionable": true, "needs_visual_extraction": true,, }'
    server.reset(script=[bad, json.dumps(VERDICT)])
    got = ask(backend(server), "associate", ctx)
    assert got.ok and got.value.facts == VERDICT["facts"]
    assert len(got.calls) == 2
    assert got.calls[0].error.startswith("malformed_json: Expecting property name")
    assert got.calls[1].error is None and got.calls[0].prompt_hash != got.calls[1].prompt_hash
    second = server.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": bad}
    assert second[-1]["role"] == "user" and "Expecting property name enclosed in double quotes" in second[-1]["content"]
    assert "ImageVerdict" in second[-1]["content"]


def test_schema_invalid_entities_are_repaired(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps({**ENTITIES, "entity_diff_specs": SPEC}), json.dumps(ENTITIES)])
    got = ask(backend(server), "entities", ctx)
    assert got.ok and got.value.entity_diff_specs == [SPEC]
    assert got.calls[0].error.startswith("schema_invalid: entity_diff_specs: Input should be a valid list")
    assert "entity_diff_specs: Input should be a valid list" in server.requests[1]["messages"][-1]["content"]


def test_entities_checks_round_count_and_similarity_names(server: FakeLLMServer, ctx: GroupContext) -> None:
    wrong = {**ENTITIES, "replies": ["only one"],
             "entity_diff_specs": [{**SPEC, "column_similarity_measure": {"title": "column_fuzzy_similarity"}}]}
    server.reset(script=[json.dumps(wrong)] * 3)
    got = ask(backend(server), "entities", ctx)
    assert not got.ok and len(got.calls) == 3
    assert got.rejection.startswith("schema_invalid: ")
    repair = server.requests[1]["messages"][-1]["content"]
    assert "column_fuzzy_similarity" in repair and "replies has 1 entries" in repair


def test_entities_prompt_quotes_previous_validation_errors(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps(ENTITIES)])
    o, draft = outline(ctx), ScenarioDraft.model_validate(DRAFT)
    errors = ["simple_note.notes row 0: unknown column 'colour'", "round 2, step 0: note 999 not found"]
    got = run(backend(server).entities(o, draft, ctx, errors))
    assert got.ok
    text = texts(server.requests[0])
    assert "The previous attempt failed validation with:" in text
    assert all(e in text for e in errors)
    assert "simple_note.notes [appworld table" in text and "simple_note_create_note(title: str" in text
    assert "id 50 (Brenda Webster, brenda.webe@gmail.com)" in text


def test_viability_missing_flow_or_bad_score_is_schema_invalid(server: FakeLLMServer, ctx: GroupContext) -> None:
    flows = {f: 2 for f in FLOWS if f != "compare"}
    bad = {"flows": flows, "arrivals": {**VIABILITY["arrivals"], "late": 5}}
    server.reset(script=[json.dumps(bad), json.dumps(VIABILITY)])
    got = ask(backend(server), "viability", ctx)
    assert got.ok and got.value.flows["compare"] == 2 and type(got.value) is Viability
    error = got.calls[0].error
    assert error.startswith("schema_invalid: ") and "flows is missing compare" in error
    assert "arrivals.late = 5 is outside 0..3" in server.requests[1]["messages"][-1]["content"]


def test_critique_missing_criterion_is_rejected(server: FakeLLMServer, ctx: GroupContext) -> None:
    partial = {"criteria": {c: {"passed": True} for c in CRITERIA[:-1]}}
    server.reset(script=[json.dumps(partial)] * 2)
    got = ask(backend(server, max_repairs=1), "critique", ctx)
    assert not got.ok and got.rejection == "schema_invalid: (root): criteria is missing plausibility"


def test_expand_checks_image_delivery(server: FakeLLMServer, ctx: GroupContext) -> None:
    twice = {**DRAFT, "rounds": [{**DRAFT["rounds"][0], "provide": [1, 2]}, {**DRAFT["rounds"][1], "provide": [2]}]}
    server.reset(script=[json.dumps(twice), json.dumps(DRAFT)])
    got = ask(backend(server), "expand", ctx)
    assert got.ok and len(got.calls) == 2
    assert "images delivered more than once: [2]" in got.calls[0].error


def test_refusal_twice_is_rejected(server: FakeLLMServer, ctx: GroupContext) -> None:
    no = "I'm sorry, but I can't help with that request."
    server.reset(script=[no, no])
    got = ask(backend(server, max_repairs=1), "associate", ctx)
    assert not got.ok and got.value is None
    assert got.rejection.startswith("refusal: ") and len(got.calls) == 2
    assert all(c.error.startswith("refusal: ") for c in got.calls)


def test_empty_reply_then_prose_is_malformed(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[{"text": ""}, "The image shows a receipt.", "still no JSON"])
    got = ask(backend(server), "associate", ctx)
    assert [c.error.split(":")[0] for c in got.calls] == ["empty", "malformed_json", "malformed_json"]
    assert got.rejection == "malformed_json: no JSON object found in the reply"
    # an empty reply is not echoed back as an assistant turn
    assert server.requests[1]["messages"][-2]["role"] == "user"


@pytest.mark.parametrize("fault", [[{"fault": "server_error"}] * 2, [{"status": 400, "error": "bad schema"}]])
def test_provider_errors_become_llm_error_rejections(server: FakeLLMServer, ctx: GroupContext,
                                                     fault: list[dict[str, Any]]) -> None:
    server.reset(script=fault)
    got = ask(backend(server), "viability", ctx)
    assert not got.ok and got.rejection.startswith("llm_error: ")
    assert len(got.calls) == 1 and got.calls[0].error == got.rejection
    assert server.request_count == len(fault)  # 500s retried by the client, a 400 never


# ------------------------------------------------------------------------------------------ requests
def test_image_is_sent_as_an_image_part(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps(VERDICT)])
    ask(backend(server), "associate", ctx)
    system, user = server.requests[0]["messages"]
    assert system["role"] == "system" and "BOTH" in system["content"] and "simple_note_create_note" in system["content"]
    parts = [p for p in user["content"] if p["type"] == "image_url"]
    assert len(parts) == 1 and parts[0]["image_url"]["url"].startswith("data:image/png;base64,")


@pytest.mark.parametrize("stage", ["associate", "critique"])
def test_an_unreadable_image_is_a_rejection_naming_the_file(server: FakeLLMServer, ctx: GroupContext,
                                                             stage: str) -> None:
    Path(ctx.images[0].path).write_text("not an image")
    got = ask(backend(server), stage, ctx)
    assert not got.ok and server.request_count == 0 and not got.calls
    assert got.rejection.startswith(f"unreadable_image: {ctx.images[0].path} (cannot decode image")
    assert rejection_kind(got.rejection) == "unreadable_image"
    Path(ctx.images[0].path).unlink()
    assert ask(backend(server), stage, ctx).rejection.startswith(f"unreadable_image: {ctx.images[0].path} (")


def test_a_photo_and_a_small_image_of_one_question_are_both_sent_encoded(server: FakeLLMServer, ctx: GroupContext,
                                                                          tmp_path: Path) -> None:
    import base64
    import io

    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(3)
    photo = tmp_path / "photo.jpg"  # above the inline limit: read and shrunk in a worker thread
    Image.fromarray(rng.integers(0, 256, (1500, 2000, 3), dtype=np.uint8)).save(photo, quality=90)
    ctx.images[0] = ctx.images[0].model_copy(update={"path": str(photo)})
    server.reset(script=[json.dumps(CRITIQUE)])
    ask(backend(server), "critique", ctx)
    parts = server.requests[0]["messages"][1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert [u.split(";", 1)[0] for u in urls] == ["data:image/jpeg", "data:image/png"]  # outline order kept
    with Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1]))) as sent:
        assert sent.size == (1024, 768)


def test_group_stages_send_every_image_in_outline_order(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps(CRITIQUE)])
    order = list(reversed(ctx.group.image_ids))
    ask(backend(server), "critique", ctx, image_ids=order)
    parts = server.requests[0]["messages"][1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert len(urls) == 2 and urls[0] != urls[1]
    assert '"name": "s-1"' in texts(server.requests[0])


def test_expand_prompt_depends_on_flow_challenge_and_arrival(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps({**DRAFT, "rounds": [{**r, "provide": p} for r, p in
                                                         zip(DRAFT["rounds"], ([], [1, 2]))]})])
    got = ask(backend(server), "expand", ctx, flow="lookup_chain", challenge="goal_change", arrival="late")
    assert got.ok
    system = server.requests[0]["messages"][0]["content"]
    assert section("expand", "flow: lookup_chain") in system
    assert section("expand", "challenge: goal_change") in system
    assert section("expand", "arrival: late") in system
    for other in ("flow: aggregate", "flow: validate", "challenge: none", "arrival: upfront"):
        assert section("expand", other) not in system
    assert "Exactly 2 rounds" in system and "gl.moore@gmail.com" in system


def test_structured_outputs_send_the_json_schema(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps(VIABILITY)])
    got = ask(backend(server, structured_outputs=True), "viability", ctx)
    assert got.ok
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "Viability"
    assert fmt["json_schema"]["schema"] == Viability.model_json_schema() and fmt["json_schema"]["strict"] is False
    server.reset(script=[json.dumps(VIABILITY)])
    ask(backend(server), "viability", ctx)
    assert "response_format" not in server.requests[0]


def test_litellm_route_works_too(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps(VERDICT)])
    b = LLMBackend({stage: settings(server, compat_route="fast") for stage in STAGES}, structured_outputs=True)
    got = ask(b, "associate", ctx)
    assert got.ok and got.value.domains == ["simple_note"]
    assert server.requests[0]["response_format"]["json_schema"]["name"] == "ImageVerdict"


# ------------------------------------------------------------------------------------------ process matters
def test_backend_pickles_and_works_after(server: FakeLLMServer, ctx: GroupContext) -> None:
    b = backend(server)
    server.reset(script=[json.dumps(VERDICT), json.dumps(VERDICT)])
    assert ask(b, "associate", ctx).ok  # clients exist now; they must not travel
    copy = pickle.loads(pickle.dumps(b))
    assert copy.models == b.models and copy.max_repairs == 2 and copy._clients == {}
    assert ask(copy, "associate", ctx).ok
    assert copy.ledger.totals()["generate.associate"]["api_calls"] == 1


def test_clients_share_one_provider_limits(server: FakeLLMServer, ctx: GroupContext) -> None:
    server.reset(script=[json.dumps(VERDICT), json.dumps(VIABILITY)])
    b = backend(server)
    ask(b, "associate", ctx)
    ask(b, "viability", ctx)
    first, second = b._clients["associate"], b._clients["viability"]
    assert first.limits is second.limits and first.images is second.images


def test_cache_serves_a_repeated_call(server: FakeLLMServer, ctx: GroupContext, tmp_path: Path) -> None:
    server.reset(script=[json.dumps(VIABILITY)])
    b = backend(server, cache_dir=str(tmp_path / "cache"))
    first = ask(b, "viability", ctx)
    again = ask(pickle.loads(pickle.dumps(b)), "viability", ctx)
    assert first.ok and again.ok and again.value == first.value
    assert server.request_count == 1
    assert not first.calls[0].cached and again.calls[0].cached
    assert again.calls[0].prompt_hash == first.calls[0].prompt_hash


def test_missing_stage_model_names_the_key(server: FakeLLMServer) -> None:
    models = {stage: settings(server) for stage in STAGES if stage != "entities"}
    with pytest.raises(ValueError, match=r"generate\.models\.entities"):
        LLMBackend(models)
    with pytest.raises(ValueError, match=r"generate\.models\.critique"):
        LLMBackend({**models, "entities": settings(server), "critique": ModelSettings()})


# ------------------------------------------------------------------------------------------ parsing units
def test_prompt_hash_ignores_image_encoding_but_not_content() -> None:
    def msgs(data: str) -> list[dict[str, Any]]:
        return [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": data}}]}]

    a, b = msgs("data:image/png;base64,AAAA"), msgs("data:image/png;base64,AAAB")
    assert prompt_hash(a) == prompt_hash(msgs("data:image/png;base64,AAAA")) != prompt_hash(b)


def test_prompt_hash_is_the_sha256_of_the_conversations_canonical_json() -> None:
    # hashed message by message, with the text messages' JSON kept between calls: still exactly the digest of
    # the whole conversation's canonical JSON, images by the sha256 of their bytes
    from mmtsb.llm.cache import canonical_json

    image = "data:image/png;base64," + base64.b64encode(b"pixels").decode()
    image_hash = "sha256:" + hashlib.sha256(b"pixels").hexdigest()
    convo = [{"role": "system", "content": 'Tools: é, 中, "quoted", \\ back\nslash \u2028 \x00'},
             {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": image}}]},
             {"role": "assistant", "content": None, "tool_calls": [{"id": "t1", "score": 0.5}]},
             {"role": "user", "content": image},
             {"role": "user", "content": "again", "name": "critic"}, {"role": "system", "content": ""}]
    scrubbed = json.loads(json.dumps(convo).replace(json.dumps(image)[1:-1], image_hash))
    expected = hashlib.sha256(canonical_json(scrubbed).encode("utf-8")).hexdigest()[:16]
    assert prompt_hash(convo) == prompt_hash(json.loads(json.dumps(convo))) == expected
    assert prompt_hash([]) == hashlib.sha256(b"[]").hexdigest()[:16]
    assert prompt_hash(convo[:1]) != prompt_hash([{**convo[0], "content": convo[0]["content"] + " "}])
    # an encoder's DataURL names its image by the digest it carries, which is the same
    from mmtsb.llm.images import ImageEncoder

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "teal").save(buffer, format="PNG")
    url = ImageEncoder().data_url(buffer.getvalue())
    assert url.content_sha256 and prompt_hash([{"role": "user", "content": url}]) == prompt_hash(
        [{"role": "user", "content": str(url)}])


def test_extract_json_variants() -> None:
    assert extract_json('<think>maybe {"x": 1}</think> {"a": {"b": 2}} trailing') == ({"a": {"b": 2}}, None)
    assert extract_json("```\n{\"a\": 1}\n```") == ({"a": 1}, None)
    assert extract_json("no braces here") == (None, None)
    value, error = extract_json('[{"a": 1}]')
    assert value is None and "JSON list" in error
    assert parse_reply("I cannot assist with this.", Viability).kind == "refusal"
    assert parse_reply("   ", Viability).kind == "empty"
    assert parse_reply("ok", Viability, refused="policy").kind == "refusal"
