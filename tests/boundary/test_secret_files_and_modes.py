"""Secret files others may read are refused unless allowed; every file and folder a command makes
has an explicit mode, whatever the umask; temporary files an interrupted command left are cleared."""

from __future__ import annotations

import json
import os
import shutil
import stat

from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import SEED_A, spec_path
from tests.support.cli import one_line as _one_line

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


def test_validation_and_book_keys_others_may_read_are_refused_unless_allowed(printed_run, tmp_path):
    """A validation key opens every prize of its tier: generate, validate, claims reconcile and both
    verifiers refuse one its group or others may read, as they refuse a seed or private key."""
    low, high = tmp_path / "low.key", tmp_path / "high.key"
    for key in (low, high):
        shutil.copy(printed_run / key.name, key)
    low.chmod(0o644)
    run = printed_run / "runs" / "r"
    keys = ["--validation-key", str(low), "--high-validation-key", str(high)]
    refused = (f"{low}: the validation key file is mode 0644: others may read it; make it private "
               "(chmod 600) or give --allow-readable-secret")
    spec = next(printed_run.glob("*.toml"))
    seed = printed_run / "s.seed"
    generate = ["generate", str(spec), "--out", str(tmp_path / "out"), "--seed-file", str(seed), "--unsigned"]
    for command in ([*generate, *keys], [*generate, "--book-key", str(low)],
                    ["validate", str(run), "465-0000001-001", "000000000000", *keys],
                    ["claims", "reconcile", str(run), "--ledger", str(tmp_path / "none.sqlite"), *keys]):
        _one_line(CliRunner().invoke(app, command), "poolgen", refused)
    public = str(printed_run / "keys" / "signing-key.pub.pem")
    for application, prefix in ((audit_app, "audit"), (app, "poolgen")):
        verified = CliRunner().invoke(application, ["verify", str(run), "--public-key", public, *keys])
        _one_line(verified, prefix, refused)
    allowed = CliRunner().invoke(app, ["validate", str(run), "465-0000001-001", "000000000000", *keys,
                                       "--allow-readable-secret", "--public-key", public])
    assert allowed.exit_code == 1 and "readable" not in allowed.output, allowed.output  # answered: refused
    assert low.read_bytes() == (printed_run / "low.key").read_bytes()
