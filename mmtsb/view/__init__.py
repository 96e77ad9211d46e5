"""The trajectory viewer (``mmtsb view``): a local web app over run folders.

- :mod:`mmtsb.view.runs`: finding run folders, their ids, summaries and the compact episode index (filters,
  pagination) the list pages read;
- :mod:`mmtsb.view.episode`: one episode's page data, from the typed trajectory
  (:meth:`mmtsb.report.data.RunData.record`), with its images as files of the run folder;
- :mod:`mmtsb.view.labels`: human labels per annotator (``RUN_DIR/labels/<annotator>.csv``);
- :mod:`mmtsb.view.server`: the aiohttp app (a JSON API and the static front end in ``static/``);
- :mod:`mmtsb.view.export`: the same pages as a static copy that opens from disk;
- :mod:`mmtsb.view.links`: viewer addresses of runs and episodes (report.md links to them).
"""

from mmtsb.view.links import DEFAULT_PORT, episode_url, run_id, run_url

__all__ = ["DEFAULT_PORT", "episode_url", "run_id", "run_url"]
