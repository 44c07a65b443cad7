"""Step 8's features of the styles whose spots show amounts or numbers: match_n, key_number_match
and bonus_reveal, each from its contract's section 8, the manifest's `play` entry and the pool's tier
counts alone.

match_n (docs/styles/match_n.md, section 8): the amount shown in each `<area>_spot_<j>` (any one spot),
among tickets whose spot 0 shows an amount, is independent of win/lose, unless the pool's winners
show some amount more often than a ticket without a win can (m(s) > N - 1, section 7): then the
contract promises nothing and the test says so.

key_number_match (docs/styles/key_number_match.md, section 8.3) and bonus_reveal
(docs/styles/bonus_reveal.md, section 8): as their contracts state, below.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from audit.stats.styles.kinds import AreaFeatures, Blocks, Get, Tests

__all__ = ["bonus_reveal", "bonus_reveal_columns", "key_number_columns", "key_number_match", "match_n",
           "match_n_columns"]


def _match_n_targets(area: dict[str, Any], tiers: list[Any], counts: dict[str, int]) -> list[Fraction]:
    """m(s) of section 7: S x (sum of n_t c_t(s)) / (sum of n_t (S - M_t)) over the tiers with wins
    in the area, c_t(s) a ticket's expected count of amount s and M_t its multiplier symbols."""
    spots, match = area["spots"], area["match"]
    codes = [p["code"] for p in area["prizes"]]
    shown = [Fraction(0)] * len(codes)
    for t in tiers:
        mine = [w for w in t["wins"] if w["area"] == area["id"]]
        n = counts.get(t["id"], 0)
        if not mine or not n:
            continue
        count = [Fraction(0)] * len(codes)
        for w in mine:
            count[codes.index(w["prize"])] += match if w["how"] == "match" else match - 1
        head = int(sum(count)) + (1 if any(w["how"] == "multiplier" for w in mine) else 0)
        others = [i for i in range(len(codes)) if not any(w["prize"] == codes[i] for w in mine)]
        for i in others:
            count[i] += Fraction(spots - head, len(others))
        shown = [a + n * b for a, b in zip(shown, count, strict=True)]
    total = sum(shown)
    return [Fraction(spots, len(codes))] * len(codes) if not total else [spots * x / total for x in shown]


def match_n(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """(chi-square features, classifier block or None, not tested) of one match_n area."""
    aid, n_prizes = area["id"], len(area["prizes"])
    m = _match_n_targets(area, play["tiers"], counts)
    if max(m) > area["match"] - 1:
        worst = max(range(n_prizes), key=lambda i: m[i])
        return [], [], [f"layout: {aid}_spot_0: winners show {area['prizes'][worst]['code']} "
                          f"{float(m[worst]):.3f} times in {area['spots']} spots, more than a ticket "
                          f"without a win may ({area['match'] - 1}): no promise (match_n.md section 8)"]
    tests: Tests = []
    for j in range(area["spots"]):  # section 8: the amount in any one spot (-1: a multiplier, left out)
        spot = get(f"{aid}_spot_{j}").astype(np.int64)
        among = f" among tickets whose spot {j} shows an amount" if area["multipliers"] else ""
        tests.append((f"{aid}_spot_{j} (one scratched spot) against win/lose{among}",
                      np.where(spot < n_prizes, spot, -1)))
    return tests, [(f"{aid}_spot_0", [tests[0][1]])], []


def key_number_columns(area: dict[str, Any]) -> list[str]:
    aid, own = area["id"], "winning_from" not in area
    return (([f"{aid}_win_{i}" for i in range(area["winning"])] if own else [])
            + ([f"{aid}_your_{i}" for i in range(area["yours"])] if not area.get("specials") else [])
            + ([f"{aid}_prize_{i}" for i in range(area["yours"])] if area.get("decoy_weights") else []))


def key_number_match(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int],
                     get: Get) -> AreaFeatures:
    """key_number_match.md section 8.3: an area's WINNING NUMBERS (each, the smallest, the set);
    without special symbols, each YOUR NUMBER; with decoy weights, the prize below each YOUR NUMBER
    (the spots are in random order: what one spot promises, every spot does)."""
    aid, cols = area["id"], key_number_columns(area)
    tests: Tests = []
    blocks: Blocks = []
    if "winning_from" not in area and area["winning"]:  # a key symbol game has no WINNING NUMBERS
        win = [get(f"{aid}_win_{i}").astype(np.int64) for i in range(area["winning"])]
        tests += [(f"{aid}_win_{i} (a WINNING NUMBER) against win/lose", w) for i, w in enumerate(win)]
        tests.append((f"smallest WINNING NUMBER of {aid} against win/lose", np.minimum.reduce(win)))
        blocks.append((f"the set of WINNING NUMBERS of area {aid}", win))
    for i in range(area["yours"]):
        if f"{aid}_your_{i}" in cols:
            tests.append((f"{aid}_your_{i} (a YOUR NUMBER) against win/lose", get(f"{aid}_your_{i}")))
    for i in range(area["yours"]):
        if f"{aid}_prize_{i}" in cols:
            tests.append((f"{aid}_prize_{i} (a prize symbol) against win/lose", get(f"{aid}_prize_{i}")))
    return tests, blocks, []


def bonus_reveal(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int],
                 get: Get) -> AreaFeatures:
    """bonus_reveal.md section 8: on tickets that reveal no amount in the area, the picture of
    each spot is drawn the same way for winners and losers (spot order is random: what spot 0
    promises, every spot does; other tickets are left out: code -1)."""
    aid = area["id"]
    codes = [get(f"{aid}_spot_{j}").astype(np.int64) for j in range(area["spots"])]
    none_won = np.logical_and.reduce([c < len(area["pictures"]) for c in codes])
    return [(f"{aid}_spot_{j} (a picture) on tickets revealing no amount there, against win/lose",
             np.where(none_won, c, -1)) for j, c in enumerate(codes)], [], []


def ticket_multiplier(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int],
                      get: Get) -> AreaFeatures:
    """ticket_multiplier.md section 8: on tickets that show no multiplier, each spot's picture is
    drawn the same way for winners and losers (each spot uniform over the pictures; other tickets are
    left out: code -1)."""
    aid = area["id"]
    codes = [get(f"{aid}_spot_{j}").astype(np.int64) for j in range(area["spots"])]
    none_shown = np.logical_and.reduce([c < len(area["pictures"]) for c in codes])
    return [(f"{aid}_spot_{j} (a picture) on tickets showing no multiplier, against win/lose",
             np.where(none_shown, c, -1)) for j, c in enumerate(codes)], [], []


def maze(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """maze.md section 8 promises no feature: the grid is uniform given the tier, and cells on a
    winning path point along it."""
    return [], [], [f"layout: area {area.get('id')!r} (maze): no cell is promised independent of "
                    "winning (maze.md section 8: a winning path's cells point along it)"]


def match_n_columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_spot_{j}" for j in range(area["spots"])]


def bonus_reveal_columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_spot_{j}" for j in range(area["spots"])]


def ticket_multiplier_columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_spot_{j}" for j in range(area["spots"])]


def maze_columns(area: dict[str, Any]) -> list[str]:
    return []
