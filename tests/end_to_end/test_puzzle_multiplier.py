"""BCLC's $5 Deluxe Crossword (specs/examples/bclc_deluxe_crossword.toml), whose PRIZE MULTIPLIER
multiplies PUZZLE 3's prize only (`multiplies`, docs/styles/ticket_multiplier.md section 9), cut to a
pool of 5,000 end to end: it verifies every step with its spec; its box has one law on every ticket
with no PUZZLE 3 win, winner elsewhere or loser (before `multiplies`, every PUZZLE 1, PUZZLE 2, MATCH 3
or INSTANT WORD winner showed 1X, a quarter of losers did); a row whose PUZZLE 3 prize is paid wrongly is
illegal; and a run re-signed without `multiplies` (every prize multiplied) is refused."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest
from pypdf import PdfReader
from scipy.stats import chi2_contingency, chisquare

from audit.cli import app as audit_app
from audit.styles.play import evaluate_play
from poolgen.run.signing import Signer
from tests.end_to_end.test_heldout_examples import cut
from tests.support import SEED_A
from tests.support.cli import invoke
from tests.support.reseal import resign

PUZZLE_3 = {"w20": 1, "w30": 2, "w50": 1, "w200": 1, "w10000": 3}  # tier: its multiplier's code in the box
BOX = "mult_spot_0"  # code 0 the picture 1X, 1 2X, 2 3X, 3 5X


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("bclc")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    spec = cut("bclc_deluxe_crossword", root)
    made = invoke("generate", spec, "--out", root / "runs", "--seed-file", root / "run.seed", "--pool", "p1",
                  "--run-id", "bc", "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    return root


def _table(run):
    return pl.read_parquet(run / "runs" / "bc" / "pool-p1.parquet")


def test_a_cut_of_the_deluxe_crossword_verifies_every_step_with_its_spec_and_seed(run):
    result = invoke("verify", run / "runs" / "bc", "--public-key", run / "keys" / "signing-key.pub.pem",
                    "--spec", run / "bclc_deluxe_crossword.toml", "--seed-file", run / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["pass"] * 9


def test_every_puzzle_3_winner_shows_its_tiers_multiplier(run):
    table = _table(run)
    tier, box = table["tier"].to_numpy(), table[BOX].to_numpy()
    for t, code in PUZZLE_3.items():
        assert (box[tier == t] == code).all(), t


def test_the_box_has_one_uniform_law_on_tickets_with_no_puzzle_3_win_winners_elsewhere_or_losers(run):
    table = _table(run)
    tier, box = table["tier"].to_numpy(), table[BOX].to_numpy()
    uncovered = ~np.isin(tier, list(PUZZLE_3))
    lost, elsewhere = uncovered & (tier == "lose"), uncovered & (tier != "lose")
    observed = np.array([np.bincount(box[lost], minlength=4), np.bincount(box[elsewhere], minlength=4)])
    # SEED_A's draws (repinned when the crossword word list lost 162 words: the grids drawn changed)
    assert observed.tolist() == [[867, 885, 915, 906], [317, 313, 273, 333]]
    assert observed.sum() == int(uncovered.sum()) == 4809
    assert chi2_contingency(observed, correction=False)[1] > 0.01  # one law, winner elsewhere or not
    assert chisquare(observed.sum(axis=0))[1] > 0.01  # each of 1X, 2X, 3X, 5X a quarter


def test_a_multiplier_off_puzzle_3_pays_nothing_more_and_an_unmultiplied_puzzle_3_win_is_illegal(run):
    manifest = json.loads((run / "runs" / "bc" / "manifest.json").read_text())
    table = _table(run)
    tier = table["tier"].to_numpy()
    five, loser, twenty = (int(np.flatnonzero(tier == t)[0]) for t in ("w5", "lose", "w20"))
    box = table[BOX].to_numpy().copy()
    box[[five, loser]] = 3  # a 5X on a PUZZLE 1 winner and on a loser: multiplies nothing
    box[twenty] = 0  # a PUZZLE 3 $10 shown with 1X: pays $10, not its tier's $20
    tampered = table.with_columns(pl.Series(BOX, box, dtype=pl.UInt8))
    result = evaluate_play(tampered, manifest["pools"][0], manifest["play"])
    assert {int(r): why for r, why in result.illegal} == {
        twenty: "its wins are not its tier 'w20''s (1 win(s) paying 1000 cents)"}
    assert [int(result.prize_cents[r]) for r in (five, loser, twenty)] == [500, 0, 1000]
    assert [int(result.wins[r]) for r in (five, loser, twenty)] == [1, 0, 1]


def test_a_run_re_signed_to_multiply_every_prize_is_refused(run, tmp_path):
    folder = tmp_path / "bc"
    folder.mkdir()
    for f in (run / "runs" / "bc").iterdir():
        if f.is_file():
            (folder / f.name).write_bytes(f.read_bytes())
    signer = Signer.from_file(run / "keys" / "signing-key.pem")
    resign(folder, lambda doc: doc["play"]["areas"][2].pop("multiplies"), signer)
    key = run / "keys" / "signing-key.pub.pem"
    alone = invoke("verify", folder, "--public-key", key, "--json", application=audit_app)
    assert alone.exit_code == 1
    step4 = json.loads(alone.stdout)["steps"][3]
    assert step4["status"] == "fail"
    assert re.search(r"its wins are not its tier 'w5''s \(1 win\(s\) paying (1000|1500|2500) cents\)",
                     json.dumps(step4)), step4  # a $5 win elsewhere, its box's 2X, 3X or 5X now read on it
    spec = invoke("verify", folder, "--public-key", key, "--spec", run / "bclc_deluxe_crossword.toml",
                  "--json", application=audit_app)
    assert spec.exit_code == 1
    step5 = json.loads(spec.stdout)["steps"][4]
    assert step5["status"] == "fail" and "multiplies" in json.dumps(step5), step5


def test_the_proof_says_a_multiplier_pays_puzzle_3_prizes_only(run):
    result = invoke("proof", run / "runs" / "bc", "--spec", run / "bclc_deluxe_crossword.toml", "--out",
                    run / "proof.pdf")
    assert result.exit_code == 0, result.output
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(run / "proof.pdf").pages]
    said = [p for p in pages if "revealed: every prize won" in p]
    assert said and all("every prize won in xw PUZZLE 3 is paid" in p for p in said)
    assert any(", tier w20" in p and "every prize won in xw PUZZLE 3 is paid 2 times" in p for p in said)


@pytest.mark.parametrize(("multiplies", "why"), [
    ("xw", "multiplies is not a non-empty list"),
    ([], "multiplies is not a non-empty list"),
    ([{"area": "mult"}], "multiplies names no other area, or one twice"),
    ([{"area": "xw"}, {"area": "xw", "grid": 3}], "multiplies names no other area, or one twice"),
    ([{"area": "xw", "grid": 4}], "multiplies grid 4 is not a grid of a crossword with legends"),
    ([{"area": "match", "grid": 1}], "multiplies grid 1 is not a grid of a crossword with legends"),
])
def test_an_entry_whose_multiplies_is_unreadable_is_refused_before_any_row_is_judged(run, multiplies, why):
    manifest = json.loads((run / "runs" / "bc" / "manifest.json").read_text())
    manifest["play"]["areas"][2]["multiplies"] = multiplies
    with pytest.raises(ValueError, match=f"^manifest play entry: area 'mult': {why}$"):
        evaluate_play(_table(run), manifest["pools"][0], manifest["play"])
