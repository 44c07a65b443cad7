"""Either program started without a standard stream (`<&-`, `>&-`, `2>&-`: the descriptor closed, not a
pipe whose reader has gone, which test_closed_stdout.py covers). Python then has no sys.stdout (or
sys.stdin, sys.stderr): every command wrote its results to None, a traceback and exit 1, after a
`seed new` had already written its seed. Now standard output closed is refused before anything is
done, in one line, exit 2; standard input closed is one line where a command would read it
(`check-proof -`); and every closed descriptor is /dev/null before a file is opened, so no file the
command opens takes number 0, 1 or 2 (a worker's or a library's write to "standard error" would land in
it). Real processes: each descriptor closed in the child before it starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from audit.pipes import STDOUT_CLOSED

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux descriptors")

POOLGEN = (sys.executable, "-m", "poolgen")
AUDIT = (sys.executable, "-m", "audit")


def _without(fd: int, *cmd: object, cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    """`cmd` started with descriptor `fd` closed (as the shell's `fd>&-`); the others captured."""
    return subprocess.run([str(c) for c in cmd], stdin=subprocess.DEVNULL, capture_output=True, cwd=cwd,
                          env=ENV, timeout=300, preexec_fn=lambda: os.close(fd))


@pytest.mark.parametrize("cmd", [(*POOLGEN, "check", "specs/happy_holidays.toml"),
                                 (*POOLGEN, "check", "specs/happy_holidays.toml", "--json"),
                                 (*POOLGEN, "--version"), (*POOLGEN, "-h"),
                                 (*POOLGEN, "rng", "bytes", "--seed-file", "missing.seed", "--count", "8"),
                                 (*AUDIT, "code-hash", "audit"), (*AUDIT, "--help")],
                         ids=lambda c: " ".join(c[1:]))
def test_a_closed_stdout_is_refused_in_one_line_before_anything_runs(cmd):
    done = _without(1, *cmd)
    program = "audit" if cmd[2] == "audit" else "poolgen"
    assert (done.returncode, done.stderr.decode()) == (2, f"{program}: error: {STDOUT_CLOSED}\n")


def test_a_seed_is_not_written_when_stdout_is_closed(tmp_path):
    """Its commitment, the line to keep, would have been lost: nothing is written."""
    done = _without(1, *POOLGEN, "seed", "new", tmp_path / "s.seed")
    assert (done.returncode, done.stderr.decode()) == (2, f"poolgen: error: {STDOUT_CLOSED}\n")
    assert list(tmp_path.iterdir()) == []


def test_audit_verify_with_stdout_closed_is_refused_not_a_failed_step(run):
    done = _without(1, *AUDIT, "verify", run / "runs" / "r", "--public-key",
                    run / "keys" / "signing-key.pub.pem")
    assert (done.returncode, done.stderr.decode()) == (2, f"audit: error: {STDOUT_CLOSED}\n")


def test_a_proof_on_a_closed_stdin_is_one_line(run):
    done = _without(0, *AUDIT, "check-proof", "-", run / "runs" / "r" / "manifest.json", "--public-key",
                    run / "keys" / "signing-key.pub.pem")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == ("audit: error: standard input: closed; no proof to read (give the "
                                    "proof's file, or `-` with the proof on standard input)\n")


def test_a_passphrase_asked_on_a_closed_stdin_is_one_line(tmp_path):
    done = _without(0, *POOLGEN, "keys", "new", tmp_path / "k", "--passphrase")
    assert (done.returncode, done.stderr.decode()) == (
        2, "poolgen: error: no passphrase given (standard input is not a terminal, so nothing is asked; set "
           "POOLGEN_KEY_PASSPHRASE)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_closed_stderr_keeps_the_exit_code_and_the_results(tmp_path):
    made = _without(2, *POOLGEN, "seed", "new", tmp_path / "s.seed")
    refused = _without(2, *POOLGEN, "seed", "new", tmp_path / "s.seed")  # exists: refused
    assert (made.returncode, made.stdout.decode().startswith("seed commitment: ")) == (0, True)
    assert (refused.returncode, refused.stdout) == (2, b"")
    assert len((tmp_path / "s.seed").read_text()) == 65


@pytest.mark.parametrize("fd", [0, 1, 2])
def test_a_closed_descriptor_is_dev_null_before_a_file_takes_its_number(tmp_path, fd):
    probe = ("import os, sys; from audit.pipes import closed_standard_streams; closed_standard_streams(); "
             "f = open(sys.argv[1], 'w'); os.write(f.fileno(), b'x'); "
             "print(f.fileno(), *(os.readlink(f'/proc/self/fd/{n}') for n in (0, 1, 2)), "
             "file=open(sys.argv[2], 'w'))")
    done = _without(fd, sys.executable, "-c", probe, tmp_path / "file", tmp_path / "said", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    number, *streams = (tmp_path / "said").read_text().split()
    assert int(number) > 2 and streams[fd] == "/dev/null"
    assert (tmp_path / "file").read_bytes() == b"x"
