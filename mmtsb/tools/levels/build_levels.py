"""Regenerate ``levels.json`` (the level membership and dispatch tables) from the reference's
``toolbox_levels.json``.

Usage: ``python -m mmtsb.tools.levels.build_levels [path/to/toolbox_levels.json] [path/to/tool_catalog.json]``
(defaults: ``../shared/reference/`` next to the repository). The output keeps facts only: tool names, dispatch
parameter names, the dispatch values of each route and the FULL tool it reaches, the names a level removes.

The reference writes a route's dispatch values slash-joined (``"todoist/list"``), sometimes with more values than
its dispatch string names (``"receipt/attach/expense"``) or a condition in parentheses (``"drafts(list)"``,
``"expense/list(scope=group)"``). :func:`parse_when` turns each into a ``{parameter: value}`` mapping; routes
that share the same values (``gmail_read`` drafts, ``spotify_discover`` following) are told apart at call time by
the arguments given (see ``mmtsb.tools.levels.dispatch``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parents[3] / "shared" / "reference"
OUTPUT = HERE / "levels.json"

#: tools whose slash-joined values carry more parameters than their dispatch string lists:
#: tool -> {number of parts: parameter order} (the first matching rule wins)
_EXTRA_ORDER: dict[str, dict[int, list[str]]] = {
    "file_system": {3: ["domain", "action", "target_type"]},
    "splitwise_manage": {3: ["domain", "action", "entity_type"]},
    "splitwise_social": {3: ["domain", "entity_type", "action"]},
    "venmo_social": {3: ["domain", "entity_type", "like"]},
}
#: gmail_read: the second value's parameter depends on the domain
_GMAIL_READ_SECOND = {"threads": "category", "email": "email_action", "thread_action": "thread_action"}
_BOOL_PARAMS = {"like", "follow"}


def dispatch_params(dispatch: str) -> list[str]:
    """``"app+action"`` -> ``["app", "action"]``; annotations like ``" (bool)"`` or ``"(+target_type)"`` dropped."""
    head = re.sub(r"\s*\(.*$", "", dispatch.strip())
    return [p.strip() for p in head.split("+") if p.strip()]


def _spotify_manage_order(parts: list[str]) -> list[str]:
    if len(parts) == 3:
        third = "like" if parts[2] in ("true", "false") else "action"
        return ["domain", "entity_type", third]
    return ["domain", "follow" if parts[0] == "follow" else "action"]


def parse_when(tool: str, params: list[str], when: str) -> dict[str, Any]:
    """One route's dispatch values as ``{parameter: value}`` (booleans for like/follow)."""
    extra: dict[str, Any] = {}
    m = re.match(r"^(.*?)\((.*)\)$", when)
    if m:
        when, cond = m.group(1), m.group(2)
        if "=" in cond:  # "scope=group": one more dispatch value
            k, v = cond.split("=", 1)
            extra[k.strip()] = v.strip()
        # "draft_id given" / "list": routes with equal values are chosen by the arguments at call time
    parts = [p for p in when.split("/") if p]
    if tool == "spotify_manage":
        order = _spotify_manage_order(parts)
    elif tool == "gmail_read":
        order = ["domain", _GMAIL_READ_SECOND.get(parts[0], "action")]
    elif len(parts) > len(params):
        order = _EXTRA_ORDER.get(tool, {}).get(len(parts))
        if order is None:
            raise ValueError(f"{tool}: cannot name the parameters of {when!r} (dispatch {params})")
    else:
        order = params
    out: dict[str, Any] = {}
    for name, value in zip(order, parts):
        out[name] = (value == "true") if name in _BOOL_PARAMS else value
    out.update(extra)
    return out


def convert_tool(entry: dict[str, Any]) -> dict[str, Any]:
    params = dispatch_params(entry["dispatch"])
    routes = [{"when": parse_when(entry["name"], params, m["when"]), "tool": m["full_tool"]} for m in entry["mapping"]]
    order = list(params)
    for r in routes:
        for k in r["when"]:
            if k not in order:
                order.append(k)
    covers = sorted({r["tool"] for r in routes})
    if covers != sorted(entry["covers"]):
        raise ValueError(f"{entry['name']}: mapping {covers} differs from covers {sorted(entry['covers'])}")
    return {"name": entry["name"], "dispatch": order, "routes": routes, "covers": covers}


