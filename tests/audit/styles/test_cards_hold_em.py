"""The auditor's cards engine on `deal = "hold_em"` areas (audit/styles/cards.py, docs/styles/cards.md
sections 1, 3, 4 and 6): the known showdowns of tests/support/hold_em_hands.py on rows written by hand
(ties losing, then winning as the entry says), codes out of range listed in the contract's column
order, a card shown twice between a hand and the board, the entries it cannot read; and a re-signed
run of the example (specs/examples/holdem_poker.toml cut to 600 tickets) whose loser has its hole
cards swapped with the dealer's, which verify refuses for that ticket alone; with --spec, both runs
pass and a five-card entry re-signed to say "hold_em" fails step 5."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.cli import app as audit_app
from audit.styles.cards import beats, best_strength
from audit.styles.play import evaluate
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.signing import Signer
from tests.support import SEED_A, small_example
from tests.support.cli import invoke
from tests.support.hold_em_hands import SHOWDOWNS
from tests.support.play_entries import win
from tests.support.poker_hands import hand
from tests.support.reseal import reseal_pool, resign, signed_first_pool

AREA = {"id": "he", "style": "cards", "games": 1, "deck": "standard-52", "ranking": "poker-5-card-high",
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}], "ties": "lose",
        "deal": "hold_em"}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("he", "5", 500)]}]}


def judge(yours: str, dealer: str, board: str, tier: str, play: dict = PLAY,
          codes: dict[str, int | None] | None = None) -> tuple[int, list[str]]:
    row: dict[str, list[object]] = {"tier": [tier]}
    for part, text in (("yours", yours), ("dealer", dealer), ("community", board)):
        row |= {f"he_{part}_{i}": [c] for i, c in enumerate(hand(text))}
    row |= {"he_prize_0": [1]} | {k: [v] for k, v in (codes or {}).items()}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("yours", "dealer", "board", "relation", "why"), SHOWDOWNS,
                         ids=[s[4] for s in SHOWDOWNS])
def test_the_known_showdowns_pay_as_the_best_five_of_seven_say(yours, dealer, board, relation, why):
    assert judge(yours, dealer, board, "w5" if relation == ">" else "lose") == (
        500 if relation == ">" else 0, [])
    ties_win = copy.deepcopy(PLAY)
    ties_win["areas"][0] = AREA | {"ties": "win"}
    assert judge(yours, dealer, board, "lose" if relation == "<" else "w5", ties_win) == (
        0 if relation == "<" else 500, [])


def test_a_loser_shown_a_winning_board_is_refused():
    assert judge("AH 3H", "JD JS", "2H 7H 9H JC QD", "lose") == (500, [
        "its wins are not its tier 'lose''s (1 win(s) paying 500 cents)"])


def test_codes_out_of_range_are_listed_yours_dealers_community_then_prize():
    """Read as the contract's section 6 reads them (53 as 2D, 255 as KS, 70 as 6H): the dealer's two
    pair beats YOUR board, so the loser pays nothing and only rule 1 speaks."""
    codes = {"he_prize_0": 2, "he_community_4": 70, "he_dealer_1": 255, "he_yours_0": 53}
    assert judge("2C 3D", "AH AD", "AS KS QS JS 10S", "lose", codes=codes) == (0, [
        "he: a code out of range in he_yours_0, he_dealer_1, he_community_4, he_prize_0"])


def test_a_card_in_a_hand_and_on_the_board_is_shown_twice():
    assert judge("AS 2C", "KD 3D", "AS KS QS JS 10S", "lose") == (0, ["he: a card shown twice: AS"])


@pytest.mark.parametrize("change", [{"deal": "omaha"}, {"deal": 2}, {"deal": None}])
def test_an_entry_of_a_deal_it_does_not_know_stops_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge("2C 3D", "AH AD", "AS KS QS JS 10S", "lose", play)
    assert str(caught.value) == ("manifest play entry: area 'he': games, deck, ranking, prizes, ties, deal "
                                 "or dealer unreadable")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[Path, Path, Signer, Path]]:
    """Signed runs of Hold 'Em Poker and of Poker Showdown, as it is and with `deal = "five"` written out
    ("five"), 600 tickets each: (run folder, public key, the signer an insider re-signs with, the spec)."""
    made = {}
    for name in ("holdem_poker", "poker_showdown", "five"):
        folder = tmp_path_factory.mktemp(name)
        path = small_example(folder, "poker_showdown" if name == "five" else name, 600)
        path.write_text(path.read_text().replace('style = "cards"\n', 'style = "cards"\ndeal = "five"\n')
                        if name == "five" else path.read_text())
        made[name] = (*signed_first_pool(load_spec(path), SEED_A, folder, name[:2]), path)
    return made


def _copy(runs: dict, name: str, folder: Path) -> tuple[Path, Path, Signer, Path]:
    run, public, signer, spec = runs[name]
    shutil.copytree(run, folder / "run")
    return folder / "run", public, signer, spec


@pytest.mark.parametrize("name", ["holdem_poker", "poker_showdown", "five"])
def test_the_honest_runs_pass_every_step_with_their_specs(runs, name):
    run, public, _, spec = runs[name]
    assert verify_run(VerifyRequest(run=run, public_key=public, spec=spec)).failed == []
    stated = json.loads((run / "manifest.json").read_text())["play"]["areas"][0]
    assert stated.get("deal") == ("hold_em" if name == "holdem_poker" else None)  # "five": left out


@pytest.mark.parametrize(("name", "reason"), [
    ("poker_showdown", "area poker: deal 'hold_em', spec 'five' (left out)"),
    ("five", "area poker: deal 'hold_em', spec 'five'")])
def test_a_resigned_five_card_entry_stating_hold_em_fails_step_5(runs, tmp_path, name, reason):
    """An entry saying `deal` "hold_em" for a spec whose area is of five cards (`deal` left out, or
    written out) states another game; step 4 cannot read its layout either (no community columns)."""
    run, public, signer, spec = _copy(runs, name, tmp_path)
    resign(run, lambda doc: doc["play"]["areas"][0].update({"deal": "hold_em"}), signer)
    report = verify_run(VerifyRequest(run=run, public_key=public, spec=spec))
    assert Step.LAYOUTS in report.failed and Step.FIGURES in report.failed
    assert report.step(Step.FIGURES).reasons == [reason]


def test_verify_refuses_a_resigned_run_whose_loser_gets_the_dealers_winning_cards(runs, tmp_path):
    """An insider swaps a loser's first-deal hole cards with the dealer's, where the dealer's beat
    them (so that deal now wins), and signs again: every signature and hash holds, and step 4 refuses
    that ticket alone, naming the prize the deal now pays."""
    run, public, signer, _ = _copy(runs, "holdem_poker", tmp_path)
    name = next(run.glob("pool-*.parquet")).name
    table = pl.read_parquet(run / name)
    board = table.select([f"deal_community_{i}" for i in range(5)]).to_numpy().astype(np.int64)
    yours = table.select(["deal_yours_0", "deal_yours_1"]).to_numpy().astype(np.int64)
    dealer = table.select(["deal_dealer_0", "deal_dealer_1"]).to_numpy().astype(np.int64)
    below, _ = beats(best_strength(np.concatenate([dealer, board], axis=1)),
                     best_strength(np.concatenate([yours, board], axis=1)))
    row = int(np.flatnonzero(below & (table["tier"] == "lose").to_numpy())[0])
    swapped = {"deal_yours_0": dealer[row, 0], "deal_yours_1": dealer[row, 1],
               "deal_dealer_0": yours[row, 0], "deal_dealer_1": yours[row, 1]}
    at = pl.col("position") == table["position"][row]
    table = table.with_columns([pl.when(at).then(int(v)).otherwise(pl.col(c)).cast(table.schema[c]).alias(c)
                                for c, v in swapped.items()])
    reseal_pool(run, name, table, signer)
    result = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    steps = json.loads(result.stdout)["steps"]
    assert result.exit_code == 1
    assert steps[0]["status"] == "pass"  # the insider's signature holds
    cents = [500, 1000, 2000, 5000, 10000, 50000, 1000000][int(table["deal_prize_0"][row])]
    ticket = table["ticket"][row]
    assert steps[3]["status"] == "fail"
    assert steps[3]["reasons"] == [
        f"pool p1: 1 layout(s) do not pay the stored prize: {ticket} (row {row}) pays {cents} cents, "
        f"stores 0; 1 illegal layout(s): {ticket} (row {row}): its wins are not its tier 'lose''s "
        f"(1 win(s) paying {cents} cents)"]
