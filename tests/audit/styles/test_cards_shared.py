"""The auditor's cards engine on `dealer = "shared"` areas (audit/styles/cards.py, docs/styles/cards.md
sections 1, 3, 4 and 6): G of YOUR HANDS each judged against the one DEALER'S HAND on rows written by
hand (ties losing, then winning as the entry says), codes out of range in the contract's column order, a
card shown twice between a hand and the dealer's, the entries it cannot read; a re-signed run of the
example (specs/examples/poker_night.toml cut to 600 tickets) whose loser has its strongest hand swapped
with the dealer's, refused for that ticket alone; with --spec the honest run passes and a Poker Showdown
entry re-signed to say "shared" fails step 5."""

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
from audit.styles.cards import columns
from audit.styles.play import evaluate
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.signing import Signer
from poolgen.styles.cards import table_scores
from tests.support import SEED_A, small_example
from tests.support.cli import invoke
from tests.support.play_entries import win
from tests.support.poker_hands import hand
from tests.support.reseal import reseal_pool, resign, signed_first_pool

AREA = {"id": "sd", "style": "cards", "games": 3, "deck": "standard-52", "ranking": "poker-5-card-high",
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}], "ties": "lose",
        "dealer": "shared"}
PLAY = {"max_wins": 3, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("sd", "5", 500)]},
                  {"id": "w1x2", "wins": [win("sd", "1", 100), win("sd", "1", 100)]}]}
DEALER = "JD JS 4C 7H 9S"  # a pair of jacks, 9 7 4
HANDS = ("QC QH 2D 3S 5C",  # a pair of queens: beats it
         "JC JH 4D 7S 9H",  # the same pair and kickers in other suits: ties it
         "KS KH KC 2H 6D")  # three kings: beats it


def judge(hands: tuple[str, ...], tier: str, play: dict = PLAY, prizes: tuple[int, ...] = (1, 1, 1),
          codes: dict[str, int | None] | None = None) -> tuple[int, list[str]]:
    row: dict[str, list[object]] = {"tier": [tier]}
    row |= {f"sd_yours_{i}": [c] for i, c in enumerate(hand(" ".join(hands)))}
    row |= {f"sd_dealer_{i}": [c] for i, c in enumerate(hand(DEALER))}
    row |= {f"sd_prize_{g}": [z] for g, z in enumerate(prizes)} | {k: [v] for k, v in (codes or {}).items()}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


def test_the_columns_are_your_hands_then_the_one_dealers_hand_then_the_prizes():
    assert columns(AREA) == [f"sd_yours_{i}" for i in range(15)] + [f"sd_dealer_{i}" for i in range(5)] + [
        "sd_prize_0", "sd_prize_1", "sd_prize_2"]


def test_every_hand_is_judged_against_the_one_dealers_hand_ties_losing():
    """Hands 0 and 2 beat the dealer's pair of jacks, hand 1 ties it: two wins of $5 each (prize 1),
    which tier w5 (one win) does not list; the two-win tier of $1 each is refused for its prizes."""
    assert judge(HANDS, "w5") == (1000, ["its wins are not its tier 'w5''s (2 win(s) paying 1000 cents)"])
    assert judge(HANDS, "w1x2", prizes=(0, 1, 0)) == (200, [])


def test_a_tie_with_the_dealer_wins_where_the_entry_says_ties_win():
    ties_win = copy.deepcopy(PLAY)
    ties_win["areas"][0] = AREA | {"ties": "win"}
    assert judge(HANDS, "w1x2", ties_win, prizes=(0, 0, 0)) == (
        300, ["its wins are not its tier 'w1x2''s (3 win(s) paying 300 cents)"])


def test_a_loser_is_a_ticket_none_of_whose_hands_beats_the_dealer():
    losers = ("2C 3D 5H 8S 10C", "4D 6H 8C 10D QS", "2H 3C 6S 9C KD")  # high cards, none a pair
    assert judge(losers, "lose") == (0, [])


def test_codes_out_of_range_are_listed_yours_then_the_dealers_then_the_prizes():
    """Read as section 6 reads them (200 as KC, four kings; 52 as 2C, so hand 1's pair of jacks with 9
    beats the dealer's with 7; prize 2 as the last, $5): three wins, which the one-win tier does not list."""
    codes = {"sd_prize_2": 2, "sd_dealer_4": 52, "sd_yours_14": 200}
    assert judge(HANDS, "w5", codes=codes) == (1500, [
        "sd: a code out of range in sd_yours_14, sd_dealer_4, sd_prize_2; its wins are not its tier 'w5''s "
        "(3 win(s) paying 1500 cents)"])


def test_a_card_in_a_hand_and_in_the_dealers_hand_is_shown_twice():
    hands = ("JD 3C 5H 8S 10C",) + HANDS[1:]  # JD is the dealer's too; hand 2 alone wins, as w5 says
    assert judge(hands, "w5") == (500, ["sd: a card shown twice: JD"])


