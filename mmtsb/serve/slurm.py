"""Render and submit the sbatch templates in ``slurm/``: a Ray cluster inside a SLURM allocation, optionally
with a vLLM server, running one ``mmtsb run`` against it.

    python -m mmtsb.serve.slurm --nodes 4 --partition cpu --time 08:00:00 --venv .venv --dry-run -- \\
        model=gpt-5.4-medium repeats=3

Templates hold ``{{ name }}`` placeholders (bash's own ``$VAR`` stay untouched); every placeholder must get a
value and every value is shell-quoted here, except ``run_dir``, which is double-quoted so that
``$SLURM_JOB_ID`` expands when the job runs.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

TEMPLATES = {"ray_cluster": "ray_cluster.sbatch", "ray_vllm": "ray_vllm.sbatch"}
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
TIME_FORMAT = re.compile(r"^(\d+-)?\d+(:\d{1,2}){0,2}$")
SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]+$")


class SlurmConfigError(ValueError):
    """A job parameter that cannot be rendered into a valid script."""


def template_dir() -> Path:
    """``slurm/`` of the source checkout (templates ship with the repository, next to ``conf/``)."""
    return Path(__file__).resolve().parents[2] / "slurm"


@dataclass
class SlurmJob:
    """Parameters of one sbatch job (see ``--help`` of the command for each)."""

    mmtsb_args: list[str] = field(default_factory=list)
    template: str = "ray_cluster"
    job_name: str = "mmtsb"
    nodes: int = 1
    gpus_per_node: int = 0
    cpus_per_task: int = 16
    mem: str | None = None
    time: str = "04:00:00"
    partition: str | None = None
    account: str | None = None
    qos: str | None = None
    log_dir: str = "outputs/slurm"
    workdir: str | None = None
    sbatch_args: list[str] = field(default_factory=list)
    venv: str | None = None
    conda_env: str | None = None
    setup: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    run_dir: str = "outputs/slurm/${SLURM_JOB_NAME}-${SLURM_JOB_ID}"
    ray_port: int = 6379
    ray_num_gpus: int | None = None
    ray_start_timeout: int = 300
    mmtsb: str = "mmtsb"
    serve_model: str | None = None
    vllm_port: int = 8000
    vllm_executable: str = "vllm"
    serve_timeout: int = 1800
    serve_args: list[str] = field(default_factory=list)

    def validate(self) -> None:
        """Raise SlurmConfigError naming the parameter and what is allowed."""
        for name, value in vars(self).items():
            items = value if isinstance(value, list) else list(value.items()) if isinstance(value, dict) else [value]
            if any("\n" in str(v) or "\r" in str(v) for v in items):
                raise SlurmConfigError(f"{name} must not contain line breaks")
        if not SAFE_NAME.match(self.job_name):
            raise SlurmConfigError(f"job_name {self.job_name!r} may only use letters, digits, '.', '_', '-'")
        for name, low in (("nodes", 1), ("cpus_per_task", 1), ("gpus_per_node", 0), ("ray_start_timeout", 1),
                          ("serve_timeout", 1)):
            if getattr(self, name) < low:
                raise SlurmConfigError(f"{name} must be >= {low}, got {getattr(self, name)}")
        for name in ("ray_port", "vllm_port"):
            if not 1 <= getattr(self, name) <= 65535:
                raise SlurmConfigError(f"{name} must be 1..65535, got {getattr(self, name)}")
        if not TIME_FORMAT.match(self.time):
            raise SlurmConfigError(f"time {self.time!r} is not a SLURM time limit "
                                   f"(MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)")
        if self.venv and self.conda_env:
            raise SlurmConfigError("give either venv or conda_env, not both")
        if self.template == "ray_vllm":
            if not self.serve_model:
                raise SlurmConfigError("template ray_vllm needs serve_model (a conf/model/<name>.yaml with a "
                                       "serve: block)")
            if self.gpus_per_node < 1:
                raise SlurmConfigError("template ray_vllm needs gpus_per_node >= 1 for the vLLM server")
        for key in self.env:
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key):
                raise SlurmConfigError(f"env name {key!r} is not a valid shell variable name")

    def template_path(self) -> Path:
        if self.template in TEMPLATES:
            return template_dir() / TEMPLATES[self.template]
        return Path(self.template)


def job_log_dir(job: SlurmJob) -> Path:
    """The absolute folder of the job's stdout file (relative log_dir: inside the job's workdir)."""
    log_dir = Path(job.log_dir)
    return log_dir if log_dir.is_absolute() else Path(job.workdir or Path.cwd()).resolve() / log_dir


def sbatch_directives(job: SlurmJob) -> str:
    """The ``#SBATCH`` header lines."""
    workdir = Path(job.workdir or Path.cwd()).resolve()
    log_dir = job_log_dir(job)
    options = [f"--job-name={job.job_name}", f"--nodes={job.nodes}", "--ntasks-per-node=1",
               f"--cpus-per-task={job.cpus_per_task}", f"--time={job.time}", f"--chdir={workdir}",
               f"--output={log_dir}/%x-%j.out"]
    if job.gpus_per_node:
        options.append(f"--gpus-per-node={job.gpus_per_node}")
    for name in ("mem", "partition", "account", "qos"):
        if getattr(job, name):
            options.append(f"--{name}={getattr(job, name)}")
    options += [a if a.startswith("-") else f"--{a}" for a in job.sbatch_args]
    return "\n".join(f"#SBATCH {o}" for o in options)


