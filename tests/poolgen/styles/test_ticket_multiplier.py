"""ticket_multiplier layouts (poolgen/styles/ticket_multiplier.py) read back here from
docs/styles/ticket_multiplier.md alone: over a full pool of Double Bag (specs/examples/double_bag.toml)
the moneybag shows exactly on the tickets of the tiers it multiplies, and every such tier pays twice its
other wins, in cents; the pictures are uniform and the same on winners and losers; the loader refuses,
in one line, every way a multiplier could read as a win that is not paid."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.laid_out import laid_out_first_pool
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/double_bag.toml"
DBL = 4  # the moneybag's code: after the four pictures (section 4)


@pytest.fixture(scope="module")
def full_pool():
    return laid_out_first_pool(EXAMPLE)


def test_the_moneybag_shows_exactly_on_the_tiers_it_multiplies(full_pool):
    spec, pool, tiers, cols = full_pool
    box = cols["bonus_spot_0"].astype(np.int64)
    multiplied = np.array([any(w.how == "ticket" for w in spec.play.wins[t.id]) for t in pool.tiers])
    np.testing.assert_array_equal(box == DBL, multiplied[tiers])
    assert int((box == DBL).sum()) == 8_468  # 4,000 + 3,000 + 1,000 + 300 + 100 + 20 + 40 + 8
    assert box.max() == DBL


def test_a_multiplied_tier_pays_twice_its_other_wins_in_cents(full_pool):
    spec, pool, _, _ = full_pool
    for t in pool.tiers:
        wins = spec.play.wins[t.id]
        others = sum(w.by * (w.prize.cents or 0) for w in wins if w.how != "ticket")
        times = 2 if any(w.how == "ticket" for w in wins) else 1
        assert t.prize_cents == times * others, t.id
    assert {t.id: t.prize_cents for t in pool.tiers}["250x"] == 25_000  # 25 x $5, doubled


def test_pictures_are_uniform_and_the_same_on_winners_and_losers(full_pool):
    _, pool, tiers, cols = full_pool
    box = cols["bonus_spot_0"].astype(np.int64)
    quiet = box != DBL
    seen = np.bincount(box[quiet], minlength=4)
    assert chisquare(seen).pvalue > 1e-4
    winner = np.array([t.prize_cents > 0 for t in pool.tiers])[tiers][quiet]
    table = np.stack([np.bincount(box[quiet][winner], minlength=4),
                      np.bincount(box[quiet][~winner], minlength=4)])
    assert chi2_contingency(table).pvalue > 1e-4


def _doc(**area: object) -> dict:
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in ("A", "B", "C")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "5")]
    prizes.append({"group": "pz", "code": "FREE", "symbol": "FREE", "free": True})
    mults = [{"group": "mul", "code": c, "symbol": c, "by": 2} for c in ("2X", "DBL")]
    decoys = [{"group": "dec", "code": c, "symbol": c} for c in ("P", "Q")]
    reveal = {"id": "b", "style": "bonus_reveal", "spots": 3, "prizes": "pz", "pictures": "pic"}
    box = {"id": "x", "style": "ticket_multiplier", "spots": 2, "multipliers": "mul",
           "pictures": "dec"} | area
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "b", "prize": "1", "how": "reveal"},
                                               {"area": "x", "prize": "2X", "how": "ticket"}]},
             {"id": "d", "count": 10, "wins": [{"area": "b", "prize": "5", "how": "reveal"},
                                               {"area": "x", "prize": "DBL", "how": "ticket"}]}]
    return base_doc([reveal, box], pictures + prizes + mults + decoys, tiers, pool_tickets=100)


def test_a_tier_states_its_multiplied_prize(tmp_path):
    doc = _doc()
    doc["tiers"][0]["prize"] = "2.00"
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert load_spec(tmp_path / "g.toml").tiers[0].prize.cents == 200
    doc["tiers"][0]["prize"] = "1.00"
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].prize: 100 cents, but its wins add up to 200 cents")


@pytest.mark.parametrize(("change", "message"), [
    ({"spots": 0}, "areas[1].spots: must be at least 1, got 0"),
    ({"spots": 33}, "areas[1].spots: must be at most 32, got 33"),
    ({"multipliers": "pz"}, "areas[1].multipliers: group 'pz' is already used as prizes"),
    ({"colour": "red"}, "areas[1].colour: unknown field"),
    ({"multipliers_on_losers": "yes"}, "areas[1].multipliers_on_losers: must be a bool, not 'yes'"),
    ({"multipliers_on_losers": 1}, "areas[1].multipliers_on_losers: must be a bool, not 1"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_a_second_multiplier_area_is_refused(tmp_path):
    doc = _doc()
    doc["areas"].append(doc["areas"][1] | {"id": "y"})
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[2].style: a ticket has at most one ticket_multiplier area")


def test_a_picture_with_a_multipliers_code_is_refused(tmp_path):
    """Found by the red team (issue 27): a decoy coded DBL beside the DBL multiplier was accepted, and
    a code names one symbol of the box (its art, its legend line, a tier's win)."""
    doc = _doc()
    doc["symbols"] = [s | {"code": "DBL"} if s["group"] == "dec" and s["code"] == "Q" else s
                      for s in doc["symbols"]]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[1].pictures: code 'DBL' is also a multiplier's")


X2 = {"area": "x", "prize": "2X", "how": "ticket"}
ONE = {"area": "b", "prize": "1", "how": "reveal"}


@pytest.mark.parametrize(("wins", "message"), [
    ([ONE, X2 | {"how": "multiplier"}], "wins[1].how: area 'x' (ticket_multiplier): how = 'multiplier': a "
                                        "ticket_multiplier win is \"ticket\""),
    ([ONE, X2 | {"by": 2}],
     "wins[1].by: area 'x' (ticket_multiplier): the multiplier symbol says k: no `by`"),
    ([ONE, X2 | {"prize": "5X"}], "wins[1].prize: area 'x' (ticket_multiplier): prize '5X' is not one of its "
                                  "multiplier symbols"),
    ([ONE, X2, X2 | {"prize": "DBL"}], "wins: area 'x' (ticket_multiplier): 2 multipliers; a ticket shows at "
                                       "most one"),
    ([X2], "wins: a ticket-wide multiplier and no other win: nothing to multiply"),
    ([{"area": "b", "prize": "FREE", "how": "reveal"}, X2],
     "wins: a ticket-wide multiplier on a free ticket: a free ticket is not multiplied"),
])
def test_wins_that_would_show_an_unpaid_multiplier_are_refused(tmp_path, wins, message):
    doc = _doc()
    doc["play"]["max_wins"] = 2
    doc["tiers"][0]["wins"] = wins
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: tiers[0].{message}")


def test_a_multiplier_no_tier_wins_is_refused(tmp_path):
    """A box whose DBL no tier wins was accepted: a multiplier the game prints that never pays is a
    field nothing uses (docs/styles/ticket_multiplier.md, section 2)."""
    doc = _doc(multipliers_on_losers=True)  # shown on losers, still never paid
    del doc["tiers"][1]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[1].multipliers: not used: no tier wins with its multiplier 'DBL' (the game would "
             "print a multiplier that never pays)")


def test_the_multiplier_is_not_a_win_against_max_wins(tmp_path):
    doc = _doc()  # max_wins 1: one reveal and the multiplier
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert [w.how for w in load_spec(tmp_path / "g.toml").play.wins["t"]] == ["reveal", "ticket"]
    doc["tiers"][0]["wins"].insert(0, ONE)
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].wins: 2 wins, but a ticket wins at most 1 times (play.max_wins)")


