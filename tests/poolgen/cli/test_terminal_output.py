"""What reaches a terminal and what reaches a pipe: colour and progress bars for a person at a terminal,
none of it (no escape sequence at all) in a pipe or a file, and no colour under NO_COLOR
(https://no-color.org), as git, gh and uv behave. Real processes, on a real pseudo-terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.support import small_happy_holidays
from tests.support.terminal import ROOT, on_a_terminal

SGR = re.compile(r"\x1b\[([0-9;]*)m")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SPEC = str(ROOT / "specs" / "wild_side.toml")


def _colours(shown: str) -> set[int]:
    """The colour codes (foreground and background, 30-49 and 90-107) of every SGR sequence shown."""
    codes = {int(c) for params in SGR.findall(shown) for c in params.split(";") if c}
    return {c for c in codes if 30 <= c <= 49 or 90 <= c <= 107}


def _piped(*args: str, program: str = "poolgen") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", program, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**ENV, "TERM": "xterm-256color"}, timeout=300)


def test_piped_help_and_results_hold_no_escape_sequence():
    for program, args in [("poolgen", ("--help",)), ("poolgen", ("help", "verify")),
                          ("poolgen", ("check", SPEC)), ("audit", ("--help",))]:
        done = _piped(*args, program=program)
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout + done.stderr, (program, args)
    assert "ok 34 prize tiers" in _piped("check", SPEC).stdout


def test_a_terminal_gets_colour_and_no_color_takes_it_away():
    code, shown = on_a_terminal(["check", SPEC], [])
    assert code == 0 and _colours(shown)  # the guard below can fail: there is colour to take away
    for args in (["check", SPEC], ["--help"], ["help", "generate"]):
        code, shown = on_a_terminal(args, [], env={"NO_COLOR": "1"})
        assert (code, _colours(shown)) == (0, set()), args


def test_generate_draws_progress_bars_on_a_terminal_only(tmp_path):
    spec = str(small_happy_holidays(tmp_path, 3000))
    args = ["generate", spec, "--unsigned", "--workers", "1"]
    code, shown = on_a_terminal([*args, "--out", str(tmp_path / "tty"), "--run-id", "r"], [])
    assert code == 0 and re.search(r"all pools ━+ 3/3", SGR.sub("", shown)), shown
    piped = _piped(*args, "--out", str(tmp_path / "pipe"), "--run-id", "r")
    assert piped.returncode == 0, piped.stderr
    assert "all pools" not in piped.stderr and "━" not in piped.stderr and "\x1b" not in piped.stderr
