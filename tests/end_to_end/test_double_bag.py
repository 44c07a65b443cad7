"""Double Bag (specs/examples/double_bag.toml, a designed key-number game with a "DBL: double all
prizes won" BONUS box, docs/styles/ticket_multiplier.md) end to end from the command line: a full pool
generates (signed), verifies every step with the spec and the seed, and its proof PDF shows the moneybag
on exactly the specimens of the multiplied tiers, each paying twice its other wins; and audit's step 4
engines refuse the pool's rows tampered into an unpaid multiplier."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from pypdf import PdfReader

from audit.styles.play import evaluate_play
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke

SPEC = ROOT / "specs" / "examples" / "double_bag.toml"
MULTIPLIED = ["10x", "20x", "50x", "100x", "200x", "250x", "500x", "1000x"]
DBL = 4  # the moneybag's code in the bonus box (after its four pictures)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("double_bag")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    made = invoke("generate", SPEC, "--out", root / "runs", "--seed-file", root / "run.seed", "--pool", "p1",
                  "--run-id", "db", "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    return root


def test_a_full_pool_verifies_every_step(run):
    result = invoke("verify", run / "runs" / "db", "--public-key", run / "keys" / "signing-key.pub.pem",
                    "--spec", SPEC, "--seed-file", run / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [s["status"] for s in steps] == ["pass"] * 9
    assert "audit.styles (key_number_match, ticket_multiplier)" in steps[3]["details"][0]


def test_the_proof_shows_the_moneybag_on_exactly_the_multiplied_specimens(run):
    result = invoke("proof", run / "runs" / "db", "--spec", SPEC, "--out", run / "proof.pdf")
    assert result.exit_code == 0, result.output
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(run / "proof.pdf").pages][2:]
    tiers = [text.split(", tier ")[1].split(":")[0] if ", tier " in text else "lose" for text in pages]
    shown = [t for t, text in zip(tiers, pages, strict=True) if "Symbol of a moneybag (DBL) revealed" in text]
    assert shown == MULTIPLIED  # its line first: never among the lines cut for room (25 wins)
    page = pages[tiers.index("250x")]
    assert "THIS LAYOUT PAYS $250.00" in page and "every prize won on the ticket is paid 2 times" in page


def test_rows_tampered_into_an_unpaid_multiplier_are_illegal(run):
    folder = run / "runs" / "db"
    manifest = json.loads((folder / "manifest.json").read_text())
    table = pl.read_parquet(folder / "pool-p1.parquet")
    tier = table["tier"].to_numpy()
    loser = int(np.flatnonzero(tier == "lose")[0])
    doubled = int(np.flatnonzero(tier == "20x")[0])
    single = int(np.flatnonzero(tier == "20")[0])
    box = table["bonus_spot_0"].to_numpy().copy()
    box[[loser, single]] = DBL  # a moneybag on a loser and on a winner whose tier is not multiplied
    box[doubled] = 0  # a multiplied ticket without its moneybag
    tampered = table.with_columns(pl.Series("bonus_spot_0", box, dtype=pl.UInt8))
    result = evaluate_play(tampered, manifest["pools"][0], manifest["play"])
    ticket = tampered["ticket"]
    assert {int(r): why for r, why in result.illegal} == {
        loser: "a ticket-wide multiplier x2 on a ticket with no other win; its wins are not its tier "
               "'lose''s (0 win(s) paying 0 cents)",
        single: "its wins are not its tier '20''s (1 win(s) paying 4000 cents)",
        doubled: "its wins are not its tier '20x''s (1 win(s) paying 1000 cents)"}, [ticket[r] for r, _ in
                                                                                       result.illegal]
    assert int(result.prize_cents[doubled]) == 1000 and int(result.prize_cents[single]) == 4000
