"""The signed run the boundary's run-file and secret-file tests share."""

from __future__ import annotations

import polars as pl
import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from tests.support import SEED_A, small_happy_holidays
from tests.support.virns import virn_of


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    """A small signed run (Happy Holidays cut to one pool of 3,000 tickets, tests/support
    `small_happy_holidays`) and a proof of one ticket (claim.json): the run whose files
    test_run_file_input.py damages, whose key and seed test_secret_files_and_modes.py hands over with
    modes others may read, and that test_closed_stdout.py verifies into a closed pipe (none of which
    depends on the pool's size; until 2026-12-03 it was a full pool of 300,000)."""
    root = tmp_path_factory.mktemp("run")
    keys = CliRunner().invoke(app, ["keys", "new", str(root / "keys")])
    assert keys.exit_code == 0, keys.output
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = CliRunner().invoke(app, ["generate", str(small_happy_holidays(root, 3000)), "--pool", "p1",
                                    "--out", str(root / "runs"), "--run-id", "r", "--seed-file", str(seed),
                                    "--key", str(root / "keys" / "signing-key.pem"), "--workers", "1"])
    assert made.exit_code == 0, made.output
    ticket = pl.read_parquet(root / "runs" / "r" / "pool-p1.parquet", columns=["ticket"])["ticket"][7]
    proof = CliRunner().invoke(app, ["prove", str(root / "runs" / "r"), ticket,
                                     virn_of(root / "runs" / "r", ticket), "--json"])
    assert proof.exit_code == 0, proof.output
    (root / "claim.json").write_text(proof.stdout)
    (root / "ticket").write_text(ticket)  # book numbers are a secret permutation: read, not computed
    return root


@pytest.fixture(scope="session")
def printed_run(tmp_path_factory):
    """A small signed printed run with every deliverable: Happy Holidays cut to one pool of 3,000
    tickets (tests/support `small_happy_holidays`), generated with low- and high-tier validation keys
    (low.key, high.key): the run test_run_folder_files.py puts hostile files into."""
    root = tmp_path_factory.mktemp("printed")
    for command in (["keys", "new", str(root / "keys")], ["keys", "validation", "new", str(root / "low.key")],
                    ["keys", "validation", "new", str(root / "high.key")]):
        made = CliRunner().invoke(app, command)
        assert made.exit_code == 0, made.output
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    spec = small_happy_holidays(root, 3000)
    made = CliRunner().invoke(app, ["generate", str(spec), "--out", str(root / "runs"), "--run-id", "r",
                                    "--seed-file", str(seed), "--key",
                                    str(root / "keys" / "signing-key.pem"), "--workers", "1",
                                    "--validation-key", str(root / "low.key"),
                                    "--high-validation-key", str(root / "high.key")])
    assert made.exit_code == 0, made.output
    return root
