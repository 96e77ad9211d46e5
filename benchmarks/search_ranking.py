"""Tool-search quality: our BM25 ranking vs the reference's keyword scoring, side by side.

Documents: all 511 tools of ``reference/tool_catalog.json``, as lightweight docs built from the catalog entry
(name, domain, summary, parameter names and constraints), so both rankers see the same 511 documents and
no tool needs to be implemented. Only agent-visible tools are ranked (as the reference does).

Queries, from every ``reference/scenarios/*/*.json``:

* ``rounds``: each ``Query:`` line of the scripted user instructions (``messages[0].content``, one per
  ROUND). These are natural user requests ("Check this memo against the 'Archive Hunt' tasks and mark the
  matching one complete..."), never tool names, so they are hard for lexical search.
* ``first_message``: the whole first USER -> AGENT message of the scenario, as one query.

Relevant tools: ``metadata.expected_tools`` that exist in the catalog and are agent-visible. Expected tools
are listed per scenario, not per round, so for ``rounds`` recall@k is computed per scenario: an expected tool
counts as found if it is in the top k of *any* of the scenario's round queries (an agent searches each
round); the mean over scenarios is reported. For ``first_message`` recall@k is the share of expected tools in
that query's top k. MRR is per query: 1/rank of the first expected tool in the full ranking (0 if absent).

Usage: ``python benchmarks/search_ranking.py [--reference DIR] [--json]``; ``--json`` prints one last line
with the numbers (``bm25_recall@5`` etc. are the ``rounds`` set). Runs in about a second.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mmtsb.tools.discovery import ToolSearchIndex, reference_keyword_rank

DEFAULT_REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"
KS = (5, 10)
_QUERY_LINE = re.compile(r"^\s*Query:\s*(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class CatalogDoc:
    """A catalog entry seen as a searchable tool (same attributes the rankers read from a ToolSpec)."""

    name: str
    domain: str
    summary: str
    visible_to: tuple[str, ...]
    params: tuple[str, ...]
    absorbs: tuple[str, ...] = ()

    def search_text(self) -> str:
        words = self.name.replace("_", " ")
        return f"{self.name} {words} {self.domain} {self.summary} {' '.join(self.params)}"


@dataclass(frozen=True)
class Scenario:
    name: str
    rounds: tuple[str, ...]
    first_message: str
    expected: frozenset[str]


def load_catalog(reference: Path) -> list[CatalogDoc]:
    docs = []
    for t in json.loads((reference / "tool_catalog.json").read_text()):
        params = tuple(f"{p['name'].replace('_', ' ')} {p.get('constraint') or ''}".strip()
                       for p in t["params"])
        docs.append(CatalogDoc(t["name"], t["domain"], t.get("summary") or "", tuple(t["visible_to"]),
                               params))
    return docs


def load_scenarios(reference: Path, agent_tools: set[str]) -> list[Scenario]:
    out = []
    for path in sorted(glob.glob(str(reference / "scenarios" / "*" / "*.json"))):
        data = json.loads(Path(path).read_text())
        msgs = data.get("messages") or []
        rounds = tuple(_QUERY_LINE.findall(msgs[0]["content"])) if msgs else ()
        first = next((m["content"] for m in msgs if m.get("sender") == "USER"), "")
        listed = data.get("metadata", {}).get("expected_tools", [])
        expected = frozenset(t for t in listed if t in agent_tools)
        if expected and (rounds or first):
            out.append(Scenario(f"{Path(path).parent.name}/{Path(path).stem}", rounds, first, expected))
    return out


def reciprocal_rank(ranking: Sequence[str], expected: frozenset[str]) -> float:
    return next((1.0 / (i + 1) for i, n in enumerate(ranking) if n in expected), 0.0)


def evaluate(rank: Callable[[str], list[str]], scenarios: list[Scenario]) -> dict[str, dict[str, float]]:
    """recall@k and MRR per query set for one ranker (``rank(query) -> names, best first``)."""
    res: dict[str, dict[str, list[float]]] = {"rounds": {}, "first_message": {}}
    for sc in scenarios:
        round_rankings = [rank(q) for q in sc.rounds]
        first_ranking = rank(sc.first_message)
        for k in KS:
            found = set().union(*(r[:k] for r in round_rankings)) & sc.expected if round_rankings else set()
            res["rounds"].setdefault(f"recall@{k}", []).append(len(found) / len(sc.expected))
            hit = set(first_ranking[:k]) & sc.expected
            res["first_message"].setdefault(f"recall@{k}", []).append(len(hit) / len(sc.expected))
        res["rounds"].setdefault("mrr", []).extend(reciprocal_rank(r, sc.expected) for r in round_rankings)
        res["first_message"].setdefault("mrr", []).append(reciprocal_rank(first_ranking, sc.expected))
    return {qs: {m: sum(v) / len(v) if v else 0.0 for m, v in ms.items()} for qs, ms in res.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE, help="the shared/reference folder")
    ap.add_argument("--json", action="store_true", help="print one last JSON line with the numbers")
    args = ap.parse_args(argv)

    docs = load_catalog(args.reference)
    agent_docs = [d for d in docs if "agent" in d.visible_to]
    scenarios = load_scenarios(args.reference, {d.name for d in agent_docs})
    if not scenarios:
        print(f"no scenarios with expected tools under {args.reference / 'scenarios'}", file=sys.stderr)
        return 1

    started = time.perf_counter()
    index = ToolSearchIndex(docs)
    build_ms = (time.perf_counter() - started) * 1000

    rankers: dict[str, Callable[[str], list[str]]] = {
        "bm25": lambda q: [d.name for d in index.search(q, role="agent")],
        "reference": lambda q: [d.name for d in reference_keyword_rank(docs, q, role="agent")],
    }
    results, latency_ms = {}, {}
    n_queries = sum(len(s.rounds) + 1 for s in scenarios)
    for method, rank in rankers.items():
        t0 = time.perf_counter()
        results[method] = evaluate(rank, scenarios)
        latency_ms[method] = (time.perf_counter() - t0) * 1000 / n_queries

    print(f"{len(docs)} tools ({len(agent_docs)} agent-visible), {len(scenarios)} scenarios, "
          f"{sum(len(s.rounds) for s in scenarios)} round queries + {len(scenarios)} first messages; "
          f"BM25 index built in {build_ms:.1f} ms")
    header = f"{'method':<10} {'query set':<14} {'recall@5':>9} {'recall@10':>10} {'MRR':>7} {'ms/query':>9}"
    print(header)
    print("-" * len(header))
    for method, by_set in results.items():
        for qs, m in by_set.items():
            print(f"{method:<10} {qs:<14} {m['recall@5']:>9.3f} {m['recall@10']:>10.3f} {m['mrr']:>7.3f} "
                  f"{latency_ms[method]:>9.2f}")

    if args.json:
        flat: dict[str, float | int] = {}
        for method, by_set in results.items():
            for metric, v in by_set["rounds"].items():
                flat[f"{method}_{metric}"] = round(v, 4)
            for qs, ms in by_set.items():
                for metric, v in ms.items():
                    flat[f"{method}_{qs}_{metric}"] = round(v, 4)
        flat.update({"n_tools": len(docs), "n_scenarios": len(scenarios), "n_queries": n_queries,
                     "bm25_index_build_ms": round(build_ms, 2)})
        print(json.dumps(flat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
