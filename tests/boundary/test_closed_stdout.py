"""A reader that closes the pipe early (`poolgen rng bytes ... | head -c 10`, `python -m audit verify RUN
| head -1`, a battery that has read enough): both programs die quietly of SIGPIPE, as git and uv do
(exit 141 from the shell's view), never exit 1 (`verify`'s "a step fails"), a traceback, or a
"wrote N bytes" line for bytes nobody read. Real processes, real pipes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _into_closed_pipe(*cmd: str) -> subprocess.CompletedProcess[bytes]:
    """`cmd` with its standard output a pipe whose reading end is already closed."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(cmd, stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, timeout=120)
    finally:
        os.close(write)


def _read_then_close(cmd: list[str], keep: int) -> tuple[bytes, int, bytes]:
    """Run `cmd`, read `keep` bytes of its output, close the pipe (as `head -c KEEP`), wait for it."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    assert p.stdout is not None and p.stderr is not None
    got = p.stdout.read(keep)
    p.stdout.close()
    err = p.stderr.read()
    return got, p.wait(timeout=120), err


def test_poolgen_dies_of_sigpipe_on_a_closed_stdout():
    done = _into_closed_pipe(sys.executable, "-m", "poolgen", "--version")
    assert (done.returncode, done.stderr) == (-signal.SIGPIPE, b"")


def test_audit_dies_of_sigpipe_on_a_closed_stdout():
    done = _into_closed_pipe(sys.executable, "-m", "audit", "code-hash", "audit/")
    assert (done.returncode, done.stderr) == (-signal.SIGPIPE, b"")


def test_a_stream_dump_read_in_part_ends_by_sigpipe_without_claiming_it_was_written(tmp_path):
    seed = tmp_path / "lab.seed"
    subprocess.run([sys.executable, "-m", "poolgen", "seed", "new", str(seed)], check=True,
                   capture_output=True, cwd=ROOT, env=ENV, timeout=120)
    label = ("--seed-file", str(seed), "--label", "poolgen/v1/lab/p1/order")
    for kind, args in (("bytes", ("--count", "64M")), ("integers", ("--high", "60", "--count", "1000000"))):
        got, code, err = _read_then_close([sys.executable, "-m", "poolgen", "rng", kind, *label, *args], 10)
        assert (len(got), code, err) == (10, -signal.SIGPIPE, b""), kind
