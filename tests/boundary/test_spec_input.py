"""Every hostile input of issue 16, in `check` and `generate` alike: one line, exit 2, no traceback.

Specs (parser limits, decimal arithmetic, unbounded sizes, layout tables), special files (a FIFO,
/dev/zero, a file name that is not UTF-8), run files (deep or malformed manifests, random or deep
claims), secret files others may read, and modes under umask 000.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import SEED_A, spec_path


def _one_line(result, prefix: str, message: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{prefix}: error: "), lines
    assert message in lines[0], (message, lines[0])
    assert "Traceback" not in result.output


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
                  "published.odds: '1E-999999999' is out of range"),
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
              f"{spec}: larger than 1,048,576 bytes; not a spec file")


# ---- run files ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A small signed run (one Happy Holidays pool) and a proof of one ticket."""
    root = tmp_path_factory.mktemp("run")
    keys = CliRunner().invoke(app, ["keys", "new", str(root / "keys")])
    assert keys.exit_code == 0, keys.output
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = CliRunner().invoke(app, ["generate", str(spec_path("happy_holidays")), "--pool", "p1", "--out",
                                    str(root / "runs"), "--run-id", "r", "--seed-file", str(seed), "--key",
                                    str(root / "keys" / "signing-key.pem"), "--workers", "1"])
    assert made.exit_code == 0, made.output
    ticket = pl.read_parquet(root / "runs" / "r" / "pool-p1.parquet", columns=["ticket"])["ticket"][7]
    proof = CliRunner().invoke(app, ["prove", str(root / "runs" / "r"), ticket, "--json"])
    assert proof.exit_code == 0, proof.output
    (root / "claim.json").write_text(proof.stdout)
    (root / "ticket").write_text(ticket)  # book numbers are a secret permutation: read, not computed
    return root


MANIFESTS = {  # name: (edit of manifest.json's text, message)
    "deep nesting": (lambda t: t[:-1] + ',"x":' + "[" * 3000 + "]" * 3000 + "}",
                     "not a usable manifest: nested more than 32 deep"),
    "NaN": (lambda t: re.sub(r'"tickets":\d+', '"tickets":NaN', t, count=1),
            "not a usable manifest: NaN; canonical documents hold no NaN or infinity"),
    "1e400": (lambda t: re.sub(r'"tickets":\d+', '"tickets":1e400', t, count=1),
              "not a usable manifest: a fractional number (1e400); canonical documents hold none"),
    "5,000 digits": (lambda t: re.sub(r'"tickets":\d+', '"tickets":' + "9" * 5000, t, count=1),
                     "not a usable manifest: an integer of more than 30 digits"),
}


@pytest.mark.parametrize("case", list(MANIFESTS))
@pytest.mark.parametrize("verifier", ["poolgen", "audit"])
def test_malformed_manifest_is_unusable_input(run, tmp_path, case, verifier):
    edit, message = MANIFESTS[case]
    bad = tmp_path / "r"
    shutil.copytree(run / "runs" / "r", bad)
    (bad / "manifest.json").write_text(edit((bad / "manifest.json").read_text()))
    key = str(run / "keys" / "signing-key.pub.pem")
    result = CliRunner().invoke(app if verifier == "poolgen" else audit_app,
                                ["verify", str(bad), "--public-key", key])
    _one_line(result, "audit", f"{bad / 'manifest.json'}: {message}")
    claim = CliRunner().invoke(audit_app, ["check-proof", str(run / "claim.json"), str(bad / "manifest.json"),
                                           "--public-key", key])
    _one_line(claim, "audit", f"{bad / 'manifest.json'}: {message}")
    if verifier == "poolgen":  # poolgen's own readers of a run folder pass the same boundary
        proved = CliRunner().invoke(app, ["prove", str(bad), (run / "ticket").read_text()])
        _one_line(proved, "poolgen", f"{bad / 'manifest.json'}: {message}")


CLAIMS = {
    "random bytes": (bytes(range(256)) * 4, "not a JSON proof: not UTF-8 text (byte 128)"),
    "deep nesting": (b"[" * 3000 + b"]" * 3000, "not a proof: nested more than 32 deep"),
    "a huge integer": (b'{"position": ' + b"7" * 5000 + b"}",
                       "not a usable proof: an integer of more than 30"),
    "infinity": (b'{"position": Infinity}', "not a usable proof: Infinity; canonical documents hold no NaN"),
}


