"""Step 8's reading of what a losing ticket shows beyond YOUR hand (docs/statistics.md 1l,
audit/stats/boards.py): a `cards` area's DEALER'S cards, a hold 'em deal's COMMUNITY cards, each hand's
category and a maze area's paths. Before it, an insider could exchange the losers' layouts among the losers
(no prize moved, every layout one the losing tier draws) so that the losers before the winners showed a
dealer's pair, a suited board or a long maze path, and step 8 saw nothing. The features are the contract's
(checked against references written from cards.md and maze.md), their tables 1j's and 1k's, and their null
holds exactly."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import combinations

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.stats.boards import board_features, maze_paths
from audit.stats.next_ticket import NextTickets, book_finding, book_name, next_ticket_name
from audit.stats.spread import spread_features
from audit.stats.step import columns_needed, holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_example
from tests.support.next_ticket_biases import tell_before
from tests.support.poker_hands import hand, vectors
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge

SEED = hashlib.sha256(b"poolgen/tests/insider-boards").digest()
CATEGORY = "hand's category (0 a high card .. 8 a straight flush)"
PAIR = "the highest rank shown twice or more (a hand's pair)"
FLUSH = "four or more cards of one suit (a hand's draw to a flush)"
STRAIGHT = "four or more ranks within one sequence (a hand's draw to a straight)"
LENGTH = "maze: START 1's path, the cells it visits"


def _new(name: str) -> bool:
    return any(k in name for k in ("the DEALER'S", ", the COMMUNITY cards:", "category (0", "'s path,"))


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without this pass's: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if not _new(j.finding.name)],
                                         pool_alpha(1)) if j.rejected]


def _features(spec, table: pl.DataFrame) -> dict[str, np.ndarray]:
    play, get = spec.play.document(), (lambda c: table[c].to_numpy())
    return {**dict(spread_features(play, get)), **dict(spread_features(play, get, each_value=True))}


def _category_reference(cards: list[int]) -> int:
    """The best category of any five of `cards`, from cards.md section 5's words with Counter and sets."""
    best = 0
    for five in combinations(cards, 5):
        ranks = sorted(c // 4 for c in five)
        counts = sorted(Counter(ranks).values(), reverse=True)
        flush = len({c % 4 for c in five}) == 1
        straight = len(set(ranks)) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12])
        category = (8 if straight and flush else 7 if counts[0] == 4 else 6 if counts[:2] == [3, 2] else
                    5 if flush else 4 if straight else 3 if counts[0] == 3 else 2 if counts[:2] == [2, 2]
                    else 1 if counts[0] == 2 else 0)
        best = max(best, category)
    return best


def _path_reference(grid: list[int], rows: int, cols: int, start: int) -> tuple[int, int]:
    """maze.md section 1, one cell at a time: (cells visited, 0 a loop, or 1 + 8 side + at an exit)."""
    seen, cell = set(), start
    while True:
        if cell in seen:
            return len(seen), 0
        seen.add(cell)
        r, c = divmod(cell, cols)
        arrow = grid[cell]
        r, c = r + (-1, 0, 1, 0)[arrow], c + (0, 1, 0, -1)[arrow]
        if not (0 <= r < rows and 0 <= c < cols):
            return len(seen), 1 + 8 * arrow + (c if arrow % 2 == 0 else r)
        cell = r * cols + c


def test_a_cards_areas_dealer_and_community_draws_and_categories_on_known_hands():
    """`five`: YOUR 10C 10D AH 7S 2C against the DEALER'S KH 9H 5H 2H 2C (a pair of twos, four hearts);
    `hold_em`: YOUR AS 2D, the DEALER'S 10S JS, COMMUNITY 3H 4C 5S KS QS (YOUR wheel straight, the DEALER'S
    flush, four to 10-J-Q-K-A; the board neither a pair nor a draw)."""
    five = hand("10C 10D AH 7S 2C") + hand("KH 9H 5H 2H 2C")
    hold = hand("AS 2D") + hand("10S JS") + hand("3H 4C 5S KS QS")
    columns = {**{f"f_yours_{i}": five[i] for i in range(5)},
               **{f"f_dealer_{i}": five[5 + i] for i in range(5)},
               "h_yours_0": hold[0], "h_yours_1": hold[1], "h_dealer_0": hold[2], "h_dealer_1": hold[3],
               **{f"h_community_{i}": hold[4 + i] for i in range(5)}}
    play = {"areas": [{"id": "f", "style": "cards", "games": 1},
                      {"id": "h", "style": "cards", "games": 1, "deal": "hold_em"}]}
    get = lambda c: np.array([columns[c]])  # noqa: E731
    each = [(n, int(c[0])) for n, c in board_features(play, get, _draws())]
    assert each == [(f"f: game 0, the DEALER'S hand: {PAIR}", 1),
                    (f"f: game 0, the DEALER'S hand: {FLUSH}", 1),
                    (f"f: game 0, the DEALER'S hand: {STRAIGHT}", 0),
                    (f"h: game 0, the DEALER'S 2 and the COMMUNITY cards: {PAIR}", 0),
                    (f"h: game 0, the DEALER'S 2 and the COMMUNITY cards: {FLUSH}", 1),
                    (f"h: game 0, the DEALER'S 2 and the COMMUNITY cards: {STRAIGHT}", 1),
                    (f"h: game 0, the COMMUNITY cards: {PAIR}", 0),
                    (f"h: game 0, the COMMUNITY cards: {FLUSH}", 0),
                    (f"h: game 0, the COMMUNITY cards: {STRAIGHT}", 0)]
    grouped = [(n, int(c[0])) for n, c in board_features(play, get, None)]
    assert grouped == [(f"f: game 0, YOUR {CATEGORY}", 1), (f"f: game 0, the DEALER'S {CATEGORY}", 1),
                       (f"h: game 0, YOUR {CATEGORY}", 4), (f"h: game 0, the DEALER'S {CATEGORY}", 5)]
    assert [n for n, _ in spread_features(play, get)] == [n for n, _ in grouped]  # after 1l's own


