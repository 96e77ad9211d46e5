"""Tool discovery: the BM25 index, the reference's keyword scoring, the search tool in both modes (with the
LRU working set), and the side-by-side ranking benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, REFERENCE, REFERENCE_TIME, REPO, call_err, call_ok

from mmtsb.tools.discovery import (
    ToolSearchIndex,
    reference_keyword_rank,
    reference_keyword_scores,
    tokenize,
)
from mmtsb.text import plural_stem as stem
from mmtsb.tools.discovery_tool import SEARCH_TOOL
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession, WorkingSet
from mmtsb.tools.spec import tool
from mmtsb.tools.toolbox import full_registry
from mmtsb.world.world import World

CATALOG = REFERENCE / "tool_catalog.json"
needs_catalog = pytest.mark.skipif(not CATALOG.exists(), reason="reference tool_catalog.json is absent")


@dataclass(frozen=True)
class Doc:
    """A hand-made searchable tool (the attributes the rankers read from a ToolSpec)."""

    name: str
    domain: str
    summary: str = ""
    visible_to: tuple[str, ...] = ("agent",)
    absorbs: tuple[str, ...] = ()
    extra: str = ""

    def search_text(self) -> str:
        return f"{self.name} {self.name.replace('_', ' ')} {self.domain} {self.summary} {self.extra}"


@pytest.fixture(scope="module")
def catalog_docs() -> list[Doc]:
    """All 511 catalog tools as searchable docs (no implementation needed)."""
    entries = json.loads(CATALOG.read_text())
    return [Doc(t["name"], t["domain"], t["summary"], tuple(t["visible_to"]),
                extra=" ".join(p["name"].replace("_", " ") for p in t["params"])) for t in entries]


def _names(docs) -> list[str]:
    return [d.name for d in docs]


# --------------------------------------------------------------------------------------- tokenising
def test_tokenize_splits_snake_case_drops_stopwords_and_stems_plurals():
    assert tokenize("simple_note_create_note") == ["simple", "note", "create", "note"]
    assert tokenize("Please show the Notes of it!") == ["show", "note"]
    assert [stem(w) for w in ("entries", "matches", "messages", "address", "status", "bus")] == \
        ["entry", "match", "message", "address", "status", "bus"]


def test_plural_and_singular_meet_for_every_plural_ending():
    for plural, singular in [("sizes", "size"), ("freezes", "freeze"), ("boxes", "box"), ("dishes", "dish"),
                             ("classes", "class"), ("directories", "directory"), ("1990s", "1990")]:
        assert stem(plural) == stem(singular) == singular


# --------------------------------------------------------------------------------------- BM25 index
@needs_catalog
def test_bm25_ranks_the_obvious_tool_first(catalog_docs):
    index = ToolSearchIndex(catalog_docs)
    assert "simple_note_create_note" in _names(index.search("create a note", limit=3))
    assert _names(index.search("send an email", limit=5))[0] == "gmail_send_email"
    assert "spotify_add_song_to_playlist" in _names(index.search("add a song to my playlist", limit=3))
    assert "set_wifi_status" in _names(index.search("turn on wifi", limit=3))
    assert _names(index.search("notes", limit=5)) == _names(index.search("note", limit=5))
    assert len(index.search("send an email", limit=7)) == 7


@needs_catalog
def test_bm25_filters_by_role_and_handles_empty_and_unknown_queries(catalog_docs):
    index = ToolSearchIndex(catalog_docs)
    assert "end_conversation" not in _names(index.search("end conversation"))
    assert _names(index.search("end conversation", role="user"))[0] == "end_conversation"
    agent_tools = [d.name for d in catalog_docs if "agent" in d.visible_to]
    assert _names(index.search("")) == agent_tools and len(agent_tools) == 508
    assert _names(index.search("  ", role="user", limit=2)) == ["end_conversation", "send_message_with_image"]
    assert index.search("xyzzy qwertyuiop") == []
    assert all("agent" in d.visible_to for d in index.search("image message user"))


def test_bm25_uses_absorbed_names_and_survives_empty_documents():
    docs = [Doc("app_manage_note", "app", absorbs=("simple_note_delete_note",)),
            Doc("app_show_thing", "app"), Doc("x", "y", summary="the of and")]
    index = ToolSearchIndex(docs)
    assert _names(index.search("delete")) == ["app_manage_note"]
    assert _names(index.search("x")) == ["x"] and index.search("the") == []
    assert ToolSearchIndex([]).search("anything") == [] and ToolSearchIndex([]).search("") == []


def test_index_can_rank_the_reference_way():
    index = ToolSearchIndex(REF_DOCS)
    assert index.search("note create mail", method="reference") == reference_keyword_rank(REF_DOCS,
                                                                                           "note create mail")
    assert _names(index.search("conversation", role="user", method="reference")) == ["end_conversation"]
    with pytest.raises(ValueError, match="Unknown search method 'dense'"):
        index.search("x", method="dense")


def test_registry_builds_the_index_once():
    reg = full_registry()
    assert reg.search_index is reg.search_index
    assert isinstance(reg.search_index, ToolSearchIndex) and len(reg.search_index) == len(reg)


# ------------------------------------------------------------------------------- reference scoring
REF_DOCS = [
    Doc("gmail_send_email", "gmail", "Sends an email.\nSecond line is ignored: note create."),
    Doc("simple_note_create_note", "simple_note", "Creates a note for your mail."),
    Doc("view_image", "vision", "Shows an image to the model."),
    Doc("simple_note_manage_note", "simple_note", "Manages notes.", absorbs=("simple_note_delete_note",)),
    Doc("api_docs_search_api_docs", "meta", "Searches tools."),
    Doc("render_ui_screen", "ui", "Renders a screen."),
    Doc("end_conversation", "user", "Ends the dialogue.", visible_to=("user",)),
]


def test_reference_scores_follow_the_name_domain_text_weights():
    scores = {d.name: s for d, s in reference_keyword_scores(REF_DOCS, "MAIL note create")}
    # gmail: "mail" in the name (2); "note"/"create" only on the ignored second summary line (0)
    assert scores["gmail_send_email"] == 2.0
    # create_note: "mail" only in the first summary line (1) + "note" (2) + "create" (2)
    assert scores["simple_note_create_note"] == 5.0
    assert scores["simple_note_manage_note"] == 2.0      # "note" in the name; "create" nowhere
    assert scores["view_image"] == 0.0
    by_name = {d.name: d for d in REF_DOCS}
    # domain only (1.5): "vision" is the domain label of view_image, not in its name
    assert reference_keyword_scores([by_name["view_image"]], "vision")[0][1] == 1.5
    # absorbed names count as the name (2.0); the meta label is the name's first word ("api"), not "meta"
    assert reference_keyword_scores([by_name["simple_note_manage_note"]], "delete")[0][1] == 2.0
    assert reference_keyword_scores([by_name["api_docs_search_api_docs"]], "meta")[0][1] == 0.0
    assert reference_keyword_scores([by_name["render_ui_screen"]], "render")[0][1] == 2.0
    assert reference_keyword_scores([by_name["end_conversation"]], "tools")[0][1] == 1.5  # "user_tools"
    # substring matching, as the reference does: "a" matches nearly everything, "_" every snake_case name
    assert reference_keyword_scores([by_name["view_image"]], "a _ e")[0][1] == 6.0


def test_reference_rank_keeps_positive_scores_stably_and_filters_role():
    ranked = reference_keyword_rank(REF_DOCS, "note create mail")
    assert _names(ranked) == ["simple_note_create_note", "gmail_send_email", "simple_note_manage_note"]
    tie = reference_keyword_rank(REF_DOCS, "simple")
    assert _names(tie) == ["simple_note_create_note", "simple_note_manage_note"]  # input order on ties
    assert "end_conversation" not in _names(reference_keyword_rank(REF_DOCS, "conversation"))
    assert _names(reference_keyword_rank(REF_DOCS, "conversation", role="user")) == ["end_conversation"]
    assert _names(reference_keyword_rank(REF_DOCS, "")) == [d.name for d in REF_DOCS[:-1]]


# ------------------------------------------------------------------------------------ the tool
@tool(domain="user", visible_to=("user",))
def user_only_probe(world: World) -> str:
    """A user-only tool about notes (must never be found by the agent's search).

    Returns:
        "ok"
    """
    return "ok"


@pytest.fixture
def world():
    """A small world with only SimpleNote (and device tables), logged in as the main user: the search tool
    touches no app state, so these tests need not depend on every app's schema."""
    from random import Random

    from mmtsb.apps import app
    from mmtsb.apps.base import BaseContext
    from mmtsb.world import device
    from mmtsb.world.clock import Clock
    from mmtsb.world.people import base_people

    notes = app("simple_note")
    clock = Clock.at(REFERENCE_TIME)
    w = World([*device.core_tables(), *notes.tables], clock)
    people = base_people(MAIN_EMAIL, MAIN_ID)
    main = next(p for p in people if p.id == MAIN_ID)
    ctx = BaseContext(people=people, main_user=main, reference_time=clock.reference_time, rng=Random(0))
    notes.seed(w, ctx)
    device.login(w, "simple_note", MAIN_EMAIL)
    yield w
    w.close()


def _registry() -> ToolRegistry:
    """The simple_note tools, the search tool and a user-only tool (independent of which apps exist)."""
    full = full_registry()
    specs = [s for s in full if s.domain == "simple_note"] + [full.get(SEARCH_TOOL)]
    return ToolRegistry(specs + [user_only_probe.__mmtsb_tool__])


def test_tool_use_mode_registers_the_page_into_the_working_set(world):
    ws = WorkingSet(capacity=100, pinned=[SEARCH_TOOL])
    session = ToolSession(world, _registry(), mode="tool_use", working_set=ws)
    assert [s.name for s in session.available()] == [SEARCH_TOOL]
    text = call_ok(session, SEARCH_TOOL, query="create a note", page_limit=3)
    assert text.startswith("Successfully registered 3 tools: ['simple_note_create_note', ")
    found = [n for n in ws.names() if n != SEARCH_TOOL]
    assert found[0] == "simple_note_create_note" and all(n in text for n in found)
    assert {s.name for s in session.available()} == {SEARCH_TOOL, *found}
    call_ok(session, "simple_note_create_note", title="t", content="c")   # a call refreshes its LRU slot
    assert ws.names()[-1] == "simple_note_create_note"


def test_search_results_exclude_the_search_tool_and_user_tools(world):
    session = ToolSession(world, _registry(), mode="tool_use", working_set=WorkingSet(pinned=[SEARCH_TOOL]))
    text = call_ok(session, SEARCH_TOOL, query="user only probe notes search api docs tools", page_limit=20)
    assert "user_only_probe" not in text and text.count(SEARCH_TOOL) == 0
    assert "user_only_probe" not in session.working_set


def test_lru_eviction_keeps_pinned_and_recently_used_tools(world):
    ws = WorkingSet(capacity=5, pinned=[SEARCH_TOOL, "simple_note_show_account"])
    session = ToolSession(world, _registry(), mode="tool_use", working_set=ws)
    call_ok(session, SEARCH_TOOL, query="note", page_limit=3)
    first = [n for n in ws.names() if n not in ws.pinned]
    assert len(first) == 3 and "simple_note_show_account" not in first
    session.working_set.touch([first[0]])                # as the session does when the agent calls it
    text = call_ok(session, SEARCH_TOOL, query="password reset code", page_limit=2)
    evicted = [first[1], first[2]]
    assert "Dropped from your available tools" in text
    assert all(repr(n) in text.split("Dropped")[1] for n in evicted)
    assert SEARCH_TOOL in ws and "simple_note_show_account" in ws and first[0] in ws
    assert not any(n in ws for n in evicted) and len(ws) == 5


def test_code_exec_mode_returns_full_docs_and_registers_nothing(world):
    session = ToolSession(world, _registry(), mode="code_exec", working_set=None)
    docs = call_ok(session, SEARCH_TOOL, query="create note", page_limit=2)
    assert docs[0]["tool_name"] == "simple_note_create_note" and len(docs) == 2
    create = docs[0]
    assert create["app_name"] == "simple_note" and create["returns"] and create["description"]
    assert [p["name"] for p in create["parameters"]] == ["title", "content", "tags", "pinned"]
    assert create["parameters"][0] == {"name": "title", "type": "str", "required": True,
                                       "description": create["parameters"][0]["description"], "default": None}
    assert create["parameters"][3]["default"] is False
    json.dumps(docs)
    assert call_ok(session, SEARCH_TOOL, query="zzzz qqqq") == []
    assert call_ok(session, SEARCH_TOOL, query="note", page_index=50) == []


def test_empty_query_lists_tools_in_order_with_a_note(world):
    reg = _registry()
    session = ToolSession(world, reg, mode="tool_use", working_set=WorkingSet(pinned=[SEARCH_TOOL]))
    text = call_ok(session, SEARCH_TOOL)
    order = [s.name for s in reg.visible_to("agent") if s.name != SEARCH_TOOL]
    assert text.startswith(f"Successfully registered 5 tools: {order[:5]}")
    assert f"No query given: these are 5 of all {len(order)} tools" in text
    second = call_ok(session, SEARCH_TOOL, query=None, page_index=1, page_limit=4)
    assert second.startswith(f"Successfully registered 4 tools: {order[4:8]}")
    code = ToolSession(world, reg, mode="code_exec")
    assert [d["tool_name"] for d in call_ok(code, SEARCH_TOOL, query="")] == order[:5]


def test_no_match_past_the_end_and_no_working_set(world):
    session = ToolSession(world, _registry(), mode="tool_use", working_set=WorkingSet(pinned=[SEARCH_TOOL]))
    text = call_ok(session, SEARCH_TOOL, query="xyzzy")
    assert text.startswith("Successfully registered 0 tools: []") and "No tool matched 'xyzzy'" in text
    assert "simple_note" in text
    text = call_ok(session, SEARCH_TOOL, query="note", page_index=40)
    assert "registered 0 tools" in text and "page_index 40 is past the last page" in text
    everything = ToolSession(world, _registry(), mode="tool_use", working_set=None)
    text = call_ok(everything, SEARCH_TOOL, query="create a note", page_limit=1)
    assert text == ("Found 1 tools (every tool is already available, nothing to register): "
                    "['simple_note_create_note']")


def test_page_arguments_are_validated(world):
    ws = WorkingSet(pinned=[SEARCH_TOOL])
    session = ToolSession(world, _registry(), mode="tool_use", working_set=ws)
    err = call_err(session, SEARCH_TOOL, query="note", page_index=-1)
    assert err.type == "ValueError" and "page_index must be >= 0" in err.message and "-1" in err.message
    err = call_err(session, SEARCH_TOOL, query="note", page_limit=0)
    assert "page_limit must be between 1 and 20, got 0" in err.message
    assert "got 21" in call_err(session, SEARCH_TOOL, query="note", page_limit=21).message
    err = call_err(session, SEARCH_TOOL, query="note", page_index="first")
    assert err.type == "ArgumentError" and "page_index" in err.message
    assert ws.names() == [SEARCH_TOOL]                   # failed calls register nothing
    assert call_ok(session, SEARCH_TOOL, query="note", page_index=None, page_limit=None).startswith(
        "Successfully registered 5 tools")


def test_a_session_can_opt_into_the_reference_ranking(world):
    session = ToolSession(world, _registry(), mode="code_exec")
    session.search_method = "reference"     # the hook the tool reads (default "bm25")
    docs = call_ok(session, SEARCH_TOOL, query="note", page_limit=20)
    expected = [s.name for s in reference_keyword_rank(list(_registry()), "note") if s.name != SEARCH_TOOL]
    assert [d["tool_name"] for d in docs] == expected[:20]


def test_search_over_the_full_registry(world):
    """Over every implemented tool (no working set: every tool is already offered)."""
    session = ToolSession(world, full_registry(), mode="tool_use")
    text = call_ok(session, SEARCH_TOOL, query="create a note", page_limit=3)
    assert "simple_note_create_note" in text and text.startswith("Found 3 tools")


# ------------------------------------------------------------------------------------ benchmark
@needs_catalog
def test_search_ranking_benchmark_runs():
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "search_ranking.py"), "--json"],
                         check=False, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert out.returncode == 0, out.stderr
    numbers = json.loads(out.stdout.strip().splitlines()[-1])
    for method in ("bm25", "reference"):
        for metric in ("recall@5", "recall@10", "mrr", "first_message_recall@5"):
            assert 0.0 <= numbers[f"{method}_{metric}"] <= 1.0
    assert numbers["n_tools"] == 511 and numbers["n_queries"] > numbers["n_scenarios"] > 0
    assert "bm25" in out.stdout and "reference" in out.stdout
