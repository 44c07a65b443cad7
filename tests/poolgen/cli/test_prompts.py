"""Every prompt of poolgen (poolgen/cli/prompts.py) asks a terminal only, as gh does: with standard input a
pipe holding answers, or /dev/null, the command reads nothing, refuses in one line (exit 2) naming the
option or variable that answers instead, and changes nothing. Real processes; the terminal side is
tests/support/terminal.py's (tests/poolgen/cli/test_keys.py, tests/poolgen/seeds/test_ceremony.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from poolgen.run.signing import new_key_pair
from poolgen.seeds.ceremony_file import load
from tests.support import SEED_A, small_happy_holidays
from tests.support.ceremony import BEFORE, key, new, round_file

ROOT = Path(__file__).resolve().parents[3]
NOT_A_TERMINAL = "standard input is not a terminal, so nothing is asked"
STDINS = {"pipe": b"vendor\ny\ny\ntyped\ntyped\n", "devnull": None}  # answers a pipe would have given


def _poolgen(args: list[object], stdin: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "POOLGEN_TEST_NOW": BEFORE, **env}
    environment.pop("POOLGEN_KEY_PASSPHRASE", None)
    given = STDINS[stdin]
    return subprocess.run([sys.executable, "-m", "poolgen", *map(str, args)], cwd=ROOT, env=environment,
                          input=given, stdin=None if given is not None else subprocess.DEVNULL,
                          capture_output=True, timeout=120)


def _refused(done: subprocess.CompletedProcess[bytes], message: str) -> None:
    assert (done.returncode, done.stderr.decode()) == (2, f"poolgen: error: {message}\n")


@pytest.mark.parametrize("stdin", STDINS)
def test_ceremony_prompts_refuse_without_a_terminal_naming_the_option(tmp_path, stdin):
    file = new(tmp_path)
    before = file.read_bytes()
    contribution = tmp_path / "vendor.contribution"
    _refused(_poolgen(["ceremony", "commit", file], stdin),
             f"--party or --key: missing ({NOT_A_TERMINAL}; give --party or --key)")
    _refused(_poolgen(["ceremony", "commit", file, "--key", key(file, "vendor")], stdin),
             f"--contribution: missing ({NOT_A_TERMINAL}; give --contribution)")
    for args in (["ceremony", "commit", file, "--key", key(file, "vendor"), "--contribution", contribution],
                 ["ceremony", "abort", file, "--key", key(file, "vendor"), "--reason", "r"]):
        _refused(_poolgen(args, stdin), f"not confirmed; nothing was changed ({NOT_A_TERMINAL}; give --yes "
                                        f"to confirm)")
    assert file.read_bytes() == before and not contribution.exists()


@pytest.mark.parametrize("stdin", ["pipe"])  # /dev/null meets the same gate (poolgen/cli/prompts.py): above
def test_ceremony_reveal_and_seal_confirmations_refuse_without_a_terminal(tmp_path, stdin):
    file = new(tmp_path)
    for party in ("vendor", "lottery", "auditor"):
        done = _poolgen(["ceremony", "commit", file, "--key", key(file, party), "--contribution",
                         tmp_path / f"{party}.contribution", "--yes"], stdin)
        assert done.returncode == 0, done.stderr
    committed = file.read_bytes()
    _refused(_poolgen(["ceremony", "reveal", file, "--key", key(file, "vendor"), "--contribution",
                       tmp_path / "vendor.contribution"], stdin),
             f"not confirmed; nothing was changed ({NOT_A_TERMINAL}; give --yes to confirm)")
    assert file.read_bytes() == committed and load(file).reveals == [None, None, None]
    for party in ("vendor", "lottery", "auditor"):
        done = _poolgen(["ceremony", "reveal", file, "--key", key(file, party), "--contribution",
                         tmp_path / f"{party}.contribution", "--yes"], stdin)
        assert done.returncode == 0, done.stderr
    revealed = file.read_bytes()
    _refused(_poolgen(["ceremony", "seal", file, "--round", round_file(tmp_path)], stdin,
                      POOLGEN_TEST_NOW="2023-08-23T16:00:00Z"),
             f"not confirmed; nothing was changed ({NOT_A_TERMINAL}; give --yes to confirm)")
    assert file.read_bytes() == revealed and load(file).sealed is None


@pytest.mark.parametrize("stdin", STDINS)
def test_a_passphrase_is_never_read_from_a_pipe(tmp_path, stdin):
    _refused(_poolgen(["keys", "new", tmp_path / "k", "--passphrase"], stdin),
             f"no passphrase given ({NOT_A_TERMINAL}; set POOLGEN_KEY_PASSPHRASE)")
    assert not (tmp_path / "k").exists()
    keys = new_key_pair(tmp_path / "enc", b"typed")
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    _refused(_poolgen(["generate", small_happy_holidays(tmp_path, 3000), "--out", tmp_path / "o", "--run-id",
                       "r", "--seed-file", seed, "--key", keys.private, "--workers", "1"], stdin),
             f"{keys.private}: the private key is encrypted; no passphrase given ({NOT_A_TERMINAL}; set "
             "POOLGEN_KEY_PASSPHRASE)")  # the key named: a command may read several secret files
    assert not (tmp_path / "o" / "r").exists()


@pytest.mark.parametrize("stdin", STDINS)
def test_an_encrypted_party_key_without_a_passphrase_is_named(tmp_path, stdin):
    """`ceremony commit --key K` (K encrypted) said only "no passphrase given", naming no key."""
    new_key_pair(tmp_path / "vendor-keys", b"typed")
    file = new(tmp_path)
    before = file.read_bytes()
    _refused(_poolgen(["ceremony", "commit", file, "--key", key(file, "vendor"), "--contribution",
                       tmp_path / "vendor.contribution"], stdin),
             f"{key(file, 'vendor')}: the private key is encrypted; no passphrase given ({NOT_A_TERMINAL}; "
             "set POOLGEN_KEY_PASSPHRASE)")
    assert file.read_bytes() == before and not (tmp_path / "vendor.contribution").exists()


@pytest.mark.parametrize("command", ["keys new", "generate"])
def test_a_passphrase_variable_of_bytes_that_are_not_utf8_is_one_line(tmp_path, command):
    """POOLGEN_KEY_PASSPHRASE=$'\\xff\\xfe' reaches Python as surrogates: until 2026-12-04 encoding them was
    a UnicodeEncodeError traceback (exit 1) for every command that takes a passphrase."""
    out = tmp_path / "made"
    if command == "keys new":
        args: list[object] = ["keys", "new", out, "--passphrase"]
    else:
        new_key_pair(tmp_path / "keys", b"secret")
        seed = tmp_path / "s.seed"
        seed.write_text(SEED_A.hex() + "\n")
        seed.chmod(0o600)
        args = ["generate", small_happy_holidays(tmp_path, 3000), "--key",
                tmp_path / "keys" / "signing-key.pem", "--seed-file", seed, "--out", out, "--workers", "1"]
    environment = {**os.environb, b"PYTHONPATH": str(ROOT).encode(), b"POOLGEN_KEY_PASSPHRASE": b"\xff\xfe"}
    done = subprocess.run([sys.executable, "-m", "poolgen", *map(str, args)], cwd=ROOT, env=environment,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    _refused(done, "POOLGEN_KEY_PASSPHRASE: the passphrase is not UTF-8 text (a key's passphrase is text, "
                   "the same typed at a prompt)")
    assert not out.exists()
