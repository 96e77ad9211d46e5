#!/bin/bash
# Render an sbatch script from slurm/*.sbatch and submit it (or print it with --dry-run).
#   slurm/submit.sh --nodes 2 --partition cpu --time 04:00:00 --venv .venv --dry-run -- model=gpt-5.4-medium
# All options: slurm/submit.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-python}" -m mmtsb.serve.slurm "$@"
