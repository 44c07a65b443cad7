"""`poolgen keys new`: a key pair written once, with a passphrase from the environment or the prompt."""

from __future__ import annotations

from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.run.signing import (
    PASSPHRASE_ENV,
    fingerprint,
    load_private_key,
    load_public_key,
)
from tests.support.terminal import on_a_terminal


def test_keys_new_command(tmp_path):
    result = CliRunner().invoke(app, ["keys", "new", str(tmp_path / "k")])
    assert result.exit_code == 0, result.output
    fp = fingerprint(load_public_key(tmp_path / "k" / "signing-key.pub.pem"))
    assert result.stdout == f"public key fingerprint: {fp}\n"
    again = CliRunner().invoke(app, ["keys", "new", str(tmp_path / "k")])
    assert again.exit_code == 2
    assert again.stderr.strip().endswith("signing-key.pem: already exists; not overwriting a key")


def test_keys_new_with_a_passphrase_from_the_environment_or_the_prompt(tmp_path, monkeypatch):
    monkeypatch.setenv(PASSPHRASE_ENV, "from the env")
    result = CliRunner().invoke(app, ["keys", "new", str(tmp_path / "a"), "--passphrase"])
    assert result.exit_code == 0, result.output
    load_private_key(tmp_path / "a" / "signing-key.pem", lambda: b"from the env")
    monkeypatch.delenv(PASSPHRASE_ENV)
    code, shown = on_a_terminal(["keys", "new", str(tmp_path / "b"), "--passphrase"],
                                [("Key passphrase: ", "typed"), ("Repeat for confirmation: ", "typed")],
                                hidden=("Key passphrase: ", "Repeat for confirmation: "))
    assert code == 0, shown
    assert "typed" not in shown  # typed with echo off
    load_private_key(tmp_path / "b" / "signing-key.pem", lambda: b"typed")
    result = CliRunner().invoke(app, ["keys", "new", str(tmp_path / "c"), "--passphrase"], input="typed\n")
    assert result.exit_code == 2  # standard input not a terminal: nothing is asked, nothing read
    assert result.stderr == ("poolgen: error: no passphrase given (standard input is not a terminal, so "
                             "nothing is asked; set POOLGEN_KEY_PASSPHRASE)\n")
    assert not (tmp_path / "c" / "signing-key.pem").exists()
