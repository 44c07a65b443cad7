"""poolgen/interrupts.py's test hook, POOLGEN_TEST_PAUSE ("MOMENT:SECONDS:MARKFILE"): a value not of that
form pauses nowhere and stops nothing. It was split and read unchecked at every pause point, so
`POOLGEN_TEST_PAUSE=x poolgen ...` (any command: `loading` is a pause point) ended in a ValueError
traceback, and `seed new` did so after its seed file was written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from poolgen.interrupts import PAUSE_ENV

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value", ["x", "loading:abc:MARK", "loading:nan:MARK", "loading:-1:MARK",
                                   "secret-written:1:/nonexistent/folder/mark", "loading::"])
def test_a_pause_value_of_another_form_pauses_nowhere(tmp_path, value):
    value = value.replace("MARK", str(tmp_path / "mark"))
    env = {**os.environ, PAUSE_ENV: value, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "poolgen", "seed", "new", str(tmp_path / "a.seed")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr == f"wrote seed file {tmp_path / 'a.seed'} (mode 0600)\n"
    assert done.stdout.startswith("seed commitment: ") and (tmp_path / "a.seed").stat().st_size == 65
    assert not (tmp_path / "mark").exists()
