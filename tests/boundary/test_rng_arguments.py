"""`poolgen rng` arguments as an adversary types them: sizes beyond the bounds (poolgen/rng/labdump.py),
digits of other scripts, underscores, signs, control characters. Each is refused in one line before
the seed is read or the stream skipped (exit 2, nothing on standard output), and any text at all in
any numeric option is a dump or that refusal, never a traceback (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from poolgen.cli.main import app
from tests.support import SEED_A


@pytest.fixture(scope="module")
def seed_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rng") / "lab.seed"
    path.write_text(SEED_A.hex() + "\n")
    path.chmod(0o600)
    return path


def rng(seed_file, *args: str):
    return CliRunner().invoke(app, ["rng", *args, "--seed-file", str(seed_file), "--label", "poolgen/v1/t/x"])


def refused(result, message: str) -> None:
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stderr == f"poolgen: error: {message}\n"


CASES = [
    (["bytes", "--count", "1", "--skip", "256G"], "--skip 256G: at most 68,719,476,736 bytes"),
    (["bytes", "--count", "1", "--skip", "1T"], "--skip 1T: at most 68,719,476,736 bytes"),
    (["bytes", "--count", "1", "--skip", "1" + "0" * 23],
     f"--skip '1{'0' * 23}': give a whole number, optionally with K, M, G or T (x1024)"),
    (["bytes", "--count", "2T"], "--count 2T: at most 1,099,511,627,776 bytes"),
    (["integers", "--high", "5", "--count", "100000000"],
     "--count 100000000: at most 10,000,000 values per call; use --repeat for more"),
    (["integers", "--high", "5", "--count", "1M", "--repeat", "1001"],
     "--count x --repeat: 1,049,624,576 values; at most 1,000,000,000 in one dump"),
    (["integers", "--high", "1,2", "--repeat", "600000000"],
     "--high x --repeat: 1,200,000,000 values; at most 1,000,000,000 in one dump"),
    (["permutations", "--n", "1000", "--rows", "10001"],
     "--n 1000: at most 10,000,000 values per call; use --repeat for more"),
    (["permutations", "--n", "10000000", "--repeat", "101"],
     "--n x --repeat: 1,010,000,000 values; at most 1,000,000,000 in one dump"),
    (["integers", "--high", "\u0665"], "--high '\u0665': whole numbers separated by commas"),
    (["integers", "--high", "1_000"], "--high '1_000': whole numbers separated by commas"),
    (["integers", "--high", "-5"], "--high '-5': whole numbers separated by commas"),
    (["integers", "--high", " 5"], "--high ' 5': whole numbers separated by commas"),
    (["integers", "--high", str(2**63)], "--high: every bound is a whole number from 1 to 2**63 - 1"),
    (["integers", "--high", "5", "--count", "-1"],
     "--count '-1': give a whole number, optionally with K, M, G or T (x1024)"),
    (["integers", "--high", "5", "--count", "\uff11"],
     "--count '\uff11': give a whole number, optionally with K, M, G or T (x1024)"),
    (["integers", "--high", "5", "--repeat", "0"],
     "--repeat '0': give a whole number from 1 to 1,000,000,000"),
    (["integers", "--high", "5", "--repeat", "-2"],
     "--repeat '-2': give a whole number from 1 to 1,000,000,000"),
    (["permutations", "--n", "-1"], "--n '-1': give a whole number from 0 to 10,000,000"),
    (["permutations", "--n", "\u0968"], "--n '\u0968': give a whole number from 0 to 10,000,000"),
    (["permutations", "--n", "5", "--rows", "1_0"], "--rows '1_0': give a whole number from 0 to 10,000,000"),
    (["permutations", "--n", "5", "--repeat", "\u00b3"],
     "--repeat '\u00b3': give a whole number from 1 to 1,000,000,000"),
    (["bytes", "--count", "10\n"],
     "--count '10\\n': give a whole number, optionally with K, M, G or T (x1024)"),
]


@pytest.mark.parametrize(("args", "message"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_out_of_bounds_and_strange_digits_are_one_line(seed_file, args, message):
    refused(rng(seed_file, *args), message)


def test_a_label_part_that_would_add_a_line_is_refused(seed_file):
    result = CliRunner().invoke(app, ["rng", "bytes", "--count", "1", "--seed-file", str(seed_file),
                                      "--part", "poolgen/v1", "--part", "a\nwrote 0 bytes"])
    refused(result, "--part 'a\\nwrote 0 bytes': a label part is 1 to 256 printable characters")


def test_the_largest_values_still_dump(seed_file, tmp_path):
    result = rng(seed_file, "bytes", "--count", "1K", "--skip", "64K", "--format", "hex")
    assert result.exit_code == 0 and len(result.stdout.split()) == 32
    result = rng(seed_file, "integers", "--high", str(2**63 - 1), "--count", "3", "--repeat", "2")
    assert result.exit_code == 0 and len(result.stdout.split()) == 6


NUMBERS = st.text(alphabet=st.sampled_from("0123456789KMGT_-+ ,.\n\u0665\uff11\u00b3e"), max_size=5)


@settings(max_examples=60, deadline=None)
@given(option=st.sampled_from(["--count", "--repeat", "--high", "--skip"]), text=NUMBERS)
def test_any_text_in_a_number_is_a_dump_or_one_line(seed_file, option, text):
    if option == "--skip" and text.rstrip().endswith(("G", "T")):
        text = text.rstrip()[:-1]  # a valid skip of gigabytes takes seconds: its bound is tested above
    args = {"--count": "1", "--repeat": "1", "--high": "7", "--skip": "0"} | {option: text}
    if option in ("--count", "--repeat"):  # keep a dump small: at most 9,999 values
        args[option] = text = "".join(c for c in text if c not in "KMGT")[:4]
    result = rng(seed_file, "integers", *[x for kv in args.items() for x in kv])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        assert all(v.isdigit() for v in result.stdout.split())
        assert all(c in "0123456789KMGT," for c in text) and text
    else:
        assert result.exit_code == 2 and result.stdout == "", result.output
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("poolgen: error: "), lines
