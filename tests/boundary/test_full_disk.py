"""A full disk while a command writes: one line naming the file, exit 2, nothing half-written under a final
name, and the same command run again with room works. A file size limit (RLIMIT_FSIZE) stands in for the
full disk: Python ignores SIGXFSZ, so a write past the limit fails with EFBIG ("File too large") as one on
a full file system fails with ENOSPC, at the same place and through the same layers (polars' Parquet
writer passed either on as a polars ComputeError, not an OSError, and generate printed a traceback)."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.virns import virn_of

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux file size limits")


def _limited(argv: list[object], limit: int, stdout: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m poolgen ARGV` with no file it writes allowed past `limit` bytes (standard output into
    the file `stdout` included)."""
    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with open(stdout or os.devnull, "wb") as out:
        done = subprocess.run([sys.executable, "-m", "poolgen", *map(str, argv)], stdout=out,
                              stderr=subprocess.PIPE, preexec_fn=limit_files, timeout=300)
    return subprocess.CompletedProcess(argv, done.returncode, "", done.stderr.decode())


def _generate(printed_run: Path, out: Path) -> list[object]:
    root = printed_run
    return ["generate", root / "happy_holidays.toml", "--out", out, "--run-id", "r", "--seed-file",
            root / "s.seed", "--key", root / "keys" / "signing-key.pem", "--workers", "1",
            "--validation-key", root / "low.key", "--high-validation-key", root / "high.key"]


@pytest.mark.parametrize(("limit", "file", "what"), [
    (20_000, "pool-p1.parquet", "the pool file"),  # polars' Parquet writer: a ComputeError
    (100_000, "validation-(low|high).bin", "the validation file"),  # the pool and imaging files fit
], ids=["pool file", "validation file"])
def test_generate_on_a_full_disk_is_one_line_and_leaves_no_run(printed_run, tmp_path, limit, file, what):
    out = tmp_path / "runs"
    done = _limited(_generate(printed_run, out), limit)
    assert done.returncode == 2, done.stderr
    assert re.fullmatch(rf"poolgen: error: {re.escape(str(out))}/\.r\.partial-[0-9a-f]{{8}}/{file}: "
                        rf"cannot write {what}: File too large\n", done.stderr), done.stderr
    assert list(out.iterdir()) == []  # no run folder, no staging folder left
    again = subprocess.run([sys.executable, "-m", "poolgen", *map(str, _generate(printed_run, out))],
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == ["r"]


def test_demo_on_a_full_disk_is_one_line_and_leaves_no_demo_folder(printed_run, tmp_path):
    """`demo` made its folder first, then a key pair, then ran generate into it: a full disk left that
    folder holding the key pair (and said two lines, the second "demo stopped: ... exited 2"). Now the demo
    is written in a staging folder renamed at the end: one line, exit 2, nothing left in --out."""
    out = tmp_path / "outputs"
    done = _limited(["demo", "--out", out, "--spec", printed_run / "happy_holidays.toml", "--pool", "p1",
                     "--seed-file", printed_run / "s.seed"], 20_000)
    assert done.returncode == 2, done.stderr
    said = [line for line in done.stderr.splitlines() if "error" in line or "stopped" in line]
    assert len(said) == 1 and re.fullmatch(
        rf"poolgen: error: {re.escape(str(out))}/\.demo-[0-9TZ]{{16}}\.partial-[0-9a-f]{{8}}/"
        rf"\.happy_holidays-p1\.partial-[0-9a-f]{{8}}/pool-p1\.parquet: cannot write the pool file: File too "
        "large", said[0]), said
    assert list(out.iterdir()) == []


def _into_a_full_file(program: str, argv: list[object], out: Path) -> subprocess.CompletedProcess:
    """`python -m PROGRAM ARGV > out`, `out` allowed 100 bytes (standard error is a pipe, unlimited)."""
    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))

    with open(out, "wb") as f:
        return subprocess.run([sys.executable, "-m", program, *map(str, argv)], stdout=f,
                              stderr=subprocess.PIPE, text=True, preexec_fn=limit_files, timeout=300)


def _stdout_commands(run: Path, ticket: str, virn: str = "") -> dict[str, tuple[str, list[object]]]:
    r, key = run / "runs" / "r", run / "keys" / "signing-key.pub.pem"
    return {
        "merkle-proof --json": ("poolgen", ["merkle-proof", r, ticket, virn, "--json", "--public-key", key]),
        "verify --json": ("poolgen", ["verify", r, "--public-key", key, "--json"]),
        "rng bytes": ("poolgen", ["rng", "bytes", "--seed-file", run / "s.seed", "--label",
                                  "poolgen/v1/x/p1/order", "--count", "1000"]),  # straight to descriptor 1
        "--help": ("poolgen", ["--help"]),
        "audit verify": ("audit", ["verify", r, "--public-key", key]),
    }


@pytest.mark.parametrize("command", list(_stdout_commands(Path("run"), "TICKET")))
def test_standard_output_into_a_full_disk_is_one_line(run, tmp_path, command):
    """`merkle-proof ... --json > claim.json` on a full disk: the proof did not fit, and the command said
    so as a traceback, then "Exception ignored" as Python's shutdown flushed again, exit 120 (so did
    `verify --json`, `audit verify`, `--help`; `rng bytes`, written to the descriptor, exit 1). Now one line
    naming standard output, exit 2 (what the shell's file holds is the shell's, cut short)."""
    ticket = (run / "ticket").read_text()
    program, argv = _stdout_commands(run, ticket, virn_of(run / "runs" / "r", ticket))[command]
    done = _into_a_full_file(program, argv, tmp_path / "out")
    said = f"{program}: error: standard output: cannot write: File too large\n"
    notice = "manifest signature checked with " if command.startswith("merkle-proof") else None
    if notice:  # merkle-proof says first what its root is vouched by (docs/merkle.md), a line of its own
        first, _, rest = done.stderr.partition("\n")
        assert first.startswith(notice), done.stderr
        done.stderr = rest
    assert (done.returncode, done.stderr) == (2, said)
    assert len((tmp_path / "out").read_bytes()) <= 100
