"""cards with `deal = "hold_em"` (poolgen/styles/cards.py, docs/styles/cards.md sections 1, 4 and 8):
each side's best five of seven against the known showdowns of tests/support/hold_em_hands.py and
against audit's engine on 4,000 random deals; a pool of the example (specs/examples/holdem_poker.toml,
cut to 3,000 tickets) laid out shows no card twice and wins exactly its tier's games, every prize
recomputed with audit's ranking; the loader refuses a deal it does not know in one line; a proof's
words for why a game pays, in both deals."""

from __future__ import annotations

import numpy as np
import pytest

from audit.styles.cards import beats, best_strength
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation, row_permutations
from poolgen.styles.cards import SEVEN_CHOOSE_FIVE, best_scores, hand_scores
from tests.support import SEED_A, small_example
from tests.support.cli import invoke, one_line
from tests.support.hold_em_hands import SHOWDOWNS
from tests.support.poker_hands import hand
from tests.support.spec_docs import base_doc, dumps

CENTS = [500, 1000, 2000, 5000, 10000, 50000, 1000000]  # the example's prizes in code order


@pytest.mark.parametrize(("yours", "dealer", "board", "relation", "why"), SHOWDOWNS,
                         ids=[s[4] for s in SHOWDOWNS])
def test_best_five_of_seven_decides_the_known_showdowns(yours, dealer, board, relation, why):
    a, b = (int(s) for s in best_scores(np.array([hand(f"{yours} {board}"), hand(f"{dealer} {board}")])))
    assert (a > b, a < b, a == b) == (relation == ">", relation == "<", relation == "=")


def test_best_scores_is_the_best_of_21_hands_and_orders_seven_cards_as_audit_does():
    deals = row_permutations(derive_stream(SEED_A, "test", "seven"), 4000, 52)[:, :9]
    yours, dealer = deals[:, [0, 1, 4, 5, 6, 7, 8]], deals[:, 2:]
    a, b = best_scores(yours), best_scores(dealer)
    by_hand = hand_scores(yours[:, SEVEN_CHOOSE_FIVE].reshape(-1, 5)).reshape(-1, 21).max(axis=1)
    np.testing.assert_array_equal(a, by_hand)
    above, tie = beats(best_strength(yours), best_strength(dealer))
    np.testing.assert_array_equal(above, a > b)
    np.testing.assert_array_equal(tie, a == b)
    assert 0 < tie.sum() < above.sum()  # the sample holds ties and wins both


def test_every_ticket_wins_exactly_its_tiers_games_and_shows_no_card_twice(tmp_path):
    spec = load_spec(small_example(tmp_path, "holdem_poker", 3000))
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    assert len(cols) == 8 + 8 + 20 + 4

    def stack(part: str, k: int) -> np.ndarray:
        return np.stack([cols[f"deal_{part}_{i}"] for i in range(k)], axis=1).astype(np.int64)
    yours, dealer, board = stack("yours", 8), stack("dealer", 8), stack("community", 20)
    boxes = stack("prize", 4)
    cards = np.sort(np.concatenate([yours, dealer, board], axis=1), axis=1)
    assert cards.max() <= 51 and boxes.max() <= 6
    assert not (cards[:, 1:] == cards[:, :-1]).any()  # one deck: no card twice on a ticket
    won = np.zeros((tiers.size, 4), dtype=bool)
    for g in range(4):  # audit's ranking, written from the contract apart from poolgen's
        shared = board[:, 5 * g:5 * g + 5]
        won[:, g], _ = beats(best_strength(np.concatenate([yours[:, 2 * g:2 * g + 2], shared], axis=1)),
                             best_strength(np.concatenate([dealer[:, 2 * g:2 * g + 2], shared], axis=1)))
    np.testing.assert_array_equal(np.where(won, np.array(CENTS)[boxes], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])
    wins = np.array([len(spec.play.wins[t.id]) for t in pool.tiers])
    np.testing.assert_array_equal(won.sum(axis=1), wins[tiers])
    assert set(np.flatnonzero(won.sum(axis=0))) == {0, 1, 2, 3}  # wins fall in every deal


def _doc(**area: object) -> dict:
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "pk", "style": "cards", "games": 2, "prizes": "pz", "ties": "lose", "deal": "hold_em"}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "pk", "prize": "1", "how": "match"}]},
             {"id": "t2", "count": 5, "wins": [{"area": "pk", "prize": "2", "how": "match"}]}]
    return base_doc([base], prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"deal": "omaha"}, "areas[0].deal: \"five\" or \"hold_em\", not 'omaha'"),
    ({"deal": 2}, "areas[0].deal: must be a string, not 2"),
])
def test_a_deal_it_does_not_know_is_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_a_hold_em_area_has_community_columns_and_states_its_deal(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    area = load_spec(tmp_path / "g.toml").play.areas[0]
    assert area.columns() == ([f"pk_yours_{i}" for i in range(4)] + [f"pk_dealer_{i}" for i in range(4)]
                              + [f"pk_community_{i}" for i in range(10)] + ["pk_prize_0", "pk_prize_1"])
    assert area.module.entry(area.params)["deal"] == "hold_em"
    (tmp_path / "f.toml").write_text(dumps(_doc(deal="five")))
    five = load_spec(tmp_path / "f.toml").play.areas[0]
    assert "deal" not in five.module.entry(five.params) and len(five.columns()) == 22


def _row(area: str, parts: dict[str, str], prize: int = 0) -> dict[str, int]:
    row = {f"{area}_{part}_{i}": c for part, text in parts.items() for i, c in enumerate(hand(text))}
    return row | {f"{area}_prize_0": prize}


def test_explain_names_each_sides_best_hand_in_both_deals(tmp_path):
    """Why a row pays, as proofs print it (poolgen proof): a hold 'em game's hole cards with the board,
    each side's best category; a five-card game as before."""
    (tmp_path / "h.toml").write_text(dumps(_doc(games=1)))
    (tmp_path / "f.toml").write_text(dumps(_doc(games=1, deal="five")))
    held, five = (load_spec(tmp_path / f).play.areas[0] for f in ("h.toml", "f.toml"))
    row = _row("pk", {"yours": "AH 3H", "dealer": "JD JS", "community": "2H 7H 9H JC QD"}, prize=1)
    lines, cells = held.module.explain("pk", held.params, row)
    assert lines == ["pk, game 1: AH 3H with 2H 7H 9H JC QD (flush) beats JD JS (three of a kind): "
                     "wins $2.00."]
    assert len(cells) == 10
    tie = _row("pk", {"yours": "2C 2D", "dealer": "3H 4H", "community": "9C 9D 5H 5S KC"})
    assert held.module.explain("pk", held.params, tie) == ([], set())  # a tie loses here
    row = _row("pk", {"yours": "AS KS QS JS 10S", "dealer": "9H 9D 9S 9C 2D"})
    lines, cells = five.module.explain("pk", five.params, row)
    assert lines == ["pk, game 1: AS KS QS JS 10S (straight flush) beats 9H 9D 9S 9C 2D (four of a kind): "
                     "wins $1.00."]
    assert len(cells) == 11
