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
