"""End to end through the real commands: `mmtsb run` (the oracle on the starter scenarios), `mmtsb rejudge` with
an LLM judge served by the fake OpenAI-compatible server (scripted verdicts), `mmtsb agreement` with labels
files written here. Every expected number below is computed by hand in the comments.

The runs (oracle, static judge: every episode passes):
- run1: scenarios 001-003, repeats=2 (episodes e1..e6 = 001 r0, 001 r1, 002 r0, 002 r1, 003 r0, 003 r1);
- run2: 001, 002; run3: 003, 004.
Judges re-judging them (label: which agent verdicts fail task_completion):
- fake, repeat 0: scenario 002; repeat 1 (run1 only, a second invocation): 002 and 003;
- fake2: scenario 003.
Annotators (run1, agent): ann1 labels every criterion (task_completion fails on e3, e4) -> overall P P F F P P;
ann2 overall P P F P P P; ann3 overall P F F F P P. Majority: P P F F P P.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest
from judgekit import NOMINAL, judge, mmtsb_run, rejudge, scenario_of

from mmtsb.cli import main
from mmtsb.eval.agreement import write_labels
from mmtsb.protocol.judges import AGENT_CRITERIA
from mmtsb.testing import FakeLLMServer

def episode_ids(run_dir: Path) -> list[str]:
    return sorted(pq.read_table(run_dir / "episodes.parquet").column("episode_id").to_pylist())


def write_annotations(folder: Path, run1: Path) -> None:
    e = episode_ids(run1)
    ann1 = [{"annotator": "ann1", "run": "run1", "episode_id": eid, "party": "agent", "criterion": c,
             "label": not (c == "task_completion" and i in (2, 3)), "note": ""}
            for i, eid in enumerate(e) for c in AGENT_CRITERIA]
    write_labels(folder / "ann1.csv", ann1)
    ann2 = [True, True, False, True, True, True]
    write_labels(folder / "ann2.csv", [{"annotator": "ann2", "run": "run1", "episode_id": eid, "party": "agent",
                                        "criterion": "overall", "label": v, "note": "n"} for eid, v in zip(e, ann2)])
    ann3 = [True, False, False, False, True, True]
    rows = [{"annotator": "ann3", "run": str(run1.resolve()), "episode_id": eid, "party": "agent",
             "criterion": "overall", "label": v, "note": ""} for eid, v in zip(e, ann3)]
    rows.append({"annotator": "ann3", "run": "run9", "episode_id": "x", "party": "agent", "criterion": "overall",
                 "label": "pass", "note": "a run not given to the command"})
    write_labels(folder / "ann3.parquet", rows)


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    base = tmp_path_factory.mktemp("judging")
    run1, run2, run3 = base / "run1", base / "run2", base / "run3"
    mmtsb_run(run1, ["mmtsb_nominal_001", "mmtsb_nominal_002", "mmtsb_nominal_003"], repeats=2)
    mmtsb_run(run2, ["mmtsb_nominal_001", "mmtsb_nominal_002"])
    mmtsb_run(run3, ["mmtsb_nominal_003", "mmtsb_nominal_004"])
    calls: dict[str, tuple[int, int]] = {}
    with FakeLLMServer(responder=judge({"mmtsb_nominal_002"})) as server:
        calls["first"] = rejudge(run1, server, "label=fake")
        calls["again"] = rejudge(run1, server, "label=fake")
        first_request = server.requests[0]
        for run in (run2, run3):
            calls[run.name] = rejudge(run, server, "label=fake")
    with FakeLLMServer(responder=judge({"mmtsb_nominal_002", "mmtsb_nominal_003"})) as server:
        calls["repeat"] = rejudge(run1, server, "label=fake", "judge_repeats=2")
    with FakeLLMServer(responder=judge({"mmtsb_nominal_003"})) as server:
        for run in (run1, run2, run3):
            calls[f"fake2_{run.name}"] = rejudge(run, server, "label=fake2", "judge.model.temperature=0.3")
    labels = base / "labels"
    labels.mkdir()
    write_annotations(labels, run1)
    out = base / "agreement"
    rc = main(["agreement", str(run1), str(run2), str(run3), "--labels", str(labels), "--out", str(out)])
    with FakeLLMServer(responder=judge(set())) as server:   # fake's config under another label: a copy, no call
        calls["copy"] = rejudge(run3, server, "label=fake_copy")
    return SimpleNamespace(run1=run1, run2=run2, run3=run3, calls=calls, first_request=first_request, rc=rc,
                           out=out, result=json.loads((out / "agreement.json").read_text()), labels=labels)


def test_rejudge_stores_verdicts_beside_the_run_and_never_asks_twice(study):
    # 6 episodes x (agent + user judge) = 12 calls; the same command again: none; judge_repeats=2: repeat 1 only
    assert study.calls["first"] == (0, 12)
    assert study.calls["again"] == (0, 0)
    assert study.calls["repeat"] == (0, 12)
    assert study.calls["run2"] == (0, 4) and study.calls["fake2_run3"] == (0, 4)
    # the same judge config under another label: the stored verdicts are taken by content, not asked again
    assert study.calls["copy"] == (0, 0)
    copied = pq.read_table(study.run3 / "rejudge" / "fake_copy" / "verdicts.parquet").to_pylist()
    original = pq.read_table(study.run3 / "rejudge" / "fake" / "verdicts.parquet").to_pylist()
    assert [(r["episode_id"], r["agent_pass"], r["cache_key"]) for r in copied] == \
        [(r["episode_id"], r["agent_pass"], r["cache_key"]) for r in original]
    folder = study.run1 / "rejudge" / "fake"
    record = json.loads((folder / "judge.json").read_text())
    assert record["kind"] == "llm" and record["judge_repeats"] == 2
    assert record["config"]["model"]["model"] == "openai/fake-model"
    rows = pq.read_table(folder / "verdicts.parquet").to_pylist()
    assert len(rows) == 12 and {r["judge_repeat"] for r in rows} == {0, 1}
    assert set(episode_ids(study.run1)) == {r["episode_id"] for r in rows}
    by = {(r["episode_id"].split("__")[0], r["repeat"], r["judge_repeat"]): r for r in rows}
    assert by[("mmtsb_nominal_002", 1, 0)]["agent_pass"] is False
    assert by[("mmtsb_nominal_002", 1, 0)]["agent_task_completion"] is False
    assert by[("mmtsb_nominal_003", 0, 0)]["agent_pass"] is True
    assert by[("mmtsb_nominal_003", 0, 1)]["agent_pass"] is False        # the second repeat's judge said so
    assert all(r["user_pass"] is True for r in rows)
    verdict = json.loads(by[("mmtsb_nominal_002", 0, 0)]["verdicts"])["agent"]
    assert verdict["criteria"][0]["analysis"] == "checked task_completion" and verdict["reasoning"]
    assert by[("mmtsb_nominal_001", 0, 0)]["agent_judge_total_tokens"] > 0


def test_the_judge_sees_the_trajectory_rebuilt_with_its_images(study):
    content = study.first_request["messages"][1]["content"]
    text = content[0]["text"]
    assert "## Task completion criteria" in text and "## Database changes" in text
    name = scenario_of(text)
    images = json.loads((NOMINAL / f"{name}.json").read_text())["image_paths"]
    assert sum(1 for p in content if p.get("type") == "image_url") == len(images)
    assert all(p["image_url"]["url"].startswith("data:image/png;base64,") for p in content
               if p.get("type") == "image_url")


def test_summary_and_report_gain_a_column_per_judge(study):
    judges = json.loads((study.run1 / "summary.json").read_text())["judges"]
    assert list(judges) == ["run", "fake", "fake2"]
    assert judges["run"]["agent_sr"] == 1.0 and judges["run"]["judge"] == "static"
    fake = judges["fake"]
    assert fake["agent_sr"] == pytest.approx(4 / 6) and fake["n_judged"] == 6
    assert fake["agent_sr_by_repeat"] == pytest.approx([4 / 6, 2 / 6])
    assert fake["agent_sr_spread"]["sd"] == pytest.approx((2 * (1 / 6) ** 2) ** 0.5)   # |d| = 1/6 each, n - 1 = 1
    assert fake["agreement_with_run"] == pytest.approx(4 / 6)
    assert fake["criteria"]["agent_task_completion"]["pass_rate"] == pytest.approx(4 / 6)
    assert judges["fake2"]["agent_sr"] == pytest.approx(4 / 6) and judges["fake2"]["judge_repeats"] == 1
    report = (study.run1 / "report.md").read_text()
    assert "## Judges" in report
    assert "| Metric | run judge (static) | fake (llm:openai/fake-model) | fake2 (llm:openai/fake-model) |" in report
    assert "| Agent SR per repeat | – | 66.7%, 33.3% | 66.7% |" in report


def test_agreement_against_the_human_majority(study):
    assert study.rc == 0
    agent = study.result["agreement"]["agent"]["overall"]
    assert agent["majority"] == {"n_items": 6, "ties": 0, "pass_rate": pytest.approx(4 / 6)}
    fake = agent["vs_majority"]["fake"]
    assert fake["n"] == 6 and fake["raw"] == 1.0 and fake["kappa"] == pytest.approx(1.0)
    assert fake["confusion"] == {"tp": 4, "fn": 0, "fp": 0, "tn": 2} and fake["fpr"] == 0 and fake["fnr"] == 0
    # fake2 P P P P F F vs P P F F P P: tp 2, fn 2, fp 2, tn 0; po 1/3, pe 4/6*4/6 + 2/6*2/6 = 20/36 -> -0.5
    fake2 = agent["vs_majority"]["fake2"]
    assert fake2["confusion"] == {"tp": 2, "fn": 2, "fp": 2, "tn": 0}
    assert fake2["kappa"] == pytest.approx(-0.5) and fake2["fpr"] == 1.0 and fake2["fnr"] == 0.5
    static = agent["vs_majority"]["static [run]"]
    assert static["confusion"] == {"tp": 4, "fn": 0, "fp": 2, "tn": 0} and static["kappa"] == pytest.approx(0.0)
    assert static["judge_pass_rate"] == 1.0 and static["fpr"] == 1.0
    # annotators: pairs (1,2) raw 5/6 kappa 8/14; (1,3) 5/6, 12/18; (2,3) 4/6, 6/18; Fleiss over 6 items = 0.5
    ia = agent["inter_annotator"]
    assert ia["raw"]["mean"] == pytest.approx(14 / 18) and ia["raw"]["min"] == pytest.approx(4 / 6)
    assert ia["kappa"]["mean"] == pytest.approx((8 / 14 + 12 / 18 + 6 / 18) / 3)
    assert ia["fleiss"] == {"n_raters": 3, "n_items": 6, "kappa": pytest.approx(0.5)}
    # the three judges over the 10 agent items of the three runs: P-bar 0.6, pe 0.68 -> (0.6 - 0.68) / 0.32
    assert agent["judges_fleiss"]["n_items"] == 10
    assert agent["judges_fleiss"]["kappa"] == pytest.approx(-0.25)
    assert any("run9" in note and "ann3.parquet" in note for note in study.result["notes"])


def test_per_criterion_agreement(study):
    crit = study.result["agreement"]["agent"]["criteria"]
    # only ann1 labelled criteria: its labels are the majority; fake fails task_completion exactly on 002
    assert crit["task_completion"]["vs_majority"]["fake"]["raw"] == 1.0
    assert crit["task_completion"]["vs_majority"]["static [run]"]["raw"] == pytest.approx(4 / 6)
    assert crit["instruction_following"]["vs_majority"]["fake"]["raw"] == 1.0
    # the static judge does not assess information_accuracy: it has no label there
    assert "static [run]" not in crit["information_accuracy"]["vs_majority"]


def test_rankings_variance_and_pass_k(study):
    r = study.result
    sr = r["rankings"]["agent_sr"]
    labels = [run["label"] for run in r["runs"]]
    assert labels == [f"oracle / code_exec / full ({n})" for n in ("run1", "run2", "run3")]
    assert [sr["fake"][x] for x in labels] == pytest.approx([4 / 6, 1 / 2, 1.0])
    assert [sr["fake2"][x] for x in labels] == pytest.approx([4 / 6, 1.0, 1 / 2])
    pairs = {(p["a"], p["b"]): p for p in r["rankings"]["pairs"]}
    # ranks 2 1 3 vs 2 3 1: sum d^2 = 8 -> rho = 1 - 6 * 8 / 24 = -1; every pair discordant -> tau = -1
    assert pairs[("fake", "fake2")]["spearman"] == pytest.approx(-1.0)
    assert pairs[("fake", "fake2")]["kendall"] == pytest.approx(-1.0)
    assert pairs[("static [run]", "fake")]["spearman"] is None          # a constant ranking: undefined
    (jv,) = r["judge_variance"]
    assert jv["judge"] == "fake" and jv["values"] == pytest.approx([4 / 6, 2 / 6])
    assert jv["sd"] == pytest.approx((2 / 36) ** 0.5) and jv["range"] == pytest.approx(1 / 3)
    rollout = {e["judge"]: e for e in r["rollout_variance"]}
    assert rollout["fake"]["values"] == pytest.approx([2 / 3, 2 / 3]) and rollout["fake"]["sd"] == 0
    pk = r["pass_k"][labels[0]]["fake"]
    assert pk["2"]["pass_hat_k"] == pytest.approx(2 / 3) and pk["2"]["n_scenarios"] == 3
    md = (study.out / "agreement.md").read_text()
    assert "Judges against the human majority (the paper's Table 5)" in md
    assert "| fake | 6 | 1.000 | 1.000 | 0.000 | 0.000 | 0.667 | 0.667 |" in md
    assert "| oracle / code_exec / full (run1) | fake | 66.67 | 33.33 | 50.00 | 23.57 | 33.33 |" in md
    for name in ("agent_kappa", "agent_confusion", "agent_criteria", "rankings", "variance"):
        assert (study.out / r["figures"][name]).stat().st_size > 0, name


def test_bad_labels_are_refused_naming_file_row_and_column(study, tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("annotator,run,episode_id,party,criterion,label,note\nann9,run1,nope__r0,agent,overall,pass,\n")
    rc = main(["agreement", str(study.run1), "--labels", str(bad), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 2 and f"{bad}: row 1, column 'episode_id': no episode 'nope__r0'" in err
    bad.write_text("annotator,run,episode_id,party,criterion,label,note\nann9,run1,e,agent,overall,passed,\n")
    assert main(["agreement", str(study.run1), "--labels", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert f"{bad}: row 1 (line 2), column 'label': 'passed'; a label is pass or fail" in capsys.readouterr().err
