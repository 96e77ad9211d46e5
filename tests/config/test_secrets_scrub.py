"""The scrubbers of mmtsb.config.secrets: key names (headers included), URL userinfo, known secret values in
free text, Hydra's records, the log filter, and the writers that use them (rows, trajectories, W&B config)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

import pyarrow.parquet as pq
import yaml

from mmtsb.config.app import scrub_hydra_files
from mmtsb.config.secrets import (
    REDACTED, SecretFilter, collect_secrets, install_log_filter, is_secret_key, override_secrets, redact,
    redact_override, redact_userinfo, remove_log_filter, scrub_data, scrub_text, scrubbed_log_records,
    userinfo_passwords,
)
from mmtsb.protocol.model_settings import ModelSettings, derive_provider
from mmtsb.report.wandb_log import scrub as wandb_scrub
from mmtsb.runner.results import RunLayout

URL = "http://alice:s3cr3tpass@127.0.0.1:8000/v1"


def test_header_names_are_secret_keys():
    for name in ("Authorization", "authorization", "Proxy-Authorization", "x-api-key", "X-Api-Key", "Cookie",
                 "set-cookie", "aws_secret_access_key", "awsSessionToken", "X-Auth-Token"):
        assert is_secret_key(name), name
    for name in ("max_tokens", "tokenizer", "monkey", "api_base", "model", "Content-Type", "author"):
        assert not is_secret_key(name), name


def test_url_userinfo_is_hidden_anywhere_in_a_string():
    assert redact_userinfo(URL) == "http://***@127.0.0.1:8000/v1"
    assert redact_userinfo("https://tok3n@example.com/x") == "https://***@example.com/x"
    assert redact_userinfo("redis://:pw@host:6379/0") == "redis://***@host:6379/0"
    assert redact_userinfo(f"cannot reach {URL}/chat (refused)") == "cannot reach http://***@127.0.0.1:8000/v1/chat (refused)"
    assert redact_userinfo('{"a":"http://u:p@h/x","mail":"bob@example.com"}') == '{"a":"http://***@h/x","mail":"bob@example.com"}'
    for plain in ("http://127.0.0.1:8000/v1", "write to bob@example.com", "http://h/path?who=a@b", "a:b@c"):
        assert redact_userinfo(plain) == plain
    assert userinfo_passwords("http://u:p%40ss@h http://tok@h2") == ["p%40ss", "p@ss", "tok"]


def test_redact_covers_headers_and_urls_in_a_config():
    data = {"model": {"api_base": URL, "api_key_env": "OPENAI_API_KEY",
                      "extra_params": {"extra_headers": {"Authorization": "Bearer sk-live-1", "X-Trace": "ok"},
                                       "aws_secret_access_key": "AWSSECRET123"}},
            "list": [URL], "max_tokens": 5}
    assert redact(data) == {"model": {"api_base": "http://***@127.0.0.1:8000/v1", "api_key_env": "OPENAI_API_KEY",
                                      "extra_params": {"extra_headers": {"Authorization": REDACTED, "X-Trace": "ok"},
                                                       "aws_secret_access_key": REDACTED}},
                            "list": ["http://***@127.0.0.1:8000/v1"], "max_tokens": 5}


def test_overrides_are_redacted_and_their_secrets_listed():
    auth = '+model.extra_params.extra_headers.Authorization="Bearer sk-live-1"'
    assert redact_override(auth) == f"+model.extra_params.extra_headers.Authorization={REDACTED}"
    assert redact_override(f"model.api_base={URL}") == "model.api_base=http://***@127.0.0.1:8000/v1"
    assert redact_override("dataset.limit=3") == "dataset.limit=3"
    assert override_secrets([auth, f"model.api_base={URL}", "+x.aws_secret_access_key=AWSSECRET123",
                             "model.api_key_env=OPENAI_API_KEY", "dataset.limit=3"]) == \
        ["Bearer sk-live-1", "AWSSECRET123", "s3cr3tpass"]


@dataclass
class _Holder:
    agent: ModelSettings
    extra: dict = field(default_factory=dict)


def test_collect_secrets_walks_settings_and_reads_named_env_variables(monkeypatch):
    monkeypatch.setenv("MY_TEST_KEY", "sk-env-value-1")
    holder = _Holder(ModelSettings(model="openai/x", api_base=URL, api_key_env="MY_TEST_KEY",
                                   extra_params={"extra_headers": {"Authorization": "Bearer sk-live-1"}}),
                     extra={"password": "hunter22", "short": {"token": "ab"}})
    assert collect_secrets(holder) == ["Bearer sk-live-1", "sk-env-value-1", "s3cr3tpass", "hunter22"]
    assert "sk-env-value-1" not in collect_secrets(holder, env=False)


def test_scrub_text_removes_known_values_in_plain_and_escaped_forms():
    secret = 'pa"ss\\word'
    text = f'error: {secret} / {json.dumps(secret)} / {URL}'
    clean = scrub_text(text, [secret])
    assert secret not in clean and json.dumps(secret)[1:-1] not in clean and "s3cr3tpass" not in clean
    assert scrub_text("the key abc is short", ["abc"]) == "the key abc is short"   # too short to replace
    assert scrub_data({"error": "k=Bearer sk-live-1", "api_key": "x1234", "n": 3}, ["Bearer sk-live-1"]) == \
        {"error": "k=***", "api_key": REDACTED, "n": 3}


def test_the_provider_label_never_holds_userinfo():
    assert derive_provider("openai/x", URL) == "127.0.0.1:8000"
    assert derive_provider("openai/x", "alice:pw@Host:9/v1") == "host:9"
    assert ModelSettings(model="openai/x", api_base=URL).checked().provider == "127.0.0.1:8000"


def test_hydra_records_are_rewritten_without_secrets(tmp_path):
    overrides = ["model=gpt_5_4_high", f"model.api_base={URL}",
                 '+model.extra_params.extra_headers.Authorization="Bearer sk-live-1"']
    (tmp_path / "overrides.yaml").write_text(yaml.safe_dump(overrides))
    config = {"model": {"api_base": URL, "extra_params": {"extra_headers": {"Authorization": "Bearer sk-live-1"}}}}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    hydra = {"hydra": {"overrides": {"hydra": ["hydra.run.dir=/x"], "task": overrides},
                       "job": {"override_dirname": ",".join(overrides), "name": "mmtsb"},
                       "runtime": {"output_dir": "/x"}}}
    (tmp_path / "hydra.yaml").write_text(yaml.safe_dump(hydra))
    untouched = tmp_path / "other.yaml"
    untouched.write_text("a: 1   # Hydra's own formatting\n")
    scrub_hydra_files(tmp_path, ["overrides.yaml", "config.yaml", "hydra.yaml", "other.yaml"],
                      override_secrets(overrides))
    for name in ("overrides.yaml", "config.yaml", "hydra.yaml"):
        text = (tmp_path / name).read_text()
        assert "sk-live-1" not in text and "s3cr3tpass" not in text, name
        yaml.safe_load(text)   # still YAML
    assert yaml.safe_load((tmp_path / "overrides.yaml").read_text())[1] == "model.api_base=http://***@127.0.0.1:8000/v1"
    assert untouched.read_text() == "a: 1   # Hydra's own formatting\n"


def test_the_log_filter_scrubs_messages_arguments_and_tracebacks():
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    handler = Keep()
    root = logging.getLogger()
    root.addHandler(handler)
    filt = install_log_filter(["Bearer sk-live-1"])
    try:
        log = logging.getLogger("mmtsb.test_secrets")
        log.warning("failed: %s from %s", "Bearer sk-live-1", URL)
        try:
            raise RuntimeError(f"boom at {URL} with Bearer sk-live-1")
        except RuntimeError:
            log.exception("episode crashed")
    finally:
        remove_log_filter(filt)
        root.removeHandler(handler)
    text = "\n".join(records)
    assert "sk-live-1" not in text and "s3cr3tpass" not in text
    assert "failed: *** from http://***@127.0.0.1:8000/v1" in text and "RuntimeError: boom at http://***@" in text
    assert filt not in handler.filters
    assert isinstance(filt, SecretFilter)


def test_records_made_while_the_app_runs_are_scrubbed_by_the_record_factory():
    before = logging.getLogRecordFactory()
    with scrubbed_log_records(["Bearer sk-live-1"]):
        record = logging.getLogger("hydra.x").makeRecord("hydra.x", logging.INFO, "f", 1, "#0 : %s %s",
                                                         ("a=Bearer sk-live-1", f"b={URL}"), None)
    assert record.getMessage() == "#0 : a=*** b=http://***@127.0.0.1:8000/v1"
    assert logging.getLogRecordFactory() is before


def test_rows_and_trajectories_are_written_without_secrets(tmp_path):
    layout = RunLayout(tmp_path, secrets=("Bearer sk-live-1",))
    layout.prepare()
    error = f"LLMServerError: from {URL}: header Bearer sk-live-1 refused"
    layout.write_row("ep1", {"episode_id": "ep1", "error": error, "steps": 0, "details": {"why": error}})
    layout.write_trajectory("ep1", json.dumps({"error": error, "turns": [{"text": error}]}))
    row = pq.read_table(layout.part_path("ep1")).to_pylist()[0]
    assert row["error"] == "LLMServerError: from http://***@127.0.0.1:8000/v1: header *** refused"
    for path in (layout.part_path("ep1"), layout.trajectory_path("ep1")):
        data = path.read_bytes()
        assert b"s3cr3tpass" not in data and b"sk-live-1" not in data, path
    assert json.loads(layout.trajectory_path("ep1").read_text())["turns"][0]["text"] == row["error"]
    RunLayout(tmp_path / "plain").write_row("ep2", {"episode_id": "ep2", "error": error})   # userinfo always
    assert b"s3cr3tpass" not in (tmp_path / "plain" / "episodes.parquet" / "ep2.parquet").read_bytes()


def test_the_wandb_config_is_redacted():
    config = {"model": {"api_base": URL, "extra_params": {"extra_headers": {"Authorization": "Bearer sk-live-1"}}},
              "budgets": {"max_tokens": 10}}
    assert wandb_scrub(config) == {"model": {"api_base": "http://***@127.0.0.1:8000/v1",
                                             "extra_params": {"extra_headers": {"Authorization": REDACTED}}},
                                   "budgets": {"max_tokens": 10}}


def test_an_override_that_unsets_a_secret_key_holds_no_secret():
    """`model.api_key_env=null` (no key) must not make the word "null" a secret: scrubbing it would break
    every JSON file the run writes."""
    assert override_secrets(["model.api_key_env=null", "model.api_key=~", "judge.api_key=None",
                             "model.api_key=''"]) == []
    assert override_secrets(["model.api_key=sk-real-secret"]) == ["sk-real-secret"]
