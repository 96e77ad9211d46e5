"""conf/hydra/launcher/slurm.yaml: parses, sets only fields the submitit SLURM launcher knows, and composes
with Hydra into the plugin's launcher when hydra-submitit-launcher is installed (the `[slurm]` extra)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

LAUNCHER = Path(__file__).resolve().parents[2] / "conf" / "hydra" / "launcher" / "slurm.yaml"
# fields of hydra_plugins.hydra_submitit_launcher.config.SlurmQueueConf (hydra-submitit-launcher 1.2.0)
SLURM_QUEUE_FIELDS = {
    "submitit_folder", "timeout_min", "cpus_per_task", "gpus_per_node", "tasks_per_node", "mem_gb", "nodes",
    "name", "stderr_to_stdout", "_target_", "partition", "qos", "comment", "constraint", "exclude", "gres",
    "cpus_per_gpu", "gpus_per_task", "mem_per_gpu", "mem_per_cpu", "account", "signal_delay_s",
    "max_num_timeout", "additional_parameters", "array_parallelism", "setup"}


def test_launcher_yaml_parses_with_expected_keys():
    data = yaml.safe_load(LAUNCHER.read_text())
    assert data["defaults"] == ["submitit_slurm", "_self_"]
    keys = set(data) - {"defaults"}
    assert keys <= SLURM_QUEUE_FIELDS, keys - SLURM_QUEUE_FIELDS
    assert {"timeout_min", "nodes", "cpus_per_task", "gpus_per_node", "mem_gb", "partition", "account",
            "array_parallelism", "submitit_folder", "setup"} <= keys
    assert data["submitit_folder"].startswith("${hydra.sweep.dir}")
    assert isinstance(data["setup"], list) and isinstance(data["additional_parameters"], dict)


def test_plugin_fields_match_when_installed():
    config = pytest.importorskip("hydra_plugins.hydra_submitit_launcher.config")
    import dataclasses

    assert {f.name for f in dataclasses.fields(config.SlurmQueueConf)} == SLURM_QUEUE_FIELDS


def test_hydra_composes_the_slurm_launcher(tmp_path):
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
    from hydra import compose, initialize_config_dir
    from hydra.core.hydra_config import HydraConfig
    from omegaconf import OmegaConf

    (tmp_path / "hydra" / "launcher").mkdir(parents=True)
    shutil.copy(LAUNCHER, tmp_path / "hydra" / "launcher" / "slurm.yaml")
    (tmp_path / "config.yaml").write_text("repeats: 1\n")
    with initialize_config_dir(config_dir=str(tmp_path), version_base="1.3"):
        cfg = compose("config", overrides=["hydra/launcher=slurm", "hydra.launcher.partition=cpu",
                                           "hydra.launcher.account=proj", "hydra.sweep.dir=/tmp/sweep"],
                      return_hydra_config=True)
        HydraConfig.instance().set_config(cfg)
        try:
            launcher = OmegaConf.to_container(cfg.hydra.launcher, resolve=True)
        finally:
            HydraConfig.instance().cfg = None  # leave no global Hydra state to other tests
    assert launcher["_target_"] == "hydra_plugins.hydra_submitit_launcher.submitit_launcher.SlurmLauncher"
    assert (launcher["partition"], launcher["account"]) == ("cpu", "proj")
    assert launcher["submitit_folder"] == "/tmp/sweep/.submitit/%j"
    assert launcher["timeout_min"] == 240 and launcher["max_num_timeout"] == 3
