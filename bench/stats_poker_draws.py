"""Step 8 against an insider whose losing poker hands tell the next ticket or the book (docs/statistics.md
1l, a poker hand's draws): losers showing a pair of tens, four to a flush, four to a straight or the JOKER
put just before winners (or first in the books holding a top prize). The losers' layouts are exchanged among
the losers (`tests/support/next_ticket_biases.py`): no prize moves, no hand is one the losing tier could not
draw. Small pools built in memory, each judged as a one-pool run (`tests/support/stats.judge`); "before" is
Holm over the pool's tests without 1l's draws (today's step 8 before them), "after" step 8 as it is.

    PYTHONPATH=. python bench/stats_poker_draws.py                    # the power table
    PYTHONPATH=. python bench/stats_poker_draws.py --power 0 --honest 200

Games: Poker Lotto Instant Win (specs/examples/poker_lotto_instant.toml) cut to 38,220 tickets (books of
60, every count 1/17), and a 53-card game of 20,000 tickets (books of 50) paying five of a kind down to
jacks or better (the tests' joker game). Seeds: SHA-256("step8styles11/power/" || game) for the biased
pools, SHA-256("step8styles11/honest/" || game || "/" || i) for the honest ones."""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from audit.stats.spread import spread_features
from audit.stats.step import holm, pool_alpha
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_example
from tests.support.next_ticket_biases import tell_before, tell_in_books
from tests.support.spec_docs import base_doc, dumps
from tests.support.stats import judge

CHART = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]
CENTS = [100_000, 50_000, 10_000, 2_000, 1_000, 700, 500, 300, 200, 100]
PAIR, FLUSH, STRAIGHT = ("the highest rank shown twice or more (a hand's pair)",
                         "four or more cards of one suit (a hand's draw to a flush)",
                         "four or more ranks within one sequence (a hand's draw to a straight)")
LOTTO_TOP = (5_000, 7_500, 17_500, 50_000, 500_000)  # $50 and up
JOKER_TOP = (1_000, 2_000, 10_000, 50_000, 100_000)  # $10 and up
SHOW_TOP = (10_000, 100_000)  # Poker Showdown's $100 and up
# (what, feature, value, amounts (None: every winner), most moved (None: all), in books)
CASES: dict[str, list[tuple[str, str, int, tuple[int, ...] | None, int | None, bool]]] = {
    "poker_lotto_instant": [
        ("a pair of tens, every winner", PAIR, 9, None, None, False),
        ("a pair of tens, every winner", PAIR, 9, None, 300, False),
        ("a pair of tens, every winner", PAIR, 9, None, 100, False),
        ("a pair of tens, every winner", PAIR, 9, None, 50, False),
        ("four to a flush, every winner", FLUSH, 1, None, 300, False),
        ("four to a flush, every winner", FLUSH, 1, None, 100, False),
        ("four to a flush, $50 and up", FLUSH, 1, LOTTO_TOP, None, False),
        ("four to a flush, $50 and up", FLUSH, 1, LOTTO_TOP, 30, False),
        ("four to a flush, $50 and up", FLUSH, 1, LOTTO_TOP, 10, False),
        ("four to a straight, every winner", STRAIGHT, 1, None, 300, False),
        ("four to a straight, every winner", STRAIGHT, 1, None, 100, False),
        ("a pair of tens, first loser of the books with $50 and up", PAIR, 9, LOTTO_TOP, None, True),
    ],
    "poker_showdown": [
        ("game 0: YOUR hand a pair of tens, every winner", "game 0, YOUR hand: " + PAIR, 9, None, 300, False),
        ("game 0: YOUR hand a pair of tens, every winner", "game 0, YOUR hand: " + PAIR, 9, None, 100, False),
        ("game 1: YOUR hand four to a flush, $100 and up", "game 1, YOUR hand: " + FLUSH, 1, SHOW_TOP,
         None, False),
        ("game 1: YOUR hand four to a flush, $100 and up", "game 1, YOUR hand: " + FLUSH, 1, SHOW_TOP,
         30, False),
    ],
    "holdem_poker": [
        ("deal 0: four to a flush, every winner", "game 0, YOUR 2 and the COMMUNITY cards: " + FLUSH, 1, None,
         300, False),
        ("deal 0: four to a flush, every winner", "game 0, YOUR 2 and the COMMUNITY cards: " + FLUSH, 1, None,
         100, False),
        ("deal 2: a pair of aces, $100 and up", "game 2, YOUR 2 and the COMMUNITY cards: " + PAIR, 13,
         (10_000, 50_000, 1_000_000), None, False),
        ("deal 2: a pair of aces, $100 and up", "game 2, YOUR 2 and the COMMUNITY cards: " + PAIR, 13,
         (10_000, 50_000, 1_000_000), 30, False),
    ],
    "joker": [
        ("the JOKER, every winner", "the JOKER shown", 1, None, None, False),
        ("the JOKER, every winner", "the JOKER shown", 1, None, 50, False),
        ("the JOKER, $10 and up", "the JOKER shown", 1, JOKER_TOP, None, False),
        ("the JOKER, $10 and up", "the JOKER shown", 1, JOKER_TOP, 30, False),
        ("the JOKER, $10 and up", "the JOKER shown", 1, JOKER_TOP, 10, False),
    ],
}


