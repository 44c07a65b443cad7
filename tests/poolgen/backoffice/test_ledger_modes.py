"""Owned SQLite files (ledgers, desk indexes) and their modes: the tool makes them 0600 whatever the
umask, the write-ahead log and shared-memory files SQLite makes beside a ledger included; a ledger its
group or others may read or write (copied in with a default umask, chmod-ed by someone) is refused in
one line, before anything is recorded in it. The runs are the conftest's."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time

import polars as pl
import pytest

from tests.support.cli import invoke, one_line


def _claim(office, ledger, nth=20):
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(nth)
    return invoke("validate", office["folder"],
                  "--public-key", office["public"], b, v, "--validation-key", office["root"] / "low.key",
                  "--index-dir", office["index"], "--ledger", ledger)


def _attempts(ledger):
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM attempts").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o606], ids=oct)
def test_a_claims_ledger_others_may_read_or_write_is_refused_before_any_claim(office, tmp_path, mode):
    ledger = tmp_path / "claims.sqlite"
    assert _claim(office, ledger, 20).exit_code == 0
    os.chmod(ledger, mode)
    result = _claim(office, ledger, 21)
    one_line(result, "poolgen", f"{ledger}: mode {mode:04o}: its group or others may read or write the "
                                "claims ledger; refusing it (the tool makes it 0600: chmod 600 it if it is "
                                "yours)")
    assert _attempts(ledger) == 1
    for args in (["report"], ["close"]):
        one_line(invoke("claims", *args, office["folder"], "--ledger", ledger), "poolgen", f"mode {mode:04o}")
    os.chmod(ledger, 0o600)
    assert _claim(office, ledger, 21).exit_code == 0 and _attempts(ledger) == 2


def test_an_empty_file_others_may_read_is_not_made_a_ledger(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    ledger.touch(mode=0o644)
    os.chmod(ledger, 0o644)
    one_line(_claim(office, ledger), "poolgen", f"{ledger}: mode 0644: its group or others may read or write")
    assert ledger.read_bytes() == b""  # not stamped


def test_a_sales_ledger_others_may_write_is_refused(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    sell = ("sales", "sell", einstant["folder"], "--public-key", einstant["public"], "--ledger", ledger,
            "--pool", "d1.00", "--channel", "web", "--player", "p1")
    assert invoke(*sell).exit_code == 0
    os.chmod(ledger, 0o664)
    one_line(invoke(*sell), "poolgen", f"{ledger}: mode 0664: its group or others may read or write the "
                                       "sales ledger; refusing it")


def test_a_ledgers_log_files_are_0600_under_umask_000(office, tmp_path):
    """SQLite makes the -wal and -shm files with the database's mode: a claim paused before its commit
    under umask 000 shows all three."""
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(22)
    ledger = tmp_path / "claims.sqlite"
    mark = tmp_path / "paused"
    cmd = [sys.executable, "-m", "poolgen", "validate", str(office["folder"]), b, v, "--public-key",
           str(office["public"]), "--validation-key",
           str(office["root"] / "low.key"), "--index-dir", str(office["index"]), "--ledger", str(ledger)]
    env = {**os.environ, "POOLGEN_TEST_PAUSE": f"claim-written:60:{mark}"}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: os.umask(0))  # noqa: PLW1509  # the child's umask only
    try:
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists()
        modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.glob("claims.sqlite*")}
        assert modes == {"claims.sqlite": 0o600, "claims.sqlite-wal": 0o600, "claims.sqlite-shm": 0o600}
    finally:
        mark.unlink(missing_ok=True)
        proc.communicate(timeout=60)
    assert proc.returncode == 0


def test_an_empty_file_is_never_made_a_new_ledger(office, einstant, tmp_path):
    """An empty file already at the name (a ledger emptied, another program's file) was stamped a new,
    empty ledger by the commands that record: a claims ledger truncated to nothing forgot its payments and
    paid their tickets again. The tool names a new owned file only once stamped, so an empty one is
    never its own (docs/back-office.md section 4); at a name where no file is, it makes one."""
    book = office["rows"]["ticket"][0][:11]  # GGG-BBBBBBB
    made = {  # the file: the command that records into it, and the kind of ledger
        "claims.sqlite": (lambda p: _claim(office, p), "claims ledger"),
        "sales.sqlite": (lambda p: invoke("sales", "sell", einstant["folder"], "--public-key",
                                          einstant["public"], "--ledger", p, "--pool", "d1.00", "--channel",
                                          "web", "--player", "p1"), "sales ledger"),
        "books.sqlite": (lambda p: invoke("books", "activate", office["folder"], book, "--ledger", p,
                                          "--public-key", office["public"]), "books ledger"),
    }
    for name, (record, kind) in made.items():
        path = tmp_path / name
        path.touch(mode=0o600)
        one_line(record(path), "poolgen", f"{path}: an empty file, not a {kind} (one emptied, or another "
                                          "program's file); a new one is made only at a name where no file "
                                          "is")
        assert path.read_bytes() == b""
        path.unlink()
        result = record(path)
        assert result.exit_code == 0, result.output
        assert path.stat().st_mode & 0o777 == 0o600
    assert _attempts(tmp_path / "claims.sqlite") == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


@pytest.mark.parametrize("folder", ["a#b", "c?mode=ro", "d%20e", "f g", "h\u00e9", os.fsdecode(b"i\xff\xfe")],
                         ids=["a#b", "c?mode=ro", "d%20e", "f g", "unicode", "not UTF-8"])
def test_a_ledger_in_a_folder_whose_name_a_uri_would_read_is_recorded_and_read(office, tmp_path, folder):
    """The ledger is opened by an SQLite URI `file:PATH?mode=...`: a `#`, `?` or `%` in its path was read
    as the URI's, so a claim in a folder named `a#b` could not be recorded (or went to another file). The
    path is percent-encoded, as RFC 3986 and SQLite's URI filenames say: its bytes, so a name that is not
    UTF-8 (bytes a shell passes as they are; Python's surrogate escapes) is the file's too (it was a
    traceback, UnicodeEncodeError, in every command that opens a ledger or index)."""
    (tmp_path / folder).mkdir(mode=0o700)
    ledger = tmp_path / folder / "claims.sqlite"
    assert _claim(office, ledger, 20).exit_code == 0, _claim(office, ledger, 20).output
    assert sorted(p.name for p in (tmp_path / folder).iterdir() if not p.name.endswith(("-wal", "-shm"))) == \
        ["claims.sqlite"]
    report = invoke("claims", "report", "--ledger", ledger, office["folder"],
                    "--public-key", office["public"])
    assert report.exit_code == 0, report.output