def test_a_shared_dealers_hand_gives_its_category_once_after_the_games_and_no_draws_of_its_own():
    """`dealer = "shared"`, two games (columns `s_dealer_0..4`, no `s_dealer_5..`): YOUR 10C 10D AH 7S 2C and
    KH KD KS 3C 3D (a pair, a full house) against the one DEALER'S 9H 8H 5H 2H 2C (a pair); its draws are
    spread.py's (once, after the games'), so board_features adds none; before the shared dealer was read
    here, the missing `s_dealer_5` made the whole area give no feature at all."""
    cards = hand("10C 10D AH 7S 2C") + hand("KH KD KS 3C 3D") + hand("9H 8H 5H 2H 2C")
    columns = {**{f"s_yours_{i}": cards[i] for i in range(10)},
               **{f"s_dealer_{i}": cards[10 + i] for i in range(5)}}
    play = {"areas": [{"id": "s", "style": "cards", "games": 2, "dealer": "shared"}]}
    get = lambda c: np.array([columns[c]])  # noqa: E731
    assert board_features(play, get, _draws()) == []
    grouped = [(n, int(c[0])) for n, c in board_features(play, get, None)]
    assert grouped == [(f"s: game 0, YOUR {CATEGORY}", 1), (f"s: game 1, YOUR {CATEGORY}", 6),
                       (f"s: the DEALER'S {CATEGORY}", 1)]


def _draws():
    from audit.stats import spread
    return spread._draws  # the one definition of a hand's draws, which board_features is handed


def test_the_categories_of_the_vectors_and_of_random_hands_are_the_contracts():
    """The known-answer vectors' categories (tests/vectors/poker_hands.txt), 3,000 random hands of five and
    2,000 of seven (a hold 'em side's), and 2,000 sevens of nine ranks of two suits (flushes, straights and
    full houses common): each the best category of its 21 fives, from the contract's words."""
    pins, _ = vectors()
    rng = np.random.default_rng(12)
    sets = [np.array([hand(t) for t, _ in pins])]
    sets += [np.array([rng.choice(52, k, replace=False) for _ in range(n)])
             for k, n in ((5, 3_000), (7, 2_000))]
    narrow = np.array([r * 4 + s for r in range(4, 13) for s in (0, 1)])
    sets.append(np.array([rng.choice(narrow, 7, replace=False) for _ in range(2_000)]))
    for cards in sets:
        k = cards.shape[1]
        columns = {f"c_yours_{i}": cards[:, i] for i in range(k)} if k == 5 else {
            "c_yours_0": cards[:, 0], "c_yours_1": cards[:, 1],
            **{f"c_community_{i}": cards[:, 2 + i] for i in range(5)}}
        columns.update({f"c_dealer_{i}": cards[:, i] for i in range(5 if k == 5 else 2)})
        area = {"id": "c", "style": "cards", "games": 1, **({"deal": "hold_em"} if k == 7 else {})}
        found = board_features({"areas": [area]}, columns.__getitem__, None)
        assert found[0][1].tolist() == [_category_reference(h.tolist()) for h in cards]
    assert [v for _, v in pins] == board_features(
        {"areas": [{"id": "c", "style": "cards", "games": 1}]},
        lambda c: sets[0][:, int(c[-1])], None)[0][1].tolist()


