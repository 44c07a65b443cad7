"""A run folder whose path holds characters polars reads as more than a name is read as named: the
characters a glob pattern uses (`[`, `]`, `*`, `?`: a folder named `Q[4]` or `draft?`), and a leading
`~`, which polars takes for the home folder (a folder literally named `~`, made with a quoted name).
polars expands a path given to read_parquet, scan_parquet or read_parquet_schema as a glob unless told
`glob=False`, and `~/r` as /root/r: such a run could not be read, and `verify` answered a valid run NOT
verified (steps 3 to 9, "invalid glob pattern given", no file matched, or no such file under /root).
The paths are given relative to the current folder, as a shell user types them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from audit.cli import app as audit_app
from tests.support.cli import invoke
from tests.support.virns import virn_of


@pytest.fixture(params=["Q[4]", "draft?", "all*", "a[b", "~"])
def odd_run(run, tmp_path, request, monkeypatch):
    """The boundary's small signed run, copied into a folder so named; its path relative to the current
    folder (`~/r`: an absolute path never starts with `~`)."""
    where = tmp_path / request.param / "r"
    shutil.copytree(run / "runs" / "r", where)
    where.parent.chmod(0o700)
    monkeypatch.chdir(tmp_path)
    return Path(request.param) / "r"


def test_audit_verifies_a_run_in_a_folder_named_with_glob_characters_or_tilde(run, odd_run):
    result = invoke("verify", odd_run, "--public-key", run / "keys" / "signing-key.pub.pem", "--workers", "1",
                    application=audit_app)
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.stdout and "pool-p1.parquet cannot be read" not in result.stdout


def test_poolgen_verify_regenerates_a_run_in_a_folder_named_with_glob_characters_or_tilde(run, odd_run):
    result = invoke("verify", odd_run, "--public-key", run / "keys" / "signing-key.pub.pem", "--workers", "1",
                    "--seed-file", run / "s.seed", "--spec", run / "happy_holidays.toml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "verified: every step passes"


def test_a_ticket_of_a_run_in_a_folder_named_with_glob_characters_or_tilde_is_proved(run, odd_run):
    ticket = (run / "ticket").read_text()
    result = invoke("merkle-proof", odd_run, ticket, virn_of(odd_run, ticket), "--json")
    assert result.exit_code == 0, result.output
    assert f'"ticket": "{ticket}"' in result.stdout
