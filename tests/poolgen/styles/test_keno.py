"""keno layouts (poolgen/styles/keno.py) against docs/styles/keno.md: the number of displays of each
tier, counted by enumerating every display of a small area, is section 7's hypergeometric formula;
the generator draws every display of a tier with the same chance (the law, chi-square); the loader
refuses, in one line, every key or game it cannot lay out."""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product
from math import factorial, prod

import numpy as np
import pytest
from scipy.stats import chisquare

from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.styles import keno
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

GAMES = [2, 1, 1]  # a game of 2 numbers and two of 1, numbers 1..4, 2 WINNING NUMBERS
KEY = [{"spots": 2, "matches": 2, "prize": "5"}, {"spots": 1, "matches": 1, "prize": "1"}]
TIERS = {"5": ["5"], "1": ["1"], "11": ["1", "1"], "51": ["5", "1"], "511": ["5", "1", "1"]}


def _doc(area: dict | None = None, tiers: dict | None = None) -> dict:
    numbers = [{"group": "num", "code": str(c), "symbol": str(c)} for c in range(1, 5)]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "5")]
    base = {"id": "k", "style": "keno", "winning": 2, "numbers": "num", "prizes": "pz", "games": GAMES,
            "key": KEY} | (area or {})
    tiers = [{"id": f"t{t}", "count": 10, "wins": [{"area": "k", "prize": p, "how": "match"} for p in ps]}
             for t, ps in (TIERS if tiers is None else tiers).items()]
    return base_doc([base], numbers + prizes, tiers, max_wins=3, pool_tickets=1000)


def _outcome(display: tuple[int, ...]) -> tuple[str, ...]:
    """The sorted prizes a display (2 WINNING NUMBERS, then the games' numbers) wins (section 5)."""
    won, spots = set(display[:2]), display[2:]
    pays = {(k["spots"], k["matches"]): k["prize"] for k in KEY}
    out, s = [], 0
    for k in GAMES:
        prize = pays.get((k, sum(x in won for x in spots[s:s + k])))
        s += k
        out += [prize] if prize else []
    return tuple(sorted(out))


def _displays() -> list[tuple[int, ...]]:
    """Every display of the area: ordered WINNING NUMBERS and each game's numbers in column order."""
    parts = [list(permutations(range(4), 2))] + [list(permutations(range(4), k)) for k in GAMES]
    return [sum(p, ()) for p in product(*parts)]


def test_each_tiers_displays_are_the_hypergeometric_count_of_section_7(tmp_path):
    (tmp_path / "k.toml").write_text(dumps(_doc()))
    spec = load_spec(tmp_path / "k.toml")
    params = spec.play.areas[0].params
    counted = Counter(_outcome(d) for d in _displays())
    assert counted == {(): 480, ("1",): 960, ("1", "1"): 480, ("5",): 96, ("1", "5"): 192,
                       ("1", "1", "5"): 96}
    every: dict[str, list[str]] = {"lose": [], **{f"t{t}": ps for t, ps in TIERS.items()}}
    for tid, prizes in every.items():
        wins = spec.play.wins[tid]
        weights = sum(w for _, w in keno.assignments(params, wins))
        n = factorial(4) // factorial(2) * weights * prod(map(factorial, GAMES)) \
            // prod(map(factorial, Counter(prizes).values()))
        assert n == counted[tuple(sorted(prizes))], tid


