"""Ledgers and desk indexes on read-only media and on a full disk (docs/back-office.md, section 4): a
command that only reads a ledger opens it read-only (SQLite's `mode=ro`; in a folder no one may write,
with no -wal file beside it, also `immutable=1`), so an auditor's read-only copy serves every report and
the desk answers a claim it does not record; a write the disk has no room for is one line naming the
ledger. Every command runs in its own process: a read-only folder is chmod 0500 with its files 0400, or,
for root (whom chmod does not stop), a read-only bind mount in a mount namespace of its own; a file size
limit (RLIMIT_FSIZE) stands in for the full disk, as in tests/boundary/test_full_disk.py. The runs are
the conftest's."""

from __future__ import annotations

import os
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from tests.support.cli import UNRECORDED

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux mounts and file limits")

_BIND = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"'


def _poolgen(argv: list[object], limit: int | None = None,
             read_only: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m poolgen ARGV` (output as text), no file it writes allowed past `limit` bytes, or with
    the folder `read_only` mounted read-only (root) around it."""
    cmd = [sys.executable, "-m", "poolgen", *map(str, argv)]
    if read_only is not None and os.geteuid() == 0:
        cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c", _BIND, str(read_only), *cmd]

    def limit_files() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(cmd, capture_output=True, text=True, preexec_fn=limit_files, timeout=300)


@pytest.fixture(scope="module")
def can_make_read_only(tmp_path_factory) -> None:
    """Root writes through chmod: its read-only folder is a bind mount, which this machine must allow."""
    if os.geteuid() != 0:
        return
    probe = tmp_path_factory.mktemp("probe")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", _BIND, str(probe),
                           "sh", "-c", f"! touch {probe}/x"], capture_output=True, timeout=60)
    if done.returncode != 0:
        pytest.skip("running as root, whom chmod does not stop writing, and no read-only bind mount can be "
                    f"made here (unshare/mount: {done.stderr.decode().strip() or done.returncode})")


def _undated(text: str) -> str:
    """A report's text with the time it was made (`at 2026-12-04 19:59 UTC`, ISO times) taken out: the two
    runs compared may fall either side of a minute."""
    return re.sub(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?Z?( UTC)?", "WHEN", text)


def _set_read_only(folder: Path, on: bool) -> None:
    """chmod the folder 0500 and what it holds 0400 (back to 0700 and 0600); root is given a bind mount."""
    if os.geteuid() == 0:
        return
    for p in [folder, *folder.rglob("*")] if not on else [*folder.rglob("*"), folder]:
        os.chmod(p, (0o500 if on else 0o700) if p.is_dir() else (0o400 if on else 0o600))


def _winner(office, nth: int = 0) -> tuple[str, str, str]:
    b, v, t, *_ = office["rows"].filter(pl.col("tier") == "5").row(nth)
    return b, v, t


def _validate(office, folder: Path, nth: int, *more: object) -> list[object]:
    b, v, _ = _winner(office, nth)
    return ["validate", office["folder"], "--public-key", office["public"], b, v, "--validation-key",
            office["root"] / "low.key", "--index-dir", folder / "index", *more]


@pytest.fixture(scope="module")
def ledgers(office, einstant, tmp_path_factory) -> Path:
    """A folder (0700) holding a claims ledger (one payment), a books ledger (the ticket's book activated),
    a sales ledger (shares sold up to the first winner, paid) and a desk index, each closed by its writer
    (so no -wal or -shm file beside it)."""
    folder = tmp_path_factory.mktemp("media")
    (folder / "index").mkdir(mode=0o700)
    _, _, ticket = _winner(office)
    books = ["books", "activate", office["folder"], ticket[:11], "--ledger", folder / "books.sqlite",
             "--public-key", office["public"]]
    assert _poolgen(books).returncode == 0
    paid = _poolgen(_validate(office, folder, 0, "--ledger", folder / "claims.sqlite", "--books",
                              folder / "books.sqlite"))
    assert paid.returncode == 0, paid.stderr
    sales = ["sales", "sell", einstant["folder"], "--public-key", einstant["public"], "--ledger",
             folder / "sales.sqlite", "--pool", "d1.00", "--channel", "web", "--player", "p-1"]
    winner = next(i for i, p in enumerate(einstant["prizes"], start=1) if p > 0)
    for _ in range(winner):
        assert _poolgen(sales).returncode == 0
    claim = ["sales", "claim", einstant["folder"], f"d1.00-{winner:07d}", "--public-key", einstant["public"],
             "--ledger", folder / "sales.sqlite"]
    assert _poolgen(claim).returncode == 0
    for name in ("books", "claims", "sales"):  # the desk read the books ledger last: its -wal, -shm stay
        db = sqlite3.connect(folder / f"{name}.sqlite")  # a writer closing last removes them
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        db.close()
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["books.sqlite", "claims.sqlite", "index", "sales.sqlite"]
    return folder


def _readers(office, einstant, folder: Path) -> dict[str, list[object]]:
    """Every command that only reads a ledger (or a desk index), by name."""
    claims, books, sales = folder / "claims.sqlite", folder / "books.sqlite", folder / "sales.sqlite"
    keys = ["--validation-key", office["root"] / "low.key", "--public-key", office["public"]]
    return {
        "claims report": ["claims", "report", office["folder"], "--ledger", claims, "--books", books],
        "claims reconcile": ["claims", "reconcile", office["folder"], "--ledger", claims, *keys, "--books",
                             books],
        "claims close": ["claims", "close", office["folder"], "--ledger", claims, "--books", books],
        "books status": ["books", "status", office["folder"], "--ledger", books],
        "sales report": ["sales", "report", einstant["folder"], "--ledger", sales],
        "sales report --closing": ["sales", "report", einstant["folder"], "--ledger", sales, "--closing"],
        "sales reconcile": ["sales", "reconcile", einstant["folder"], "--ledger", sales],
        "validate (unrecorded)": _validate(office, folder, 0, "--books", books),  # paid: not checked
    }


@pytest.mark.parametrize("name", ["claims report", "claims reconcile", "claims close", "books status",
                                  "sales report", "sales report --closing", "sales reconcile",
                                  "validate (unrecorded)"])
def test_a_command_that_only_reads_serves_a_read_only_folder_as_a_writable_one(
        office, einstant, ledgers, can_make_read_only, name):
    """Each answered "unable to open database file": opening a ledger switched it to WAL and took the
    write lock, even to read. Read-only, each prints what it prints from a writable folder, and nothing
    is made beside the ledgers (no -wal, no -shm)."""
    argv = _readers(office, einstant, ledgers)[name]
    writable = _poolgen(argv)
    assert writable.returncode == 0, writable.stderr
    before = sorted(p.name for p in ledgers.iterdir())
    _set_read_only(ledgers, True)
    try:
        done = _poolgen(argv, read_only=ledgers)
    finally:
        _set_read_only(ledgers, False)
    said = UNRECORDED if name == "validate (unrecorded)" else ""  # a prize answered, nothing recorded
    assert (done.returncode, done.stderr) == (0, said), done.stderr
    assert _undated(done.stdout) == _undated(writable.stdout)
    assert sorted(p.name for p in ledgers.iterdir()) == before


def test_a_read_only_ledger_still_fails_its_checks(office, ledgers, can_make_read_only, tmp_path):
    """Read-only changes how the file is opened, not what is checked: a claims ledger whose payment row
    was edited is refused by the report from a read-only folder as from a writable one."""
    folder = tmp_path / "media"
    folder.mkdir(mode=0o700)
    shutil.copyfile(ledgers / "claims.sqlite", folder / "claims.sqlite")
    os.chmod(folder / "claims.sqlite", 0o600)
    db = sqlite3.connect(folder / "claims.sqlite", isolation_level=None)
    db.execute("UPDATE paid SET prize_cents = prize_cents + 100")
    db.close()
    argv = ["claims", "report", office["folder"], "--ledger", folder / "claims.sqlite"]
    writable = _poolgen(argv)
    _set_read_only(folder, True)
    try:
        done = _poolgen(argv, read_only=folder)
    finally:
        _set_read_only(folder, False)
    assert done.returncode == writable.returncode == 2
    assert done.stderr == writable.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert "claim no. 1" in done.stderr and "Traceback" not in done.stderr


def test_a_desk_on_a_full_disk_answers_a_claim_it_does_not_record(office, ledgers):
    """Its index built, the desk answered nothing on a full disk ("disk I/O error": opening the index
    wrote its -shm file). The index is read only, in rollback mode: it needs no file written."""
    done = _poolgen(_validate(office, ledgers, 2), limit=100)
    b, _, t = _winner(office, 2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{b} ({t}): prize $"), done.stdout


def test_a_claim_on_a_full_disk_is_one_line_naming_the_ledger_and_records_nothing(office, ledgers, tmp_path):
    """A desk recording into a ledger on a full disk said "disk I/O error"; it says the disk has no room,
    naming the ledger, exit 2; the ledger keeps its one claim, and with room the claim is recorded."""
    ledger = tmp_path / "claims.sqlite"
    shutil.copyfile(ledgers / "claims.sqlite", ledger)
    os.chmod(ledger, 0o600)
    done = _poolgen(_validate(office, ledgers, 3, "--ledger", ledger), limit=100)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"poolgen: error: {ledger}: cannot write the claims ledger or the -wal and -shm "
                           "files SQLite keeps beside it: a file size limit (ulimit -f) stops it, as a full "
                           "disk would; nothing more is recorded until there is room\n")
    again = _poolgen(_validate(office, ledgers, 3, "--ledger", ledger))
    assert again.returncode == 0 and "paid, claim no. 2 in the ledger" in again.stdout, again.stderr


def test_a_read_only_folder_holding_the_log_files_a_read_left_is_read(office, ledgers, can_make_read_only,
                                                                      tmp_path):
    """A read in a writable folder leaves SQLite's -wal and -shm files beside a ledger (a read-only
    connection does not remove them; the next writer to close does). Copied so into a read-only folder,
    the ledger is opened read-only with them (not `immutable=1`, which would ignore the -wal file)."""
    folder = tmp_path / "media"
    folder.mkdir(mode=0o700)
    shutil.copyfile(ledgers / "claims.sqlite", folder / "claims.sqlite")
    os.chmod(folder / "claims.sqlite", 0o600)
    argv = ["claims", "report", office["folder"], "--ledger", folder / "claims.sqlite"]
    writable = _poolgen(argv)
    assert writable.returncode == 0, writable.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["claims.sqlite", "claims.sqlite-shm", "claims.sqlite-wal"]
    _set_read_only(folder, True)
    try:
        done = _poolgen(argv, read_only=folder)
    finally:
        _set_read_only(folder, False)
    assert (done.returncode, done.stderr) == (0, "")
    assert _undated(done.stdout) == _undated(writable.stdout)
