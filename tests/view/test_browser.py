"""The viewer in headless Chromium (Debian's chromium through playwright): pages load, filters change the list,
pagination pages, an episode shows its images loaded and its diff, two runs side by side, the annotation
page records labels, and the static export works from disk. Screenshots are saved as test artifacts
(viewkit.ARTIFACTS) and checked to show something."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from viewkit import get_json, images_loaded, open_route, screenshot, wait_route

from mmtsb.protocol.trajectory import load_trajectory
from mmtsb.report.data import RunData


def _index(viewer: str, rid: str) -> list[dict]:
    index = get_json(viewer + f"api/runs/{rid}/index.json")
    return [dict(zip(index["columns"], r)) for r in index["rows"]]


def _episode(runs, key: str, scenario: str) -> str:
    return next(r["episode_id"] for r in RunData.load(runs[key]).rows if r["scenario"] == scenario)


def test_runs_page_lists_every_run(page, viewer, run_ids):
    open_route(page, viewer + "#/")
    rows = page.locator("#runs-table tbody tr.run-row")
    assert rows.count() == 4
    assert set(page.locator("#runs-table tbody tr.run-row td:first-child a").all_inner_texts()) == set(run_ids.values())
    assert "100.0%" in rows.nth(0).inner_text()
    screenshot(page, "runs")


def test_filters_change_the_list_and_pages_turn(page, viewer, run_ids):
    rid = run_ids["big"]
    episodes = _index(viewer, rid)
    open_route(page, viewer + f"#/run/{rid}")
    assert page.locator("#episode-count").inner_text() == "120 of 120 episodes"
    assert page.locator("#episode-list tbody tr").count() == 50
    assert page.locator("#page-info").inner_text().strip() == "page 1 of 3"
    first = page.locator("#episode-list tbody tr").first.get_attribute("data-episode")
    page.locator("#next-page").click()
    wait_route(page)
    assert page.locator("#page-info").inner_text().strip() == "page 2 of 3"
    assert page.locator("#episode-list tbody tr").first.get_attribute("data-episode") != first

    flow = "compare"
    want = sorted(e["id"] for e in episodes if e["flow"] == flow)
    page.locator("select[name=flow]").select_option(flow)
    wait_route(page)
    assert page.locator("#episode-count").inner_text() == f"{len(want)} of 120 episodes"
    shown = page.locator("#episode-list tbody tr").evaluate_all("rs => rs.map(r => r.dataset.episode)")
    assert shown == want[:50]
    assert set(page.locator("#episode-list tbody tr td:nth-child(5)").all_inner_texts()) == {flow}

    # a second filter narrows further: failing episodes of that flow that failed no_side_effects
    page.locator("select[name=failing]").select_option("agent.no_side_effects")
    wait_route(page)
    want2 = [e for e in episodes if e["flow"] == flow and "agent.no_side_effects" in e["failing"]]
    assert page.locator("#episode-count").inner_text() == f"{len(want2)} of 120 episodes"
    assert page.locator("#episode-list tbody tr").count() == len(want2)
    screenshot(page, "episode_list_filtered")

    page.locator("select[name=result]").select_option("pass")   # passing episodes fail no criterion
    wait_route(page)
    assert page.locator("#episode-count").inner_text() == "0 of 120 episodes"


#: each filter of the episode list and what it matches in an index record
FILTERS = {
    "model": lambda e: [str(e["model"])], "flow": lambda e: [str(e["flow"])],
    "arrival": lambda e: [str(e["arrival"])], "challenge": lambda e: [str(e["challenge"])],
    "category": lambda e: e["categories"] or [], "failing": lambda e: e["failing"] or [],
    "end_reason": lambda e: [str(e["end_reason"])],
    "result": lambda e: ["not evaluated" if e["excluded"] else "pass" if e["agent_pass"] is True
                         else "fail" if e["agent_pass"] is False else "not judged"],
}


def test_every_filter_selects_exactly_the_matching_episodes(page, viewer, run_ids):
    rid = run_ids["big"]
    episodes = _index(viewer, rid)
    for name, values in FILTERS.items():
        open_route(page, viewer + f"#/run/{rid}")
        offered = page.locator(f"select[name={name}] option").evaluate_all("os => os.map(o => o.value)")
        assert offered[0] == "" and len(offered) > 1, (name, offered)   # "all", then the values present
        assert sorted(offered[1:]) == sorted({v for e in episodes for v in values(e)}), name
        value = offered[-1]
        want = sorted(e["id"] for e in episodes if value in values(e))
        page.locator(f"select[name={name}]").select_option(value)
        wait_route(page)
        assert page.locator("#episode-count").inner_text() == f"{len(want)} of 120 episodes", (name, value)
        shown = page.locator("#episode-list tbody tr").evaluate_all("rs => rs.map(r => r.dataset.episode)")
        assert shown == want[:50], (name, value)


def test_episode_page_shows_its_images_loaded_and_its_diff(page, viewer, runs, run_ids):
    eid = _episode(runs, "a", "mmtsb_nominal_004")
    t = load_trajectory(runs["a"] / "trajectories" / f"{eid}.json")
    open_route(page, viewer + f"#/run/{run_ids['a']}/episode/{eid}")
    # the conversation in order, the images where the user sent them (message #5), each really loaded
    assert page.locator("#conversation li.msg").count() == len(t.messages)
    widths = images_loaded(page, "#conversation img.msg-image")
    assert len(widths) == 3 and all(w > 0 for w in widths), widths
    with_images = page.locator("#conversation li.msg:has(img.msg-image)")
    assert with_images.count() == 1 and with_images.get_attribute("data-index") == "5"
    assert page.locator("#conversation pre.code").count() == sum(1 for m in t.messages
                                                                if m.sender == "AGENT" and m.recipient != "USER")
    # the diff against the expected specs, with each column's score
    entities = [e for g in t.entity_diff["groups"] for e in g["entities"]]
    assert page.locator("#diff .entity").count() == len(entities) == 2
    assert page.locator("#diff table.cols tbody tr").count() == sum(len(e["columns"]) for e in entities)
    assert "Pay utility bills" in page.locator("#diff").inner_text() or "2026-04-24" in page.locator("#diff").inner_text()
    # each judge criterion with its analysis
    criteria = [c for v in t.judges.values() if v for c in v.criteria]
    assert page.locator("#judges .run-judges li.criterion").count() == len(criteria)
    assert "Entity F1 = 1.000" in page.locator('#judges .run-judges li[data-criterion="task_completion"]').inner_text()
    # and as the other judges of `mmtsb rejudge` saw the same trajectory: label "again", judge repeats 0 and 1
    again = page.locator("#judges .rejudge[data-label=again]")
    assert [again.nth(i).get_attribute("data-repeat") for i in range(again.count())] == ["0", "1"]
    for i in range(2):
        again.nth(i).locator("summary").first.click()
        assert again.nth(i).locator("li.criterion").count() == len(criteria)
        assert "Entity F1 = 1.000" in again.nth(i).locator('.judge[data-party=agent] li[data-criterion="task_completion"]').inner_text()
    assert "again (static) · judge repeat 1: agent pass" in again.nth(1).locator("summary").first.inner_text()
    screenshot(page, "episode")
    screenshot(page, "episode_diff", "#diff")
    screenshot(page, "episode_image", "#conversation figure.shot")


def test_ui_episode_shows_the_rendered_screens(page, viewer, runs, run_ids):
    eid = _episode(runs, "ui", "mmtsb_ui_001")
    t = load_trajectory(runs["ui"] / "trajectories" / f"{eid}.json")
    renders = [r["image_id"] for r in t.ui["renders"]]
    assert renders and all(t.images[i].source == "ui_render" for i in renders)
    open_route(page, viewer + f"#/run/{run_ids['ui']}/episode/{eid}")
    widths = images_loaded(page, "#ui img.msg-image")
    assert len(widths) == len(renders) and all(w > 0 for w in widths)
    shown = page.locator("#conversation li.msg:has(.badge:text('shown to the user'))")
    assert shown.count() >= 1 and all(w > 0 for w in images_loaded(page, "#conversation img.msg-image"))
    screenshot(page, "ui_screens", "#ui")


def test_two_runs_side_by_side_on_the_same_scenario(page, viewer, run_ids):
    a, b = run_ids["a"], run_ids["b"]
    open_route(page, viewer + f"#/compare?a={a}&b={b}")
    assert "different scenario sets" in page.locator("#coverage-warning").inner_text()
    links = page.locator("#compare-list tbody a")
    assert links.all_inner_texts() == ["mmtsb_nominal_003", "mmtsb_nominal_004"]
    links.nth(1).click()
    wait_route(page)
    sides = page.locator(".side-by-side .side")
    assert sides.count() == 2
    assert [sides.nth(i).get_attribute("data-run") for i in range(2)] == [a, b]
    for i in range(2):
        assert sides.nth(i).locator("li.msg").count() > 5 and sides.nth(i).locator(".entity").count() == 2
    # the tool-use run shows tool calls, the code run code cells
    assert sides.nth(1).locator(".call-name code").count() > 0 and sides.nth(0).locator("pre.code").count() > 0
    assert all(w > 0 for w in images_loaded(page, ".side img.msg-image"))
    screenshot(page, "compare")


def test_annotation_page_shows_what_the_judge_saw_and_records_labels(page, viewer, runs, run_ids):
    rid, eid = run_ids["a"], _episode(runs, "a", "mmtsb_nominal_002")
    labels = runs["a"] / "labels" / "dana.csv"
    labels.unlink(missing_ok=True)
    open_route(page, viewer + f"#/annotate/{rid}/{eid}?annotator=dana")
    from mmtsb.scenarios.loader import load_scenario

    scenario = load_scenario(Path(__file__).resolve().parents[2] / "scenarios" / "nominal" / "mmtsb_nominal_002.json")
    assert page.locator("#criteria-text").inner_text().split("\n", 1)[1].strip() == scenario.task_completion_criteria.strip()
    assert page.locator("#conversation li.msg").count() > 3 and page.locator("#world-diff details").count() >= 1
    assert page.locator("tr.label-row").count() == 5 + 4          # agent and user rubric criteria
    # each model judge's request word for word (the API's text, checked against the judge in test_api)
    asked = get_json(viewer + f"api/runs/{rid}/judge_requests/{eid}.json")["parties"]
    for party in ("agent", "user"):
        request = page.locator(f"#judge-requests .judge-request[data-party={party}]")
        request.locator("summary").click()
        assert request.locator("pre").inner_text() == asked[party]["text"]
    assert page.locator(".judge-verdict.hidden").count() > 0        # the judge's verdict hidden at first
    page.locator('tr[data-party=agent][data-criterion=task_completion] input[value=pass]').check()
    row = page.locator('tr[data-party=agent][data-criterion=information_accuracy]')
    row.locator("input[value=fail]").check()
    row.locator("input.note").fill("the total is read wrong, see image #1")
    page.locator("#save-labels").click()
    page.wait_for_function("document.querySelector('#save-status').textContent.startsWith('saved')")
    with open(labels, newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows == [
        {"annotator": "dana", "run": "run-a", "episode_id": eid, "party": "agent", "criterion": "task_completion",
         "label": "pass", "note": ""},
        {"annotator": "dana", "run": "run-a", "episode_id": eid, "party": "agent", "criterion": "information_accuracy",
         "label": "fail", "note": "the total is read wrong, see image #1"}]
    screenshot(page, "annotate")
    page.reload()
    wait_route(page)
    assert page.locator('tr[data-criterion=information_accuracy] input[value=fail]').is_checked()
    page.locator("#show-judge").check()
    assert page.locator(".judge-verdict.hidden").count() == 0


def test_export_opens_from_disk(page, runs, run_ids, tmp_path: Path):
    out = tmp_path / "export"
    done = subprocess.run([sys.executable, "-m", "mmtsb.cli", "view", str(runs["a"]), str(runs["ui"]),
                           "--export", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out / 'index.html'}" in done.stdout
    base = (out / "index.html").as_uri()
    open_route(page, base + "#/")
    assert page.locator("#runs-table tbody tr.run-row").count() == 2
    assert page.locator("#mode").inner_text() == "static export"
    open_route(page, base + f"#/run/{run_ids['a']}")
    page.locator("select[name=arrival]").select_option("late")
    wait_route(page)
    assert page.locator("#episode-count").inner_text() == "1 of 4 episodes"
    page.locator("#episode-list tbody a").first.click()
    wait_route(page)
    widths = images_loaded(page, "#conversation img.msg-image")
    assert widths and all(w > 0 for w in widths)
    assert page.locator("#diff .entity").count() >= 1
    assert page.locator("#judges .rejudge[data-label=again]").count() == 2    # the run's `mmtsb rejudge` verdicts
    screenshot(page, "export_episode")
    # annotating from disk: labels stay in the browser and download as the annotator's CSV (same contract)
    page.locator("#annotate-link").click()
    wait_route(page)
    page.locator("input[name=annotator]").fill("erin")
    page.locator("form.annotator button").click()
    wait_route(page)
    assert page.locator("#judge-requests .judge-request pre").count() == 2       # the judges' words, from disk too
    page.locator('tr[data-party=user][data-criterion=request_fidelity] input[value=fail]').check()
    page.locator("#save-labels").click()
    page.wait_for_function("document.querySelector('#save-status').textContent.startsWith('saved')")
    with page.expect_download() as download:
        page.get_by_text("Download my labels (CSV)").click()
    text = Path(download.value.path()).read_text()
    eid = page.evaluate("decodeURIComponent(location.hash.split('?')[0].split('/')[3])")
    assert text == ("annotator,run,episode_id,party,criterion,label,note\n"
                    f"erin,run-a,{eid},user,request_fidelity,fail,\n")
    # a second export into the same folder is allowed; a foreign non-empty folder is refused
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    refused = subprocess.run([sys.executable, "-m", "mmtsb.cli", "view", str(runs["a"]), "--export",
                              str(tmp_path / "other")], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "not empty" in refused.stderr
