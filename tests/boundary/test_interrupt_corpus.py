"""An interrupt corpus: every command that writes, signalled at the moments it passes, held to one contract.

Each case runs a real `poolgen` process in a folder of its own (real files, keys, SQLite ledgers), stops it at
a named moment (POOLGEN_TEST_PAUSE: a file just written under its temporary name, renamed into place, a
ledger row committed, an index being made...), sends SIGINT or SIGTERM, and checks what the README promises
for any moment: exit 130 or 143; stderr's last line the one error line `poolgen: error: interrupted by
SIG...; OUTCOME`, no traceback; no `.NAME.tmp-*` or `.NAME.partial-*` left anywhere in the folder (those are
for SIGKILL only); every file that was there before unchanged unless the line names it kept; a file the line
names kept complete (a PDF ends with %%EOF, a ledger passes SQLite's integrity check); and when the line says
nothing was left, the same command run again succeeds with nothing to clear. The moments that
test_interrupts*.py (generate, demo, seal, unseal, imaging sequence, export --format fixed) and the back
office's own tests (a claim, a share claim or a book move before its commit) already cover are not repeated.
Then a batch of claims killed (SIGKILL) midway, the ledger's promise under a crash: every prize paid once.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from poolgen.interrupts import PAUSE_ENV
from tests.support import SEED_A, ceremony, spec_path

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")

INT, TERM = signal.SIGINT, signal.SIGTERM


def _poolgen(argv: list, cwd: Path, env: dict | None = None) -> subprocess.Popen:
    """`poolgen ARGV` in `cwd`, its clock before the test ceremony's reveals close (POOLGEN_TEST_NOW)."""
    env = {**os.environ, "POOLGEN_TEST_NOW": ceremony.BEFORE, **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "poolgen", *map(str, argv)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _ok(argv: list, cwd: Path) -> None:
    out, err = _poolgen(argv, cwd).communicate(timeout=300)
    assert not err.decode().startswith("poolgen: error"), err.decode()


@pytest.fixture(scope="module")
def env(printed_run, tmp_path_factory) -> dict:
    """The boundary's printed run (keys, both validation keys, runs/r) and a small signed eInstant run of
    one pool (Hand to Hand Tactics cut to 2,000 shares, runs/e), with a ticket and its VIRN."""
    root = tmp_path_factory.mktemp("corpus")
    text = spec_path("hand_to_hand_tactics").read_text()
    text = text.replace("pool_shares = 1000000", "pool_shares = 2000")
    text = text.replace("order_shares = 6000000", "order_shares = 12000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m[1]) // 500)}", text, flags=re.M)
    (root / "small.toml").write_text(text)
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    key = printed_run / "keys" / "signing-key.pem"
    _ok(["generate", root / "small.toml", "--pool", "d1.00", "--out", root / "runs", "--run-id", "e",
         "--seed-file", seed, "--key", key, "--workers", "1"], root)
    _ok(["keys", "recipient", root / "rk"], root)
    made = ceremony.new(root)  # with each party's keys beside it
    for party in ceremony.PARTIES:
        ceremony.commit(made, party)
    run = printed_run / "runs" / "r"
    barcode, virn = pl.read_parquet(run / "imaging-p1.parquet", columns=["barcode", "virn"]).row(3)
    return {"p": printed_run, "run": run, "erun": root / "runs" / "e", "pub": printed_run / "keys" /
            "signing-key.pub.pem", "key": key, "seed": seed, "rk": root / "rk", "barcode": barcode,
            "virn": virn, "book": f"{barcode[:3]}-{barcode[3:10]}", "ceremony": made}


def _claim(e: dict, w: Path) -> list:
    return ["validate", e["run"], e["barcode"], e["virn"], "--validation-key", e["p"] / "low.key",
            "--high-validation-key", e["p"] / "high.key", "--ledger", w / "l.sqlite",
            "--public-key", e["pub"], "--index-dir", w / "idx"]


def _sell(e: dict, w: Path) -> list:
    return ["sales", "sell", e["erun"], "--pool", "d1.00", "--ledger", w / "s.sqlite",
            "--public-key", e["pub"], "--channel", "web", "--player", "P1"]


def _committed(e: dict, w: Path) -> list:
    """A ceremony every party has committed to, copied into the case's folder (no command: nothing to run)."""
    shutil.copy(e["ceremony"], w / "c1.ceremony")
    return []


def _vendor(e: dict) -> list:
    return ["--party", "vendor", "--key", ceremony.key(e["ceremony"], "vendor")]


Argv = Callable[[dict, Path], list]
# name: (what is made in the folder first, the command, the moments it is signalled at)
CASES: dict[str, tuple[Argv | None, Argv, tuple[str, ...]]] = {
    "seed new": (None, lambda e, w: ["seed", "new", w / "o.seed"], ("secret-written", "kept")),
    "keys validation new": (None, lambda e, w: ["keys", "validation", "new", w / "v.key"],
                            ("secret-written", "kept")),
    "rng bytes --out": (None, lambda e, w: ["rng", "bytes", "--seed-file", e["seed"], "--label",
                                            "poolgen/v1/x", "--count", "100000", "--out", w / "d.bin"],
                        ("kept",)),
    "proof --real": (None, lambda e, w: ["proof", e["run"], "--real", "--out", w / "t.pdf", "--spec",
                                         e["p"] / "happy_holidays.toml"], ("file-written",)),
    "publish": (None, lambda e, w: ["publish", e["run"], "--out", w / "b", "--public-key", e["pub"]],
                ("staging-made", "staged", "renamed")),
    "imaging export": (None, lambda e, w: ["imaging", "export", e["run"], "--out", w / "i.csv",
                                           "--public-key", e["pub"]], ("file-written", "kept")),
    "validate": (None, _claim, ("index-made", "index-building")),
    "claims report --pdf": (_claim, lambda e, w: ["claims", "report", e["run"], "--ledger", w / "l.sqlite",
                                                  "--pdf", w / "c.pdf", "--public-key", e["pub"]],
                            ("kept",)),
    "books activate": (None, lambda e, w: ["books", "activate", e["run"], e["book"], "--ledger",
                                           w / "b.sqlite", "--public-key", e["pub"]], ("kept",)),
    "sales sell": (None, _sell, ("kept",)),
    "sales close": (_sell, lambda e, w: ["sales", "close", e["erun"], "--pool", "d1.00", "--ledger",
                                         w / "s.sqlite", "--public-key", e["pub"]], ("kept",)),
    "sales void": (_sell, lambda e, w: ["sales", "void", e["erun"], "d1.00-0000001", "--reason", "r",
                                        "--ledger", w / "s.sqlite", "--public-key", e["pub"]], ("kept",)),
    "ceremony new": (None, lambda e, w: ceremony.new_args(e["ceremony"].parent, w / "c.ceremony"), ("kept",)),
    "ceremony publish": (_committed, lambda e, w: ["ceremony", "publish", w / "c1.ceremony", "--out",
                                                   w / "pub.json"], ("file-written",)),
    "ceremony abort": (_committed, lambda e, w: ["ceremony", "abort", w / "c1.ceremony", "--reason", "r",
                                                 *_vendor(e), "--yes"], ("file-written", "kept")),
    "sales report --pdf": (_sell, lambda e, w: ["sales", "report", e["erun"], "--ledger", w / "s.sqlite",
                                                "--pdf", w / "s.pdf", "--public-key", e["pub"]],
                           ("file-written",)),
}
_RUNS = [(name, moment, (INT, TERM)[i % 2]) for name, (_, _, moments) in CASES.items()
         for i, moment in enumerate(moments)]


def _signalled_at(argv: list, cwd: Path, moment: str, sig: int) -> tuple[int, str, str]:
    mark = cwd.parent / "mark"
    proc = _poolgen(argv, cwd, {**os.environ, PAUSE_ENV: f"{moment}:60:{mark}"})
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, (moment, proc.communicate())
        time.sleep(0.02)
    os.killpg(proc.pid, sig)
    while proc.poll() is None:  # a later pause at the same moment is let through at once
        mark.unlink(missing_ok=True)
        time.sleep(0.02)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out.decode(), err.decode()


def _files(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _complete(path: Path) -> None:
    """A file the line says was kept is whole: a PDF to its end, a ledger passing SQLite's own check."""
    if path.is_dir():
        assert (path / "SHA256SUMS").is_file(), sorted(path.iterdir())
    elif path.suffix == ".pdf":
        assert path.read_bytes().rstrip().endswith(b"%%EOF")
    elif path.suffix == ".sqlite":
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        finally:
            db.close()
    else:
        assert path.stat().st_size > 0


@pytest.mark.parametrize(("name", "moment", "sig"), _RUNS,
                         ids=[f"{n}-{m}-{signal.Signals(s).name}" for n, m, s in _RUNS])
def test_every_writing_command_interrupted_keeps_whole_files_and_says_one_line(env, tmp_path, name, moment,
                                                                                sig):
    prep, argv, _ = CASES[name]
    w = tmp_path / "w"
    w.mkdir()
    if prep is not None and (made := prep(env, w)):
        _ok(made, w)
    before = _files(w)
    code, _, err = _signalled_at(argv(env, w), w, moment, sig)

    assert "Traceback" not in err, err
    lines = err.splitlines()
    said = re.fullmatch(rf"poolgen: error: interrupted by {sig.name}; (.*)", lines[-1] if lines else "")
    assert code == 128 + sig and said, (code, err)
    assert [line for line in lines if "error" in line] == [lines[-1]], err
    assert sorted(str(p.relative_to(w)) for p in w.rglob(".*")) == []  # nothing half-written beside anything
    after = _files(w)
    named = [p for p in [*after, *(d for d in w.iterdir() if d.is_dir())] if str(p) in said[1]]
    for path in named:
        _complete(path)
    changed = [p for p, data in before.items() if after.get(p) != data]
    assert [p for p in changed if p not in named] == [], said[1]  # what was there is as it was, or named kept
    if said[1] == "nothing was left under a final name":
        again = _poolgen(argv(env, w), w)
        out, err = again.communicate(timeout=300)
        assert again.returncode == 0, err.decode()
        assert "removed " not in err.decode()  # nothing of the interrupted run was left to clear


def _count(ledger: Path, sql: str) -> int:
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        return int(db.execute(sql).fetchone()[0])
    except sqlite3.OperationalError:  # not made yet (its tables come with its name)
        return 0
    finally:
        db.close()


def test_a_batch_of_claims_killed_midway_keeps_every_payment_once(env, tmp_path):
    """SIGKILL while `validate --batch` records the run's every ticket (after 50 claims are in the ledger):
    the ledger passes SQLite's check and `claims reconcile`, and the same batch run again pays every
    winner the first run had not paid and calls each one it had "already paid": every prize paid once,
    whatever claim the kill cut."""
    claims = tmp_path / "claims.csv"
    rows = pl.read_parquet(env["run"] / "imaging-p1.parquet", columns=["barcode", "virn"])
    rows.rename({"barcode": "ticket"}).write_csv(claims)
    ledger = tmp_path / "l.sqlite"
    argv = ["validate", env["run"], "--batch", claims, "--validation-key", env["p"] / "low.key",
            "--high-validation-key", env["p"] / "high.key", "--ledger", ledger, "--public-key", env["pub"],
            "--index-dir", tmp_path / "idx"]
    first = _poolgen(argv, tmp_path)
    deadline = time.monotonic() + 120
    while not ledger.exists() or _count(ledger, "SELECT count(*) FROM attempts") < 50:
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.02)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate(timeout=60)
    paid = _count(ledger, "SELECT count(*) FROM paid")
    assert 0 < _count(ledger, "SELECT count(*) FROM attempts") < rows.height  # cut midway
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        db.close()
    reconcile = _poolgen(["claims", "reconcile", env["run"], "--ledger", ledger, "--validation-key",
                          env["p"] / "low.key", "--high-validation-key", env["p"] / "high.key",
                          "--public-key", env["pub"]], tmp_path)
    out, err = reconcile.communicate(timeout=300)
    assert reconcile.returncode == 0 and f"{paid} payment(s)" in out.decode(), (out, err)

    again = _poolgen(argv, tmp_path)
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err.decode()
    answers = out.decode().splitlines()
    assert len(answers) == rows.height
    assert sum("already paid" in line for line in answers) == paid
    now_paid = sum(" - paid, claim no. " in line for line in answers)
    winners = pl.read_parquet(env["run"] / "pool-p1.parquet", columns=["prize_cents"])
    assert _count(ledger, "SELECT count(*) FROM paid") == paid + now_paid == \
        winners.filter(pl.col("prize_cents") > 0).height
