"""Interrupts of the ceremony commands that write two files: `ceremony commit` writes the party's secret
contribution, then records its commitment in the ceremony file. Either both are kept or neither: a
commitment recorded without its contribution can never be revealed, and the ceremony must be aborted.

Each run pauses at the Nth time a file is put in place (POOLGEN_TEST_PAUSE `kept`: the contribution
first, then the ceremony file) and is signalled then.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from poolgen.interrupts import PAUSE_ENV
from poolgen.seeds.ceremony_file import load
from tests.support.ceremony import BEFORE, PARTIES, commit, invoke, key, new, reveal

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


def _signalled_at_pause(argv: list[str], moment: str, nth: int, sig: int, tmp_path: Path
                        ) -> subprocess.CompletedProcess:
    """`python -m ARGV`, signalled while it waits at the `nth` pause named `moment`."""
    mark = tmp_path / "mark"
    env = {**os.environ, PAUSE_ENV: f"{moment}:60:{mark}", "POOLGEN_TEST_NOW": BEFORE}
    proc = subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    for n in range(1, nth + 1):
        while not mark.exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.01)
        if n < nth:
            mark.unlink()  # on to the next pause, which makes the mark again
    os.killpg(proc.pid, sig)
    while proc.poll() is None:  # a signal held back: the command goes on, through any later pause
        mark.unlink(missing_ok=True)
        assert time.monotonic() < deadline
        time.sleep(0.01)
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, stdout.decode(), stderr.decode())


@pytest.mark.parametrize(("nth", "sig"), [(1, signal.SIGINT), (2, signal.SIGTERM)],
                         ids=["contribution-in-place-SIGINT", "ceremony-file-in-place-SIGTERM"])
def test_commit_interrupted_keeps_its_contribution_with_its_commitment(tmp_path, nth, sig):
    """A signal once the ceremony file held the commitment (nth 2) made `commit` remove the contribution
    it had just written, and say it was kept: the party could never reveal. Now a signal from the moment
    the contribution is in place waits until the commitment is recorded too; both are kept, and the
    party reveals once the others have committed."""
    file = new(tmp_path)
    contribution = tmp_path / "vendor.contribution"
    done = _signalled_at_pause(["poolgen", "ceremony", "commit", str(file), "--party", "vendor", "--key",
                                key(file, "vendor"), "--contribution", str(contribution), "--yes"],
                               "kept", nth, sig, tmp_path)
    assert done.returncode == 128 + sig, done.stderr
    assert done.stderr.splitlines()[-1] == (f"poolgen: error: interrupted by {sig.name}; {contribution}, "
                                            f"{file} were complete and are kept")
    assert load(file).waiting_to_commit() == ["lottery", "auditor"]
    for p in PARTIES[1:]:
        commit(file, p)
    assert reveal(file, "vendor").exit_code == 0


def test_commit_killed_before_recording_says_what_its_contribution_file_is(tmp_path):
    """SIGKILL once the contribution is in place, before the ceremony file holds its commitment: nothing
    can hold that back, and the next commit was refused with "contribution file already exists", which
    reads as if it had been committed (removing a committed contribution loses the ceremony). It now
    says the file was never used; removed, the commit runs again."""
    file = new(tmp_path)
    contribution = tmp_path / "vendor.contribution"
    argv = ["ceremony", "commit", str(file), "--party", "vendor", "--key", key(file, "vendor"),
            "--contribution", str(contribution), "--yes"]
    done = _signalled_at_pause(["poolgen", *argv], "kept", 1, signal.SIGKILL, tmp_path)
    assert done.returncode == -signal.SIGKILL and contribution.exists()
    assert load(file).waiting_to_commit() == list(PARTIES)
    again = invoke(*argv)
    assert (again.exit_code, again.stderr) == (
        2, f"poolgen: error: {contribution}: a contribution of vendor to ceremony c1 whose commitment the "
           "ceremony file does not hold (a commit interrupted before recording it?); unless a published "
           "bundle holds its commitment it was never used: remove it or give another --contribution\n")
    contribution.unlink()
    assert invoke(*argv).exit_code == 0 and load(file).waiting_to_commit() == ["lottery", "auditor"]


def test_reveal_interrupted_once_its_record_is_in_place_records_the_reveal_too(tmp_path):
    """SIGTERM once the reveal record (CONTRIBUTION.revealed) was in place: before, the command ended
    there, the ceremony file without the reveal, and the line said only the record was kept, as if
    the reveal were done. Now the signal waits until the ceremony file holds the reveal too."""
    file = new(tmp_path)
    for p in PARTIES:
        commit(file, p)
    contribution = tmp_path / "vendor.contribution"
    done = _signalled_at_pause(["poolgen", "ceremony", "reveal", str(file), "--party", "vendor", "--key",
                                key(file, "vendor"), "--contribution", str(contribution), "--yes"],
                               "kept", 1, signal.SIGTERM, tmp_path)
    assert done.returncode == 143, done.stderr
    assert done.stderr.splitlines()[-1] == (f"poolgen: error: interrupted by SIGTERM; "
                                            f"{contribution}.revealed, {file} were complete and are kept")
    assert load(file).waiting_to_reveal() == ["lottery", "auditor"]
