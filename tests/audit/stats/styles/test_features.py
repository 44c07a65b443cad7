"""Step 8's features of the styles since issue 27 (audit/stats/styles/games.py, pictures.py), each
what its contract's no-information section promises: on a small real pool of each style's example
(6,000 tickets, every count cut alike) step 8 passes with the style's features run, by name, and the
line "no no-information tests" gone; the same pool with a leak an insider could print (each changed
row still legal, its wins unchanged: the audit engine of the style says so) fails step 8 naming the
feature made for it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.stats.step import columns_needed
from poolgen.check.packs import check_layouts_vary
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.run.build import build_pool
from tests.support import small_example
from tests.support.spec_docs import base_doc, dumps
from tests.support.stats import judge, on_losers

SEED = hashlib.sha256(b"poolgen/tests/style-features").digest()
WIN = "against win/lose"

# style: (example, its area's id, the names of the area's features, what is listed as not tested)
STYLES: dict[str, tuple[str, str, list[str], list[str]]] = {
    "prize_box": ("lucky_pairs", "games", [
        name for g in range(6) for name in (
            f"games_prize_{g} (a PRIZE box) on tickets whose game {g} does not win, {WIN}",
            *(f"games_spot_{k} (a picture) on tickets whose game {g} does not win, {WIN}"
              for k in range(3 * g, 3 * g + 3)))], []),
    "keno": ("ne_scratch_keno", "keno", [f"keno_win_{i} (a WINNING NUMBER) {WIN}" for i in range(20)],
             []),
    "yours_beats_theirs": ("high_card_duel", "duel", [
        f"duel_{part}_{p} ({what}) on tickets whose pair {p} does not win, {WIN}" for p in range(4)
        for part, what in (("yours", "YOUR symbol"), ("theirs", "THEIR symbol"), ("prize", "a PRIZE"))], []),
    "add_up": ("lucky_21", "add", [
        name for g in range(5) for name in (
            f"add_prize_{g} (a PRIZE) on tickets whose game {g} does not win, {WIN}",
            *(f"add_spot_{k} (a number) on tickets whose game {g} does not win, {WIN}"
              for k in range(3 * g, 3 * g + 3)),
            f"the total of game {g} of add on tickets whose game {g} does not win, {WIN}")], []),
    "cards": ("poker_showdown", "poker", [
        f"poker_prize_{g} (a PRIZE) on tickets whose game {g} does not win, {WIN}" for g in range(3)],
        ["layout: poker: the hands: a losing game's hands depend on how many other games the ticket wins "
         "(cards.md section 9: no promise)"]),
    "symbol_count": ("five_alarm_flames", "flames", [
        f"flames_spot_{j} (a decoy) on tickets whose spot {j} shows a decoy, {WIN}" for j in range(8)],
        ["layout: flames: where and how often FLAME shows: the count is the win, its places uniform only "
         "given the count (symbol_count.md section 8)"]),
    "lines": ("tic_tac_cash", "ttt", [
        f"ttt_cell_{k} (a decoy) on tickets whose cell {k} shows a decoy, {WIN}" for k in range(9)],
        ["layout: ttt: where X shows: the lines it completes are the win, its cells uniform only given "
         "their number (lines.md section 8)"]),
    "bingo": ("bingo_bonanza", "bingo", [
        *(f"bingo_card{k}_{c} (its number's place in its column) {WIN}" for k in range(2) for c in range(25)
          if c != 12),
        *(f"bingo_call_{i} (its number's place in its column) {WIN}" for i in range(30))],
        ["layout: bingo: the caller's numbers' columns, the marked cells and which card wins: not promised "
         "independent of winning (bingo.md section 8)"]),
    "crossword": ("super_red_hot_crossword", "puzzle", [
        f"puzzle_letter_{j} (its place in alphabet order among YOUR LETTERS) {WIN}" for j in range(20)],
        ["layout: puzzle: the grids, alike only between tiers whose targets every drawn grid admits, which "
         "one row does not tell; YOUR LETTERS as a set, which decide the prize (crossword.md section 8)"]),
    "ticket_multiplier": ("double_bag", "bonus", [
        f"bonus_spot_0 (a picture) on tickets showing no multiplier, {WIN}"], []),
    "maze": ("arrow_maze", "maze", [],
             ["layout: area 'maze' (maze): no cell is promised independent of winning (maze.md section 8: a "
              "winning path's cells point along it)"]),
}


@pytest.fixture(scope="module")
def pools(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("examples")
    out = {}
    for style, (example, aid, _, _) in STYLES.items():
        spec = load_spec(small_example(folder, example, 6000))
        pool = spec.pools[0]
        area = next(a for a in spec.play.document()["areas"] if a["id"] == aid)
        assert area["style"] == style and pool.tickets == 6000
        out[style] = spec, pool, build_pool(spec, pool, SEED), area
    return out


@pytest.mark.parametrize("style", STYLES)
def test_an_honest_pool_of_each_style_passes_with_its_features_run(pools, style):
    spec, pool, table, _ = pools[style]
    _, aid, names, not_tested = STYLES[style]
    s, r = judge(spec, pool, table.select(columns_needed(spec.play.document())), SEED)  # what verify reads
    assert not s.failed and not r.failed, [(j.finding.name, j.finding.p) for j in s.failed + r.failed]
    judged = [j.finding.name for j in s.judged if j.finding.name.startswith((f"{aid}_", "the total of"))
              and "against the next ticket's prize" not in j.finding.name  # 1j's and 1k's:
              and "against the book's highest prize" not in j.finding.name]  # test_insider_next_ticket
    assert judged == names
    assert [w for w in s.not_tested if w.startswith("layout")  # 1l's draws of a small pool may be one class
            and "against the next ticket's prize" not in w] == not_tested
    assert not any("no no-information tests" in w for w in s.not_tested)


def _top(area: dict[str, Any]) -> int:
    return max(range(len(area["prizes"])), key=lambda i: area["prizes"][i]["cents"])


def _col(table: pl.DataFrame, name: str) -> np.ndarray:
    return table[name].to_numpy().astype(np.int64)


def _swap_in(table: pl.DataFrame, names: list[str], want: int) -> dict[str, np.ndarray]:
    """Each row's first spot of `names` showing `want` swapped into the first spot (same multiset)."""
    spots = np.stack([_col(table, c) for c in names], axis=1)
    j = np.argmax(spots == want, axis=1)
    has = (spots == want).any(axis=1)
    rows = np.flatnonzero(has)
    spots[rows, j[rows]], spots[rows, 0] = spots[rows, 0], want
    return {c: spots[:, i] for i, c in enumerate(names)}


