"""The human labels format (the contract the viewer's annotation page writes): CSV and Parquet read alike, and
every broken file is refused with its file, row and column named."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmtsb.eval.agreement import COLUMNS, LabelsError, read_all, read_labels, write_labels

GOOD = [
    {"annotator": "ann1", "run": "run1", "episode_id": "s1__r0__abc", "party": "agent", "criterion": "overall",
     "label": "pass", "note": ""},
    {"annotator": "ann1", "run": "run1", "episode_id": "s1__r0__abc", "party": "agent",
     "criterion": "task_completion", "label": "fail", "note": "wrong total, 25.85 instead of 52.85"},
    {"annotator": "ann1", "run": "run1", "episode_id": "s1__r0__abc", "party": "user", "criterion": "overall",
     "label": True, "note": "ok"},
]


def write_csv(path: Path, header: str, *lines: str) -> Path:
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


HEADER = ",".join(COLUMNS)


def test_the_columns_are_the_contract():
    assert COLUMNS == ("annotator", "run", "episode_id", "party", "criterion", "label", "note")


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_csv_and_parquet_round_trip(tmp_path, suffix):
    path = write_labels(tmp_path / f"ann1{suffix}", GOOD)
    labels = read_labels(path)
    assert [(x.party, x.criterion, x.passed) for x in labels] == [
        ("agent", "overall", True), ("agent", "task_completion", False), ("user", "overall", True)]
    assert labels[1].note == "wrong total, 25.85 instead of 52.85"
    assert {x.annotator for x in labels} == {"ann1"} and labels[2].row == 3


def test_a_folder_of_files_and_columns_in_any_order(tmp_path):
    folder = tmp_path / "labels"
    folder.mkdir()
    write_labels(folder / "a.csv", GOOD)
    cols = "note,label,criterion,party,episode_id,run,annotator"
    write_csv(folder / "b.csv", cols, " ,FAIL,overall,agent,s1__r0__abc,run1,ann2")
    labels = read_all([folder])
    assert {x.annotator for x in labels} == {"ann1", "ann2"}
    assert [x.passed for x in labels if x.annotator == "ann2"] == [False]


@pytest.mark.parametrize("lines, where, says", [
    (["ann1,run1,e1,agents,overall,pass,"], "row 1 (line 2), column 'party'", "'agents' is not one of agent, user"),
    (["ann1,run1,e1,agent,overall,yes,"], "row 1 (line 2), column 'label'", "a label is pass or fail"),
    (["ann1,run1,e1,agent,overall,pass,", "ann1,run1,e1,agent,naturalness,fail,"], "row 2 (line 3), column "
     "'criterion'", "not a criterion of the agent judge"),
    (["ann1,run1,,agent,overall,pass,"], "row 1 (line 2), column 'episode_id'", "empty"),
    (["ann1,run1,e1,agent,overall,pass,", "ann2,run1,e2,agent,overall,pass,"], "row 2 (line 3), column "
     "'annotator'", "one file per annotator"),
    (["ann1,run1,e1,agent,overall,pass,", "ann1,run1,e1,agent,overall,fail,"], "row 2 (line 3), column "
     "'criterion'", "labelled again (first in row 1)"),
    (["ann1,run1,e1,agent,overall,pass,,extra"], "row 1 (line 2)", "8 cells but the header has 7 columns"),
])
def test_a_bad_row_names_file_row_and_column(tmp_path, lines, where, says):
    path = write_csv(tmp_path / "ann1.csv", HEADER, *lines)
    with pytest.raises(LabelsError) as e:
        read_labels(path)
    assert str(path) in str(e.value) and where in str(e.value) and says in str(e.value)


def test_missing_and_unknown_columns_are_named(tmp_path):
    path = write_csv(tmp_path / "ann1.csv", "annotator,run,episode_id,party,criterion,lable,note",
                     "ann1,run1,e1,agent,overall,pass,")
    with pytest.raises(LabelsError, match=r"ann1\.csv: missing column\(s\) label; unknown column\(s\) lable"):
        read_labels(path)


def test_parquet_rows_are_named_without_lines(tmp_path):
    path = write_labels(tmp_path / "ann1.parquet", [{**GOOD[0], "label": "maybe"}])
    with pytest.raises(LabelsError, match=r"ann1\.parquet: row 1, column 'label': 'maybe'"):
        read_labels(path)


def test_unreadable_files_and_missing_paths(tmp_path):
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(LabelsError, match=r"bad\.parquet: not a readable Parquet file"):
        read_labels(tmp_path / "bad.parquet")
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(LabelsError, match=r"bin\.csv: not a readable UTF-8 CSV file"):
        read_labels(tmp_path / "bin.csv")
    with pytest.raises(LabelsError, match="no such labels file or folder"):
        read_all([tmp_path / "nope.csv"])
    with pytest.raises(LabelsError, match="header but no rows"):
        read_labels(write_csv(tmp_path / "empty.csv", HEADER))


def test_two_files_of_one_annotator_are_refused(tmp_path):
    write_labels(tmp_path / "a.csv", GOOD[:1])
    write_labels(tmp_path / "b.csv", GOOD[2:])
    with pytest.raises(LabelsError, match="annotator 'ann1' also has the file"):
        read_all([tmp_path / "a.csv", tmp_path / "b.csv"])
