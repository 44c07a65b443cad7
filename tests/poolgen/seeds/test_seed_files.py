"""A seed file whose 32 bytes are all one value (32 zero bytes, `ff` typed 32 times) is refused wherever a
seed is read, poolgen's commands and audit's alike (docs/randomness.md, section 1): it was accepted, and
a run made from a zeroed file looked like any other. The value is never shown; every other seed,
the known-answer seeds included, is still accepted."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from audit.errors import UnusableInput
from audit.steps.reproduction import read_seed
from poolgen.cli.main import app
from poolgen.errors import SeedError
from poolgen.seeds.seed import read_seed_file
from tests.support import SEED_A, SEED_B, spec_path
from tests.support.cli import one_line

REASON = "its 32 bytes are all the same value: a typed or zeroed file, not a secret seed; refusing it"


def _seed(tmp_path, hex_text, name="s.seed"):
    path = tmp_path / name
    path.write_text(hex_text + "\n")
    os.chmod(path, 0o600)
    return path


@pytest.mark.parametrize("byte", ["00", "ff", "42", "a5"])
def test_a_seed_of_one_repeated_byte_is_refused_by_poolgen_and_audit(tmp_path, byte):
    path = _seed(tmp_path, byte * 32)
    with pytest.raises(SeedError) as got:
        read_seed_file(path)
    assert str(got.value) == f"{path}: {REASON} (`poolgen seed new` makes one)"
    with pytest.raises(UnusableInput) as audited:
        read_seed(path)
    assert str(audited.value) == f"{path}: {REASON}"
    assert byte * 4 not in str(got.value) + str(audited.value)  # the value is never shown


def test_known_answer_and_near_degenerate_seeds_are_accepted(tmp_path):
    for n, seed in enumerate([SEED_A, SEED_B, bytes(31) + b"\x01", b"\xff" * 31 + b"\xfe"]):
        path = _seed(tmp_path, seed.hex(), f"{n}.seed")
        assert read_seed_file(path) == seed and read_seed(path) == seed


def test_generate_and_rng_refuse_a_zeroed_seed_file_in_one_line(tmp_path):
    path = _seed(tmp_path, "00" * 32)
    made = CliRunner().invoke(app, ["generate", str(spec_path("happy_holidays")), "--out",
                                    str(tmp_path / "out"), "--seed-file", str(path), "--unsigned", "--pool",
                                    "p1"])
    one_line(made, "poolgen", f"{path}: {REASON}")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    drawn = CliRunner().invoke(app, ["rng", "bytes", "--count", "8", "--seed-file", str(path), "--label",
                                     "poolgen/v1/t/x"])
    one_line(drawn, "poolgen", f"{path}: {REASON}")
    assert drawn.stdout == ""
