"""`poolgen generate` on the command line: seed files, output folders, run ids, interrupts, and
every bad input."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from tests.support import ASSETS, SEED_A, spec_path
from tests.support.cli import invoke


def _seed_file(tmp_path, content: bytes = SEED_A.hex().encode() + b"\n"):
    path = tmp_path / "run.seed"
    path.write_bytes(content)
    path.chmod(0o600)  # a seed file others may read is refused
    return path


def test_generate_with_a_fresh_seed_saves_it_beside_the_run(tmp_path):
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--pool", "p1",
                    "--run-id", "r1", "--workers", "1", "--unsigned")
    assert result.exit_code == 0, result.output
    seed_file = out / "r1.seed"
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    assert sorted(p.name for p in (out / "r1").iterdir()) == [
        "imaging-p1.parquet", "manifest.json", "packs.csv", "pool-p1.parquet"]
    assert f"new seed saved to {seed_file}" in result.stderr
    assert seed_file.read_text().strip() not in result.output


@pytest.mark.parametrize(("content", "message"), [
    (b"abcd\n", "seed is 2 bytes; a seed is 32 bytes (64 hex digits)"),
    (b"zz" * 32, "seed file must hold 64 hex digits"),
])
def test_bad_seed_file(tmp_path, content, message):
    seed = _seed_file(tmp_path, content)
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--seed-file", str(seed))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"poolgen: error: {seed}: {message}"
    assert not out.exists()


def test_missing_seed_file(tmp_path):
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(tmp_path / "o"),
                    "--seed-file", str(tmp_path / "nope.seed"))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"poolgen: error: {tmp_path / 'nope.seed'}: seed file not found"


@pytest.mark.parametrize(("option", "content", "message"), [
    ("--key", b"not a key\n", "not a PEM private key"),
    ("--seed-file", None, "seed file not found"),
    ("--book-key", b"\x00" * 64, "a validation key file holds 64 hex digits"),
    ("--high-tier-prize", None, None),
], ids=["key", "seed-file", "book-key", "high-tier-prize"])
def test_a_refused_input_leaves_no_output_folder(tmp_path, option, content, message):
    """Every input is read before --out is made: a refused key, seed or threshold leaves no empty
    OUT/parents behind (until 2026-12-04 OUT was created first, then the key refused)."""
    given = tmp_path / "given"
    if content is not None:
        given.write_bytes(content)
        given.chmod(0o600)
    value = "ten dollars" if option == "--high-tier-prize" else str(given)
    out = tmp_path / "new" / "out"
    args = ["generate", str(spec_path("happy_holidays")), "--out", str(out), "--pool", "p1", "--workers", "1",
            option, value]
    if option != "--seed-file":
        args += ["--seed-file", str(_seed_file(tmp_path))]
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("poolgen: error: ")
    if message is not None:
        assert result.stderr.strip() == f"poolgen: error: {given}: {message}"
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize(("value", "why"), [
    ("ten dollars", "'ten dollars' is not an amount; give an amount such as 600.00"),
    ("600.005", "'600.005' has fractions of a cent; give an amount such as 600.00"),
    ("0", "give an amount above 0, such as 600.00"),
])
def test_a_high_tier_prize_that_is_no_amount_says_why(tmp_path, value, why):
    """A bare `except Exception` turned every refusal into "give an amount such as 600.00", hiding that
    600.005 has fractions of a cent; the line now says what is wrong with the value."""
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(tmp_path / "out"), "--pool",
                    "p1", "--seed-file", str(_seed_file(tmp_path)), "--unsigned", "--high-tier-prize", value)
    assert (result.exit_code, result.stderr) == (2, f"poolgen: error: --high-tier-prize {value!r}: {why}\n")


def test_a_high_tier_prize_is_read_in_the_games_currency():
    """A pound game's `--high-tier-prize £600` was refused as "not an amount in USD" (review10b): the
    threshold is read as every amount of the game is, bare or in its own sign, another currency's refused."""
    from poolgen.cli.generate import parse_threshold
    from poolgen.deliverables.validation import ValidationError
    from poolgen.money import CURRENCIES

    pounds = CURRENCIES["GBP"]
    assert (parse_threshold("£600", pounds), parse_threshold("600.00", pounds)) == (60_000, 60_000)
    assert parse_threshold("$600") == 60_000
    with pytest.raises(ValidationError) as info:
        parse_threshold("$600", pounds)
    assert str(info.value) == ("--high-tier-prize '$600': '$600' is not an amount in GBP: its sign '$' is "
                               "another currency's (the game's is '£'); give an amount such as 600.00")


def test_unknown_pool_id(tmp_path):
    seed = _seed_file(tmp_path)
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--seed-file", str(seed),
                    "--pool", "p9")
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"poolgen: error: {spec_path('happy_holidays')}: no pool 'p9' "
                                     "(pools: p1, p2, p3, p4, p5, p6)")
    assert not out.exists()


def test_a_pool_named_twice_leaves_no_output_folder(tmp_path):
    """Refused as every input is, before OUT is made (until 2026-12-04 an empty OUT was left behind)."""
    out = tmp_path / "new" / "out"
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--seed-file",
                    str(_seed_file(tmp_path)), "--pool", "p1", "--pool", "p1")
    said = f"poolgen: error: {spec_path('happy_holidays')}: a pool id is named twice: p1, p1\n"
    assert (result.exit_code, result.stderr) == (2, said)
    assert not (tmp_path / "new").exists()


