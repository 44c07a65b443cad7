"""cards layouts (poolgen/styles/cards.py) read back here from docs/styles/cards.md alone: poolgen's
hand ranking against the known answers of tests/vectors/poker_hands.txt; a full pool of Poker Showdown
(specs/examples/poker_showdown.toml) shows no card twice on a ticket and wins exactly its tier's games
at the prizes they show, every ticket's prize recomputed with audit's ranking; the loader refuses, in
one line, what it cannot lay out."""

from __future__ import annotations

from itertools import chain, combinations, islice

import numpy as np
import pytest

from audit.styles.cards import beats, strength
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from poolgen.styles.cards import card_text, hand_scores, table_scores
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.poker_hands import CATEGORIES, COMPARISONS, hand
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/poker_showdown.toml"
CENTS = [300, 500, 1000, 3000, 10000, 100000]  # the example's prizes in code order


@pytest.mark.parametrize(("text", "category"), CATEGORIES)
def test_each_category_as_the_vectors_say(text, category):
    assert int(hand_scores(np.array(hand(text)))) // 13 ** 5 == category


@pytest.mark.parametrize(("a", "relation", "b"), COMPARISONS)
def test_hands_compare_as_the_vectors_say(a, relation, b):
    x, y = (int(s) for s in hand_scores(np.array([hand(a), hand(b)])))
    assert {">": x > y, "<": x < y, "=": x == y}[relation]
    assert (y < x, y > x, y == x) == (relation == ">", relation == "<", relation == "=")


def test_table_scores_equal_hand_scores_on_every_five_card_hand():
    """Every hand, 262,144 at a time (all at once took 1.1 GB and 10 s of CPU; this 0.15 GB and 2 s)."""
    every, hands_seen = combinations(range(52), 5), 0
    while (hands := np.fromiter(chain.from_iterable(islice(every, 1 << 18)), dtype=np.int64)).size:
        hands = hands.reshape(-1, 5)
        np.testing.assert_array_equal(table_scores(hands), hand_scores(hands))
        hands_seen += len(hands)
    assert hands_seen == 2598960
    first = np.array(list(islice(combinations(range(52), 5), 7)), dtype=np.int64)[:, ::-1]
    np.testing.assert_array_equal(table_scores(first.reshape(7, 1, 5)),
                                  hand_scores(first).reshape(7, 1))  # any order, any leading shape


def test_cards_print_as_rank_then_suit():
    assert [card_text(c) for c in (0, 8, 34, 51)] == ["2C", "4C", "10H", "AS"]


def test_every_ticket_wins_exactly_its_tiers_games_and_shows_no_card_twice():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    n = tiers.size
    yours = np.stack([cols[f"poker_yours_{i}"] for i in range(15)], axis=1).astype(np.int64)
    dealer = np.stack([cols[f"poker_dealer_{i}"] for i in range(15)], axis=1).astype(np.int64)
    boxes = np.stack([cols[f"poker_prize_{g}"] for g in range(3)], axis=1).astype(np.int64)
    cards = np.sort(np.concatenate([yours, dealer], axis=1), axis=1)
    assert cards.max() <= 51 and boxes.max() <= 5
    assert not (cards[:, 1:] == cards[:, :-1]).any()  # one deck: no card twice on a ticket
    won = np.zeros((n, 3), dtype=bool)
    for g in range(3):  # audit's ranking, written from the contract apart from poolgen's
        won[:, g], _ = beats(strength(yours[:, 5 * g:5 * g + 5]), strength(dealer[:, 5 * g:5 * g + 5]))
    np.testing.assert_array_equal(np.where(won, np.array(CENTS)[boxes], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])
    wins = np.array([len(spec.play.wins[t.id]) for t in pool.tiers])
    np.testing.assert_array_equal(won.sum(axis=1), wins[tiers])
    assert set(np.flatnonzero(won.sum(axis=0))) == {0, 1, 2}  # wins fall in every game


def _doc(**area: object) -> dict:
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "pk", "style": "cards", "games": 2, "prizes": "pz", "ties": "lose"}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "pk", "prize": "1", "how": "match"}]}]
    return base_doc([base], prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"ties": "split"}, "areas[0].ties: \"win\" or \"lose\", not 'split'"),
    ({"games": 6}, "areas[0].games: must be at most 5, got 6"),
    ({"games": 0}, "areas[0].games: must be at least 1, got 0"),
    ({"deck": "pinochle"}, "areas[0].deck: unknown field"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_more_wins_than_games_are_refused(tmp_path):
    doc = _doc()
    doc["play"]["max_wins"] = 3
    doc["tiers"][0]["wins"] = [{"area": "pk", "prize": "1", "how": "match"}] * 3
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].wins: area 'pk' (cards): 3 wins, but the area has 2 games")
