"""A reader that closes the pipe early (`poolgen verify RUN | head -1`, `python -m audit verify RUN |
head -1`, `poolgen rng bytes ... | head -c 10`, a battery that has read enough): both programs end
quietly with exit 141, as git does from the shell's view, never exit 1 (`verify`'s "a step fails"),
a traceback, or a "wrote N bytes" line for bytes nobody read. Any other broken pipe keeps its exit.
Real processes, real pipes: the reading end closed before the command starts, or after a few bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import SEED_A, small_happy_holidays

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pipe semantics")

POOLGEN = (sys.executable, "-m", "poolgen")
AUDIT = (sys.executable, "-m", "audit")


def _into_closed_pipe(*cmd: str | Path, env: dict[str, str] = ENV) -> subprocess.CompletedProcess[bytes]:
    """`cmd` with its standard output a pipe whose reading end is already closed."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([str(c) for c in cmd], stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=env,
                              timeout=300)
    finally:
        os.close(write)


def _read_then_close(cmd: list[str], keep: int, env: dict[str, str]) -> tuple[bytes, int, bytes]:
    """Run `cmd`, read `keep` bytes of its output, close the pipe (as `head -c KEEP`), wait for it."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert p.stdout is not None and p.stderr is not None
    got = p.stdout.read(keep)
    p.stdout.close()
    err = p.stderr.read()
    p.stderr.close()
    return got, p.wait(timeout=300), err


@pytest.mark.parametrize("cmd", [(*POOLGEN, "--version"), (*POOLGEN, "--help"), (*POOLGEN, "seed", "-h"),
                                 (*POOLGEN, "check", "specs/happy_holidays.toml", "--json"),
                                 (*POOLGEN, "check", "specs/happy_holidays.toml"), (*POOLGEN,),
                                 (*AUDIT, "code-hash", "poolgen"), (*AUDIT, "--help")],
                         ids=lambda c: " ".join(c[2:]) or "no arguments")
def test_a_closed_stdout_ends_either_program_quietly_with_141(cmd):
    done = _into_closed_pipe(*cmd)
    assert (done.returncode, done.stderr) == (141, b"")


@pytest.fixture(scope="module")
def verifies(run) -> Path:
    """The run, once audit's checklist has passed it: an exit 141 below is the pipe's alone. Checked once
    for both programs (each ran it first): `poolgen verify` is audit's command, given a generator that
    only a seed file (step 7) calls, so without one both run the same checklist to the same verdict."""
    verified = subprocess.run([*AUDIT, "verify", str(run / "runs" / "r"), "--public-key",
                               str(run / "keys" / "signing-key.pub.pem")],
                              capture_output=True, cwd=ROOT, env=ENV, timeout=300)
    assert verified.returncode == 0, verified.stderr
    return run


@pytest.mark.parametrize("program", [POOLGEN, AUDIT], ids=["poolgen", "audit"])
def test_verify_into_a_closed_stdout_exits_141_not_1_which_says_a_step_failed(verifies, program):
    run = verifies
    done = _into_closed_pipe(*program, "verify", run / "runs" / "r", "--public-key",
                             run / "keys" / "signing-key.pub.pem", "--json")
    assert (done.returncode, done.stderr) == (141, b"")


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
@pytest.mark.parametrize(("kind", "args"), [("bytes", ("--count", "64M")),
                                            ("integers", ("--high", "60", "--count", "1000000"))])
def test_a_stream_dump_read_in_part_exits_141_without_claiming_it_was_written(tmp_path, kind, args,
                                                                              unbuffered):
    seed = tmp_path / "lab.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    env = {**ENV, "PYTHONUNBUFFERED": unbuffered}  # unbuffered, a write to a pipe can take only part
    cmd = [*POOLGEN, "rng", kind, "--seed-file", str(seed), "--label", "poolgen/v1/lab/p1/order", *args]
    got, code, err = _read_then_close(cmd, 10, env)
    assert (len(got), code, err) == (10, 141, b"")


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
def test_a_json_document_read_in_part_exits_141_also_unbuffered(unbuffered):
    """Unbuffered, the text layer took the 64 KiB one write(2) took, dropped the rest, and exited 0."""
    env = {**ENV, "PYTHONUNBUFFERED": unbuffered}
    got, code, err = _read_then_close([*POOLGEN, "check", "specs/primetime_payout.toml", "--json"], 10,
                                      env)  # 155 KB: over a pipe's 64
    assert (got, code, err) == (b'{\n  "games', 141, b"")


def test_a_dump_to_a_slow_reader_unbuffered_is_written_whole(tmp_path):
    """A raw (unbuffered) standard output may take part of a chunk in one write: the rest still goes."""
    seed = tmp_path / "lab.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    cmd = [*POOLGEN, "rng", "bytes", "--seed-file", str(seed), "--label", "poolgen/v1/lab/p1/order",
           "--count", "4M"]
    whole = subprocess.run(cmd, capture_output=True, cwd=ROOT, env={**ENV, "PYTHONUNBUFFERED": "1"},
                           timeout=300)
    to_file = tmp_path / "dump.bin"
    subprocess.run([*cmd, "--out", str(to_file)], check=True, capture_output=True, cwd=ROOT, env=ENV,
                   timeout=300)
    assert (whole.returncode, len(whole.stdout)) == (0, 4 * 1024 * 1024)
    assert whole.stdout == to_file.read_bytes()
    assert whole.stderr.decode().startswith("wrote 4,194,304 bytes (raw keystream) of stream")


def test_generate_into_a_closed_stdout_keeps_the_finished_run_and_exits_141(tmp_path):
    spec = small_happy_holidays(tmp_path, 3000)
    out = tmp_path / "out"
    done = _into_closed_pipe(*POOLGEN, "generate", spec, "--out", out, "--run-id", "r", "--workers", "1",
                             "--unsigned", "--json")
    assert (done.returncode, done.stderr.count(b"\n") > 0, b"Traceback" in done.stderr) == (141, True, False)
    manifest = json.loads((out / "r" / "manifest.json").read_text())
    for pool in manifest["pools"]:  # complete: every pool file whole, and its seed beside it
        assert (out / "r" / pool["file"]["name"]).stat().st_size == pool["file"]["bytes"]
    assert sorted(p.name for p in out.iterdir()) == ["r", "r.seed"]


def test_a_closed_stderr_is_not_a_closed_stdout(tmp_path):
    """Only standard output's reader gone is the quiet 141: an error line that cannot be said is exit 1,
    as before, and standard output stays open."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([*POOLGEN, "check", str(tmp_path / "missing.toml")], stdout=subprocess.PIPE,
                              stderr=write, cwd=ROOT, env=ENV, timeout=300)
    finally:
        os.close(write)
    assert (done.returncode, done.stdout) == (1, b"")
