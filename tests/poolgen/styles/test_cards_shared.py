"""cards with `dealer = "shared"` (poolgen/styles/cards.py, docs/styles/cards.md sections 1, 2, 4 and 8):
the example (specs/examples/poker_night.toml) wins exactly its tiers' hands against its one DEALER'S HAND
with no card twice, every number of wins of nine hands can be dealt (section 2's ten hands of four of a
kind), the fields refused in one line, the columns, entry, face and explain of a shared dealer,
audit's spec reader refusing the same fields with the same words, and the
cards examples without the field lay out byte for byte as before it (SHA-256 of each one's layout
columns and play entry for a fixed order, recorded from commit 5b594111, before the field)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from audit.styles.cards import beats, strength
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from poolgen.styles.cards import Params, shared_wins
from tests.support import SEED_A, small_example
from tests.support.cli import invoke, one_line
from tests.support.poker_hands import hand
from tests.support.spec_docs import base_doc, dumps

PINNED = {  # (tickets laid out, SHA-256)
    "poker_showdown": (20_000, "bdc5e9c26a0a0af6c69576771c39c52d4038a5b5ace90d13663938805e639f77"),
    "iowa_full_of_300s": (20_000, "b7b3473233c64d226dfd028421dbf415a1341fc0475bf4f106114d70a2575a86"),
    "holdem_poker": (2_000, "b07a75f0476ba0482c49d4005e758fa9b4468c2236de396b72788a05f2ec0fef"),
}
CENTS = [200, 500, 1000, 1500, 2000, 5000, 10000, 50000, 100000, 500000]  # poker_night's prizes


@pytest.mark.parametrize("name", sorted(PINNED))
def test_cards_examples_without_the_field_lay_out_as_pinned_before_a_shared_dealer(name):
    spec = load_spec(f"specs/examples/{name}.toml")
    pool = spec.pools[0]
    tickets, pinned = PINNED[name]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)][:tickets]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    digest = hashlib.sha256()
    for key in sorted(cols):
        digest.update(key.encode())
        digest.update(np.ascontiguousarray(cols[key]).tobytes())
    digest.update(json.dumps(spec.play.document(), sort_keys=True, default=str).encode())
    assert digest.hexdigest() == pinned


def test_every_ticket_wins_exactly_its_tiers_hands_and_shows_no_card_twice(tmp_path):
    spec = load_spec(small_example(tmp_path, "poker_night", 6000))
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    assert list(cols) == ([f"night_yours_{i}" for i in range(40)] + [f"night_dealer_{i}" for i in range(5)]
                          + [f"night_prize_{g}" for g in range(8)])
    yours = np.stack([cols[f"night_yours_{i}"] for i in range(40)], axis=1).astype(np.int64)
    dealer = np.stack([cols[f"night_dealer_{i}"] for i in range(5)], axis=1).astype(np.int64)
    boxes = np.stack([cols[f"night_prize_{g}"] for g in range(8)], axis=1).astype(np.int64)
    cards = np.sort(np.concatenate([yours, dealer], axis=1), axis=1)
    assert cards.max() <= 51 and boxes.max() <= 9
    assert not (cards[:, 1:] == cards[:, :-1]).any()  # one deck: no card twice on a ticket
    theirs = strength(dealer)  # audit's ranking, written from the contract apart from poolgen's
    won = np.stack([beats(strength(yours[:, 5 * g:5 * g + 5]), theirs)[0] for g in range(8)], axis=1)
    np.testing.assert_array_equal(np.where(won, np.array(CENTS)[boxes], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])
    wins = np.array([len(spec.play.wins[t.id]) for t in pool.tiers])
    np.testing.assert_array_equal(won.sum(axis=1), wins[tiers])
    assert set(won.sum(axis=1)) == {0, 1, 2, 3, 5, 8} and won.sum(axis=0).min() > 0  # every hand wins


@pytest.mark.parametrize("ties_win", [False, True])
def test_ten_hands_of_four_of_a_kind_deal_every_number_of_wins_of_nine_hands(ties_win):
    """Section 2's argument that check needs no more than the bound on games: the quads of 5 .. A with
    kickers among the 2s, 3s and 4s are ten strictly ordered hands of 50 distinct cards; the dealer
    given the one with exactly k above it loses to exactly k of the nine others, no tie."""
    kickers = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D"]
    ranks = ["5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    quads = [hand(" ".join(r + s for s in "CDHS") + " " + k) for r, k in zip(ranks, kickers, strict=True)]
    assert len({c for q in quads for c in q}) == 50
    params = Params(9, (), ties_win, shared=True)
    for k in range(10):
        at = 9 - k  # the dealer's quads: k of the ten rank above it
        deal = np.array([quads[at] + sum((q for i, q in enumerate(quads) if i != at), [])])
        assert shared_wins(params, deal).tolist() == [[i >= at for i in range(9)]]


def _doc(**area: object) -> dict:
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "pk", "style": "cards", "games": 2, "prizes": "pz", "ties": "lose", "dealer": "shared"}
    base.update(area)
    tiers = [{"id": f"t{c}", "count": 10, "wins": [{"area": "pk", "prize": c, "how": "match"}]}
             for c in ("1", "2")]  # a prize no tier wins is refused (docs/styles/cards.md section 2)
    return base_doc([{k: v for k, v in base.items() if v is not None}], prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"dealer": "both"}, "areas[0].dealer: \"each\" or \"shared\", not 'both'"),
    ({"dealer": 1}, "areas[0].dealer: must be a string, not 1"),
    ({"games": 10}, "areas[0].games: must be at most 9, got 10"),
    ({"dealer": "each", "games": 6}, "areas[0].games: must be at most 5, got 6"),
    ({"dealer": None, "games": 6}, "areas[0].games: must be at most 5, got 6"),
    ({"deal": "hold_em"}, "areas[0].dealer: \"shared\" plays five-card hands, not deal = \"hold_em\""),
    ({"dealer": "both", "games": 10}, "areas[0].dealer: \"each\" or \"shared\", not 'both'"),  # read first
])
def test_a_dealer_field_it_cannot_use_is_refused_in_one_line_by_poolgen_and_audits_reader(tmp_path, change,
                                                                                          message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")
    with pytest.raises(UnusableInput) as caught:
        read_spec(tmp_path / "g.toml")
    assert str(caught.value) == f"{tmp_path / 'g.toml'}: {message}"


def test_a_shared_dealer_area_has_one_dealers_hand_and_states_it(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc(games=9)))
    area = load_spec(tmp_path / "g.toml").play.areas[0]
    assert area.columns() == ([f"pk_yours_{i}" for i in range(45)] + [f"pk_dealer_{i}" for i in range(5)]
                              + [f"pk_prize_{g}" for g in range(9)])
    assert area.module.entry(area.params)["dealer"] == "shared"
    (tmp_path / "e.toml").write_text(dumps(_doc(dealer="each")))
    each = load_spec(tmp_path / "e.toml").play.areas[0]
    assert "dealer" not in each.module.entry(each.params) and len(each.columns()) == 22


def test_face_shows_the_dealers_hand_once_and_explain_names_each_winning_hand(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    area = load_spec(tmp_path / "g.toml").play.areas[0]
    row = {f"pk_yours_{i}": c for i, c in enumerate(hand("AS KS QS JS 10S 2C 3D 5H 8S 10C"))}
    row |= {f"pk_dealer_{i}": c for i, c in enumerate(hand("9H 9D 9S 9C 2D"))}
    row |= {"pk_prize_0": 1, "pk_prize_1": 0}
    sections = area.module.face("pk", area.params, row)
    assert [title for title, _ in sections] == [
        "DEALER'S HAND (BEAT IT WITH ANY OF YOUR HANDS, WIN THAT HAND'S PRIZE)", "HAND 1: YOUR HAND",
        "HAND 2: YOUR HAND"]
    assert [c[1] for c in sections[0][1]] == ["9H", "9D", "9S", "9C", "2D"]
    assert [c[1] for c in sections[2][1]] == ["2C", "3D", "5H", "8S", "10C", "$1"]
    lines, cells = area.module.explain("pk", area.params, row)
    assert lines == ["pk, game 1: AS KS QS JS 10S (straight flush) beats 9H 9D 9S 9C 2D (four of a kind): "
                     "wins $2.00."]
    assert cells == {f"pk_{part}_{i}" for part in ("yours", "dealer") for i in range(5)} | {"pk_prize_0"}