def _laid_out(spec_file) -> tuple[np.ndarray, np.ndarray, dict]:
    """Double Bag's first pool laid out as `full_pool` lays it: its tiers, whether each row's tier wins
    nothing, and its columns."""
    spec = load_spec(spec_file)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    losers = np.array([not spec.play.wins[t.id] for t in pool.tiers])[tiers]
    return tiers, losers, spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))


def test_with_multipliers_on_losers_a_losers_box_is_uniform_over_every_symbol(full_pool, tmp_path):
    """Contract sections 1 and 7: a loser's one spot is drawn again over the 4 pictures and the
    moneybag, uniformly (1 in 5 losers shows DBL); every winner's box is the pool's without the field,
    and the manifest's area entry says so."""
    box_line = 'pictures = "decoy"\n'  # the BONUS box's
    text = Path(EXAMPLE).read_text().replace(box_line, box_line + "multipliers_on_losers = true\n", 1)
    (tmp_path / "g.toml").write_text(text)
    _, losers, cols = _laid_out(tmp_path / "g.toml")
    box, before = cols["bonus_spot_0"].astype(np.int64), full_pool[3]["bonus_spot_0"].astype(np.int64)
    seen = np.bincount(box[losers], minlength=5)
    assert (int(losers.sum()), int(seen[DBL])) == (180_132, 36_117)  # 36,026.4 expected
    assert chisquare(seen).pvalue > 1e-4
    np.testing.assert_array_equal(box[~losers], before[~losers])
    assert int((box[~losers] == DBL).sum()) == 8_468  # the multiplied tiers, as before
    entry = load_spec(tmp_path / "g.toml").play.document()["areas"][1]
    assert entry["multipliers_on_losers"] is True
    assert "multipliers_on_losers" not in load_spec(EXAMPLE).play.document()["areas"][1]


def test_multipliers_on_losers_false_lays_out_the_pool_without_the_field(tmp_path):
    for name, area in (("absent", {}), ("false", {"multipliers_on_losers": False})):
        (tmp_path / f"{name}.toml").write_text(dumps(_doc(**area)))
    spec = {name: load_spec(tmp_path / f"{name}.toml") for name in ("absent", "false")}
    assert spec["absent"].play.document() == spec["false"].play.document()
    pool = spec["absent"].pools[0]
    tiers = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = {name: s.play.lay_out(s, s.pools[0], tiers, derive_stream(SEED_A, "test", "layout"))
            for name, s in spec.items()}
    assert cols["absent"].keys() == cols["false"].keys()
    for c in cols["absent"]:
        np.testing.assert_array_equal(cols["absent"][c], cols["false"][c])


def test_multipliers_on_losers_on_a_game_without_a_losing_ticket_is_refused(tmp_path):
    """`multipliers_on_losers = true` on a game whose pools hold no losing ticket drew nothing and was
    accepted: a field nothing uses is an error (docs/styles/ticket_multiplier.md, section 2)."""
    every = _doc(multipliers_on_losers=True)
    every["tiers"][0]["count"] = 90  # the whole pool of 100 wins
    (tmp_path / "g.toml").write_text(dumps(every))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[1].multipliers_on_losers: not used: no pool holds a losing ticket (every ticket "
             "wins a tier)")
    for doc in (_doc(multipliers_on_losers=False) | {"tiers": every["tiers"]},  # without it: as before
                _doc(multipliers_on_losers=True) | {"tiers": [every["tiers"][0] | {"count": 89},
                                                              every["tiers"][1]]}):
        (tmp_path / "g.toml").write_text(dumps(doc))
        assert load_spec(tmp_path / "g.toml").pools[0].tiers[0].count == 100 - sum(
            t["count"] for t in doc["tiers"])