def _sorted(table: pl.DataFrame, names: list[str]) -> dict[str, np.ndarray]:
    """The columns' values sorted increasing across `names`, row by row (the same values)."""
    values = np.sort(np.stack([_col(table, c) for c in names], axis=1), axis=1)
    return {c: values[:, i] for i, c in enumerate(names)}


# style: (the leak on every loser, the feature that must fail)
LEAKS: dict[str, tuple[Callable[[pl.DataFrame, dict[str, Any]], dict[str, np.ndarray]], str]] = {
    "prize_box": (lambda t, a: {"games_prize_0": np.full(t.height, _top(a))},
                  f"games_prize_0 (a PRIZE box) on tickets whose game 0 does not win, {WIN}"),
    "yours_beats_theirs": (lambda t, a: {"duel_yours_0": np.zeros(t.height)},  # the lowest: never beats
                           f"duel_yours_0 (YOUR symbol) on tickets whose pair 0 does not win, {WIN}"),
    "add_up": (lambda t, a: {f"add_spot_{k}": np.zeros(t.height) for k in range(3)},  # the lowest total
               f"the total of game 0 of add on tickets whose game 0 does not win, {WIN}"),
    "cards": (lambda t, a: {"poker_prize_0": np.full(t.height, _top(a))},
              f"poker_prize_0 (a PRIZE) on tickets whose game 0 does not win, {WIN}"),
    "symbol_count": (lambda t, a: _swap_in(t, [f"flames_spot_{j}" for j in range(8)], 1),  # PEPPER to spot 0
                     f"flames_spot_0 (a decoy) on tickets whose spot 0 shows a decoy, {WIN}"),
    "lines": (lambda t, a: {"ttt_cell_4": np.where(_col(t, "ttt_cell_4") == 0, 0, 1)},  # the centre's decoy O
              f"ttt_cell_4 (a decoy) on tickets whose cell 4 shows a decoy, {WIN}"),
    "bingo": (lambda t, a: _sorted(t, [f"bingo_card0_{c}" for c in (0, 5, 10, 15, 20)]),  # column B sorted
              f"bingo_card0_0 (its number's place in its column) {WIN}"),
    "crossword": (lambda t, a: _sorted(t, [f"puzzle_letter_{j}" for j in range(20)]),  # in alphabet order
                  f"puzzle_letter_0 (its place in alphabet order among YOUR LETTERS) {WIN}"),
    "keno": (lambda t, a: _sorted(t, [f"keno_win_{i}" for i in range(20)]),  # WINNING NUMBERS in order
             f"keno_win_0 (a WINNING NUMBER) {WIN}"),
    "ticket_multiplier": (lambda t, a: {"bonus_spot_0": np.zeros(t.height)},  # every loser's picture BELL
                          f"bonus_spot_0 (a picture) on tickets showing no multiplier, {WIN}"),
}


