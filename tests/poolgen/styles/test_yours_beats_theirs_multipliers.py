"""A multiplier a pair (docs/styles/yours_beats_theirs.md, section 9), read back from the contract alone:
a full pool of Power Duel (specs/examples/power_duel.toml) pays each winning pair its PRIZE times its
own multiplier spot, and only the tier's; a losing pair's spot is uniform among the multipliers, on
winners and losers alike (chi-square on a small pool); a spec without `multipliers` lays out and enters
the manifest byte for byte as before (SHA-256s pinned from the commit before the field); the loader
refuses, in one line, what the field cannot mean."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/power_duel.toml"
CENTS = np.array([200, 400, 1000, 2000, 10000, 100000])  # the example's prizes in code order
KS = np.array([2, 3, 5, 10])  # its multipliers in group order
# high_card_duel's layout columns (name, NUL, bytes, by name) and its `play` entry (sorted, compact
# JSON) with SEED_A, as commit 15f08319 (before `multipliers`) made them
HIGH_CARD_COLUMNS = "3a5e0235364aab75e6f76bc0f68380a726a5810e03b4735eda79ad8e0dd37c5e"
HIGH_CARD_ENTRY = "3b50e925acbddadd0e3b73e86c56eb142a2eab66deee1cf70f51caa48aadeb2a"


def _lay_out(path: str):
    spec = load_spec(path)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    return spec, pool, tiers, spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))


def _codes(cols, part: str, pairs: int, area: str = "duel") -> np.ndarray:
    return np.stack([cols[f"{area}_{part}_{p}"] for p in range(pairs)], axis=1).astype(np.int64)


def test_every_winning_pair_pays_its_prize_times_its_own_multiplier():
    _, pool, tiers, cols = _lay_out(EXAMPLE)
    yours, theirs = _codes(cols, "yours", 4), _codes(cols, "theirs", 4)
    boxes, spots = _codes(cols, "prize", 4), _codes(cols, "mult", 4)
    assert spots.max() == 3 and len(cols) == 16
    won = yours > theirs
    np.testing.assert_array_equal(np.where(won, CENTS[boxes] * KS[spots], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])
    top = [i for i, t in enumerate(pool.tiers) if t.id == "p1000x10"][0]
    assert (KS[spots[tiers == top]][won[tiers == top]] == 10).all()  # $1,000 (10X): the 10X pair


def _doc(area: dict | None = None, wins: list | None = None, symbols: list | None = None,
         count: int = 10, pool: int = 100) -> dict:
    numbers = [{"group": "num", "code": c, "symbol": c} for c in ("1", "2", "3")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    mults = symbols if symbols is not None else [
        {"group": "mx", "code": f"{k}X", "symbol": f"{k}X", "by": k} for k in (2, 3, 5)]
    base = {"id": "yt", "style": "yours_beats_theirs", "pairs": 2, "numbers": "num", "prizes": "pz",
            "ties": "lose", "multipliers": "mx"} | (area or {})
    tiers = [{"id": "t", "count": count,
              "wins": wins or [{"area": "yt", "prize": "1", "how": "match", "by": 3}]}]
    return base_doc([base], numbers + prizes + mults, tiers, pool_tickets=pool)


def test_a_losing_pairs_multiplier_is_uniform_on_winners_and_losers(tmp_path):
    doc = _doc(count=1500, pool=6000)
    doc["tiers"].append({"id": "t2", "count": 1500,
                         "wins": [{"area": "yt", "prize": "2", "how": "match", "by": 3}]})
    (tmp_path / "g.toml").write_text(dumps(doc))
    _, pool, tiers, cols = _lay_out(str(tmp_path / "g.toml"))
    loser = np.array([t.prize_cents == 0 for t in pool.tiers])[tiers]
    yours, theirs, spots = _codes(cols, "yours", 2, "yt"), _codes(cols, "theirs", 2, "yt"), \
        _codes(cols, "mult", 2, "yt")
    won = yours > theirs
    assert won.sum() == 3000 and (spots[won] == 1).all()  # every win by 3: the 3X
    for group in (~loser, loser):  # the winners' losing pairs, the losers' pairs
        shown = spots[group[:, None] & ~won]
        counts = np.bincount(shown, minlength=3)
        expected = shown.size / 3
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert shown.size in (3000, 6000) and chi2 < 13.82, (counts, chi2)  # df 2, p = 0.001


def test_a_spec_without_multipliers_lays_out_and_enters_the_manifest_as_before():
    spec, _, _, cols = _lay_out("specs/examples/high_card_duel.toml")
    h = hashlib.sha256()
    for name in sorted(cols):
        h.update(name.encode() + b"\0" + np.ascontiguousarray(cols[name]).tobytes())
    assert h.hexdigest() == HIGH_CARD_COLUMNS
    entry = json.dumps(spec.play.document(), sort_keys=True, separators=(",", ":")).encode()
    assert hashlib.sha256(entry).hexdigest() == HIGH_CARD_ENTRY


YT = "tiers[0].wins[0].by: area 'yt' (yours_beats_theirs): "
ONE = [{"group": "mx", "code": "2X", "symbol": "2X", "by": 2}]
TWICE = [{"group": "mx", "code": c, "symbol": c, "by": 2} for c in ("2X", "DBL")]


@pytest.mark.parametrize(("doc", "message"), [
    (_doc(symbols=ONE, wins=[{"area": "yt", "prize": "1", "how": "match", "by": 2}]),
     "areas[0].multipliers: at least 2 multiplier symbols (one alone tells every pair's multiplier before it "
     "is scratched)"),
    (_doc(symbols=TWICE, wins=[{"area": "yt", "prize": "1", "how": "match", "by": 2}]),
     "areas[0].multipliers: two multiplier symbols by 2 ('2X' and 'DBL'): a win shows the first, so the "
     "other would show on losing pairs only"),
    (_doc(wins=[{"area": "yt", "prize": "1", "how": "match"}]),
     f"{YT}missing field (a pair's win pays by its multiplier spot: by = one of 2, 3, 5)"),
    (_doc(wins=[{"area": "yt", "prize": "1", "how": "match", "by": 4}]),
     f"{YT}4 is not the by of one of the area's multipliers (2, 3, 5)"),
    (_doc(area={"multipliers": "num"}), "areas[0].multipliers: group 'num' is already used as numbers"),
])
def test_multipliers_it_cannot_mean_are_refused(tmp_path, doc, message):
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_a_free_ticket_multiplied_is_refused(tmp_path):
    doc = _doc(wins=[{"area": "yt", "prize": "F", "how": "match", "by": 2}])
    doc["symbols"].append({"group": "pz", "code": "F", "symbol": "FREE", "free": True})
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", "g.toml: tiers[0].wins[0]")
    assert "a free ticket cannot be multiplied" in invoke("check", tmp_path / "g.toml").stderr