def _mine(name: str) -> bool:
    return "(a hand's" in name or "the JOKER shown" in name


def _joker(folder: Path) -> Path:
    counts = [1, 1, 2, 20, 40, 50, 140, 900, 900, 3300]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${c // 100:,}", "value": f"{c // 100}.00"}
              for i, c in enumerate(CENTS)]
    area = {"id": "hand", "style": "poker_hand", "prizes": "pz", "joker": True,
            "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(CHART)]}
    tiers = [{"id": h, "count": counts[i], "wins": [{"area": "hand", "prize": f"Z{i}", "how": "match"}]}
             for i, h in enumerate(CHART)]
    doc = base_doc([area], prizes, tiers, max_wins=1, pool_tickets=20_000)
    (folder / "joker.toml").write_text(dumps(doc))
    return folder / "joker.toml"


SIZES = {"poker_lotto_instant": 38_220, "poker_showdown": 30_000, "holdem_poker": 30_000}


def _spec(game: str, folder: Path) -> Any:
    return load_spec(_joker(folder) if game == "joker" else small_example(folder, game, SIZES[game]))


def power(game: str, folder: Path) -> None:
    spec = _spec(game, folder)
    pool = spec.pools[0]
    seed = hashlib.sha256(f"step8styles11/power/{game}".encode()).digest()
    table = build_pool(spec, pool, seed)
    draws = {n.split(": ", 1)[1]: c for n, c in
             spread_features(spec.play.document(), lambda c: table[c].to_numpy(), each_value=True)}
    prize = table["prize_cents"].to_numpy()
    lose = prize == 0
    for what, feature, value, amounts, most, books in CASES[game]:
        tell = lose & (draws[feature] == value)
        rng = np.random.default_rng(1)
        changed = tell_in_books(table, tell, spec.tickets_per_book, amounts or (), rng) if books else \
            tell_before(table, tell, amounts, most, rng)
        s, _ = judge(spec, pool, changed, seed)
        others = [j.finding for j in s.judged if not _mine(j.finding.name)]
        before = [j for j in holm(others, pool_alpha(1)) if j.rejected]
        mine = min((j for j in s.judged if _mine(j.finding.name)), key=lambda j: j.finding.p)
        moved = changed["prize_cents"].to_numpy()
        p_next = _p_next(moved, np.flatnonzero(_tells(changed, feature, value, spec)), amounts)
        p_loser = _p_next(moved, np.flatnonzero(moved == 0), amounts)
        print(f"{game}: {what}: {int(tell.sum())} losers, moved {'all' if most is None else most}"
              f"{' (books)' if books else ''}: P(next) tell {p_next:.4f}, loser {p_loser:.4f}; before "
              f"{'refused' if before else 'passes'} (smallest p {min(f.p for f in others):.2g}); after "
              f"{'refused' if mine.rejected else 'passes'} (p {mine.finding.p:.2g}, threshold "
              f"{mine.threshold:.2g}: {mine.finding.name[:60]})")


def _tells(table: Any, feature: str, value: int, spec: Any) -> np.ndarray:
    draws = {n.split(": ", 1)[1]: c for n, c in
             spread_features(spec.play.document(), lambda c: table[c].to_numpy(), each_value=True)}
    return (table["prize_cents"].to_numpy() == 0) & (draws[feature] == value)


def _p_next(prize: np.ndarray, rows: np.ndarray, amounts: tuple[int, ...] | None) -> float:
    rows = rows[rows + 1 < len(prize)]
    nxt = prize[rows + 1]
    return float(np.mean(nxt > 0 if amounts is None else np.isin(nxt, amounts)))


def honest(game: str, runs: int, folder: Path) -> None:
    spec = _spec(game, folder)
    pool = spec.pools[0]
    failed = by_mine = 0
    ps: list[float] = []
    for i in range(runs):
        seed = hashlib.sha256(f"step8styles11/honest/{game}/{i}".encode()).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        names = [j.finding.name for j in s.failed]
        failed += bool(names or r.failed)
        by_mine += any(_mine(n) for n in names)
        ps += [j.finding.p for j in s.judged if _mine(j.finding.name)]
    p = np.array(ps)
    shares = ", ".join(f"{100 * float((p <= a).mean()):.2f}%" for a in (0.05, 0.01, 0.001))
    print(f"{game}: {runs} honest runs: {failed} fail step 8, {by_mine} by the draws; their {len(p):,} "
          f"p-values at most 0.05, 0.01, 0.001 in {shares}, mean {float(p.mean()):.3f}, "
          f"smallest {float(p.min()):.2g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--power", type=int, default=1, help="1: the biased pools (default)")
    parser.add_argument("--honest", type=int, default=0, help="honest small runs of each game")
    parser.add_argument("--games", default=",".join(CASES), help="the games, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            folder = Path(tmp) / game
            folder.mkdir()
            if args.power:
                power(game, folder)
            if args.honest:
                honest(game, args.honest, folder)


if __name__ == "__main__":
    main()
