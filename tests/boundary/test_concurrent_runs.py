"""Two `generate`s of the same run at once, each with a fresh seed: one makes the run, the other refuses in
one line saying so. The other named the first one's provisional seed (`.RUN.seed.pending: seed file
already exists`), a file no user made nor can find. The first pauses (POOLGEN_TEST_PAUSE) once its run
is staged, its fresh seed on disk; the second runs whole meanwhile; then the first goes on."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from poolgen.interrupts import PAUSE_ENV

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


def test_a_second_generate_of_a_run_under_way_says_so(printed_run, tmp_path):
    out, mark = tmp_path / "runs", tmp_path / "mark"
    argv = [sys.executable, "-m", "poolgen", "generate", str(printed_run / "happy_holidays.toml"), "--out",
            str(out), "--run-id", "r", "--key", str(printed_run / "keys" / "signing-key.pem"),
            "--workers", "1"]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, PAUSE_ENV: f"staged:60:{mark}"})
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.01)
    second = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    mark.unlink()
    assert first.wait(timeout=300) == 0, first.communicate()
    assert (second.returncode, second.stdout) == (2, "")
    assert second.stderr == (f"poolgen: error: {out / 'r'}: another generate of this run is under way (its "
                             "fresh seed is not yet named); give another --run-id\n")
    assert sorted(p.name for p in out.iterdir()) == ["r", "r.seed"]