def test_unwritable_output_folder(tmp_path):
    seed = _seed_file(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(blocker / "runs"),
                    "--seed-file", str(seed), "--pool", "p1", "--unsigned")
    assert result.exit_code == 2
    message = f"poolgen: error: {blocker / 'runs'}: cannot create output folder"
    assert result.stderr.strip().startswith(message)
    assert "Traceback" not in result.output


def test_existing_run_folder_is_never_overwritten(tmp_path):
    seed = _seed_file(tmp_path)
    (tmp_path / "out" / "r").mkdir(parents=True)
    (tmp_path / "out" / "r" / "keep.txt").write_text("precious")
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(tmp_path / "out"),
                    "--seed-file", str(seed), "--pool", "p1", "--run-id", "r")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"poolgen: error: {tmp_path / 'out' / 'r'}: already exists; " \
                                    "a run folder is never overwritten"
    assert (tmp_path / "out" / "r" / "keep.txt").read_text() == "precious"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_run_leaves_no_run_folder(tmp_path, sig):
    seed = _seed_file(tmp_path)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "poolgen", "generate", str(spec_path("primetime_payout")), "--out", str(out),
         "--seed-file", str(seed), "--run-id", "r", "--workers", "1", "--unsigned"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "100"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(out.glob(".r.partial-*/pool-*.parquet")):
        time.sleep(0.05)
    assert any(out.glob(".r.partial-*/pool-*.parquet")), "the run never started writing"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig  # 130 for SIGINT, 143 for SIGTERM
    assert b"interrupted" in err and b"Traceback" not in err
    assert not (out / "r").exists()
    assert list(out.glob(".r.partial-*")) == []


@pytest.mark.parametrize("run_id", ["../escape", "a/b", ".hidden", "-x"])
def test_run_id_is_one_plain_folder_name(tmp_path, run_id):
    seed = _seed_file(tmp_path)
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--seed-file", str(seed),
                    "--pool", "p1", "--run-id", run_id, "--unsigned")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"poolgen: error: --run-id {run_id!r}: use letters, digits")
    assert not (tmp_path / "escape").exists()


def test_an_empty_run_id_is_refused_not_taken_for_the_default(tmp_path):
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--pool", "p1",
                    "--run-id", "", "--unsigned")
    assert result.exit_code == 2
    assert result.stderr == "poolgen: error: --run-id '': use letters, digits, '.', '_' and '-' only, " \
                            "starting with a letter or digit (one folder name, at most 128 characters)\n"
    assert not out.exists()


def test_a_seed_is_never_written_inside_a_run_folder(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    result = invoke("seed", "new", str(run / "s.seed"))
    assert result.exit_code == 2
    assert "would put a seed inside a run folder" in result.stderr
    assert not (run / "s.seed").exists()


@pytest.mark.parametrize("command", ["check", "generate"])
def test_a_tier_whose_wins_do_not_add_up_is_refused_before_anything_is_made(tmp_path, command):
    """tier t02 names a $10 win for a $5 prize: a spec of play styles proves its tiers as it loads."""
    out = tmp_path / "out"
    extra = ["--out", str(out), "--seed-file", str(_seed_file(tmp_path)), "--pool", "p1", "--run-id", "r",
             "--unsigned", "--workers", "1"] if command == "generate" else []
    result = invoke(command, str(ASSETS / "spec_wins_exceed_prize.toml"), *extra)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.strip().splitlines() == [
        f"poolgen: error: {ASSETS / 'spec_wins_exceed_prize.toml'}: tiers[1].prize: 500 cents, but its "
        "wins add up to "
        "1000 cents"]
    assert not out.exists()


def _pay_every_loser_a_bonus(monkeypatch):
    """Fault injection into our own generator (no crypto, no I/O): the bonus_reveal layout shows
    a WIN$10 in spot 0 of every losing row (groups[0]), which the independent self-check must catch."""
    from poolgen.styles import bonus_reveal

    real = bonus_reveal.lay_out

    def wrong(area_id, p, groups, n, stream, done, mix):
        out = real(area_id, p, groups, n, stream, done, mix)
        out[f"{area_id}_spot_0"] = out[f"{area_id}_spot_0"].copy()
        out[f"{area_id}_spot_0"][groups[0][0]] = len(p.pictures)  # WIN$10
        return out

    monkeypatch.setattr(bonus_reveal, "lay_out", wrong)


def test_generate_refuses_layouts_that_do_not_pay_their_prize(tmp_path, monkeypatch):
    _pay_every_loser_a_bonus(monkeypatch)
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("wild_side")), "--out", str(out), "--seed-file",
                    str(_seed_file(tmp_path)), "--pool", "p1", "--run-id", "r", "--unsigned",
                    "--workers", "1")
    assert result.exit_code == 2
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith(f"poolgen: error: {spec_path('wild_side')}: pool p1: 100788 layout(s) pay another "
                           "prize and "
                           "100788 break the rules (first: position ")
    assert line.endswith("nothing was written")
    assert not (out / "r").exists() and list(out.glob(".r.partial-*")) == []


def test_a_failed_run_leaves_no_fresh_seed_behind(tmp_path, monkeypatch):
    _pay_every_loser_a_bonus(monkeypatch)
    out = tmp_path / "out"
    result = invoke("generate", str(spec_path("wild_side")), "--out", str(out),
                    "--pool", "p1", "--run-id", "r", "--unsigned", "--workers", "1")
    assert result.exit_code == 2
    assert sorted(p.name for p in out.iterdir()) == []
