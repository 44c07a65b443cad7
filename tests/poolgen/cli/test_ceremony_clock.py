"""POOLGEN_TEST_NOW sets the clock of `ceremony new`, `commit` and `reveal` for tests and rehearsals with
rounds already published only (poolgen/cli/ceremony_clock.py, docs/ceremony.md): set for a ceremony whose
round this computer's own clock has not seen come out (a real one), it is refused in one line, nothing
written, so no operator can sign a reveal after the close as made before it by setting a variable."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from poolgen.cli.main import app
from tests.support.ceremony import PARTIES, key, new_args

FUTURE_ROUND = 73_384_197_412  # published at 9000-01-01T01:00:00Z
FUTURE_CLOSE = "9000-01-01T00:00:00Z"


def _run(args: list[str], now: str | None):
    return CliRunner().invoke(app, args, env={"POOLGEN_TEST_NOW": now})


def _refusal(round_: int, due: str) -> re.Pattern[str]:
    return re.compile(
        rf"poolgen: error: ceremony c1: POOLGEN_TEST_NOW is set, but round {round_} is due {due}, after this "
        r"computer's clock \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\): a test clock is for rehearsals with rounds "
        r"already published, never a real ceremony's \(unset it\)\n")


def _future_args(tmp_path) -> list[str]:
    args = new_args(tmp_path, tmp_path / "c1.ceremony")
    args[args.index("--beacon-round") + 1] = str(FUTURE_ROUND)
    args[args.index("--reveals-close") + 1] = FUTURE_CLOSE
    return args


def test_new_refuses_a_test_clock_for_a_round_still_to_come(tmp_path):
    done = _run(_future_args(tmp_path), "8999-12-31T00:00:00Z")
    assert done.exit_code == 2, done.output
    assert _refusal(FUTURE_ROUND, "9000-01-01T01:00:00Z").fullmatch(done.stderr), done.stderr
    assert not (tmp_path / "c1.ceremony").exists()


def test_reveal_refuses_a_test_clock_for_a_round_still_to_come(tmp_path):
    file = tmp_path / "c1.ceremony"
    made = _run(_future_args(tmp_path), None)  # the computer's own clock: reveals close in the year 9000
    assert made.exit_code == 0, made.output
    for p in PARTIES:  # the computer's own clock too
        assert _run(["ceremony", "commit", str(file), "--key", key(file, p), "--contribution",
                     str(tmp_path / f"{p}.contribution"), "--yes"], None).exit_code == 0
    before = file.read_bytes()
    done = _run(["ceremony", "reveal", str(file), "--key", key(file, "vendor"), "--contribution",
                 str(tmp_path / "vendor.contribution"), "--yes"], "8999-12-31T00:00:00Z")
    assert done.exit_code == 2, done.output
    assert _refusal(FUTURE_ROUND, "9000-01-01T01:00:00Z").fullmatch(done.stderr), done.stderr
    assert file.read_bytes() == before
    assert not (tmp_path / "vendor.contribution.revealed").exists()


def test_commit_refuses_a_test_clock_for_a_round_still_to_come(tmp_path):
    # commit reads the clock too (no commitment once reveals have closed): a test clock set in a real
    # ceremony would let a late commitment through
    file = tmp_path / "c1.ceremony"
    made = _run(_future_args(tmp_path), None)
    assert made.exit_code == 0, made.output
    before = file.read_bytes()
    done = _run(["ceremony", "commit", str(file), "--key", key(file, "vendor"), "--contribution",
                 str(tmp_path / "vendor.contribution"), "--yes"], "8999-12-31T00:00:00Z")
    assert done.exit_code == 2, done.output
    assert _refusal(FUTURE_ROUND, "9000-01-01T01:00:00Z").fullmatch(done.stderr), done.stderr
    assert file.read_bytes() == before
    assert not (tmp_path / "vendor.contribution").exists()


def test_a_rehearsal_with_a_published_round_keeps_its_test_clock(tmp_path):
    done = _run(new_args(tmp_path, tmp_path / "c1.ceremony"), "2023-08-23T14:00:00Z")  # round 1000, 2023
    assert done.exit_code == 0, done.output