def test_every_display_of_a_tier_is_drawn_alike(tmp_path):
    """Section 7's law: a tier's rows are uniform over the displays with exactly its wins (losers over
    the displays winning nothing), chi-square per tier over 24 .. 480 displays, 20 rows a display."""
    counted = Counter(_outcome(d) for d in _displays())
    per = {(): "lose"} | {tuple(sorted(ps)): f"t{t}" for t, ps in TIERS.items()}
    (tmp_path / "k.toml").write_text(dumps(_doc()))
    spec = load_spec(tmp_path / "k.toml")
    pool = spec.pools[0]
    sizes = {t.id: 20 * counted[key] for key, t_id in per.items() for t in pool.tiers if t.id == t_id}
    tiers = np.repeat(np.arange(len(pool.tiers)), [sizes.get(t.id, 0) for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "keno law"))
    names = [f"k_win_{i}" for i in range(2)] + [f"k_spot_{s}" for s in range(sum(GAMES))]
    rows = np.stack([cols[c] for c in names], axis=1).astype(np.int64)
    for key, tid in per.items():
        index = next(i for i, t in enumerate(pool.tiers) if t.id == tid)
        shown = Counter(map(tuple, rows[tiers == index].tolist()))
        allowed = [d for d in _displays() if _outcome(d) == key]
        assert set(shown) == set(allowed), tid  # every display of the tier, and no other
        assert chisquare([shown[d] for d in allowed]).pvalue > 1e-4, tid


def _line(spots: int, matches: int, prize: str = "5") -> dict:
    return {"spots": spots, "matches": matches, "prize": prize}


NEVER_LOSES = "every number of matches a game of {} numbers can show wins: it could never lose"


@pytest.mark.parametrize(("area", "message"), [
    ({"games": [2, 1, 21]}, "areas[0].games[2]: a game's numbers: a whole number 1 .. 4, not 21"),
    ({"games": []}, "areas[0].games: 1 to 10 games, not 0"),
    ({"winning": 4}, "areas[0].winning: must be at most 3, got 4"),
    ({"key": KEY + ["x"]}, "areas[0].key[2]: must be a table { spots, matches, prize }"),
    ({"key": KEY + [_line(2, 1) | {"odds": 3}]}, "areas[0].key[2].odds: unknown field"),
    ({"key": KEY + [_line(3, 1)]}, "areas[0].key[2].spots: not used: no game has 3 numbers"),
    ({"key": KEY + [_line(2, 0, "9")]}, "areas[0].key[2].prize: not one of the area's prize symbols"),
    ({"key": KEY + [_line(2, 2, "1")]}, "areas[0].key[2].matches: the key already pays 2 matches of 2 "
                                        "numbers"),
    ({"winning": 1}, "areas[0].key[0].matches: 2 matches of 2 numbers cannot be shown with 1 WINNING NUMBERS "
                     "of 4"),
    ({"key": KEY[:1]}, "areas[0].games[1]: the key lists no prize for a game of 1 numbers"),
    ({"key": KEY + [_line(1, 0, "1")]}, "areas[0].games[1]: " + NEVER_LOSES.format(1)),
    ({"key": KEY + [_line(2, 1, "1"), _line(2, 0)]}, "areas[0].games[0]: " + NEVER_LOSES.format(2)),
])
def test_keys_and_games_it_cannot_lay_out_are_refused_in_one_line(tmp_path, area, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(area)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize(("tiers", "message"), [
    ({"1": ["1"]}, "areas[0].key[0].prize: not used: no tier wins '5' (every ticket would print it in the "
                   "key"),
    ({"5": ["5"], "55": ["5", "5"]}, "tiers[1].wins: area 'k' (keno): no game assignment pays these wins "
                                     "(each game wins one key prize)"),
    ({"5": ["5"], "1": ["1"], "x": ["5", "1", "1", "1"]}, "tiers[2].wins: area 'k' (keno): 4 wins, but the "
                                                          "area has 3 games"),
])
def test_wins_no_game_can_pay_are_refused_in_one_line(tmp_path, tiers, message):
    doc = _doc(tiers=tiers)
    doc["play"]["max_wins"] = 4
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize(("win", "field", "message"), [
    ({"prize": "3"}, "prize", "prize '3' is not one the key pays"),
    ({"how": "automatic"}, "how", "how = 'automatic': a keno win is \"match\""),
    ({"by": 2}, "by", "a game wins its key's prize as listed: no `by`"),
])
def test_a_win_the_key_does_not_pay_is_refused_naming_its_field(tmp_path, win, field, message):
    doc = _doc(tiers={"5": ["5"], "1": ["1"]})
    doc["tiers"][0]["wins"][0] |= win
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: tiers[0].wins[0].{field}")
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", message)
