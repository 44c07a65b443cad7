"""`python -m audit check-proof`'s verdict line (audit/proof.py) is read by a player checking a ticket: it
said `prize_cents 1000` where a ticket says $10.00. It states the prize as money, or `no prize`; the
JSON keeps `prize_cents`. On a small signed Happy Holidays order (pools of 3,000)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from tests.support import SEED_A, small_happy_holidays
from tests.support.cli import invoke
from tests.support.virns import virn_of


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> tuple[Path, Path, str]:
    root = tmp_path_factory.mktemp("proofs")
    seed = root / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    keys = invoke("keys", "new", root / "keys")
    assert keys.exit_code == 0, keys.output
    made = invoke("generate", small_happy_holidays(root, 3000), "--out", root / "runs", "--seed-file", seed,
                  "--run-id", "hh", "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    return root / "runs" / "hh", root / "keys" / "signing-key.pub.pem", keys.stdout.split(": ")[1].strip()


@pytest.mark.parametrize(("cents", "said"), [(200, "prize $2.00"), (0, "no prize")])
def test_the_verdict_states_the_prize_as_money(signed, tmp_path, cents, said):
    run, public, fingerprint = signed
    pool = pl.read_parquet(run / "pool-p1.parquet", columns=["position", "ticket", "prize_cents"])
    position, ticket, _ = pool.filter(pl.col("prize_cents") == cents).row(0)
    proof = invoke("merkle-proof", run, ticket, virn_of(run, ticket), "--json")
    assert proof.exit_code == 0, proof.output
    (tmp_path / "claim.json").write_text(proof.stdout)
    args = ["check-proof", str(tmp_path / "claim.json"), str(run / "manifest.json"), "--public-key",
            str(public)]
    checked = CliRunner().invoke(audit_app, args)
    text = (f"valid proof: ticket {ticket} (pool p1, position {position:,} of 3,000, {said}) belongs to the "
            f"pool signed by key {fingerprint}")
    assert checked.exit_code == 0 and checked.stdout == text + "\n"
    as_json = json.loads(CliRunner().invoke(audit_app, [*args, "--json"]).stdout)
    assert (as_json["prize_cents"], as_json["text"]) == (cents, text)