def test_a_mazes_paths_are_the_contracts_on_random_grids():
    """3,000 uniform 5 x 5 grids and 3,000 of 3 x 8, each START's path followed one cell at a time as maze.md
    section 1 says; a code out of range ends the path there (section 5)."""
    rng = np.random.default_rng(21)
    for rows, cols, starts in ((5, 5, (10, 14, 0)), (3, 8, (23, 9))):
        grid = rng.integers(0, 4, size=(3_000, rows * cols))
        for start in starts:
            length, end = maze_paths(grid, rows, cols, start)
            assert list(zip(length.tolist(), end.tolist(), strict=True)) == [
                _path_reference(g.tolist(), rows, cols, start) for g in grid]
    grid = np.array([[2, 1, 7, 0]])  # 2 x 2: START 0 down into a code out of range; 3 up, then right out
    assert [int(v[0]) for v in maze_paths(grid, 2, 2, 0)] == [2, 0]
    assert [int(v[0]) for v in maze_paths(grid, 2, 2, 3)] == [2, 1 + 8 * 1 + 0]
    area = {"id": "maze", "style": "maze", "rows": 2, "cols": 2, "starts": [0, 3]}
    assert spread_features({"areas": [area]}, lambda c: grid[:, int(c[-1])]) == []  # 4^4 grids: none read
    area, grid = {**area, "rows": 3, "cols": 3}, rng.integers(0, 4, size=(5, 9))
    assert [n for n, _ in spread_features({"areas": [area]}, lambda c: grid[:, int(c.split("_")[-1])])] == [
        f"maze: START {i}'s path, {w}" for i in (1, 2)
        for w in ("the cells it visits", "where it ends (0 a loop, 1 + 8 side + at an exit)")]
    assert columns_needed({"areas": [area]}, "printed") == [
        "prize_cents", *[f"maze_cell_{k}" for k in range(9)], "book"]


@pytest.fixture(scope="module")
def maze(tmp_path_factory):
    """Arrow Maze cut to one pool of 24,000 tickets (240 books of 100)."""
    spec = load_spec(small_example(tmp_path_factory.mktemp("maze"), "arrow_maze", 24_000))
    return spec, spec.pools[0], build_pool(spec, spec.pools[0], SEED)


@pytest.fixture(scope="module")
def showdown(tmp_path_factory):
    """Poker Showdown cut to one pool of 30,000 tickets."""
    spec = load_spec(small_example(tmp_path_factory.mktemp("showdown"), "poker_showdown", 30_000))
    return spec, spec.pools[0], build_pool(spec, spec.pools[0], SEED)


def test_honest_maze_and_showdown_pools_get_each_new_features_tables_and_pass(maze, showdown):
    """Each feature's 1j table is made, in the contract's order (the DEALER'S draws, each value a group, after
    the categories: 1l's each-value features come after its grouped ones); 1k's where its classes allow
    (a book's first and last losers of 240 or 100 books: a rare value leaves one class)."""
    draws = [f"the DEALER'S hand: {k}" for k in (PAIR, FLUSH, STRAIGHT)]
    expected = {"arrow_maze": [f"maze: START {i}'s path, {w}" for i in (1, 2) for w in (
                    "the cells it visits", "where it ends (0 a loop, 1 + 8 side + at an exit)")],
                "poker_showdown": [f"poker: game {g}, {w}" for g in range(3) for w in (
                    f"YOUR {CATEGORY}", f"the DEALER'S {CATEGORY}")] +
                [f"poker: game {g}, {w}" for g in range(3) for w in draws]}
    for spec, pool, table in (maze, showdown):
        s, r = judge(spec, pool, table, SEED)
        assert s.failed == [] and r.failed == []
        names = [j.finding.name for j in s.judged if _new(j.finding.name)]
        assert [n for n in names if n.endswith("(print order)")] == [
            next_ticket_name(f, "printed") for f in expected[spec.id]]
        assert set(names) - {next_ticket_name(f, "printed") for f in expected[spec.id]} <= {
            book_name(f) for f in expected[spec.id]}


def test_the_new_tests_p_values_on_orders_of_the_losers_are_their_null(maze, showdown):
    """The null of 1j and 1k, exactly: each pool's losers' layouts put in 200 uniformly random orders among
    its losers. Every new test's p-value is at most 0.05 in no more than 22 of the 200 (a uniform p-value
    exceeds that with probability 2e-4) and at most 0.001 in no more than 3 (probability 6e-5)."""
    for spec, _, table in (maze, showdown):
        prize = table["prize_cents"].to_numpy()
        get = lambda c, t=table: t[c].to_numpy()  # noqa: E731
        features = [(n, c, e) for e in (False, True)
                    for n, c in spread_features(spec.play.document(), get, each_value=e) if _new(n)]
        losers, rng, following = np.flatnonzero(prize == 0), np.random.default_rng(3), NextTickets(prize)
        low: dict[str, list[float]] = {}
        for _ in range(200):
            order = np.arange(len(prize))
            order[losers] = rng.permutation(losers)
            for name, codes, each in features:
                for f in (following.finding(next_ticket_name(name, "printed"), codes[order], each=each),
                          book_finding(book_name(name), prize, codes[order], spec.tickets_per_book,
                                       each=each)):
                    if f is not None:
                        low.setdefault(f.name, []).append(f.p)
        assert len(low) == 2 * len(features)
        assert max(sum(p <= 0.05 for p in ps) for ps in low.values()) <= 22
        assert max(sum(p <= 0.001 for p in ps) for ps in low.values()) <= 3


