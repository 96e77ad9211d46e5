"""sbatch templates: rendering, bash syntax, dry run, submission through a fake sbatch, and the rendered
scripts executed end to end against fake scontrol/srun/ray/mmtsb commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mmtsb.serve.slurm import SlurmConfigError, SlurmJob, main, render, render_text, submit
from testkit import REPO

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is needed to check the rendered scripts")


def bash_syntax_ok(script: str, tmp_path: Path) -> None:
    path = tmp_path / "job.sbatch"
    path.write_text(script)
    result = subprocess.run([BASH, "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def directives(script: str) -> list[str]:
    return [line.removeprefix("#SBATCH ") for line in script.splitlines() if line.startswith("#SBATCH ")]


def test_ray_cluster_template_renders(tmp_path):
    job = SlurmJob(mmtsb_args=["model=gpt-5.4-medium", "repeats=3", "note=two words", "x=${oc.env:HOME}"],
                   nodes=4, cpus_per_task=32, mem="128G", time="1-00:00:00", partition="cpu", account="proj",
                   qos="high", sbatch_args=["--exclusive", "constraint=skylake"], venv="/opt/envs/mmtsb/",
                   setup=["module load python/3.11"], env={"OPENAI_API_KEY_FILE": "/secrets/key it"},
                   workdir=str(tmp_path), job_name="eval-1")
    script = render(job)
    assert script.startswith("#!/bin/bash\n")
    assert directives(script) == [
        "--job-name=eval-1", "--nodes=4", "--ntasks-per-node=1", "--cpus-per-task=32", "--time=1-00:00:00",
        f"--chdir={tmp_path}", f"--output={tmp_path}/outputs/slurm/%x-%j.out", "--mem=128G", "--partition=cpu",
        "--account=proj", "--qos=high", "--exclusive", "--constraint=skylake"]
    assert "module load python/3.11\nsource /opt/envs/mmtsb/bin/activate\n" in script
    assert "export OPENAI_API_KEY_FILE='/secrets/key it'" in script
    assert "RAY_PORT=6379\nRAY_NUM_GPUS=0\n" in script
    assert 'RUN_DIR="outputs/slurm/${SLURM_JOB_NAME}-${SLURM_JOB_ID}"' in script
    assert ('mmtsb run runner=cluster "runner.address=$RAY_ADDRESS" "hydra.run.dir=$RUN_DIR" '
            "model=gpt-5.4-medium repeats=3 'note=two words' 'x=${oc.env:HOME}'") in script
    assert "{{" not in script and "}}" not in script
    bash_syntax_ok(script, tmp_path)


def test_ray_vllm_template_renders(tmp_path):
    job = SlurmJob(template="ray_vllm", nodes=2, gpus_per_node=8, serve_model="qwen3.5-397b-a17b",
                   serve_args=["tensor_parallel_size=8"], vllm_executable="/opt/vllm env/bin/vllm", vllm_port=8100,
                   conda_env="mmtsb", mmtsb="python -m mmtsb.cli", mmtsb_args=["toolbox=mini"],
                   run_dir="/scratch/runs/qwen", workdir=str(tmp_path))
    script = render(job)
    assert "--gpus-per-node=8" in directives(script)
    assert 'eval "$(conda shell.bash hook)"\nconda activate mmtsb\n' in script
    assert "SERVE_MODEL=qwen3.5-397b-a17b\nVLLM_PORT=8100\n" in script and 'RUN_DIR="/scratch/runs/qwen"' in script
    assert "RAY_NUM_GPUS=8" in script
    assert ("python -m mmtsb.cli serve \"$SERVE_MODEL\" --host 0.0.0.0 --public-host \"$HEAD_IP\" "
            "--port \"$VLLM_PORT\" \\\n  --vllm '/opt/vllm env/bin/vllm'") in script
    assert "tensor_parallel_size=8 &" in script
    assert '"model=$SERVE_MODEL" serve=none "serve.api_base=$VLLM_API_BASE" toolbox=mini' in script
    bash_syntax_ok(script, tmp_path)


@pytest.mark.parametrize(("change", "message"), [
    ({"time": "four hours"}, "time 'four hours' is not a SLURM time limit"),
    ({"nodes": 0}, "nodes must be >= 1"),
    ({"job_name": "a b"}, "job_name 'a b' may only use letters"),
    ({"partition": "cpu\n#SBATCH --qos=top"}, "partition must not contain line breaks"),
    ({"mmtsb_args": ["x=1\nrm -rf /"]}, "mmtsb_args must not contain line breaks"),
    ({"venv": ".venv", "conda_env": "e"}, "either venv or conda_env"),
    ({"template": "ray_vllm", "gpus_per_node": 1}, "template ray_vllm needs serve_model"),
    ({"template": "ray_vllm", "serve_model": "m"}, "template ray_vllm needs gpus_per_node >= 1"),
    ({"ray_port": 0}, "ray_port must be 1..65535"),
    ({"env": {"1BAD": "x"}}, "env name '1BAD' is not a valid shell variable name"),
    ({"template": "/nonexistent/t.sbatch"}, "template /nonexistent/t.sbatch not found"),
])
def test_invalid_jobs_are_refused(change, message):
    with pytest.raises(SlurmConfigError) as info:
        render(SlurmJob(**change))
    assert message in str(info.value)


def test_custom_template_placeholders_must_all_be_known(tmp_path):
    assert render_text("a={{ x }} b={{y}} $HOME ${V}", {"x": "1", "y": "2"}) == "a=1 b=2 $HOME ${V}"
    with pytest.raises(SlurmConfigError, match="placeholders without a value: nodes_list"):
        render_text("{{ nodes_list }}", {})
    custom = tmp_path / "mine.sbatch"
    custom.write_text("#!/bin/bash\n{{ sbatch_directives }}\n{{ mmtsb }} run {{ mmtsb_args }}\n")
    script = render(SlurmJob(template=str(custom), mmtsb_args=["repeats=2"]))
    assert script.endswith("mmtsb run repeats=2\n")


def test_dry_run_prints_script_and_sbatch_command(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["--nodes", "2", "--partition", "cpu", "--time", "02:00:00", "--venv", ".venv", "--dry-run",
                 "--", "model=oracle", "repeats=2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "#SBATCH --nodes=2" in out and "#SBATCH --partition=cpu" in out
    assert "mmtsb run runner=cluster" in out and "model=oracle repeats=2" in out
    assert "# dry run: would write outputs/slurm/mmtsb-" in out and "run: sbatch --parsable outputs/slurm/mmtsb-" in out
    assert not (tmp_path / "outputs").exists()  # nothing written, nothing submitted
    bash_syntax_ok(out.split("# dry run:")[0], tmp_path)


def test_cli_reports_bad_parameters(capsys):
    assert main(["--time", "soon", "--dry-run"]) == 2
    assert "mmtsb slurm: time 'soon' is not a SLURM time limit" in capsys.readouterr().err
    assert main(["--env", "NOEQUALS", "--dry-run"]) == 2
    assert "--env 'NOEQUALS' must look like KEY=VALUE" in capsys.readouterr().err


def _fake_bin(tmp_path: Path, files: dict[str, str]) -> Path:
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in files.items():
        (bin_dir / name).write_text("#!/bin/bash\n" + body)
        (bin_dir / name).chmod(0o755)
    return bin_dir


def test_submit_through_a_fake_sbatch(tmp_path, monkeypatch, capsys):
    bin_dir = _fake_bin(tmp_path, {"sbatch": 'echo "$@" > "$FAKE_LOG"; echo "4242;cluster"\n'})
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "sbatch.args"))
    job = SlurmJob(mmtsb_args=["repeats=2"], log_dir=str(tmp_path / "logs"), workdir=str(tmp_path))
    assert submit(job) == "4242"
    args = (tmp_path / "sbatch.args").read_text().split()
    assert args[0] == "--parsable" and Path(args[1]).is_file() and "repeats=2" in Path(args[1]).read_text()
    assert (tmp_path / "logs").is_dir()
    assert "submitted job 4242" in capsys.readouterr().out
    (bin_dir / "sbatch").write_text("#!/bin/bash\necho 'sbatch: error: invalid partition' >&2; exit 1\n")
    with pytest.raises(SlurmConfigError, match="sbatch failed \\(1\\): sbatch: error: invalid partition"):
        submit(job)


FAKES = {
    "scontrol": 'echo node-a; echo node-b; echo node-c\n',
    # srun: log, drop its options, answer `hostname --ip-address`, run anything else
    "srun": ('echo "srun $*" >> "$FAKE_LOG"\n'
             'while [[ $# -gt 0 && "$1" == -* ]]; do case "$1" in -w|-N|-n) shift 2;; *) shift;; esac; done\n'
             'if [[ "$1" == hostname ]]; then echo "10.0.0.1 fe80::1"; exit 0; fi\nexec "$@"\n'),
    "ray": ('echo "ray $*" >> "$FAKE_LOG"\n'
            'if [[ "$1" == start && " $* " == *" --block "* ]]; then exec sleep 120; fi\nexit 0\n'),
    "mmtsb": ('echo "mmtsb $*" >> "$FAKE_LOG"\n'
              'if [[ "$1" == serve ]]; then exec sleep 120; fi\nexit "${FAKE_STATUS:-0}"\n'),
    # the health check answers only once `mmtsb serve` has started (as a real server would): on a loaded machine
    # the background serve step may otherwise not have logged before the job ends and kills it
    "python": ('case "$*" in *mmtsb.serve.health*) for _ in $(seq 200); do grep -q "^mmtsb serve" "$FAKE_LOG" '
               '&& break; sleep 0.05; done;; esac\n'
               'echo "python $*" >> "$FAKE_LOG"; cat > /dev/null; exit 0\n'),
}


def _run_rendered(job: SlurmJob, tmp_path: Path, status: int = 0) -> tuple[subprocess.CompletedProcess, list[str]]:
    script = tmp_path / "job.sbatch"
    script.write_text(render(job))
    bin_dir = _fake_bin(tmp_path, FAKES)
    log = tmp_path / "fake.log"
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "FAKE_LOG": str(log), "FAKE_STATUS": str(status),
           "SLURM_JOB_NODELIST": "node-[a-c]", "SLURM_JOB_ID": "77", "SLURM_JOB_NAME": "mmtsb",
           "SLURM_CPUS_PER_TASK": "8", "HOME": str(tmp_path)}
    result = subprocess.run([BASH, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60, stdin=subprocess.DEVNULL)
    return result, log.read_text().splitlines()


def test_rendered_ray_cluster_script_runs_against_fake_slurm(tmp_path):
    job = SlurmJob(nodes=3, mmtsb_args=["model=oracle", "repeats=2"], workdir=str(tmp_path))
    result, calls = _run_rendered(job, tmp_path, status=3)
    assert result.returncode == 3, result.stderr  # the run's status is the job's status
    assert "Ray head on node-a at 10.0.0.1:6379" in result.stdout
    head = [c for c in calls if c.startswith("ray start --head")]
    workers = [c for c in calls if c.startswith("ray start --address=10.0.0.1:6379")]
    assert head == ["ray start --head --node-ip-address=10.0.0.1 --port=6379 --num-cpus=8 --num-gpus=0 "
                    "--disable-usage-stats --block"]
    assert len(workers) == 2
    assert any(c.startswith("srun --overlap --nodes=1 --ntasks=1 -w node-c ray start") for c in calls)
    assert "python - 3 300" in calls  # waits for all 3 nodes
    runs = [c for c in calls if c.startswith("mmtsb run")]  # background steps log in any order
    assert runs == ["mmtsb run runner=cluster runner.address=10.0.0.1:6379 hydra.run.dir=outputs/slurm/mmtsb-77 "
                    "model=oracle repeats=2"]
    assert (tmp_path / "outputs" / "slurm" / "mmtsb-77").is_dir()


def test_rendered_ray_vllm_script_runs_against_fake_slurm(tmp_path):
    job = SlurmJob(template="ray_vllm", nodes=2, gpus_per_node=4, serve_model="qwen3.5-27b",
                   serve_args=["tensor_parallel_size=4"], mmtsb_args=["toolbox=mini"], workdir=str(tmp_path))
    result, calls = _run_rendered(job, tmp_path)
    assert result.returncode == 0, result.stderr
    serve = [c for c in calls if c.startswith("mmtsb serve")]
    assert serve == ["mmtsb serve qwen3.5-27b --host 0.0.0.0 --public-host 10.0.0.1 --port 8000 --vllm vllm "
                     "--timeout 1800 --log-dir outputs/slurm/mmtsb-77/serve tensor_parallel_size=4"]
    assert any(c.startswith("python -m mmtsb.serve.health http://10.0.0.1:8000/v1") for c in calls)
    runs = [c for c in calls if c.startswith("mmtsb run")]
    assert runs == ["mmtsb run runner=cluster runner.address=10.0.0.1:6379 hydra.run.dir=outputs/slurm/mmtsb-77"
                    " model=qwen3.5-27b serve=none serve.api_base=http://10.0.0.1:8000/v1 toolbox=mini"]
    assert "vLLM ready at http://10.0.0.1:8000/v1" in result.stdout


def test_submit_sh_runs_with_the_venvs_python_without_activation(tmp_path):
    """Issue 13: slurm/submit.sh used the system python ("No module named omegaconf" unless the venv was active);
    it takes the python of --venv (default .venv) when PYTHON is not set."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run(["bash", str(REPO / "slurm" / "submit.sh"), "--nodes", "1", "--partition", "cpu", "--time",
                           "00:10:00", "--venv", sys.prefix, "--dry-run", "--", "model=oracle"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "#SBATCH --nodes=1" in proc.stdout and "model=oracle" in proc.stdout