@pytest.mark.parametrize("style", LEAKS)
def test_a_leak_through_a_promised_feature_fails_step_8_naming_it(pools, style):
    spec, pool, table, area = pools[style]
    leak, name = LEAKS[style]
    leaky = on_losers(table, area, leak(table, area))
    assert not leaky.equals(table)
    s, _ = judge(spec, pool, leaky, SEED)
    failed = {j.finding.name: j.finding.p for j in s.failed}
    assert name in failed and failed[name] < 1e-6, failed


def _one_losing_number_game(tmp_path, neighbours: str | None, z1: int = 0):
    """add_up, 2 games of 1 number, target 2 or more: a loser can only show 1 in each game, so losers'
    layouts differ only in their PRIZEs, and the default neighbour rule lays many of them out again. Its
    one prize Z0 won by 43 tickets; with `z1`, a second prize Z1 won by that many (a prize no tier wins
    is refused: add_up.md section 2)."""
    numbers = [{"group": "num", "code": str(v), "symbol": str(v)} for v in (1, 2, 5, 6, 9, 12)]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(2 if z1 else 1)]
    area = {"id": "au", "style": "add_up", "games": 2, "spots": 1, "numbers": "num", "target": 2,
            "reach": "at_least", "prizes": "pz"}
    tiers = [{"id": "t0", "count": 43, "wins": [{"area": "au", "prize": "Z0", "how": "match"}]}]
    if z1:
        tiers.append({"id": "t1", "count": z1, "wins": [{"area": "au", "prize": "Z1", "how": "match"}]})
    doc = base_doc([area], numbers + prizes, tiers, max_wins=3, pool_tickets=500, per_book=25)
    if neighbours:
        doc["packs"] = {"neighbours": neighbours}
    path = tmp_path / "g.toml"
    path.write_text(dumps(doc))
    return load_spec(path)


def test_a_prize_drawn_as_the_contract_says_passes(tmp_path):
    """Every win is Z0, so add_up.md section 7 draws every PRIZE Z0: one category, nothing to test."""
    spec = _one_losing_number_game(tmp_path, "off")
    table = build_pool(spec, spec.pools[0], SEED)
    assert set(table["au_prize_0"].to_list()) == {0}
    s, _ = judge(spec, spec.pools[0], table, SEED)
    assert not s.failed


def test_a_run_laid_out_again_draws_its_prizes_from_the_pools_mix(tmp_path):
    """The neighbour rule lays runs of a pool out again (poolgen/run/packs/neighbours.py) with the
    pool's mix, each tier's count in the pool: losers alone, drawn so, show PRIZE Z1 as the pool's wins
    do, 1 in 44 (add_up.md section 7, step 2: the PRIZE is drawn by the pool's wins, 43 Z0 and 1 Z1).
    Drawn with their own rows' mix (no win: every PRIZE uniform) they show it half the time: that was the
    bias step 8 found."""
    spec = _one_losing_number_game(tmp_path, "off", z1=1)
    pool = spec.pools[0]
    losers = np.zeros(400, dtype=np.int16)
    mix = [t.count for t in pool.tiers]
    again = spec.play.lay_out(spec, pool, losers, derive_stream(SEED, "poolgen/test", "run"), mix)
    shown = again["au_prize_0"].tolist() + again["au_prize_1"].tolist()
    assert shown.count(1) < 40  # 800 PRIZEs, 18 expected, P(40 or more) about 1e-5
    own = spec.play.lay_out(spec, pool, losers, derive_stream(SEED, "poolgen/test", "run"))
    mine = own["au_prize_0"].tolist() + own["au_prize_1"].tolist()
    assert mine.count(1) > 300  # 400 expected


def test_check_refuses_the_neighbour_rule_where_losers_show_one_layout(tmp_path):
    """Every loser of this game shows 1 and 1 and PRIZE Z0: one layout, so no pack of losers can keep
    its neighbours apart; check says so in one line naming packs.neighbours (drawing losers with the
    pool's mix, as generation does)."""
    spec = _one_losing_number_game(tmp_path, None)
    with pytest.raises(SpecError, match=r"^.*/g\.toml: packs\.neighbours: tier lose: 256 of 256 pairs"):
        check_layouts_vary(spec, 25)
