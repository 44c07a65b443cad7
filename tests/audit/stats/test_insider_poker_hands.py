"""Step 8's reading of a losing poker hand (docs/statistics.md 1l, docs/styles/poker_hand.md section 10): the
hand is the win, so section 2 reads nothing of it, and before 1l read its draws an insider could exchange the
losers' hands among the losers (no prize moved, every hand one the losers' tier draws) so that the losers
before the winners show a pair of tens, four to a flush, or the JOKER, and step 8 saw nothing. 1l's draws,
each value a group of its own, refuse it; the tables are the contract's, checked against a reference."""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl
import pytest
from scipy.stats import chi2_contingency

from audit.checklist import Step
from audit.stats.next_ticket import book_finding, book_name, next_ticket_finding, next_ticket_name
from audit.stats.spread import spread_features
from audit.stats.step import columns_needed, holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.audit.stats.test_insider_next_ticket import _book_reference, _reference
from tests.support import small_example
from tests.support.next_ticket_biases import tell_before, tell_in_books
from tests.support.poker_ranks import hand
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.spec_docs import base_doc, dumps
from tests.support.stats import judge

SEED = hashlib.sha256(b"poolgen/tests/insider-poker-hands").digest()
PAIR = "hand: the highest rank shown twice or more (a hand's pair)"
FLUSH = "hand: four or more cards of one suit (a hand's draw to a flush)"
STRAIGHT = "hand: four or more ranks within one sequence (a hand's draw to a straight)"
JOKER = "ph: the JOKER shown"
TOP = (5_000, 7_500, 17_500, 50_000, 500_000)  # Poker Lotto's $50 and up
CHART = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]
CENTS = [100_000, 50_000, 10_000, 2_000, 1_000, 700, 500, 300, 200, 100]


def _mine(name: str) -> bool:
    return "(a hand's" in name or "the JOKER shown" in name


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without 1l's draws: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if not _mine(j.finding.name)],
                                         pool_alpha(1)) if j.rejected]


def _joker_game(folder) -> object:
    """A printed game of 20,000 tickets (books of 50), a 53-card deck paying five of a kind ($1,000) down to
    jacks or better ($1), a tier a rank."""
    counts = [1, 1, 2, 20, 40, 50, 140, 900, 900, 3300]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${c // 100:,}", "value": f"{c // 100}.00"}
              for i, c in enumerate(CENTS)]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz", "joker": True,
            "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(CHART)]}
    tiers = [{"id": h, "count": counts[i], "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"}]}
             for i, h in enumerate(CHART)]
    doc = base_doc([area], prizes, tiers, max_wins=1, pool_tickets=20_000)
    (folder / "joker.toml").write_text(dumps(doc))
    return load_spec(folder / "joker.toml")


@pytest.fixture(scope="module")
def lotto(tmp_path_factory):
    """Poker Lotto Instant Win cut to one pool of 38,220 tickets (637 books of 60, every count 1/17)."""
    spec = load_spec(small_example(tmp_path_factory.mktemp("poker"), "poker_lotto_instant", 38_220))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


