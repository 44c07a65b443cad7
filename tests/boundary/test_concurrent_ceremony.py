"""Two parties' ceremony steps at once on the same ceremony file: each reads the file, asks, then writes it
back whole. Three parties committing at the same moment all exited 0 ("commitment of vendor: ..."), and
the file held one or two of the three commitments: the others' were lost, their contributions kept
(their next commit refused them as never used). Now a step whose file changed since it read it saves
nothing, says so in one line (exit 2) and is run again; the other's step stands.

The first command pauses (POOLGEN_TEST_PAUSE) once it has read the file and written its contribution or
reveal record, the second runs whole meanwhile, then the first goes on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from poolgen.interrupts import PAUSE_ENV
from poolgen.seeds.ceremony_file import load
from tests.support.ceremony import BEFORE, PARTIES, commit, key, new, reveal

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


def _overtaken(argv: list[str], moment: str, meanwhile, tmp_path: Path) -> subprocess.CompletedProcess:
    """`python -m poolgen ARGV`, paused at the first `moment` while `meanwhile()` runs, then let go."""
    mark = tmp_path / "mark"
    env = {**os.environ, PAUSE_ENV: f"{moment}:60:{mark}", "POOLGEN_TEST_NOW": BEFORE}
    proc = subprocess.Popen([sys.executable, "-m", "poolgen", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    meanwhile()
    while proc.poll() is None:  # on, through any later pause of the same name
        mark.unlink(missing_ok=True)
        assert time.monotonic() < deadline
        time.sleep(0.01)
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, stdout.decode(), stderr.decode())


def test_two_commits_at_once_never_lose_one(tmp_path):
    file = new(tmp_path)
    contribution = tmp_path / "vendor.contribution"
    argv = ["ceremony", "commit", str(file), "--party", "vendor", "--key", key(file, "vendor"),
            "--contribution", str(contribution), "--yes"]
    done = _overtaken(argv, "secret-written", lambda: commit(file, "lottery"), tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"poolgen: error: {file}: changed since this command read it (another party's "
                           "step meanwhile?); nothing was saved: run the command again\n")
    assert not contribution.exists()  # never committed: removed, so the same command runs again
    assert [c is not None for c in load(file).commitments] == [False, True, False]
    commit(file, "vendor")  # run again: it works, and the lottery's commitment stays
    commit(file, "auditor")
    assert all(c is not None for c in load(file).commitments)


def test_two_reveals_at_once_never_lose_one(tmp_path):
    file = new(tmp_path)
    for party in PARTIES:
        commit(file, party)
    argv = ["ceremony", "reveal", str(file), "--party", "vendor", "--key", key(file, "vendor"),
            "--contribution", str(tmp_path / "vendor.contribution"), "--yes"]
    done = _overtaken(argv, "kept", lambda: reveal(file, "lottery"), tmp_path)  # its reveal record in place
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"poolgen: error: {file}: changed since this command read it (another party's "
                           "step meanwhile?); nothing was saved: run the command again\n")
    assert [r is not None for r in load(file).reveals] == [False, True, False]
    assert reveal(file, "vendor").exit_code == 0  # run again: the same reveal, its record kept
    assert reveal(file, "auditor").exit_code == 0
    assert all(r is not None for r in load(file).reveals)
