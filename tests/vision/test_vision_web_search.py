"""web_search_serper: the frozen-web BM25 backend and the live Serper backend against a local fake server."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from testkit import REFERENCE_TIME, call_err, call_ok

from mmtsb.apps.setting.schema import BASE_SETTING_ROW, SETTING
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.vision.web_search import DEFAULT_CORPUS, frozen_index, load_corpus, serper_search, tokenize
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.world import World

RESULT_KEYS = {"title", "link", "snippet", "position"}


@pytest.fixture
def world():
    """A small World (device tables only): the vision tools read no app table, so tests stay fast and isolated."""
    w = World([*device.core_tables(), SETTING], Clock.at(REFERENCE_TIME))
    w.insert("SETTING", dict(BASE_SETTING_ROW))
    yield w
    w.close()


@pytest.fixture(autouse=True)
def no_live_search(monkeypatch):
    """Tests never use a real key or endpoint: only the fake server below, on 127.0.0.1."""
    monkeypatch.delenv("SERPER_API_KEY", raising=False)
    monkeypatch.delenv("SERPER_BASE_URL", raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture
def vsession(world):
    return ToolSession(world, ToolRegistry.from_modules(["mmtsb.vision.web_search"]))


def write_corpus(path, docs):
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ frozen web
def test_default_corpus_is_well_formed_and_varied():
    docs = load_corpus(DEFAULT_CORPUS)
    assert 40 <= len(docs) <= 80
    assert len({d.url for d in docs}) == len(docs)
    assert len({d.url.split("/")[3] for d in docs}) >= 8  # many topics


def test_frozen_search_ranks_the_relevant_page_first(vsession):
    results = call_ok(vsession, "web_search_serper", query="How tall is the Eiffel Tower?")
    assert results[0]["link"].endswith("/landmarks/eiffel-tower")
    assert "330 metres" in results[0]["snippet"]
    assert all(set(r) == RESULT_KEYS for r in results)
    assert [r["position"] for r in results] == list(range(1, len(results) + 1)) and len(results) <= 10
    top = call_ok(vsession, "web_search_serper", query="capital of Australia")[0]
    assert top["title"] == "What is the capital of Australia?" and "Canberra" in top["snippet"]
    assert call_ok(vsession, "web_search_serper", query="fastest land animals")[0]["link"].endswith("/cheetah")


def test_frozen_search_is_deterministic_and_empty_without_matches(vsession):
    q = "who invented the world wide web"
    assert call_ok(vsession, "web_search_serper", query=q) == call_ok(vsession, "web_search_serper", query=q)
    assert call_ok(vsession, "web_search_serper", query="qwertyuiop zxcvbnm") == []
    assert call_ok(vsession, "web_search_serper", query="what is the") == []


def test_query_validation(vsession):
    assert "query must be a non-empty search string" in call_err(vsession, "web_search_serper", query="  ").message
    assert "at most 2048 characters" in call_err(vsession, "web_search_serper", query="x" * 3000).message


def test_wifi_off_is_a_connection_error(vsession, world):
    row = world.rows("SETTING")[0]
    world.update("SETTING", row["device_id"], {"wifi": False, "cellular": True})
    err = call_err(vsession, "web_search_serper", query="Eiffel Tower")
    assert err.type == "ConnectionError" and "WiFi" in err.message


def test_scenario_corpus_from_world_metadata(vsession, world, tmp_path):
    path = write_corpus(tmp_path / "web.jsonl", [
        {"url": "https://shop.example/ball", "title": "Manhattan Toy Skwish ball", "snippet": "Price: $14.99",
         "text": "A classic rattle and teether toy."},
        {"url": "https://shop.example/bear", "title": "Plush bear", "text": "A soft plush bear for toddlers, "
                                                                           "price $20. " * 30},
    ])
    world.metadata["web_corpus"] = str(path)
    results = call_ok(vsession, "web_search_serper", query="plush bear price")
    assert results[0]["link"] == "https://shop.example/bear"
    assert results[0]["snippet"].endswith(" ...") and len(results[0]["snippet"]) <= 204  # derived from text
    assert call_ok(vsession, "web_search_serper", query="Eiffel Tower") == []  # the default corpus is not used
    # an edited corpus file is re-indexed
    time.sleep(0.01)
    write_corpus(path, [{"url": "https://x.example/eiffel", "title": "Eiffel replica", "snippet": "A copy."}])
    assert call_ok(vsession, "web_search_serper", query="Eiffel")[0]["link"] == "https://x.example/eiffel"


def test_index_is_cached_per_corpus_file():
    assert frozen_index() is frozen_index(str(DEFAULT_CORPUS))


@pytest.mark.parametrize("lines, message", [
    (['{"url": "u", "title": "t", "snippet": "s"}', "{not json"], "line 2: not valid JSON"),
    (['{"url": "u", "snippet": "s"}'], "line 1: field 'title' must be a non-empty string"),
    (['{"url": "u", "title": "t"}'], "line 1: give a snippet or a text"),
    (['["u", "t"]'], "line 1: expected a JSON object"),
    (["", "  "], "has no documents"),
])
def test_bad_corpus_files_are_reported_precisely(vsession, world, tmp_path, lines, message):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    world.metadata["web_corpus"] = str(path)
    err = call_err(vsession, "web_search_serper", query="anything")
    assert err.type == "ValueError" and message in err.message and str(path) in err.message


def test_missing_corpus_file(vsession, world, tmp_path):
    world.metadata["web_corpus"] = str(tmp_path / "nope.jsonl")
    assert "web corpus file not found" in call_err(vsession, "web_search_serper", query="x").message


def test_tokenizer_drops_stop_words_and_plurals():
    assert tokenize("What are the Towers of Paris?") == ["tower", "paris"]
    assert tokenize("cities and boxes") == ["city", "box"]


# ------------------------------------------------------------------------------------------ live Serper
class FakeSerper:
    """A tiny Serper look-alike on 127.0.0.1 that records requests and answers as configured."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.status = 200
        self.body: bytes = b"{}"
        self.delay = 0.0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                fake.requests.append({"path": self.path, "headers": dict(self.headers),
                                      "json": json.loads(self.rfile.read(length))})
                time.sleep(fake.delay)
                self.send_response(fake.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(fake.body)))
                self.end_headers()
                self.wfile.write(fake.body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serper(monkeypatch):
    fake = FakeSerper()
    monkeypatch.setenv("SERPER_API_KEY", "test-key-123")
    monkeypatch.setenv("SERPER_BASE_URL", fake.url)
    yield fake
    fake.close()


ORGANIC = {"searchParameters": {"q": "eiffel"}, "organic": [
    {"title": "Eiffel Tower - Wikipedia", "link": "https://en.wikipedia.org/wiki/Eiffel_Tower",
     "snippet": "The Eiffel Tower is a wrought-iron lattice tower.", "position": 1, "date": "2024"},
    {"title": "Visit", "link": "https://www.toureiffel.paris/en", "snippet": "Tickets."},
]}


def test_live_serper_backend_posts_the_query(vsession, serper):
    serper.body = json.dumps(ORGANIC).encode()
    results = call_ok(vsession, "web_search_serper", query="eiffel tower height")
    assert [r["link"] for r in results] == ["https://en.wikipedia.org/wiki/Eiffel_Tower",
                                            "https://www.toureiffel.paris/en"]
    assert results[0]["date"] == "2024" and results[1]["position"] == 2  # missing positions are filled in
    (req,) = serper.requests
    assert req["path"] == "/search" and req["json"] == {"q": "eiffel tower height"}
    assert req["headers"]["X-API-KEY"] == "test-key-123"


def test_frozen_backend_can_be_forced_with_a_key_set(vsession, world, serper):
    world.metadata["web_search_backend"] = "frozen"
    assert call_ok(vsession, "web_search_serper", query="Eiffel Tower")[0]["link"].endswith("eiffel-tower")
    assert serper.requests == []
    world.metadata["web_search_backend"] = "bing"
    assert "must be one of auto, frozen, serper" in call_err(vsession, "web_search_serper", query="x").message


def test_serper_backend_without_a_key(vsession, world):
    world.metadata["web_search_backend"] = "serper"
    assert "SERPER_API_KEY is not set" in call_err(vsession, "web_search_serper", query="x").message


@pytest.mark.parametrize("status, body, message", [
    (403, b'{"message": "Unauthorized."}', "rejected the API key (HTTP 403); check SERPER_API_KEY"),
    (429, b"{}", "rate limit or credit was exceeded (HTTP 429)"),
    (500, b"boom", "answered HTTP 500: 'boom'"),
    (200, b"<html>", "non-JSON content"),
    (200, b'{"organic": "nope"}', "has no 'organic' result list"),
])
def test_serper_errors_become_value_errors(vsession, serper, status, body, message):
    serper.status, serper.body = status, body
    err = call_err(vsession, "web_search_serper", query="eiffel")
    assert err.type == "ValueError" and message in err.message, err.message


def test_serper_empty_answer_and_unreachable_and_timeout(serper):
    serper.body = b'{"searchParameters": {}}'
    assert serper_search("x", "k") == []
    serper.delay, serper.body = 0.5, b"{}"
    with pytest.raises(ValueError, match="did not answer within 0.1 s"):
        serper_search("x", "k", timeout=0.1)
    closed = FakeSerper()
    closed.close()
    with pytest.raises(ValueError, match="could not reach the Serper API at http://127.0.0.1"):
        serper_search("x", "k", base_url=closed.url)