def setup_lines(job: SlurmJob) -> str:
    """Environment activation, user setup lines and exports."""
    lines: list[str] = []
    lines += job.setup
    if job.venv:
        lines.append(f"source {shlex.quote(job.venv.rstrip('/'))}/bin/activate")
    if job.conda_env:
        lines += ['eval "$(conda shell.bash hook)"', f"conda activate {shlex.quote(job.conda_env)}"]
    lines += [f"export {k}={shlex.quote(v)}" for k, v in job.env.items()]
    lines.append("export RAY_USAGE_STATS_ENABLED=0")
    return "\n".join(lines)


def _double_quoted(value: str) -> str:
    """A double-quoted shell word: ``$VAR`` expands at run time, quotes and backslashes are escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`") + '"'


def values(job: SlurmJob) -> dict[str, str]:
    """Every placeholder value, already quoted for the shell."""
    return {
        "sbatch_directives": sbatch_directives(job),
        "setup": setup_lines(job),
        "ray_port": str(job.ray_port),
        "ray_num_gpus": str(job.gpus_per_node if job.ray_num_gpus is None else job.ray_num_gpus),
        "ray_start_timeout": str(job.ray_start_timeout),
        "run_dir": _double_quoted(job.run_dir),
        "mmtsb": shlex.join(shlex.split(job.mmtsb)),
        "mmtsb_args": shlex.join(job.mmtsb_args),
        "serve_model": shlex.quote(job.serve_model or ""),
        "vllm_port": str(job.vllm_port),
        "vllm_executable": shlex.quote(job.vllm_executable),
        "serve_timeout": str(job.serve_timeout),
        "serve_args": shlex.join(job.serve_args),
    }


def render_text(template: str, mapping: dict[str, str]) -> str:
    """Substitute ``{{ name }}``; a placeholder without a value is an error (never rendered empty)."""
    missing = sorted({m.group(1) for m in PLACEHOLDER.finditer(template)} - set(mapping))
    if missing:
        raise SlurmConfigError(f"template placeholders without a value: {', '.join(missing)}")
    return PLACEHOLDER.sub(lambda m: mapping[m.group(1)], template)


def render(job: SlurmJob) -> str:
    """The complete sbatch script for ``job``."""
    job.validate()
    path = job.template_path()
    if not path.is_file():
        raise SlurmConfigError(f"template {path} not found (built-in templates: {', '.join(TEMPLATES)}; they "
                               f"live in slurm/ of the source checkout)")
    return render_text(path.read_text(encoding="utf-8"), values(job))


def script_path(job: SlurmJob) -> Path:
    """Where the rendered script is written before submission."""
    return Path(job.log_dir) / f"{job.job_name}-{time.strftime('%Y%m%d-%H%M%S')}.sbatch"


def sbatch_command(path: Path) -> list[str]:
    return ["sbatch", "--parsable", str(path)]


def submit(job: SlurmJob, dry_run: bool = False, out: Path | None = None) -> str:
    """Render ``job``; with ``dry_run`` print the script and the sbatch command, else write and submit it.
    Returns the job id (or the would-be script path on a dry run)."""
    script = render(job)
    path = out or script_path(job)
    if dry_run:
        print(script)
        print(f"# dry run: would write {path} and run: {shlex.join(sbatch_command(path))}")
        return str(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script, encoding="utf-8")
    path.chmod(0o755)
    job_log_dir(job).mkdir(parents=True, exist_ok=True)  # SLURM does not create the --output folder
    try:
        result = subprocess.run(sbatch_command(path), capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise SlurmConfigError(f"sbatch not found: submit {path} on a SLURM login node") from None
    if result.returncode != 0:
        raise SlurmConfigError(f"sbatch failed ({result.returncode}): {result.stderr.strip()}")
    job_id = result.stdout.strip().split(";")[0]
    print(f"submitted job {job_id}: {path} (log: {job.log_dir}/{job.job_name}-{job_id}.out)")
    return job_id


def _key_values(items: Sequence[str], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise SlurmConfigError(f"{option} {item!r} must look like KEY=VALUE")
        key, value = item.split("=", 1)
        out[key] = value
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m mmtsb.serve.slurm",
                                description="Render (and submit) an sbatch job: a Ray cluster in the allocation, "
                                            "optionally a vLLM server, and `mmtsb run` against them. Arguments "
                                            "after `--` go to `mmtsb run`.")
    p.add_argument("mmtsb_args", nargs="*", help="overrides for `mmtsb run` (e.g. model=... repeats=3)")
    p.add_argument("--template", default="ray_cluster", help="ray_cluster, ray_vllm, or a template path")
    p.add_argument("--job-name", default="mmtsb")
    p.add_argument("--nodes", type=int, default=1)
    p.add_argument("--gpus-per-node", type=int, default=0)
    p.add_argument("--cpus-per-task", type=int, default=16, help="CPUs per node (one task per node)")
    p.add_argument("--mem", default=None, help="memory per node, e.g. 64G")
    p.add_argument("--time", default="04:00:00")
    p.add_argument("--partition", default=None)
    p.add_argument("--account", default=None)
    p.add_argument("--qos", default=None)
    p.add_argument("--sbatch-arg", action="append", default=[], dest="sbatch_args",
                   help="extra #SBATCH option, e.g. --sbatch-arg=--exclusive (repeatable)")
    p.add_argument("--log-dir", default="outputs/slurm", help="job logs and rendered scripts")
    p.add_argument("--workdir", default=None, help="job working directory (default: here)")
    env = p.add_mutually_exclusive_group()
    env.add_argument("--venv", default=None, help="virtualenv to activate, e.g. .venv")
    env.add_argument("--conda-env", default=None, help="conda environment to activate")
    p.add_argument("--setup", action="append", default=[], help="shell line run first, e.g. 'module load cuda'")
    p.add_argument("--env", action="append", default=[], help="KEY=VALUE exported in the job (repeatable)")
    p.add_argument("--run-dir", default=SlurmJob.run_dir, help="run folder ($SLURM_JOB_ID expands); reuse "
                                                                "the same folder to resume a run")
    p.add_argument("--ray-port", type=int, default=6379)
    p.add_argument("--ray-num-gpus", type=int, default=None, help="GPUs Ray advertises per node "
                                                                   "(default: --gpus-per-node)")
    p.add_argument("--mmtsb", default="mmtsb", help="the mmtsb command (e.g. 'python -m mmtsb.cli')")
    p.add_argument("--serve-model", default=None, help="ray_vllm: model config to serve (conf/model/<name>)")
    p.add_argument("--vllm-port", type=int, default=8000)
    p.add_argument("--vllm-executable", default="vllm", help="vllm in its own environment")
    p.add_argument("--serve-timeout", type=int, default=1800)
    p.add_argument("--serve-arg", action="append", default=[], dest="serve_args",
                   help="extra `mmtsb serve` argument, e.g. tensor_parallel_size=4 (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="print the script and the sbatch command only")
    p.add_argument("--out", default=None, help="where to write the rendered script")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        job = SlurmJob(
            mmtsb_args=args.mmtsb_args, template=args.template, job_name=args.job_name, nodes=args.nodes,
            gpus_per_node=args.gpus_per_node, cpus_per_task=args.cpus_per_task, mem=args.mem, time=args.time,
            partition=args.partition, account=args.account, qos=args.qos, log_dir=args.log_dir,
            workdir=args.workdir, sbatch_args=args.sbatch_args, venv=args.venv, conda_env=args.conda_env,
            setup=args.setup, env=_key_values(args.env, "--env"), run_dir=args.run_dir, ray_port=args.ray_port,
            ray_num_gpus=args.ray_num_gpus, mmtsb=args.mmtsb, serve_model=args.serve_model,
            vllm_port=args.vllm_port, vllm_executable=args.vllm_executable, serve_timeout=args.serve_timeout,
            serve_args=args.serve_args)
        submit(job, dry_run=args.dry_run, out=Path(args.out) if args.out else None)
    except SlurmConfigError as exc:
        print(f"mmtsb slurm: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