@pytest.mark.parametrize("change", [{"dealer": "both"}, {"dealer": 1}, {"dealer": None}, {"games": 10},
                                    {"dealer": "each", "games": 6}, {"deal": "hold_em"}])
def test_an_entry_it_cannot_read_stops_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge(HANDS, "lose", play)
    assert str(caught.value) == ("manifest play entry: area 'sd': games, deck, ranking, prizes, ties, deal "
                                 "or dealer unreadable")


def test_nine_hands_read_the_one_dealers_hand():
    """games = 9 (5 + 45 cards) is read: the ninth hand's columns are sd_yours_40..44."""
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"games": 9}
    nine = HANDS + ("2S 3H 4S 6C 8D", "5D 7C 10H QD AC", "2C 3D 5H 8C 10D", "3C 4H 6S 9C QS",
                    "5S 7D 9D KD AS", "6H 8S 10C 10S AD")  # high cards and a pair of tens: they lose
    assert judge(nine, "lose", play, prizes=(0,) * 9) == (
        200, ["its wins are not its tier 'lose''s (2 win(s) paying 200 cents)"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[Path, Path, Signer, Path]]:
    """Signed runs of Poker Night and of Poker Showdown, 600 tickets each: (run folder, public key, the
    signer an insider re-signs with, the spec)."""
    made = {}
    for name in ("poker_night", "poker_showdown"):
        folder = tmp_path_factory.mktemp(name)
        path = small_example(folder, name, 600)
        made[name] = (*signed_first_pool(load_spec(path), SEED_A, folder, name[:2]), path)
    return made


def _copy(runs: dict, name: str, folder: Path) -> tuple[Path, Path, Signer, Path]:
    run, public, signer, spec = runs[name]
    shutil.copytree(run, folder / "run")
    return folder / "run", public, signer, spec


def test_the_honest_shared_dealer_run_passes_every_step_with_its_spec(runs):
    run, public, _, spec = runs["poker_night"]
    assert verify_run(VerifyRequest(run=run, public_key=public, spec=spec)).failed == []
    assert json.loads((run / "manifest.json").read_text())["play"]["areas"][0]["dealer"] == "shared"


def test_a_resigned_entry_stating_a_shared_dealer_for_a_spec_of_each_fails_step_5(runs, tmp_path):
    run, public, signer, spec = _copy(runs, "poker_showdown", tmp_path)
    resign(run, lambda doc: doc["play"]["areas"][0].update({"dealer": "shared"}), signer)
    report = verify_run(VerifyRequest(run=run, public_key=public, spec=spec))
    assert Step.FIGURES in report.failed
    assert report.step(Step.FIGURES).reasons == ["area poker: dealer 'shared', spec 'each' (left out)"]


def test_verify_refuses_a_resigned_run_whose_loser_swaps_its_best_hand_with_the_dealers(runs, tmp_path):
    """An insider swaps a loser's YOUR HAND 0, where it is the strongest of its hands and below the
    dealer's, with the DEALER'S HAND, and signs again: hand 0 now beats the dealer's (its old hand 0),
    which every other hand still fails to beat; step 4 refuses that ticket alone, naming hand 0's prize."""
    run, public, signer, _ = _copy(runs, "poker_night", tmp_path)
    name = next(run.glob("pool-*.parquet")).name
    table = pl.read_parquet(run / name)
    yours = table.select([f"night_yours_{i}" for i in range(40)]).to_numpy().astype(np.int64)
    dealer = table.select([f"night_dealer_{i}" for i in range(5)]).to_numpy().astype(np.int64)
    scores = table_scores(yours.reshape(-1, 8, 5))  # poolgen's ranking: the other engine
    strongest = (scores[:, :1] > scores[:, 1:]).all(axis=1) & (table_scores(dealer) > scores[:, 0])
    row = int(np.flatnonzero(strongest & (table["tier"] == "lose").to_numpy())[0])
    swapped = {f"night_yours_{i}": dealer[row, i] for i in range(5)} | {
        f"night_dealer_{i}": yours[row, i] for i in range(5)}
    at = pl.col("position") == table["position"][row]
    table = table.with_columns([pl.when(at).then(int(v)).otherwise(pl.col(c)).cast(table.schema[c]).alias(c)
                                for c, v in swapped.items()])
    reseal_pool(run, name, table, signer)
    result = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    steps = json.loads(result.stdout)["steps"]
    assert result.exit_code == 1
    assert steps[0]["status"] == "pass"  # the insider's signature holds
    cents = [200, 500, 1000, 1500, 2000, 5000, 10000, 50000, 100000, 500000][int(table["night_prize_0"][row])]
    ticket = table["ticket"][row]
    assert steps[3]["status"] == "fail"
    assert steps[3]["reasons"] == [
        f"pool p1: 1 layout(s) do not pay the stored prize: {ticket} (row {row}) pays {cents} cents, "
        f"stores 0; 1 illegal layout(s): {ticket} (row {row}): its wins are not its tier 'lose''s "
        f"(1 win(s) paying {cents} cents)"]