def build(levels_src: dict[str, Any], catalog: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole data file; raises when the reference's counts or reachability are not reproduced."""
    L = levels_src["levels"]
    full = list(L["full"]["tools"])
    framework = list(levels_src["framework_tools_in_every_level"])
    out: dict[str, Any] = {"source": "toolbox_levels.json of ml-mmtoolsandbox @1e8e932 (facts only)",
                           "framework_tools": framework, "levels": {}}
    out["levels"]["full"] = {"count": len(full), "tools": full}
    medium_tools = [convert_tool(t) for t in L["medium"]["consolidated_tools"]]
    out["levels"]["medium"] = {"count": L["medium"]["count"], "level_tools": medium_tools,
                               "tools": sorted(L["medium"]["tools"])}
    compact_tools = [convert_tool(t) for t in L["compact"]["compact_tools"]]
    removes = sorted({n for t in L["compact"]["compact_tools"] for n in t.get("removes_from_registry", [])})
    out["levels"]["compact"] = {"count": L["compact"]["count"], "level_tools": compact_tools,
                                "inherits": "medium", "removes": removes, "tools": sorted(L["compact"]["tools"])}
    mini_tools = [convert_tool(t) for t in L["mini"]["mega_tools"]]
    out["levels"]["mini"] = {"count": L["mini"]["count"], "paper_count": L["mini"]["paper_count"],
                             "level_tools": mini_tools, "tools": sorted(L["mini"]["tools"])}
    _check(out, catalog)
    return out


def _check(data: dict[str, Any], catalog: list[dict[str, Any]]) -> None:
    """Replay the construction rules and compare with the reference's lists and the catalog's reached_via."""
    lv = data["levels"]
    fw = data["framework_tools"]
    med_names = {t["name"] for t in lv["medium"]["level_tools"]}
    absorbed = {c for t in lv["medium"]["level_tools"] for c in t["covers"]}
    passthrough = [n for n in lv["full"]["tools"] if n not in absorbed and n not in med_names]
    if set(passthrough) | med_names != set(lv["medium"]["tools"]):
        raise ValueError("MEDIUM membership does not follow the passthrough rule")
    comp_names = [t["name"] for t in lv["compact"]["level_tools"]]
    rule = set(comp_names) | set(lv["medium"]["tools"])
    if rule - set(lv["compact"]["removes"]) != set(lv["compact"]["tools"]):
        raise ValueError("COMPACT membership does not follow the override/remove rule")
    if set(lv["mini"]["tools"]) != {t["name"] for t in lv["mini"]["level_tools"]} | set(fw):
        raise ValueError("MINI membership is not mega-tools + framework tools")
    for level in ("medium", "compact", "mini"):
        if len(lv[level]["tools"]) != lv[level]["count"]:
            raise ValueError(f"{level}: {len(lv[level]['tools'])} tools, reference says {lv[level]['count']}")
    reach = {c["name"]: c.get("reached_via", {}) for c in catalog}
    for level in ("medium", "compact", "mini"):
        defs = {t["name"]: t for t in lv[level]["level_tools"]}
        if level == "compact":
            defs = {**{t["name"]: t for t in lv["medium"]["level_tools"]}, **defs}
        members = set(lv[level]["tools"])
        for name, via in reach.items():
            want = via.get(level)
            got = [n for n in members if n == name or (n in defs and name in defs[n]["covers"])]
            if want is None and got:
                raise ValueError(f"{level}: {name} reachable via {got}, catalog says unreachable")
            if want is not None and got != [want]:
                raise ValueError(f"{level}: {name} reachable via {got}, catalog says {want}")


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else DEFAULT_SOURCE / "toolbox_levels.json"
    cat = Path(argv[1]) if len(argv) > 1 else src.parent / "tool_catalog.json"
    data = build(json.loads(src.read_text()), json.loads(cat.read_text()))
    OUTPUT.write_text(json.dumps(data, indent=1) + "\n")
    counts = {k: len(v["tools"]) for k, v in data["levels"].items()}
    print(f"wrote {OUTPUT} {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
