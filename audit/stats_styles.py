"""Step 8's no-information features of a style-based run, keyed by style and computed from the
manifest's `play` entry (docs/styles/play.md) and the pool's tier counts alone.

match_n (docs/styles/match_n.md, section 8): the amount shown in `<area>_spot_0` (any one spot),
among tickets whose spot 0 shows an amount, is independent of win/lose, unless the pool's winners
show some amount more often than a ticket without a win can (m(s) > N - 1, section 7): then the
contract promises nothing and the test says so.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

Get = Callable[[str], np.ndarray]


def _match_n_targets(area: dict, tiers: list, counts: dict[str, int]) -> list[Fraction]:
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


def match_n(area: dict, play: dict, counts: dict[str, int], get: Get):
    """(chi-square features, classifier block or None, not tested) of one match_n area."""
    aid, n_prizes = area["id"], len(area["prizes"])
    m = _match_n_targets(area, play["tiers"], counts)
    if max(m) > area["match"] - 1:
        worst = max(range(n_prizes), key=lambda i: m[i])
        return [], None, [f"layout: {aid}_spot_0: winners show {area['prizes'][worst]['code']} "
                          f"{float(m[worst]):.3f} times in {area['spots']} spots, more than a ticket "
                          f"without a win may ({area['match'] - 1}): no promise (match_n.md section 8)"]
    spot = get(f"{aid}_spot_0").astype(np.int64)
    amount = np.where(spot < n_prizes, spot, -1)  # -1: a multiplier symbol, left out of the test
    among = " among tickets whose spot 0 shows an amount" if area["multipliers"] else ""
    return [(f"{aid}_spot_0 (one scratched spot) against win/lose{among}", amount)], amount, []


STYLES = {"match_n": match_n}


def style_columns(play: dict) -> tuple[str, ...]:
    """The columns the features read; a malformed area is left to the features, which report it."""
    return tuple(f"{a['id']}_spot_0" for a in play["areas"]
                 if isinstance(a, dict) and a.get("style") == "match_n" and isinstance(a.get("id"), str))


def style_features(play: dict, counts: dict[str, int], get: Get):
    """Every area's features, the first testable area's classifier block, and what is not tested."""
    chi, block, skipped = [], None, []
    for area in play["areas"]:
        if not isinstance(area, dict):
            raise ValueError(f"the play entry's area {area!r} is not an object")
        feature = STYLES.get(area.get("style"))
        if feature is None:
            skipped.append(f"layout: area {area.get('id')!r}: no no-information tests for style "
                           f"{area.get('style')!r}")
            continue
        more, mine, why = feature(area, play, counts, get)
        chi += more
        skipped += why
        if block is None and mine is not None:
            block = (area["id"], mine)
    return chi, block, skipped
