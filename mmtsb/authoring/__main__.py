"""``python -m mmtsb.authoring nominal|ui [--out DIR] [--only N ...]``: regenerate a shipped scenario set."""

from mmtsb.authoring.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
