"""The poker lab (tests/third_engines/poker_lab.py, written from docs/styles/poker_hand.md, cards.md and
play.md alone) against audit and poolgen: the deck's hands per RANK (poker_hand.md section 9) counted its
own way; every one of the 2,598,960 five-card hands, and of the 270,725 showing the JOKER, ranked as audit
ranks it; every hand of the 53-card deck of the RANK poker_hand's generator draws it under; all 2,598,960
ordered by cards.md section 5 as audit and poolgen order them; hold 'em's best five of seven compared as
audit compares them; and every row of real runs (Poker Lotto Instant Win, Hold 'Em Poker, the five-card
Poker Showdown and Poker Night's shared dealer cut small, and a JOKER game whose chart stops at three of a
kind), untouched, tampered by hand and tampered at random, judged as audit's step 4 judges it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import chain, combinations, combinations_with_replacement
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.styles.cards import beats, best_strength, strength
from audit.styles.play import evaluate
from audit.styles.poker_hand import RANKS as AUDIT_RANKS
from audit.styles.poker_hand import hand_rank
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.styles.cards import table_scores
from poolgen.styles.poker_ranking import LEVELS, deck_hands
from tests.support import SEED_A, small_example
from tests.support.poker_ranks import KNOWN, hand
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit
from tests.third_engines import poker_lab as lab

GAMES = {"poker_lotto_instant": 5460, "holdem_poker": 600, "joker": 1200, "poker_showdown": 3000,
         "poker_night": 600}
CHART = lab.RANKS[:8]  # five of a kind down to three of a kind: two pair and a pair of jacks lose


def _joker(folder: Path) -> Path:
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${8 - i}.00", "value": f"{8 - i}.00"}
              for i in range(len(CHART))]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz", "joker": True,
            "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(CHART)]}
    tiers = [{"id": h, "count": 20, "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"}]}
             for i, h in enumerate(CHART)]
    (folder / "joker.toml").write_text(dumps(base_doc([area], prizes, tiers, pool_tickets=1200)))
    return folder / "joker.toml"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pokerlab")
    made = {}
    for name, tickets in GAMES.items():
        (root / name).mkdir()
        path = _joker(root / name) if name == "joker" else small_example(root / name, name, tickets)
        made[name] = generate(GenerateRequest(load_spec(path), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                              out=root / name, run_id="r")).folder
    return made


SECTION_9 = {  # poker_hand.md section 9, as printed: 52 cards, 53, of which show the JOKER
    "five_of_a_kind": (0, 13, 13), "royal_flush": (4, 24, 20), "straight_flush": (36, 180, 144),
    "four_of_a_kind": (624, 3120, 2496), "full_house": (3744, 6552, 2808), "flush": (5108, 7804, 2696),
    "straight": (10200, 20532, 10332), "three_of_a_kind": (54912, 137280, 82368),
    "two_pair": (123552, 123552, 0), "jacks_or_better": (337920, 481308, 143388),
    "none": (2062860, 2089320, 26460)}


def test_the_lab_counts_the_contracts_hands_per_rank():
    plain, joker = lab.counts(False), lab.counts(True)
    assert {r: (plain[r][0], *joker[r]) for r in lab.RANKS} == SECTION_9
    assert sum(n for n, _ in plain.values()) == 2598960
    assert sum(n for n, _ in joker.values()) == 2869685


@pytest.mark.parametrize(("text", "rank"), KNOWN, ids=[t for t, _ in KNOWN])
def test_the_lab_ranks_a_known_hand_as_the_contract_does(text, rank):
    assert lab.rank(hand(text)) == rank


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    """All 2,598,960 five-card hands of the 52, each in code order."""
    return np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int64).reshape(-1, 5)


def _audit_ranks(hands: np.ndarray, joker: bool) -> np.ndarray:
    """audit's RANK of each hand, as an index into the lab's RANKS (audit works in chunks: its arrays of
    2.6 million hands at once took 40 s of paging here)."""
    into = np.array([lab.RANKS.index(name) for name in AUDIT_RANKS])
    return np.concatenate([into[hand_rank(hands[i:i + 16384], joker)] for i in range(0, len(hands), 16384)])


def _by_class(hands: np.ndarray, name: Callable[[tuple[int, ...], bool], str]) -> np.ndarray:
    """The lab's RANK of each hand (codes 0..51, any width), from one ranking per class of hands of the
    same sorted ranks, suited or not: section 5 reads nothing else of a hand."""
    width = hands.shape[1]
    suited = (hands % 4 == hands[:, :1] % 4).all(axis=1)
    key = np.sort(hands // 4, axis=1) @ (13 ** np.arange(width)) * 2 + suited
    ranks = {}
    for rs in combinations_with_replacement(range(13), width):
        k = sum(r * 13 ** i for i, r in enumerate(rs)) * 2
        ranks[k], ranks[k + 1] = name(rs, False), name(rs, True)
    classes, inverse = np.unique(key, return_inverse=True)
    return np.array([lab.RANKS.index(ranks[int(k)]) for k in classes])[inverse]


def _cards(rs: tuple[int, ...], suited: bool) -> list[int]:
    return [r * 4 + (0 if suited or i else 1) for i, r in enumerate(rs)]


def test_every_five_card_hand_ranks_as_audit_ranks_it(hands):
    assert len(hands) == 2598960
    mine = _by_class(hands, lambda rs, suited: lab.rank(_cards(rs, suited)))
    assert np.array_equal(mine, _audit_ranks(hands, False))
    assert np.bincount(mine, minlength=11).tolist() == [SECTION_9[r][0] for r in lab.RANKS]


def test_every_hand_showing_the_joker_ranks_as_audit_ranks_it():
    """The JOKER in each of the five places in turn (the hand's i-th in place i % 5)."""
    four = np.fromiter(chain.from_iterable(combinations(range(52), 4)), dtype=np.int64).reshape(-1, 4)
    assert len(four) == 270725
    mine = _by_class(four, lambda rs, suited: lab.rank([lab.JOKER, *_cards(rs, suited)]))
    hands = np.insert(four, 0, lab.JOKER, axis=1)
    for at in range(1, 5):
        rows = np.arange(at, len(four), 5)
        hands[rows] = np.insert(four[rows], at, lab.JOKER, axis=1)
    assert np.array_equal(mine, _audit_ranks(hands, True))
    assert np.bincount(mine, minlength=11).tolist() == [SECTION_9[r][2] for r in lab.RANKS]


def test_every_five_card_hand_orders_as_audit_and_poolgen_order_it_under_cards_ranking(hands):
    """cards.md section 5 over all 2,598,960 hands: each hand's place among the distinct values (7,462,
    the standard count) is the same for the lab, for audit's strength() and for poolgen's scores."""
    said = np.concatenate([strength(hands[i:i + 65536]) for i in range(0, len(hands), 65536)])
    _, audit_place = np.unique((said + 1) @ (16 ** np.arange(5, -1, -1)), return_inverse=True)  # in order
    suited = (hands % 4 == hands[:, :1] % 4).all(axis=1)
    key = np.sort(hands // 4, axis=1) @ (13 ** np.arange(5)) * 2 + suited
    values = {}
    for rs in combinations_with_replacement(range(13), 5):
        k = sum(r * 13 ** i for i, r in enumerate(rs)) * 2
        values[k], values[k + 1] = lab.value(_cards(rs, False)), lab.value(_cards(rs, True))
    classes, inverse = np.unique(key, return_inverse=True)
    order = {v: i for i, v in enumerate(sorted({values[int(k)] for k in classes}))}
    place = np.array([order[values[int(k)]] for k in classes])[inverse]
    assert len(order) == 7462
    assert np.array_equal(place, audit_place.reshape(-1))
    _, poolgen_place = np.unique(table_scores(hands), return_inverse=True)
    assert np.array_equal(place, poolgen_place.reshape(-1))


def test_the_generators_hands_are_section_8s_each_of_the_rank_the_lab_gives_it():
    """poolgen's H for the 53-card deck (the hands a tier draws from, poker_hand.md section 8): every 5-set
    of codes 0..52 in itertools.combinations' order, each of the RANK the lab gives it."""
    made, levels = deck_hands(True)
    assert np.array_equal(made, np.fromiter(chain.from_iterable(combinations(range(53), 5)),
                                            dtype=np.uint8).reshape(-1, 5))
    made = made.astype(np.int64)
    joker = made[:, 4] == lab.JOKER  # a hand's codes sorted: the JOKER last
    mine = np.empty(len(made), dtype=np.int64)
    mine[~joker] = _by_class(made[~joker], lambda rs, suited: lab.rank(_cards(rs, suited)))
    mine[joker] = _by_class(made[joker, :4], lambda rs, suited: lab.rank([*_cards(rs, suited), lab.JOKER]))
    into = np.array([lab.RANKS.index(name) for name in LEVELS])
    assert np.array_equal(mine, into[levels])


def test_hold_em_deals_compare_as_audit_compares_them():
    """6,000 seeded deals of 2 + 2 + 5 cards, half of them sharing a rank-heavy board: which side's best
    five of seven is higher, or a tie, as audit says."""
    rng, deals = random.Random("poker lab hold 'em"), []
    for i in range(6000):
        pool = [c for c in range(52) if i % 2 == 0 or c // 4 in (0, 1, 8, 9, 12)]
        deals.append(rng.sample(pool, 9))
    d = np.array(deals, dtype=np.int64)
    yours = best_strength(np.concatenate([d[:, :2], d[:, 4:]], axis=1))
    theirs = best_strength(d[:, 2:])
    above, tie = beats(yours, theirs)
    below, _ = beats(theirs, yours)
    said = np.where(above, 1, np.where(tie, 0, -1))
    mine = []
    for deal in deals:
        a, b = lab.best_of(deal[:2] + deal[4:]), lab.best_of(deal[2:])
        mine.append((a > b) - (a < b))
    assert mine == said.tolist()
    assert not (above & below).any()
    assert 0 < int(tie.sum()) < 6000


@pytest.mark.parametrize("game", list(GAMES))
def test_every_generated_row_is_legal_to_the_lab_and_to_audit(runs, game):
    table = pl.read_parquet(runs[game] / "pool-p1.parquet")
    assert table.height == GAMES[game]
    assert lab.judge(against_audit.play(runs[game]), table) == {}
    assert against_audit.layouts(runs[game])[0] == "pass"


def _shown(prefix: str, text: str) -> Callable[[dict], dict]:
    return lambda r: {f"{prefix}_card_{i}": c for i, c in enumerate(hand(text))}


TAMPERED: list[tuple[str, str, Callable[[dict], dict], str]] = [
    ("poker_lotto_instant", "lose", _shown("hand", "QD QH 4C 7S 2C"), "a loser shows queens"),
    ("poker_lotto_instant", "flush", _shown("hand", "5D 4D 3D 2D AD"), "a flush shown a wheel flush"),
    ("poker_lotto_instant", "lose", lambda r: {"hand_card_4": 52, "hand_card_0": None},
     "the JOKER where the deck has none, and a null"),
    ("poker_lotto_instant", "lose",
     lambda r: {"hand_card_1": r["hand_card_2"], "hand_card_3": r["hand_card_4"]},
     "two cards shown twice"),
    ("joker", "lose", _shown("ph", "JOKER 9C 9D 7H 2S"), "a loser's JOKER makes three nines"),
    ("joker", "lose", lambda r: {"ph_card_1": 52, "ph_card_3": 52, "ph_card_4": 52}, "the JOKER thrice"),
    ("joker", "five_of_a_kind", lambda r: {"ph_card_2": 53, "ph_card_4": 255}, "codes past the JOKER"),
    ("holdem_poker", "lose", lambda r: {"deal_community_7": r["deal_yours_0"], "deal_prize_3": 7},
     "a card in two deals, a PRIZE out of range"),
    ("holdem_poker", "p5", lambda r: {"deal_dealer_0": None, "deal_community_19": 52}, "a null, a 52"),
    ("poker_night", "lose", lambda r: {f"night_{s}_{i}": r[f"night_{t}_{i}"] for s, t in
                                       (("yours", "dealer"), ("dealer", "yours")) for i in range(5)},
     "the shared DEALER'S HAND swapped with YOUR HAND 0"),
    ("poker_night", "p10", lambda r: {"night_yours_39": r["night_dealer_4"], "night_dealer_0": None,
                                      "night_prize_7": 9}, "a dealer's card in hand 7, a null, a PRIZE out"),
]


@pytest.mark.parametrize(("game", "tier", "values", "what"), TAMPERED, ids=[c[3] for c in TAMPERED])
def test_a_tampered_row_is_refused_by_the_lab_exactly_as_audit_refuses_it(runs, tmp_path, game, tier, values,
                                                                          what):
    row = pl.read_parquet(runs[game] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(lab.judge, runs[game], tmp_path / "r", tier, values(row))


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


@pytest.mark.parametrize("game", list(GAMES))
def test_rows_tampered_at_random_are_judged_by_the_lab_as_audit_judges_them(runs, game):
    """400 rows, the layout widened to Int32, each with one to three cells (or its tier) set from a seeded
    generator: a null, a negative value, 9999 or more, the JOKER, out of range, another cell of the row,
    any card. The same rows refused, with the same reasons and amounts."""
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[game] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    table = table.with_columns(pl.col(layout).cast(pl.Int32))
    rows, rng = table.to_dicts(), random.Random(f"poker lab {game}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 400)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            tiers = [t["id"] for t in play["tiers"]] + ["nope"]
            r[c] = (rng.choice(tiers) if c == "tier" else None if u < 0.05
                    else rng.choice((-3, 12000, 9999, 52, 53, 60, 255)) if u < 0.2 else r[rng.choice(layout)]
                    if u < 0.5 else rng.randrange(53))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert lab.judge(play, tampered) == audit
    assert len(audit) > 200