def test_a_long_maze_path_before_winners_is_refused_by_the_paths_test(maze):
    """300 of the losers whose START 1 path visits 6 cells or more put just before a winner (P(next wins) from
    0.22 to about 0.44 for them): step 8 before these features passes it; the path's test refuses it."""
    spec, pool, table = maze
    tell = (table["prize_cents"].to_numpy() == 0) & (_features(spec, table)[LENGTH] >= 6)
    s, r = judge(spec, pool, tell_before(table, tell, None, 300, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert next_ticket_name(LENGTH, "printed") in [j.finding.name for j in s.failed]
    assert min(j.finding.p for j in s.failed) < 1e-20


def test_a_dealers_pair_of_tens_before_winners_is_refused_by_the_dealers_draw(showdown):
    """300 losers whose game 0 DEALER'S hand holds a pair of tens put just before a winner."""
    spec, pool, table = showdown
    feature = f"poker: game 0, the DEALER'S hand: {PAIR}"
    tell = (table["prize_cents"].to_numpy() == 0) & (_features(spec, table)[feature] == 9)
    s, r = judge(spec, pool, tell_before(table, tell, None, 300, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [next_ticket_name(feature, "printed")]
    assert s.failed[0].finding.p < 1e-20


def test_a_lost_two_pair_before_the_top_prizes_is_refused_by_the_categorys_test(showdown):
    """Every loser whose game 0 YOUR hand was two pair or better (it lost to a better dealer) that can be put
    just before a $100 or better is: the category's test refuses it, no test before it."""
    spec, pool, table = showdown
    feature = f"poker: game 0, YOUR {CATEGORY}"
    tell = (table["prize_cents"].to_numpy() == 0) & (_features(spec, table)[feature] >= 2)
    changed = tell_before(table, tell, (10_000, 100_000), None, np.random.default_rng(1))
    s, r = judge(spec, pool, changed, SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert next_ticket_name(feature, "printed") in [j.finding.name for j in s.failed]


def test_a_dealers_seven_four_to_a_flush_before_winners_in_hold_em_is_refused_by_the_dealers_draw(tmp_path):
    """Hold 'Em Poker cut to 20,000 tickets: 300 losers whose deal 2 DEALER'S 2 with the COMMUNITY cards hold
    four of one suit put just before a winner (P(next wins) 0.24 to about 0.33 for them; at 12,000 the
    300 are enough of them for YOUR draw's test to refuse it first). The board is YOUR
    seven's too, but YOUR draws' tests do not refuse it; the DEALER'S draw does (and the board's own, which
    the tell lifts: a board of four suited makes both sevens four to a flush)."""
    spec = load_spec(small_example(tmp_path, "holdem_poker", 20_000))
    table = build_pool(spec, spec.pools[0], SEED)
    feature = f"deal: game 2, the DEALER'S 2 and the COMMUNITY cards: {FLUSH}"
    tell = (table["prize_cents"].to_numpy() == 0) & (_features(spec, table)[feature] == 1)
    s, r = judge(spec, spec.pools[0], tell_before(table, tell, None, 300, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    failed = {j.finding.name: j.finding.p for j in s.failed}
    assert failed[next_ticket_name(feature, "printed")] < 1e-15 and all(_new(n) for n in failed)


def test_a_re_signed_maze_run_whose_losers_paths_tell_the_next_winner_fails_step_8_alone(tmp_path):
    """Arrow Maze cut to 4,800 tickets, signed; every loser whose START 1 path visits 5 cells or more that can
    be is put just before a winner, and the pool re-signed: step 8 alone fails, by a maze path's test."""
    spec = load_spec(small_example(tmp_path, "arrow_maze", 4_800))
    run, public, signer = signed_first_pool(spec, SEED, tmp_path, "mz")
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []

    def insider(table: pl.DataFrame) -> pl.DataFrame:
        tell = (table["prize_cents"].to_numpy() == 0) & (_features(spec, table)[LENGTH] >= 5)
        return tell_before(table, tell, None, None, np.random.default_rng(1))

    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer, insider)
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert any(f"pool {spec.pools[0].id}: maze: START 1's path" in r for r in reasons), reasons