@pytest.mark.parametrize("case", list(CLAIMS))
def test_hostile_claims(run, tmp_path, case):
    data, message = CLAIMS[case]
    claim = tmp_path / "claim.json"
    claim.write_bytes(data)
    result = CliRunner().invoke(audit_app, ["check-proof", str(claim),
                                            str(run / "runs" / "r" / "manifest.json"),
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem")])
    _one_line(result, "audit", f"{claim}: {message}")


def test_the_honest_claim_still_checks(run):
    result = CliRunner().invoke(audit_app, ["check-proof", str(run / "claim.json"),
                                            str(run / "runs" / "r" / "manifest.json"),
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem")])
    ticket = (run / "ticket").read_text()
    assert result.exit_code == 0 and result.stdout.startswith(f"valid proof: ticket {ticket}")


# ---- secrets and modes ----------------------------------------------------------------------------

def test_secrets_others_may_read_are_refused_unless_allowed(run, tmp_path):
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o644)
    key = tmp_path / "signing-key.pem"
    shutil.copy(run / "keys" / "signing-key.pem", key)
    key.chmod(0o640)
    base = ["generate", str(spec_path("happy_holidays")), "--pool", "p1", "--out", str(tmp_path / "out"),
            "--workers", "1"]
    _one_line(CliRunner().invoke(app, [*base, "--seed-file", str(seed), "--unsigned"]), "poolgen",
              f"{seed}: the seed file is mode 0644: others may read it; make it private (chmod 600) or give "
              "--allow-readable-secret")
    seed.chmod(0o600)
    _one_line(CliRunner().invoke(app, [*base, "--seed-file", str(seed), "--key", str(key)]), "poolgen",
              f"{key}: the private key file is mode 0640: others may read it")
    seed.chmod(0o604)
    audited = CliRunner().invoke(audit_app, ["verify", str(run / "runs" / "r"), "--public-key",
                                             str(run / "keys" / "signing-key.pub.pem"),
                                             "--seed-file", str(seed),
                                             "--spec", str(spec_path("happy_holidays"))])
    _one_line(audited, "audit", f"{seed}: the seed file is mode 0604: others may read it")
    allowed = CliRunner().invoke(app, [*base, "--seed-file", str(seed), "--key", str(key),
                                       "--allow-readable-secret", "--run-id", "ok"])
    assert allowed.exit_code == 0, allowed.output


def test_every_file_and_folder_has_an_explicit_mode_under_umask_000(tmp_path):
    old = os.umask(0)
    try:
        keys = CliRunner().invoke(app, ["keys", "new", str(tmp_path / "a" / "b" / "keys")])
        seeded = CliRunner().invoke(app, ["seed", "new", str(tmp_path / "c" / "s.seed")])
        made = CliRunner().invoke(app, ["generate", str(spec_path("happy_holidays")), "--pool", "p1",
                                        "--out", str(tmp_path / "d" / "out"), "--run-id", "r", "--unsigned",
                                        "--workers", "1"])
    finally:
        os.umask(old)
    assert keys.exit_code == seeded.exit_code == made.exit_code == 0, (keys.output, seeded.output,
                                                                        made.output)
    modes = {str(p.relative_to(tmp_path)): stat.S_IMODE(p.stat().st_mode)
             for p in sorted(tmp_path.rglob("*"))}
    assert modes == {
        "a": 0o700, "a/b": 0o700, "a/b/keys": 0o700, "a/b/keys/signing-key.pem": 0o600,
        "a/b/keys/signing-key.pub.pem": 0o644,
        "c": 0o700, "c/s.seed": 0o600,
        "d": 0o755, "d/out": 0o755, "d/out/r": 0o700, "d/out/r.seed": 0o600,
        "d/out/r/manifest.json": 0o644, "d/out/r/pool-p1.parquet": 0o600,
        "d/out/r/imaging-p1.parquet": 0o600, "d/out/r/packs.csv": 0o644,  # the pack list holds no outcome
    }


def test_keys_new_clears_temporary_files_a_killed_run_left(tmp_path):
    folder = tmp_path / "keys"
    folder.mkdir()
    stale = folder / ".signing-key.pem.tmp-0123abcd"
    stale.write_bytes(b"-----BEGIN PRIVATE KEY-----\n")
    result = CliRunner().invoke(app, ["keys", "new", str(folder)])
    assert result.exit_code == 0, result.output
    assert f"removed {stale}: a temporary file of an interrupted command" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["signing-key.pem", "signing-key.pub.pem"]
    json.dumps(result.stdout)
