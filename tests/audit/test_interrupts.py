"""audit/interrupts.py's copy of the test hook POOLGEN_TEST_PAUSE ("MOMENT:SECONDS:MARKFILE"): a value not
of that form pauses nowhere. It was split unchecked when audit loads, so `POOLGEN_TEST_PAUSE=x python -m
audit ...`, any command, even --help, ended in a ValueError traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value", ["x", "loading:abc:MARK", "loading:inf:MARK"])
def test_a_pause_value_of_another_form_pauses_nowhere(tmp_path, value):
    value = value.replace("MARK", str(tmp_path / "mark"))
    env = {**os.environ, "POOLGEN_TEST_PAUSE": value, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "audit", "code-hash", str(ROOT / "audit")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("code SHA-256 ") and not (tmp_path / "mark").exists()