@pytest.fixture(scope="module")
def joker(tmp_path_factory):
    spec = _joker_game(tmp_path_factory.mktemp("joker"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _draws(spec, table: pl.DataFrame) -> dict[str, np.ndarray]:
    return dict(spread_features(spec.play.document(), lambda c: table[c].to_numpy(), each_value=True))


def test_a_hands_draws_are_its_pair_four_of_a_suit_four_in_a_sequence_and_the_joker():
    """Ranks 2 .. A are 0 .. 12; A-2-3-4-5 is a sequence; the JOKER is of no rank or suit."""
    shown = ["10C 10D AH 7S 2C", "AS 2D 3H 4C 9S", "KH 9H 5H 2H 2C", "JOKER 2C 7D 9H 10S",
             "JOKER 7C 8C 9C JC", "QS KD AH 2C 3D"]
    cards = np.array([hand(t) for t in shown])
    area = {"id": "ph", "style": "poker_hand", "joker": True}
    found = spread_features({"areas": [area]}, lambda c: cards[:, int(c[-1])], each_value=True)
    assert [(n, c.tolist()) for n, c in found] == [
        ("ph: the highest rank shown twice or more (a hand's pair)", [9, 0, 1, 0, 0, 0]),
        ("ph: four or more cards of one suit (a hand's draw to a flush)", [0, 0, 1, 0, 1, 0]),
        ("ph: four or more ranks within one sequence (a hand's draw to a straight)", [0, 1, 0, 0, 1, 0]),
        ("ph: the JOKER shown", [0, 0, 0, 1, 1, 0])]
    plain = {"areas": [{**area, "joker": False}]}
    assert [n for n, _ in spread_features(plain, lambda c: cards[:, int(c[-1])], each_value=True)] == [
        n for n, _ in found[:3]]
    assert spread_features(plain, lambda c: cards[:, int(c[-1])]) == []  # not among 1j's n / 20 groups
    assert columns_needed(plain, "printed") == ["prize_cents", *[f"ph_card_{i}" for i in range(5)], "book"]


def _draws_reference(shown: list[int]) -> list[int]:
    """1l's four draws of one hand, from the contract's words with Python's sets and dicts."""
    ranks = [c // 4 for c in shown if c < 52]
    suits = [c % 4 for c in shown if c < 52]
    twice = [r for r in set(ranks) if ranks.count(r) >= 2]
    sequences = [{12, 0, 1, 2, 3}] + [set(range(k, k + 5)) for k in range(9)]
    return [1 + max(twice) if twice else 0, int(max(suits.count(s) for s in range(4)) >= 4),
            int(max(len(set(ranks) & q) for q in sequences) >= 4), int(52 in shown)]


def test_the_draws_of_random_hands_are_the_contracts():
    """2,000 random five-card hands of the 53-card deck (the JOKER in about one in ten), 2,000 of five cards
    of nine ranks (pairs and four-card draws common), and 2,000 hold 'em games' seven cards."""
    rng = np.random.default_rng(7)
    hands = [rng.choice(53, 5, replace=False) for _ in range(2_000)]
    hands += [rng.choice(36, 5, replace=False) + 16 for _ in range(2_000)]  # ranks 6 .. A
    cards = np.array(hands)
    found = spread_features({"areas": [{"id": "h", "style": "poker_hand", "joker": True}]},
                            lambda c: cards[:, int(c[-1])], each_value=True)
    assert np.stack([c for _, c in found], axis=1).tolist() == [_draws_reference(h.tolist()) for h in hands]
    sevens = np.array([rng.choice(52, 7, replace=False) for _ in range(2_000)])  # a hold 'em game's seven
    columns = {"d_yours_0": sevens[:, 0], "d_yours_1": sevens[:, 1],
               **{f"d_community_{j}": sevens[:, 2 + j] for j in range(5)}}
    found = spread_features({"areas": [{"id": "d", "style": "cards", "games": 1, "deal": "hold_em"}]},
                            lambda c: columns[c], each_value=True)
    assert np.stack([c for _, c in found], axis=1).tolist() == [
        _draws_reference(h.tolist())[:3] for h in sevens]


def test_a_cards_areas_draws_are_each_games_your_cards_five_or_your_two_with_the_community_cards():
    """Two games each: `five`, YOUR hands 10C 10D AH 7S 2C and KH 9H 5H 2H 2C (the DEALER'S cards unread);
    `hold_em`, YOUR 2 AS 2D with COMMUNITY 3H 4C 9S KD KC (a pair of kings, A-2-3-4), and 10S JS with
    QS KS 2C 3D 4H (four spades, 10-J-Q-K)."""
    five = np.array([hand("10C 10D AH 7S 2C KH 9H 5H 2H 2C")])
    hold = np.array([hand("AS 2D 10S JS") + hand("3H 4C 9S KD KC QS KS 2C 3D 4H")])
    columns = {**{f"f_yours_{i}": five[:, i] for i in range(10)},
               **{f"h_yours_{i}": hold[:, i] for i in range(4)},
               **{f"h_community_{i}": hold[:, 4 + i] for i in range(10)}}
    areas = [{"id": "f", "style": "cards", "games": 2},
             {"id": "h", "style": "cards", "games": 2, "deal": "hold_em"}]
    found = spread_features({"areas": areas}, lambda c: columns[c], each_value=True)
    kinds = ["the highest rank shown twice or more (a hand's pair)",
             "four or more cards of one suit (a hand's draw to a flush)",
             "four or more ranks within one sequence (a hand's draw to a straight)"]
    assert [n for n, _ in found] == [f"{a}: game {g}, {w}: {k}" for a, w in (
        ("f", "YOUR hand"), ("h", "YOUR 2 and the COMMUNITY cards")) for g in range(2) for k in kinds]
    assert [int(c[0]) for _, c in found] == [9, 0, 0, 1, 1, 0, 12, 0, 1, 0, 1, 1]


def test_a_shared_dealers_hand_is_read_once_after_the_games_your_hands():
    """`dealer = "shared"`, two games: YOUR hands 10C 10D AH 7S 2C and KH 9H 5H 2H 3C, the one DEALER'S
    HAND AS AD 3S 4S 5S (a pair of aces, four spades, A-3-4-5)."""
    cards = np.array([hand("10C 10D AH 7S 2C KH 9H 5H 2H 3C AS AD 3S 4S 5S")])
    columns = {**{f"s_yours_{i}": cards[:, i] for i in range(10)},
               **{f"s_dealer_{i}": cards[:, 10 + i] for i in range(5)}}
    found = spread_features({"areas": [{"id": "s", "style": "cards", "games": 2, "dealer": "shared"}]},
                            lambda c: columns[c], each_value=True)
    kinds = ["the highest rank shown twice or more (a hand's pair)",
             "four or more cards of one suit (a hand's draw to a flush)",
             "four or more ranks within one sequence (a hand's draw to a straight)"]
    assert [n for n, _ in found] == [f"s: {w}: {k}" for w in ("game 0, YOUR hand", "game 1, YOUR hand",
                                                              "the DEALER'S hand") for k in kinds]
    assert [int(c[0]) for _, c in found] == [9, 0, 0, 0, 1, 0, 13, 1, 1]


@pytest.mark.parametrize("case", range(3))
def test_each_value_is_a_group_of_its_own_in_the_next_ticket_and_book_tables(case):
    """Values of 2% to 60% of the rows, codes below 0 left out: X2, df, p and the classes' least size of 1j's
    and 1k's tables with each value a group are a reference's from the contract, and scipy's."""
    rng = np.random.default_rng(100 + case)
    n = 6_000
    prize = rng.choice([0, 0, 0, 100, 200, 500, 2_000, 10_000], size=n,
                       p=[0.2, 0.2, 0.3, 0.15, 0.1, 0.04, 0.009, 0.001])
    codes = rng.choice([0, 1, 2, 5, -1], size=n, p=[0.6, 0.29 - 0.01 * case, 0.02 + 0.01 * case, 0.05, 0.04])
    for f, (table, least), rows in (
            (next_ticket_finding("x", prize, codes, each=True), _reference(prize, codes, each=True),
             "losers with a next ticket"),
            (book_finding("x", prize, codes, 4, each=True), _book_reference(prize, codes, 4, each=True),
             "first and last losers of the books")):
        assert f is not None and table.shape[0] == 4
        x2, p, df, _ = chi2_contingency(table, correction=False)
        assert f.figures == f"X2 = {x2:.1f}, df = {df:,}; {int(table.sum()):,} {rows}"
        assert f.method.startswith("chi-square test of independence, 4 groups of values x ")
        assert f.method.endswith(f"top-coded to classes of at least {least:,} tickets")
        assert f.p == pytest.approx(p, rel=1e-9)
    assert next_ticket_finding("x", prize, codes).method.startswith(  # 1j's n / 20: the rare value merged
        "chi-square test of independence, 3 groups of values (4 values in code order)")


def test_an_honest_pool_gets_each_draws_next_ticket_and_book_tests_and_passes(lotto, joker):
    for spec, pool, table in (lotto, joker):
        s, r = judge(spec, pool, table, SEED)
        assert s.failed == [] and r.failed == []
        aid = spec.play.document()["areas"][0]["id"]
        draws = [n.replace("hand:", f"{aid}:") for n in (PAIR, FLUSH, STRAIGHT)] + \
            ([JOKER] if aid == "ph" else [])
        books = [book_name(n) for n in draws]
        assert [j.finding.name for j in s.judged if _mine(j.finding.name)] == [
            next_ticket_name(n, "printed") for n in draws] + books


def test_honest_small_poker_pools_fail_the_draws_tests_within_the_design(tmp_path):
    """100 honest Poker Lotto pools of 5,460 tickets (91 books of 60), each judged as a one-pool run: at
    most 4 fail step 8 (a 1% design exceeds that with probability 0.0034) and none by the draws' tests, and
    no draw's test is at p <= 0.05 in more than 12 of them (exceeded with probability 0.001 by a null)."""
    spec = load_spec(small_example(tmp_path, "poker_lotto_instant", 5_460))
    pool = spec.pools[0]
    failed, low = 0, {}
    for i in range(100):
        seed = hashlib.sha256(b"poolgen/tests/poker-draws-honest/%d" % i).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        failed += bool(s.failed or r.failed)
        assert not any(_mine(j.finding.name) for j in s.failed)
        for j in s.judged:
            if _mine(j.finding.name):
                low[j.finding.name] = low.get(j.finding.name, 0) + (j.finding.p <= 0.05)
    assert failed <= 4
    # 1k's pair test needs classes of 5 n / r_min rows: 91 books' ends hold a few pairs of one rank, one class
    assert {next_ticket_name(n, "printed") for n in (PAIR, FLUSH, STRAIGHT)} <= set(low)
    assert max(low.values()) <= 12, sorted(low.items())


def test_losers_showing_a_pair_of_tens_before_winners_are_refused_by_the_pairs_test(lotto):
    """100 of the 1,242 losers with a pair of tens put just before a winner (P(next wins) 0.21 to 0.28 for
    them): nothing in step 8 before 1l read it; the pair's test refuses it, alone."""
    spec, pool, table = lotto
    lose = table["prize_cents"].to_numpy() == 0
    tell = lose & (_draws(spec, table)[PAIR] == 9)
    assert int(tell.sum()) == 1_242
    s, r = judge(spec, pool, tell_before(table, tell, None, 100, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [next_ticket_name(PAIR, "printed")]
    assert s.failed[0].finding.p < 1e-6


def test_four_to_a_flush_before_the_top_prizes_is_refused_by_the_flush_test(lotto):
    """30 losers showing four cards of one suit, each just before a $50 or better: refused by the flush draw's
    test alone."""
    spec, pool, table = lotto
    tell = (table["prize_cents"].to_numpy() == 0) & (_draws(spec, table)[FLUSH] == 1)
    s, r = judge(spec, pool, tell_before(table, tell, TOP, 30, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [next_ticket_name(FLUSH, "printed")]
    assert s.failed[0].finding.p < 1e-20


def test_a_books_first_loser_with_a_pair_of_tens_where_the_book_holds_a_top_prize_is_refused_by_1k(lotto):
    spec, pool, table = lotto
    tell = (table["prize_cents"].to_numpy() == 0) & (_draws(spec, table)[PAIR] == 9)
    changed = tell_in_books(table, tell, spec.tickets_per_book, TOP, np.random.default_rng(1))
    s, r = judge(spec, pool, changed, SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [book_name(PAIR)]
    assert s.failed[0].finding.p < 1e-20


def test_the_joker_on_losers_before_the_top_prizes_is_refused_by_the_jokers_test(joker):
    """A 53-card game: 30 of its 197 losers showing the JOKER put just before a $10 or better (1.4% of the
    losers, which 1j's groups of n / 20 would merge with the rest)."""
    spec, pool, table = joker
    tell = (table["prize_cents"].to_numpy() == 0) & (_draws(spec, table)[JOKER] == 1)
    assert int(tell.sum()) == 197
    amounts = (1_000, 2_000, 10_000, 50_000, 100_000)
    s, r = judge(spec, pool, tell_before(table, tell, amounts, 30, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [next_ticket_name(JOKER, "printed")]
    assert s.failed[0].finding.p < 1e-10


def test_a_re_signed_poker_run_whose_losers_tell_the_next_winner_fails_step_8_alone(tmp_path):
    """The pair-of-tens insider in a signed Poker Lotto run (5,460 tickets), re-signed: verify reads the
    hand's cards and step 8 refuses the pool by the pair's test; no other step sees it."""
    spec = load_spec(small_example(tmp_path, "poker_lotto_instant", 5_460))
    run, public, signer = signed_first_pool(spec, SEED, tmp_path, "pk")
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []

    def insider(table: pl.DataFrame) -> pl.DataFrame:
        tell = (table["prize_cents"].to_numpy() == 0) & (_draws(spec, table)[PAIR] == 9)
        return tell_before(table, tell, None, None, np.random.default_rng(1))

    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer, insider)
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert [r.split(" (chi-square")[0] for r in reasons] == [
        f"pool {spec.pools[0].id}: {next_ticket_name(PAIR, 'printed')}"]


@pytest.mark.parametrize(("game", "feature", "value", "amounts", "most"), [
    ("poker_showdown", "poker: game 0, YOUR hand: " + PAIR.removeprefix("hand: "), 9, None, 100),
    ("holdem_poker", "deal: game 2, YOUR 2 and the COMMUNITY cards: " + PAIR.removeprefix("hand: "), 13,
     (10_000, 50_000, 1_000_000), 30),
    ("poker_night", "night: the DEALER'S hand: " + PAIR.removeprefix("hand: "), 1, None, 100)],
    ids=["showdown-tens-before-winners", "holdem-aces-before-100-and-up",
         "night-dealers-deuces-before-winners"])
def test_a_cards_games_your_cards_telling_the_next_ticket_are_refused_by_their_draws_test(
        tmp_path, game, feature, value, amounts, most):
    """Poker Showdown and Hold 'Em Poker cut to 30,000 tickets: 100 losers whose game 0 YOUR hand holds a pair
    of tens put just before winners; 30 whose deal 2 makes a pair of aces with the COMMUNITY cards just
    before a $100 or better; Poker Night's 100 losers whose one DEALER'S HAND holds a pair of twos (1.2%
    of its losers: a loser's dealer is strong) just before winners. Section 2 reads only the PRIZES; the
    draw's test refuses it, alone."""
    spec = load_spec(small_example(tmp_path, game, 30_000))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    tell = (table["prize_cents"].to_numpy() == 0) & (_draws(spec, table)[feature] == value)
    s, r = judge(spec, pool, tell_before(table, tell, amounts, most, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [next_ticket_name(feature, "printed")]
    assert s.failed[0].finding.p < 1e-10
