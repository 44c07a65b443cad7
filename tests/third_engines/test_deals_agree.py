"""The third re-evaluator of cards deals (tests/third_engines/deals.py, from docs/styles/cards.md alone)
against real runs' own files, ticket by ticket: Hold 'Em Poker (four hold 'em deals, ties lose), Hold
'Em Five Deals (five, ties win) and Poker Night (a shared dealer), each cut to one pool of 600; and the
ranking it reads, held to the published counts of every five-card hand and every seven-card set."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from scipy.stats import chisquare

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_example
from tests.third_engines import deals

GAMES = ("holdem_poker", "nz_holdem_five_deals", "poker_night")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("deals12")
    return {name: generate(GenerateRequest(load_spec(small_example(root, name, 600)), SEED_A,
                                           now=datetime(2026, 1, 2, tzinfo=UTC), out=root / name,
                                           run_id="r")).folder for name in GAMES}


def _play(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())["play"]


def _rows(run: Path) -> list[dict]:
    return list(pl.read_parquet(run / "pool-p1.parquet").iter_rows(named=True))


@pytest.mark.parametrize("name", GAMES)
def test_every_ticket_of_a_real_run_shows_exactly_its_tiers_wins_and_pays_its_stored_prize(runs, name):
    play, rows = _play(runs[name]), _rows(runs[name])
    assert len(rows) == 600
    judged = {r["position"]: deals.judge(play, r) for r in rows}
    assert {p: j for p, j in judged.items() if j} == {}
    area = play["areas"][0]
    # the run shows what the check is about: tickets winning 0 .. and several games
    assert {len(deals.game_wins(area, r)) for r in rows} >= {0, 1, 2}


def test_ties_are_dealt_and_read_as_the_spec_says(runs):
    """Hold 'Em Five Deals pays a tie (`ties = "win"`): its run deals some, and each is a win; and a game
    whose best hand of both sides is the five community cards alone is a tie."""
    area, rows = _play(runs["nz_holdem_five_deals"])["areas"][0], _rows(runs["nz_holdem_five_deals"])
    ties = [(r, k) for r in rows for k in range(5)
            if deals.best([r[f"deal_yours_{2 * k + j}"] for j in (0, 1)] + _board(r, k))
            == deals.best([r[f"deal_dealer_{2 * k + j}"] for j in (0, 1)] + _board(r, k))]
    assert ties and all(k in deals.game_wins(area, r) for r, k in ties)
    royal = [51, 47, 43, 39, 35]  # A K Q J 10 of spades on the board: both play the board, a tie
    row = {f"deal_yours_{i}": c for i, c in enumerate([0, 5] * 5)} | {
        f"deal_dealer_{i}": c for i, c in enumerate([1, 6] * 5)} | {
        f"deal_community_{i}": royal[i % 5] for i in range(25)}
    assert deals.game_wins(area, row) == [0, 1, 2, 3, 4]
    assert deals.game_wins(area | {"ties": "lose"}, row) == []


def _board(r: dict, k: int) -> list[int]:
    return [r[f"deal_community_{5 * k + i}"] for i in range(5)]


def test_the_engine_refuses_a_ticket_whose_winning_hand_is_swapped_with_the_dealers(runs):
    """The comparison can fail: Hold 'Em Poker's first winner with its first winning game's two hands
    exchanged loses that game, and a card dealt twice is named."""
    play, rows = _play(runs["holdem_poker"]), _rows(runs["holdem_poker"])
    row = next(r for r in rows if r["tier"] != "lose")
    k = deals.game_wins(play["areas"][0], row)[0]
    swapped = dict(row)
    for j in (2 * k, 2 * k + 1):
        mine, theirs = f"deal_yours_{j}", f"deal_dealer_{j}"
        swapped[mine], swapped[theirs] = row[theirs], row[mine]
    assert [w for w in deals.judge(play, swapped) if w.startswith("wins ")]
    twice = dict(row, deal_community_0=row["deal_yours_0"])
    assert deals.judge(play, twice)[0].startswith("deal: cards ")


@pytest.mark.parametrize("name", GAMES)
def test_a_game_that_does_not_win_shows_a_prize_in_proportion_to_the_pools_wins(runs, name):
    """cards.md section 8, step 2: a losing game's PRIZE is prize j with probability w_j / sum w, w_j the
    pool's wins of prize j over its tiers' tickets (the manifest's counts and wins, exactly)."""
    run = runs[name]
    play, rows = _play(run), _rows(run)
    pool = json.loads((run / "manifest.json").read_text())["pools"][0]
    count = {t["id"]: t["count"] for t in pool["tiers"]}
    codes = [p["code"] for p in play["areas"][0]["prizes"]]
    weight = [sum(count[t["id"]] * sum(w["prize"] == c for w in t["wins"]) for t in play["tiers"])
              for c in codes]
    area, seen = play["areas"][0], [0] * len(codes)
    for r in rows:
        won = deals.game_wins(area, r)
        for k in range(area["games"]):
            if k not in won:
                seen[r[f"{area['id']}_prize_{k}"]] += 1
    expected = [sum(seen) * w / sum(weight) for w in weight]
    assert chisquare(seen, expected).pvalue > 0.001, (seen, expected)
    # and the law is sharp enough to tell: the same games read as if every prize were equally likely fail
    assert chisquare(seen, [sum(seen) / len(codes)] * len(codes)).pvalue < 1e-6


def test_the_ranking_counts_every_five_card_hand_as_the_published_table():
    """Section 5 read by `deals.value`: the 2,598,960 hands fall in the nine categories exactly as the
    standard table counts them, in 7,462 distinct values (suits never rank, the wheel is five-high)."""
    counts, distinct = deals.census()
    assert counts == {"straight flush": 40, "four of a kind": 624, "full house": 3744, "flush": 5108,
                      "straight": 10200, "three of a kind": 54912, "two pair": 123552, "one pair": 1098240,
                      "high card": 1302540}
    assert distinct == 7462


def test_the_best_five_of_seven_counts_every_seven_card_set_as_the_published_table():
    """Section 1's best five of seven read by `deals.best`: the 133,784,560 seven-card sets by category as
    the standard table counts them, in 4,824 distinct values."""
    counts, distinct = deals.census7()
    assert counts == {"straight flush": 41584, "four of a kind": 224848, "full house": 3473184,
                      "flush": 4047644, "straight": 6180020, "three of a kind": 6461620,
                      "two pair": 31433400, "one pair": 58627800, "high card": 23294460}
    assert distinct == 4824


@pytest.mark.parametrize("name", GAMES)
def test_the_games_a_ticket_wins_are_any_of_its_games_alike(runs, name):
    """cards.md section 8's law: a ticket winning k games wins each set of k games with probability
    1 / C(G, k), so over the winners every game is one of the winning ones equally often."""
    area, rows = _play(runs[name])["areas"][0], _rows(runs[name])
    seen = [0] * area["games"]
    for r in rows:
        for k in deals.game_wins(area, r):
            seen[k] += 1
    assert sum(seen) >= 100 and chisquare(seen).pvalue > 0.001, seen


@pytest.mark.parametrize("games", range(1, 10))
def test_a_shared_dealer_can_lose_to_exactly_k_of_g_hands_as_section_2_argues(games):
    """Section 2's feasibility argument for `dealer = "shared"`, dealt and read: ten hands of four of a
    kind of the ranks 5 to A, kickers among the 2s, 3s and 4s (50 cards, no card twice); the dealer dealt
    the one below exactly k of the G others loses to exactly those k, no tie, for every k in 0..G."""
    hands = [[4 * q + s for s in range(4)] + [(q - 3) % 12] for q in range(3, 13)]  # quads of 5s .. As
    assert len({c for h in hands for c in h}) == 50
    area = {"id": "n", "games": games, "ties": "lose", "dealer": "shared",
            "prizes": [{"code": "5", "cents": 500}]}
    for k in range(games + 1):
        d = games - k  # G - k hands below the dealer's, k above
        others = hands[:d] + hands[d + 1: games + 1]
        row = {f"n_dealer_{i}": c for i, c in enumerate(hands[d])} | {
            f"n_yours_{5 * g + i}": c for g, h in enumerate(others) for i, c in enumerate(h)} | {
            f"n_prize_{g}": 0 for g in range(games)}
        assert len(set(deals.cards_shown(area, row))) == 5 + 5 * games
        assert deals.game_wins(area, row) == list(range(d, games))
        assert deals.game_wins(area | {"ties": "win"}, row) == list(range(d, games))  # no tie
