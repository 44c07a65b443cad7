"""A run folder whose path holds characters polars reads as more than a name is read as named: the
characters a glob pattern uses (`[`, `]`, `*`, `?`: a folder named `Q[4]` or `draft?`), and a leading
`~`, which polars takes for the home folder (a folder literally named `~`, made with a quoted name).
polars expands a path given to read_parquet, scan_parquet or read_parquet_schema as a glob unless told
`glob=False`, and `~/r` as /root/r: such a run could not be read, and `verify` answered a valid run NOT
verified (steps 3 to 9, "invalid glob pattern given", no file matched, or no such file under /root).
The paths are given relative to the current folder, as a shell user types them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support.cli import invoke, one_line
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


def _readers(run, folder) -> dict[str, tuple[object, list[object]]]:
    key = run / "keys" / "signing-key.pub.pem"
    return {"audit verify": (audit_app, ["verify", folder, "--public-key", key, "--workers", "1"]),
            "poolgen verify": (None, ["verify", folder, "--public-key", key, "--workers", "1"]),
            "report": (None, ["report", folder, "--out", folder.parent / "r.pdf", "--public-key", key]),
            "imaging export": (None, ["imaging", "export", folder, "--out", folder.parent / "i.csv"]),
            "imaging sequence": (None, ["imaging", "sequence", folder, "--out", folder.parent / "ship"]),
            "merkle-proof": (None, ["merkle-proof", folder, (run / "ticket").read_text(), "1"])}


@pytest.mark.parametrize("command", ["audit verify", "poolgen verify", "report", "imaging export",
                                     "imaging sequence", "merkle-proof"])
def test_a_run_in_a_folder_whose_name_is_not_utf8_is_one_line_asking_to_rename_it(run, tmp_path, command):
    """A folder name of bytes that are not UTF-8 (a shell passes them as they are; Python holds them as
    surrogate escapes): polars, which reads the Parquet files, takes a path only as UTF-8 text, and every
    command reading a pool or imaging file ended on a traceback (TypeError: Object does not have a .read()
    method). Now one line naming the file, exit 2, and nothing written."""
    folder = tmp_path / os.fsdecode(b"run-\xff\xfe")
    shutil.copytree(run / "runs" / "r", folder)
    application, args = _readers(run, folder)[command]
    result = invoke(*args, application=application or app)
    shown = os.fsencode(folder).decode("utf-8", "backslashreplace")
    one_line(result, "audit" if application else "poolgen", f"{shown}/")
    assert result.stderr.rstrip().endswith(".parquet: the path is not UTF-8 text, and Parquet files are read "
                                           "by UTF-8 paths only; rename the folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder.name]


def test_generate_into_a_folder_whose_name_is_not_utf8_is_refused_before_anything_is_made(run, tmp_path):
    """generate wrote a run there that neither verify could read (above): now refused, one line, nothing
    made, not even the --out folder or a fresh seed."""
    out = tmp_path / os.fsdecode(b"runs-\xff\xfe")
    result = invoke("generate", run / "happy_holidays.toml", "--pool", "p1", "--out", out, "--run-id", "r",
                    "--key", run / "keys" / "signing-key.pem", "--workers", "1")
    shown = os.fsencode(out).decode("utf-8", "backslashreplace")
    one_line(result, "poolgen", f"{shown}/r: the path is not UTF-8 text, and a run's Parquet files are read "
                                "by UTF-8 paths only (no verify could read it); choose another --out")
    assert list(tmp_path.iterdir()) == []
