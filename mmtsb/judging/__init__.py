"""Judging stored trajectories again: ``mmtsb rejudge`` (another judge, or the same judge k times) without
replaying the agents.

- :mod:`mmtsb.judging.evidence`: a judge's evidence rebuilt from a stored trajectory (typed model only);
- :mod:`mmtsb.judging.store`: where the verdicts live beside the run (``RUN_DIR/rejudge/<label>/``), their
  content keys (no second model call for the same trajectory, judge config and repeat);
- :mod:`mmtsb.judging.rejudge`: judging a run folder's episodes with a judge config;
- :mod:`mmtsb.judging.views`: a run's rows as each judge sees them, and the column per judge of the report.
"""
