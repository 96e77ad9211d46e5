"""No credential is ever written down (issue 11), end to end: the real ``mmtsb run`` (a two-job sweep, W&B
offline) with an ``Authorization`` header, an ``aws_secret_access_key``, an API key in the environment and a
against the fake OpenAI-compatible server answering HTTP 500, so that error text is produced; a
``user:password@`` in ``api_base`` is refused before the first episode (neither route can send it). No secret may appear in any file of the sweep folder (run folders, Hydra's records,
results, trajectories, report, log), in W&B's offline folder, in a file name, or on stdout/stderr."""

from __future__ import annotations

import os
import subprocess
import sys

from mmtsb.config.paths import find_project_root
from mmtsb.testing import FakeLLMServer

ROOT = find_project_root()
HEADER_SECRET = "sk-live-HEADERSECRET-42"
AWS_SECRET = "AWSsecretAccessKey9x7"
ENV_KEY = "sk-envkey-0123456789"
URL_PASSWORD = "s3cr3tpass"
SECRETS = (HEADER_SECRET, AWS_SECRET, ENV_KEY, URL_PASSWORD)


def test_no_secret_reaches_any_file_or_stream(tmp_path):
    sweep, wandb_dir = tmp_path / "sweep", tmp_path / "wandb"
    with FakeLLMServer(default={"status": 500, "error": "upstream failed"}) as server:
        port = server.base_url.rsplit(":", 1)[1].split("/")[0]
        args = ["--multirun", "model=gpt_5_4_high",
                f"model.api_base=http://127.0.0.1:{port}/v1", "seed=1,2",
                "model.max_retries=0", "dataset.limit=1", "runner=inprocess", "logging=wandb",
                f'+model.extra_params.extra_headers.Authorization="Bearer {HEADER_SECRET}"',
                f"+model.extra_params.aws_secret_access_key={AWS_SECRET}", f"hydra.sweep.dir={sweep}"]
        code = f"import sys; sys.argv = ['mmtsb run', *{args!r}]; from mmtsb.config.app import main; sys.exit(main())"
        env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0", "WANDB_MODE": "offline",
               "WANDB_DIR": str(wandb_dir), "OPENAI_API_KEY": ENV_KEY, "WANDB_SILENT": "true"}
        proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=400)
        headers = server.request_headers
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    jobs = sorted(p for p in sweep.iterdir() if p.is_dir())
    assert len(jobs) == 2, proc.stderr[-3000:]
    # the run really carried the secrets: the key reached the server, the header and the AWS key are in the
    # config (hidden), errors were recorded and logged
    assert any(h.get("authorization") == f"Bearer {ENV_KEY}" for h in headers), headers
    config = (jobs[0] / "config.yaml").read_text()
    assert "Authorization: '***'" in config and "aws_secret_access_key: '***'" in config
    for job in jobs:
        assert (job / "report.md").is_file() and (job / "mmtsb.log").is_file()
        assert list((job / "episodes.parquet").glob("*.parquet")) and list((job / "trajectories").glob("*.json"))
        assert "error" in (job / "mmtsb.log").read_text()
    assert list(wandb_dir.rglob("*.wandb")), "W&B wrote no offline run"

    leaks = []
    for folder in (sweep, wandb_dir):
        for path in folder.rglob("*"):
            if any(s in str(path) for s in SECRETS):
                leaks.append(f"file name {path}")
            if path.is_file():
                data = path.read_bytes()
                leaks += [f"{path}: {s}" for s in SECRETS if s.encode() in data]
    for name, text in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        leaks += [f"{name}: {s}" for s in SECRETS if s in text]
    assert not leaks, "\n".join(leaks)


def test_credentials_in_api_base_stop_the_run_before_it_starts_and_are_not_written(tmp_path):
    run = tmp_path / "run"
    args = ["run", "model=gpt_5_4_high", f"model.api_base=http://alice:{URL_PASSWORD}@127.0.0.1:9/v1",
            "dataset.limit=1", "runner=inprocess", f"hydra.run.dir={run}"]
    env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0", "OPENAI_API_KEY": ENV_KEY}
    proc = subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "model.api_base=http://***@127.0.0.1:9/v1: credentials in the URL are not sent" in proc.stderr
    assert not (run / "episodes.parquet").exists()
    records = [p for p in run.rglob("*") if p.is_file()]
    leaks = [f"{p}: {s}" for p in records for s in SECRETS if s.encode() in p.read_bytes()]
    leaks += [f"stream: {s}" for s in SECRETS if s in proc.stdout + proc.stderr]
    assert records and not leaks, leaks


def test_a_generation_job_that_stops_on_a_config_error_leaves_no_secret(tmp_path):
    """``mmtsb generate``: Hydra's records are scrubbed before the job does anything, so even a config error
    (exit 2) leaves none of the secrets in the run folder or on the streams."""
    run = tmp_path / "run"
    args = ["generate", "n_scenarios=0", "model=gpt_5_4_high",
            f"model.api_base=http://alice:{URL_PASSWORD}@127.0.0.1:9/v1",
            f'+model.extra_params.extra_headers.Authorization="Bearer {HEADER_SECRET}"', f"hydra.run.dir={run}"]
    env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.run([sys.executable, "-m", "mmtsb.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2 and "n_scenarios must be >= 1" in proc.stderr, proc.stderr[-2000:]
    records = [p for p in run.rglob("*") if p.is_file()]
    assert {p.name for p in records} >= {"overrides.yaml", "config.yaml", "hydra.yaml"}
    leaks = [f"{p}: {s}" for p in records for s in SECRETS if s.encode() in p.read_bytes()]
    leaks += [f"stream: {s}" for s in SECRETS if s in proc.stdout + proc.stderr]
    assert not leaks, "\n".join(leaks)
