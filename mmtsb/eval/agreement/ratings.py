"""Who said what about which episode: every rater's pass/fail labels over the same items, gathered from run
folders (the run's own judge, each re-judged label) and human labels files.

An item is one judged thing: (run, episode, party, criterion), with criterion ``overall`` for the verdict on
the party as a whole. Raters are the judges (the run's own judge is named ``<judge name> [run]``; a re-judged
label by its label) and the annotators (``human:<name>``). A judge's first repeat is its rating; its other
repeats serve the run-to-run variance only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.eval.agreement.labels import OVERALL, Label, LabelsError
from mmtsb.judging.store import VerdictStore, labels
from mmtsb.judging.views import judge_repeats, played, rows_under, run_judge_name
from mmtsb.protocol import registry
from mmtsb.report.data import Row, RunData, episode_key

HUMAN_PREFIX = "human:"
RUN_SUFFIX = " [run]"


@dataclass(frozen=True, order=True)
class Item:
    run: str
    episode_id: str
    party: str
    criterion: str = OVERALL


Rating = dict[Item, bool]


@dataclass
class RunView:
    """One run folder as the study needs it: its rows under every judge, and every repeat of each label."""

    run_id: str
    path: Path
    label: str                                            # the run's configuration (agent / interface / toolbox)
    rows: list[Row]
    by_judge: dict[str, list[Row]] = field(default_factory=dict)              # rater -> rows (first repeat)
    repeats: dict[str, list[list[Row]]] = field(default_factory=dict)         # label -> rows per judge repeat


@dataclass
class Ratings:
    runs: list[RunView]
    judges: dict[str, Rating]
    humans: dict[str, Rating]
    notes: list[str] = field(default_factory=list)        # labels skipped (runs not given), and why

    def raters(self) -> dict[str, Rating]:
        return {**self.judges, **self.humans}


def run_ids(paths: Sequence[Path]) -> list[str]:
    """Each run's id: its folder name, or the path as given when two runs share a name."""
    names = [p.name for p in paths]
    return [p.name if names.count(p.name) == 1 else str(p) for p in paths]


def load_runs(paths: Sequence[str | Path]) -> list[RunView]:
    """Every run folder with its rows under its own judge and each re-judged label."""
    folders = [Path(p) for p in paths]
    views = []
    for run_id, folder in zip(run_ids(folders), folders):
        data = RunData.load(folder)
        view = RunView(run_id, folder, data.label(), data.rows)
        view.by_judge[run_judge_name(data) + RUN_SUFFIX] = data.rows
        for label in labels(folder):
            verdicts = VerdictStore(folder, label).rows()
            view.repeats[label] = [rows_under(data.rows, verdicts, r) for r in range(judge_repeats(verdicts))]
            if view.repeats[label]:
                view.by_judge[label] = view.repeats[label][0]
        views.append(view)
    labels_seen = [v.label for v in views]
    for v in views:   # two runs of one configuration: tell them apart in rankings
        if labels_seen.count(v.label) > 1:
            v.label = f"{v.label} ({v.run_id})"
    return views


def judge_ratings(run_id: str, rows: Sequence[Row]) -> Rating:
    """A judge's labels from rows as it sees them: the overall verdict and each assessed criterion of every
    party, over episodes that played and that it judged."""
    out: Rating = {}
    parties = registry.judged_parties()
    for row in rows:
        if not played(row):
            continue
        eid = episode_key(row)
        for name, party in parties.items():
            verdict = row.get(f"{name}_pass")
            if verdict is None or row.get(f"{name}_judge_error"):
                continue
            out[Item(run_id, eid, name)] = bool(verdict)
            for c in party.criteria:
                value = row.get(party.column(c))
                if value is not None:
                    out[Item(run_id, eid, name, c)] = bool(value)
    return out


def _run_of(label: Label, runs: Sequence[RunView]) -> RunView | None:
    """The run a label names: by id or folder name, or by a path (from the working directory or the labels
    file's folder) to the same folder."""
    for view in runs:
        if label.run in (view.run_id, view.path.name, str(view.path)):
            return view
    for base in (Path.cwd(), Path(label.file).parent):
        candidate = (base / label.run).resolve()
        for view in runs:
            if candidate == view.path.resolve():
                return view
    return None


def human_ratings(labels_: Sequence[Label], runs: Sequence[RunView]) -> tuple[dict[str, Rating], list[str]]:
    """Each annotator's labels as items (the overall verdict derived where the file gives none; see
    :mod:`mmtsb.eval.agreement.labels`), and notes on labels of runs that were not given."""
    episodes = {v.run_id: {episode_key(r) for r in v.rows} for v in runs}
    skipped: dict[tuple[str, str], int] = defaultdict(int)
    out: dict[str, Rating] = defaultdict(dict)
    criteria: dict[tuple[str, Item], dict[str, bool]] = defaultdict(dict)
    parties = registry.judged_parties()
    for label in labels_:
        view = _run_of(label, runs)
        if view is None:
            skipped[(label.file, label.run)] += 1
            continue
        if label.episode_id not in episodes[view.run_id]:
            raise LabelsError(f"{label.file}: row {label.row}, column 'episode_id': no episode "
                              f"{label.episode_id!r} in run {view.path}")
        rater = HUMAN_PREFIX + label.annotator
        item = Item(view.run_id, label.episode_id, label.party, label.criterion)
        out[rater][item] = label.passed
        if label.criterion != OVERALL:
            criteria[(rater, Item(view.run_id, label.episode_id, label.party))][label.criterion] = label.passed
    for (rater, overall), given in criteria.items():
        if overall in out[rater]:
            continue
        if not all(given.values()):
            out[rater][overall] = False
        elif set(parties[overall.party].criteria) <= set(given):
            out[rater][overall] = True
    notes = [f"{file}: {n} label(s) of run {run!r} skipped: no such run among the run folders given"
             for (file, run), n in sorted(skipped.items())]
    return dict(out), notes


def collect(run_dirs: Sequence[str | Path], labels_: Sequence[Label] = ()) -> Ratings:
    """Every rater's labels over the runs given (see the module docstring)."""
    runs = load_runs(run_dirs)
    judges: dict[str, Rating] = defaultdict(dict)
    for view in runs:
        for rater, rows in view.by_judge.items():
            judges[rater].update(judge_ratings(view.run_id, rows))
    humans, notes = human_ratings(labels_, runs)
    return Ratings(runs, dict(judges), humans, notes)


def items_of(rating: Rating, party: str, criterion: str = OVERALL) -> dict[tuple[str, str], bool]:
    """A rater's labels of one (party, criterion), keyed by (run, episode)."""
    return {(i.run, i.episode_id): v for i, v in rating.items() if i.party == party and i.criterion == criterion}


def parties_rated(ratings: Ratings) -> list[str]:
    """The judged parties some rater labelled, in registry order."""
    seen = {i.party for r in ratings.raters().values() for i in r}
    return [p for p in registry.judged_parties() if p in seen]


def criteria_rated(ratings: Ratings, party: str) -> list[str]:
    seen = {i.criterion for r in ratings.raters().values() for i in r if i.party == party}
    return [c for c in registry.judged_parties()[party].criteria if c in seen]


def describe(ratings: Ratings) -> dict[str, Any]:
    """Who rated how many items (for the report's first table)."""
    def count(r: Rating) -> dict[str, int]:
        return {"overall": sum(1 for i in r if i.criterion == OVERALL),
                "criteria": sum(1 for i in r if i.criterion != OVERALL)}

    return {"judges": {k: count(v) for k, v in ratings.judges.items()},
            "humans": {k: count(v) for k, v in ratings.humans.items()}}
