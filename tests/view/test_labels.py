"""Human labels: the per-annotator CSV contract (RUN_DIR/labels/<annotator>.csv) and the viewer's labels API."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from viewkit import get_json

from mmtsb.view.labels import LABEL_COLUMNS, Label, LabelError, LabelStore, read_labels


def test_the_contract_columns_are_exact():
    assert LABEL_COLUMNS == ("annotator", "run", "episode_id", "party", "criterion", "label", "note")


def test_the_run_column_is_the_run_folders_name_by_default(tmp_path: Path):
    assert LabelStore(tmp_path / "2026-05-01" / "12-00-00").run == "12-00-00"


def test_saving_again_replaces_a_criterion_and_keeps_the_others(tmp_path: Path):
    store = LabelStore(tmp_path, "2026_run")
    store.save([Label("alice", "2026_run", "e1", "agent", "task_completion", "pass", "ok"),
                Label("alice", "2026_run", "e1", "user", "request_fidelity", "fail", 'said "no", then, yes')])
    path = store.save([Label("alice", "2026_run", "e1", "agent", "task_completion", "fail", "wrong total")])
    assert path == tmp_path / "labels" / "alice.csv"
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == list(LABEL_COLUMNS)
    assert rows[1:] == [["alice", "2026_run", "e1", "agent", "task_completion", "fail", "wrong total"],
                        ["alice", "2026_run", "e1", "user", "request_fidelity", "fail", 'said "no", then, yes']]
    assert store.annotators() == ["alice"]
    assert [x.label for x in read_labels(path)] == ["fail", "fail"]


@pytest.mark.parametrize(("label", "message"), [
    (Label("alice", "r", "e1", "judge", "task_completion", "pass"), "party 'judge'"),
    (Label("alice", "r", "e1", "agent", "request_fidelity", "pass"), "criterion 'request_fidelity'"),
    (Label("alice", "r", "e1", "agent", "task_completion", "yes"), "label 'yes' must be 'pass' or 'fail'"),
    (Label("../evil", "r", "e1", "agent", "task_completion", "pass"), "annotator '../evil'"),
    (Label("alice", "r", "", "agent", "task_completion", "pass"), "episode_id must not be empty"),
])
def test_a_label_that_breaks_the_contract_is_refused_naming_the_field(tmp_path: Path, label: Label, message: str):
    with pytest.raises(LabelError, match=message.replace("(", r"\(").replace(")", r"\)")):
        LabelStore(tmp_path, "r").save([label])
    assert not (tmp_path / "labels").exists() or not any((tmp_path / "labels").iterdir())


def test_a_broken_labels_file_is_an_error_naming_the_file_and_line(tmp_path: Path):
    bad = tmp_path / "bob.csv"
    bad.write_text("annotator,run,episode_id,party,criterion,label,note\nbob,r,e1,agent,task_completion,maybe,\n")
    with pytest.raises(LabelError, match=r"bob.csv, line 2: label 'maybe'"):
        read_labels(bad)
    bad.write_text("who,what\nbob,r\n")
    with pytest.raises(LabelError, match="bob.csv: columns"):
        read_labels(bad)


def _post(url: str, body: object, content_type: str = "application/json", origin: str | None = None):
    headers = {"Content-Type": content_type, **({"Origin": origin} if origin else {})}
    req = Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urlopen(req) as r:
            return r.status, json.loads(r.read())
    except HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_labels_api_writes_the_annotators_file_in_the_run_folder(viewer, runs, run_ids):
    rid = run_ids["b"]
    eid = get_json(viewer + f"api/runs/{rid}/index.json")["rows"][0][0]
    url = viewer + f"api/runs/{rid}/labels/carol"
    shutil.rmtree(runs["b"] / "labels", ignore_errors=True)
    status, body = _post(url, {"labels": [{"episode_id": eid, "party": "agent", "criterion": "no_side_effects",
                                           "label": "pass", "note": "clean"}]})
    assert status == 200 and body["saved"] == 1
    text = (runs["b"] / "labels" / "carol.csv").read_text()
    assert text == ("annotator,run,episode_id,party,criterion,label,note\n"
                    f"carol,run-b,{eid},agent,no_side_effects,pass,clean\n")   # run: the folder's name
    assert get_json(url + ".json")["labels"] == [{"annotator": "carol", "run": "run-b", "episode_id": eid, "party": "agent",
                                                  "criterion": "no_side_effects", "label": "pass", "note": "clean"}]
    # refused: a wrong label (names the field), a form post, another site's page, a malformed body
    status, body = _post(url, {"labels": [{"episode_id": eid, "party": "agent", "criterion": "no_side_effects",
                                           "label": "ok"}]})
    assert status == 400 and "label 'ok'" in body["error"]
    assert _post(url, {"labels": []}, content_type="text/plain")[0] == 415
    assert _post(url, {"labels": []}, origin="http://evil.example")[0] == 403
    assert _post(url, {"nothing": 1})[0] == 400
    assert (runs["b"] / "labels" / "carol.csv").read_text() == text


def test_labels_saved_by_the_viewer_are_read_by_mmtsb_agreement(viewer, runs, run_ids, tmp_path: Path):
    """The annotation page's file is the `mmtsb agreement --labels` contract: frank passes every agent criterion
    of the first episode and fails task_completion on the second; the run's static judge passed both."""
    from mmtsb.cli import main
    from mmtsb.protocol.judges import AGENT_CRITERIA

    rid = run_ids["b"]
    first, second = sorted(r[0] for r in get_json(viewer + f"api/runs/{rid}/index.json")["rows"])[:2]
    items = [{"episode_id": first, "party": "agent", "criterion": c, "label": "pass", "note": ""}
             for c in AGENT_CRITERIA]
    items.append({"episode_id": second, "party": "agent", "criterion": "task_completion", "label": "fail",
                  "note": "wrong total"})
    status, body = _post(viewer + f"api/runs/{rid}/labels/frank", {"labels": items})
    assert status == 200 and body["saved"] == len(AGENT_CRITERIA) + 1
    out = tmp_path / "agreement"
    assert main(["agreement", str(runs["b"]), "--labels", body["file"], "--out", str(out)]) == 0
    result = json.loads((out / "agreement.json").read_text())
    overall = result["agreement"]["agent"]["overall"]
    assert overall["humans"] == ["human:frank"] and result["notes"] == []
    # frank's overall: pass (every criterion passes), fail (a criterion fails); the judge: pass, pass
    assert overall["majority"] == {"n_items": 2, "ties": 0, "pass_rate": 0.5}
    (judge,) = overall["vs_majority"].values()
    assert judge["confusion"] == {"tp": 1, "fn": 0, "fp": 1, "tn": 0} and judge["raw"] == 0.5 and judge["fpr"] == 1.0
    tc = result["agreement"]["agent"]["criteria"]["task_completion"]["vs_majority"]
    assert next(iter(tc.values()))["n"] == 2
