#!/bin/bash
# Render an sbatch script from slurm/*.sbatch and submit it (or print it with --dry-run).
#   slurm/submit.sh --nodes 2 --partition cpu --time 04:00:00 --venv .venv --dry-run -- model=gpt-5.4-medium
# All options: slurm/submit.sh --help
# The renderer runs with $PYTHON if set, else the python of --venv (default: the project's .venv), else python3,
# so it works without activating the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=".venv"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --venv) venv="${args[$((i + 1))]:-$venv}" ;;
    --venv=*) venv="${args[$i]#--venv=}" ;;
    --) break ;;
  esac
done
if [[ -n "${PYTHON:-}" ]]; then
  python="$PYTHON"
elif [[ -x "$venv/bin/python" ]]; then
  python="$venv/bin/python"
else
  python="python3"
fi
exec "$python" -m mmtsb.serve.slurm "$@"
