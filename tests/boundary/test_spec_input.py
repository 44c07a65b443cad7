"""Specs no game would be made of, in `check` and `generate` alike: one line, exit 2, no traceback.
Parser limits, decimal arithmetic, unbounded sizes and layout tables; special files (a FIFO, /dev/zero, a
file name that is not UTF-8) and a file over the size limit, never read."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from tests.support import SEED_A, small_example, spec_path
from tests.support.cli import one_line as _one_line


def _sub(rules: str, pattern: str, replacement: str) -> str:
    text, n = re.subn(pattern, replacement, spec_path(rules).read_text(), count=1, flags=re.M)
    assert n == 1, pattern
    return text


SPECS = {  # name: (spec text, the error's field and reason)
    "deep nesting": (lambda: "x = " + "[" * 3000 + "]" * 3000 + "\n",
                     "not a spec: brackets nested more than 32 deep"),
    "5,000-digit integer": (lambda: _sub("wild_side", r"^order_tickets = \d+",
                                         "order_tickets = " + "9" * 5000),
                            "not a spec: a number of more than 1000 digits"),
    "huge price exponent": (lambda: _sub("wild_side", r'^price = "5.00"', 'price = "1E+999999999"'),
                            "printed.price: '1E+999999999' is out of range"),
    "zero price": (lambda: _sub("wild_side", r'^price = "5.00"', 'price = "0.00"'),
                   "printed.price: a ticket costs more than nothing"),
    "40-digit prize": (lambda: _sub("wild_side", r'^prize = "[^"]*"', 'prize = "' + "9" * 40 + '"'),
                       "tiers[0].prize: '" + "9" * 40 + "' is out of range"),
    "tiny odds": (lambda: _sub("wild_side", r'^odds = "[^"]*"', 'odds = "1E-999999999"'),
                  "published.odds: '1E-999999999' is not a number"),  # no exponent: parse_decimal
    "legend exponent": (lambda: _sub("hand_to_hand_tactics", r'^legend = \["0.5"',
                                     'legend = ["1E+999999999"'),
                        "play.legend: '1E+999999999' is out of range"),
    "first_spot_loss exponent": (lambda: _sub("hand_to_hand_tactics", r'^first_spot_loss = "1/4"',
                                              'first_spot_loss = "1e-999999999"'),
                                 "play.first_spot_loss: must be a fraction string such as \"1/4\""),
    "amount multiplier exponent": (lambda: _sub("primetime_payout", r'^amount_multipliers = \["[^"]*"',
                                                'amount_multipliers = ["1E+999999999"'),
                                   "layout.amount_multipliers[0]: '1E+999999999' is out of range"),
    "no play areas": (lambda: _sub("primetime_payout", r"^play_areas = \[1, 2, 3, 4\]", "play_areas = []"),
                      "einstant.play_areas: empty: give at least one number of play areas"),
    "1,000 play areas": (lambda: _sub("primetime_payout", r"^play_areas = \[1, 2, 3, 4\]",
                                      "play_areas = [1, 1000]"),
                         "einstant.play_areas[1]: 1000 play areas; at most 16"),
    "a billion shares": (lambda: _sub("hand_to_hand_tactics", r"^pool_shares = 1000000",
                                      "pool_shares = 1000000000"),
                         "einstant.pool_shares: 1,000,000,000 is more than 10,000,000 per pool"),
    "a key holding a newline": (lambda: _sub("wild_side", r"^\[game\]", '[game]\n"a\\\\nb" = 1'),
                                "game.a\\nb: unknown field"),
    "a key holding an escape": (lambda: _sub("hand_to_hand_tactics", r"^\[play\]",
                                             '[play]\n"x\\\\u001b[31m" = 1'),
                                "play.x\\x1b[31m: unknown field (the prize_legend_duel style reads"),
    "a pool too big to build": (lambda: _sub("primetime_payout", r"^pool_shares = 1000000",
                                             "pool_shares = 10000000"),
                                "einstant: pool d1.00x4 would need about 8.4 GiB of memory to build; "
                                "at most 8 GiB"),
}


LAYOUT_PROBLEMS: set[str] = set()  # a style reads every parameter when the spec loads (exit 2)


@pytest.mark.parametrize("case", list(SPECS))
@pytest.mark.parametrize("command", ["check", "generate"])
def test_hostile_spec(tmp_path, case, command):
    text, message = SPECS[case]
    spec = tmp_path / "game.toml"
    spec.write_text(text())
    extra = ["--out", str(tmp_path / "out"), "--unsigned"] if command == "generate" else []
    args = [command, str(spec), *extra]
    result = CliRunner().invoke(app, args)
    if command == "check" and case in LAYOUT_PROBLEMS:  # check reports what the layout module refuses
        assert result.exit_code == 1 and message in result.stdout and "Traceback" not in result.output
    else:
        _one_line(result, "poolgen", f"game.toml: {message}")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("command", ["check", "generate"])
def test_a_repeated_wild_side_number_is_one_line_for_check_and_generate(tmp_path, command):
    """Numbers are codes of their group (specs/wild_side.md section 1): one given twice is refused
    before anything is laid out, by check and by generate alike."""
    spec = tmp_path / "game.toml"
    spec.write_text(_sub("wild_side", r'^code = "04"', 'code = "03"'))
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    extra = ["--pool", "p1", "--seed-file", str(seed), "--out", str(tmp_path / "out"), "--unsigned",
             "--workers", "1"] if command == "generate" else []
    result = CliRunner().invoke(app, [command, str(spec), *extra])
    _one_line(result, "poolgen", "game.toml: symbols[1].code: duplicate symbol code '03' in group 'number'")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["check", "generate"])
def test_special_files_never_hang(tmp_path, command):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    odd = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/bad\xff.toml"))
    shutil.copy(spec_path("happy_holidays"), odd)
    extra = ["--out", str(tmp_path / "out"), "--unsigned"] if command == "generate" else []
    for path, message in [(fifo, f"{fifo}: is not a regular file (a pipe, device or socket); give a spec "
                                 "file"),
                          (Path("/dev/zero"), "/dev/zero: is not a regular file"),
                          (tmp_path, f"{tmp_path}: is a folder, not a spec file"),
                          (odd, f"{tmp_path}/bad\\xff.toml: the file name is not UTF-8 text")]:
        _one_line(CliRunner().invoke(app, [command, str(path), *extra]), "poolgen", message)


def test_a_spec_larger_than_the_limit_is_refused_unread(tmp_path):
    spec = tmp_path / "big.toml"
    spec.write_bytes(b"#" * (1 << 20) + b"\n")
    _one_line(CliRunner().invoke(app, ["check", str(spec)]), "poolgen",
              f"{spec}: 1,048,577 bytes, larger than 1,048,576; not a spec file")


@pytest.mark.parametrize("command", ["check", "generate"])
def test_pack_parameters_the_descent_cannot_meet_are_one_line_for_check_and_generate(tmp_path, command):
    """A value floor the pool's counts allow ($1,768.00 over 10 packs, at least $176.00 each) but no
    arrangement the descent finds meets (docs/randomness.md 5.3, step 2): check refuses it naming the
    parameters, and generate, which does not run check, refuses it the same way (it was a traceback
    and exit 1)."""
    spec = small_example(tmp_path, "happy_holidays_packs", 3000)
    spec.write_text(spec.read_text().replace('min_prize_value = "150.00"', 'min_prize_value = "176.00"'))
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    extra = ["--seed-file", str(seed), "--out", str(tmp_path / "out"), "--unsigned",
             "--workers", "1"] if command == "generate" else []
    result = CliRunner().invoke(app, [command, str(spec), *extra])
    _one_line(result, "poolgen", "happy_holidays_packs.toml: packs.")  # then each parameter still short
    assert "packs.min_prize_value" in result.stderr
    assert "pool p1: no arrangement meeting the pack parameters found after 200 proposals" in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
