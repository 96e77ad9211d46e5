"""Human review of a generated run: self-contained HTML pages, and the import of edited scenario files.

:func:`write_review` writes ``review/index.html`` and one page per scenario under review (the final ones in
``scenarios/``, and the ones the oracle checked and failed, read from the stage 5 table): images inline as
data URIs, the dialogue round by round, the initial entities, the expected entity-diff specs, the reference
solution, the critic's verdicts and the oracle's trajectory. Every text from the run is escaped.

:func:`import_reviewed` takes scenario files a reviewer edited, validates them (schema, tables, tools, gold
check), runs the injected oracle ``check`` on the valid ones and puts each file that passes both into
``scenarios/<name>.json``. Every outcome is appended to ``review/imports.jsonl``; a rejected file changes
nothing in the run.
"""

from __future__ import annotations

import base64
import json
import mimetypes
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from pipelines.report import read_stage

__all__ = ["Check", "import_reviewed", "write_review"]

#: the oracle check the pipeline injects: scenario files -> {scenario name: result}; a result has ``solvable``
Check = Callable[[list[Path]], dict[str, dict[str, Any]]]
REVIEW_DIR = "review"
IMPORTS_FILE = "imports.jsonl"
CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: .25em .5em; vertical-align: top; text-align: left; }
th { background: #f3f3f3; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; font-size: .85em; }
.imgs img { max-height: 260px; max-width: 360px; border: 1px solid #aaa; margin: .25em; }
.pass { color: #1a7f37; font-weight: bold; } .fail { color: #c62828; font-weight: bold; }
.round { border-left: 4px solid #4c72b0; padding: .25em 1em; margin: 1em 0; background: #fafafa; }
.msg { border-bottom: 1px solid #eee; padding: .4em 0; } .who { font-weight: bold; color: #555; }
"""


# ---------------------------------------------------------------------------------------------- helpers
def _e(value: Any) -> str:
    return escape("" if value is None else str(value))


def _pre(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return f"<pre>{_e(text)}</pre>"


def _verdict(value: Any) -> str:
    if value is None:
        return "–"
    return '<span class="pass">pass</span>' if value else '<span class="fail">fail</span>'


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; the cells are HTML already (escape them first)."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _cell(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return _pre(value)
    return _e(value)


def _json(value: Any) -> Any:
    if isinstance(value, str) and value.strip():
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, (dict, list)) else None


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f"<style>{CSS}</style></head><body>\n{body}\n</body></html>\n")


def _data_uri(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    mime = mimetypes.guess_type(path.name)[0] or "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


# ---------------------------------------------------------------------------------------------- gathering
class _Item:
    """One scenario under review: its file content, where its images live, and its stage 6 row."""

    def __init__(self, data: dict[str, Any], status: str, quality: dict[str, Any] | None) -> None:
        self.data, self.status, self.quality = data, status, quality or {}

    @property
    def name(self) -> str:
        gen = (self.data.get("metadata") or {}).get("generation") or {}
        return str(self.data.get("name") or gen.get("scenario_id") or "scenario")


def _items(run_dir: Path) -> list[_Item]:
    quality = {str(r.get("scenario_id")): r for r in read_stage(run_dir, "6_quality") if r.get("scenario_id")}
    items: dict[str, _Item] = {}
    folder = run_dir / "scenarios"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            item = _Item(data, "final", None)
            item.quality = quality.get(item.name, {})
            items[item.name] = item
    entities = {str(r.get("scenario_id")): r for r in read_stage(run_dir, "5_entities")}
    for sid, row in quality.items():
        checked = row.get("oracle_episode_id") or row.get("solvable") is not None
        if sid in items or not checked or row.get("final"):
            continue
        data = _json((entities.get(sid) or {}).get("scenario"))
        if isinstance(data, dict):
            items[sid] = _Item(data, "oracle failed", row)
    return sorted(items.values(), key=lambda i: (i.status != "final", i.name))


def _image_sources(run_dir: Path, data: dict[str, Any]) -> list[str | None]:
    """A data URI per image path: the file under ``scenarios/``, else the stage 1 source image, else None."""
    sources = {str(r.get("image_id")): r.get("path") for r in read_stage(run_dir, "1_associate")}
    ids = ((data.get("metadata") or {}).get("generation") or {}).get("image_ids") or []
    out: list[str | None] = []
    for i, raw in enumerate(data.get("image_paths") or []):
        p = Path(str(raw))
        uri = _data_uri(p if p.is_absolute() else run_dir / "scenarios" / p)
        if uri is None and i < len(ids) and sources.get(str(ids[i])):
            uri = _data_uri(Path(str(sources[str(ids[i])])))
        out.append(uri)
    return out


def _img(uri: str | None, label: str) -> str:
    if uri is None:
        return f"<em>[{_e(label)}: image file missing]</em>"
    return f'<img src="{uri}" alt="{_e(label)}" title="{_e(label)}">'


# ---------------------------------------------------------------------------------------------- sections
def _overview(item: _Item) -> str:
    data = item.data
    metadata = data.get("metadata") or {}
    meta = metadata.get("scenario_metadata") or {}
    gen = metadata.get("generation") or {}
    rows = [["status", _e(item.status)], ["description", _e(data.get("description"))]]
    rows += [[_e(k), _e(v)] for k, v in gen.items() if k in ("title", "domain", "persona", "goal", "outline_id",
                                                              "cluster_id")]
    rows += [[_e(k), _cell(v)] for k, v in meta.items()]
    rows += [["expected tools", _e(", ".join(map(str, metadata.get("expected_tools") or [])))],
             ["task completion criteria", _e(data.get("task_completion_criteria"))]]
    return "<h2>Overview</h2>" + _table(["field", "value"], rows)


def _images_section(uris: list[str | None]) -> str:
    imgs = "".join(f"<figure id='image-{i + 1}' style='display:inline-block'>{_img(u, f'image_{i + 1}')}"
                   f"<figcaption>image_{i + 1} (id {i})</figcaption></figure>" for i, u in enumerate(uris))
    return f"<h2>Images</h2><div class='imgs'>{imgs or '<em>none</em>'}</div>"


def _dialogue(data: dict[str, Any], uris: list[str | None]) -> str:
    from mmtsb.scenarios.script import ScriptError, parse_user_script

    script = next((m.get("content") or "" for m in data.get("messages") or []
                   if (m.get("sender"), m.get("recipient")) == ("SYSTEM", "USER")), "")
    try:
        rounds = parse_user_script(script).rounds
    except ScriptError as err:
        return f"<h2>Dialogue</h2><p class='fail'>{_e(err)}</p>{_pre(script)}"
    parts = ["<h2>Dialogue</h2>"]
    for r in rounds:
        names = ", ".join(f"<a href='#image-{i + 1}'>image_{i + 1}</a>"
                          + ("" if 0 <= i < len(uris) else " (no such image)") for i in r.provide_image_ids)
        parts.append(f"<div class='round'><h3>Round {r.number}</h3>"
                     f"<p><b>Images arriving:</b> {names or 'none'}</p>"
                     f"<p><b>User query:</b></p>{_pre(r.query)}"
                     f"<p><b>Simulated user's instructions:</b></p>{_pre(r.instructions)}</div>")
    return "".join(parts)


def _entities(data: dict[str, Any]) -> str:
    parts = ["<h2>Initial entities</h2>"]
    for source in ("appworld_entities", "agentsandbox_entities"):
        for name, rows in (data.get(source) or {}).items():
            rows = [r for r in rows or [] if isinstance(r, dict)]
            columns: list[str] = []
            for r in rows:
                columns += [c for c in r if c not in columns]
            parts.append(f"<h3>{_e(name)} <small>({_e(source)}, {len(rows)} row(s))</small></h3>")
            parts.append(_table(columns, [[_cell(r.get(c)) for c in columns] for r in rows]))
    if len(parts) == 1:
        parts.append("<p><em>none</em></p>")
    return "".join(parts)


def _specs(data: dict[str, Any]) -> str:
    rows = []
    for s in data.get("entity_diff_specs") or []:
        if not isinstance(s, dict):
            continue
        which = f"{s.get('entity_id_column')} = {s.get('entity_id_value')}" if s.get("entity_id_column") else ""
        fields = s.get("entity_data") if s.get("operation") == "create" else s.get("expected_fields")
        rows.append([_e(s.get("operation")), _e(s.get("source")), _e(s.get("table")), _e(which),
                     _cell(fields or {}), _cell(s.get("column_similarity_measure") or {})])
    return "<h2>Expected entity diff</h2>" + (_table(["operation", "source", "table", "row", "fields", "similarity"],
                                                      rows) if rows else "<p><em>none</em></p>")


def _solution(data: dict[str, Any]) -> str:
    solution = (data.get("metadata") or {}).get("reference_solution") or {}
    parts = ["<h2>Reference solution</h2>"]
    for r in solution.get("rounds") or []:
        for label, part in (("", r), (" (after the user's answer)", r.get("after_user") or None)):
            if not part:
                continue
            steps = [[_e(i + 1), _e(s.get("tool")), _cell(s.get("arguments") or {}), _e(s.get("save_as") or "")]
                     for i, s in enumerate(part.get("steps") or [])]
            parts.append(f"<h3>Round {_e(r.get('round'))}{label}</h3>"
                         + _table(["#", "tool", "arguments", "save as"], steps)
                         + f"<p><b>Reply:</b></p>{_pre(part.get('reply') or '')}")
    if len(parts) == 1:
        parts.append("<p><em>none</em></p>")
    return "".join(parts)


def _critique(quality: dict[str, Any]) -> str:
    parts = ["<h2>Critic</h2>"]
    critique = _json(quality.get("critique"))
    criteria = critique.get("criteria") if isinstance(critique, dict) else critique
    rows = []
    if isinstance(criteria, dict):
        rows = [[_e(k), _verdict((v or {}).get("passed")), _e((v or {}).get("reason"))] for k, v in criteria.items()]
    elif isinstance(criteria, list):
        rows = [[_e(c.get("criterion") or c.get("name")), _verdict(c.get("passed")), _e(c.get("reason"))]
                for c in criteria if isinstance(c, dict)]
    if rows:
        parts.append(f"<p>Overall: {_verdict(quality.get('critic_passed'))}</p>")
        parts.append(_table(["criterion", "verdict", "reason"], rows))
    else:
        parts.append("<p><em>no critique recorded</em></p>")
    return "".join(parts)


def _oracle_row(run_dir: Path, name: str, quality: dict[str, Any]) -> tuple[dict[str, Any], Path | None]:
    """The oracle's verdict for ``name`` and its trajectory file (from 6_quality, else the oracle run)."""
    from mmtsb.runner.results import RunLayout

    layout = RunLayout(run_dir / "oracle" / "run")
    verdict = {k: quality.get(k) for k in ("oracle_f1", "oracle_judge_pass", "solvable", "oracle_reason",
                                           "oracle_episode_id") if k in quality}
    episode = quality.get("oracle_episode_id")
    if not episode and layout.episodes_dir.is_dir():
        for row in layout.read_rows():
            if str(row.get("scenario")) == name:
                episode = row.get("episode_id")
                verdict.setdefault("oracle_f1", row.get("entity_f1"))
                verdict.setdefault("oracle_judge_pass", row.get("agent_pass"))
                verdict.setdefault("oracle_episode_id", episode)
    path = layout.trajectory_path(str(episode)) if episode else None
    return verdict, path if path is not None and path.is_file() else None


def _trajectory(path: Path | None) -> str:
    if path is None:
        return "<p><em>no oracle trajectory recorded</em></p>"
    from mmtsb.protocol.trajectory import TrajectoryFormatError, load_trajectory

    try:
        traj = load_trajectory(path)
    except TrajectoryFormatError as err:
        return f"<p class='fail'>{_e(err)}</p>"
    parts = [f"<p>end reason: {_e(traj.end_reason)}; steps: {traj.steps}"
             + (f"; error: {_e(traj.error)}" if traj.error else "") + "</p>"]
    for m in traj.messages:
        extra = ""
        if m.image_ids:
            extra += f" <small>[images {_e(', '.join(map(str, m.image_ids)))}]</small>"
        if m.tool_name:
            extra += f" <small>[result of {_e(m.tool_name)}{' — error' if m.is_error else ''}]</small>"
        calls = "".join(f"<p>→ <b>{_e(c.name)}</b></p>{_pre(c.arguments or c.raw_arguments or {})}"
                        for c in m.tool_calls)
        parts.append(f"<div class='msg'><span class='who'>#{m.index} {_e(m.sender)} → {_e(m.recipient)}</span>"
                     f"{extra}{_pre(m.content) if m.content else ''}{calls}</div>")
    return "".join(parts)


def _oracle(run_dir: Path, item: _Item) -> str:
    verdict, path = _oracle_row(run_dir, item.name, item.quality)
    f1 = verdict.get("oracle_f1")
    rows = [["entity F1", _e(f"{f1:.3f}" if isinstance(f1, (int, float)) else "–")],
            ["judge", _verdict(verdict.get("oracle_judge_pass"))], ["solvable", _verdict(verdict.get("solvable"))],
            ["reason", _e(verdict.get("oracle_reason") or item.quality.get("reason") or "")],
            ["episode", _e(verdict.get("oracle_episode_id") or "")]]
    return "<h2>Oracle</h2>" + _table(["measure", "value"], rows) + "<h3>Trajectory</h3>" + _trajectory(path)


def _scenario_page(run_dir: Path, item: _Item) -> str:
    uris = _image_sources(run_dir, item.data)
    body = (f"<p><a href='index.html'>← all scenarios</a></p><h1>{_e(item.name)}</h1>" + _overview(item)
            + _images_section(uris) + _dialogue(item.data, uris) + _entities(item.data) + _specs(item.data)
            + _solution(item.data) + _critique(item.quality) + _oracle(run_dir, item))
    return _page(item.name, body)


def _index(items: list[_Item]) -> str:
    rows = []
    for it in items:
        meta = (it.data.get("metadata") or {}).get("scenario_metadata") or {}
        title = ((it.data.get("metadata") or {}).get("generation") or {}).get("title") or it.data.get("description")
        f1 = it.quality.get("oracle_f1")
        rows.append([f"<a href='{_e(it.name)}.html'>{_e(it.name)}</a>", _e(it.status), _e(title),
                     _e(meta.get("selected_flow_type")), _e(meta.get("image_arrival")), _e(meta.get("challenge_type")),
                     _e(meta.get("num_images")), _e(meta.get("num_user_rounds")),
                     _verdict(it.quality.get("critic_passed")),
                     _e(f"{f1:.3f}" if isinstance(f1, (int, float)) else "–")])
    header = ["scenario", "status", "title", "flow", "arrival", "challenge", "images", "rounds", "critic", "oracle F1"]
    table = _table(header, rows) if rows else "<p><em>No scenarios to review.</em></p>"
    return _page("Scenario review", f"<h1>Scenario review</h1><p>{len(items)} scenario(s)</p>{table}")


def write_review(run_dir: Path) -> list[Path]:
    """Write ``review/index.html`` and ``review/<scenario_id>.html`` per scenario; returns the paths, index first."""
    run_dir = Path(run_dir)
    out_dir = run_dir / REVIEW_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    items = _items(run_dir)
    index = out_dir / "index.html"
    index.write_text(_index(items), encoding="utf-8")
    paths = [index]
    for item in items:
        page = out_dir / f"{item.name}.html"
        page.write_text(_scenario_page(run_dir, item), encoding="utf-8")
        paths.append(page)
    return paths


# ---------------------------------------------------------------------------------------------- import
def _safe_name(name: Any) -> bool:
    return isinstance(name, str) and bool(name) and name not in (".", "..") and "/" not in name and "\\" not in name


def _validate(path: Path, image_root: Path) -> tuple[str | None, list[str], list[str], dict[str, Any] | None]:
    """(scenario name, errors, warnings, gold check summary) of one edited file."""
    from mmtsb.scenarios.validate import gold_check_file, validate_file
    from mmtsb.tools.toolbox import full_registry

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        return None, [f"cannot read the file: {err}"], [], None
    name = data.get("name") if isinstance(data, dict) else None
    if not _safe_name(name):
        return None, [f"the scenario needs a 'name' usable as a file name, got {name!r}"], [], None
    try:
        report = validate_file(path, full_registry(), image_root=image_root)
    except Exception as err:  # noqa: BLE001 - a reviewer's file may break in any way; the error is reported
        return name, [f"validation failed: {type(err).__name__}: {err}"], [], None
    errors = list(report.errors)
    if report.missing_tools:
        errors.append(f"expected tools not in the toolbox: {', '.join(report.missing_tools)}")
    if errors:
        return name, errors, list(report.warnings), None
    try:
        gold = gold_check_file(path, image_root=image_root)
    except Exception as err:  # noqa: BLE001
        return name, [f"gold check failed: {type(err).__name__}: {err}"], list(report.warnings), None
    summary = {k: gold.get(k) for k in ("f1_gold", "f1_untouched", "passed")}
    if not gold.get("passed"):
        errors.append(f"gold check: the expected changes score F1 {gold.get('f1_gold')} and the untouched world "
                      f"{gold.get('f1_untouched')} (needs 1.0, and below 1.0 untouched)")
    return name, errors, list(report.warnings), summary


def _staged_copy(path: Path, image_root: Path, folder: Path) -> Path:
    """A copy of ``path`` in ``folder`` whose relative image paths point into ``image_root`` (absolute)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["image_paths"] = [p if Path(p).is_absolute() else str((image_root / p).resolve())
                           for p in data.get("image_paths") or []]
    target = folder / f"{data['name']}.json"
    target.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return target


def _install(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` through a temporary file in the target's folder (never half-written)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def import_reviewed(run_dir: Path, files: list[Path], *, check: Check) -> list[dict[str, Any]]:
    """Validate edited scenario files, oracle-check the valid ones with ``check`` and accept those it finds
    solvable into ``scenarios/<name>.json``; returns one record per file (also appended to
    ``review/imports.jsonl``): file, scenario, valid, errors, warnings, gold, oracle, accepted, target."""
    run_dir = Path(run_dir)
    image_root = run_dir / "scenarios"
    records: list[dict[str, Any]] = []
    for f in files:
        name, errors, warnings, gold = _validate(Path(f), image_root)
        records.append({"file": str(f), "scenario": name, "valid": not errors, "errors": errors,
                        "warnings": warnings, "gold": gold, "oracle": None, "accepted": False, "target": None})
    valid = [(Path(f), r) for f, r in zip(files, records) if r["valid"]]
    if valid:
        with tempfile.TemporaryDirectory(prefix="mmtsb-review-") as tmp:
            staged = [_staged_copy(f, image_root, Path(tmp)) for f, _ in valid]
            try:
                results = check(staged) or {}
            except Exception as err:  # noqa: BLE001 - an oracle failure rejects the batch, it is not lost
                results = {}
                for _, r in valid:
                    r["errors"].append(f"oracle check failed: {type(err).__name__}: {err}")
            for f, r in valid:
                result = results.get(r["scenario"])
                r["oracle"] = result
                if result is None:
                    if not r["errors"]:
                        r["errors"].append("the oracle check returned no result for this scenario")
                elif not result.get("solvable"):
                    r["errors"].append(f"the oracle did not solve it: {result.get('oracle_reason') or 'unsolvable'}")
                else:
                    target = image_root / f"{r['scenario']}.json"
                    _install(f, target)
                    r["accepted"], r["target"] = True, str(target)
    log = run_dir / REVIEW_DIR / IMPORTS_FILE
    log.parent.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    with log.open("a", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps({"time": stamp, **r}, default=str) + "\n")
    return records
