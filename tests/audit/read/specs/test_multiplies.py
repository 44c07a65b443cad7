"""A ticket_multiplier area's `multiplies` (docs/styles/ticket_multiplier.md section 9) on BCLC's $5
Deluxe Crossword, whose box multiplies PUZZLE 3 only: poolgen's loader and audit's spec reader refuse
the same mutated specs in the same words, and both price a tier by what the box covers (k x its PUZZLE 3
win plus its PUZZLE 1 win unmultiplied), which the same tier read as ticket-wide would not be."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.audit.read.specs.test_refuses_what_loader_refuses import HOSTILE, compare_readers, spec_paths
from tests.support import ROOT
from tests.support.spec_docs import dumps

SPEC = ROOT / "specs" / "examples" / "bclc_deluxe_crossword.toml"
BOX = 2  # the PRIZE MULTIPLIER's index in [[areas]]


def _doc() -> dict[str, Any]:
    return tomllib.loads(SPEC.read_text(encoding="utf-8"))


def _both(path: Path, doc: dict[str, Any]) -> tuple[str | None, str | None]:
    """What the loader and audit's reader say of `doc` (None: it takes the spec), its file name cut."""
    path.write_text(dumps(doc), encoding="utf-8")
    said: list[str | None] = []
    for read, error in ((load_spec, SpecError), (read_spec, UnusableInput)):
        try:
            read(path)
            said.append(None)
        except error as exc:
            said.append(str(exc).removeprefix(f"{path}: "))
    return said[0], said[1]


REFUSED = [
    ([], "areas[2].multiplies: must be a non-empty list of tables { area, grid }"),
    ("xw", "areas[2].multiplies: must be a non-empty list of tables { area, grid }"),
    ([{"area": "xw", "grid": 3, "k": 1}], "areas[2].multiplies[0].k: unknown field"),
    ([{"grid": 3}], "areas[2].multiplies[0].area: missing field"),
    ([{"area": "nope"}], "areas[2].multiplies[0].area: no area 'nope' listed before this one"),
    ([{"area": "mult"}], "areas[2].multiplies[0].area: no area 'mult' listed before this one"),
    ([{"area": 3}], "areas[2].multiplies[0].area: no area 3 listed before this one"),
    ([{"area": "xw"}, {"area": "xw", "grid": 3}], "areas[2].multiplies[1].area: area 'xw' named twice"),
    ([{"area": "xw", "grid": "3"}], "areas[2].multiplies[0].grid: must be a whole number, not '3'"),
    ([{"area": "xw", "grid": True}], "areas[2].multiplies[0].grid: must be a whole number, not True"),
    ([{"area": "match", "grid": 1}], "areas[2].multiplies[0].grid: area 'match' (prize_box) has no legend a "
                                     "grid: grid names a crossword's puzzle"),
    ([{"area": "xw", "grid": 4}], "areas[2].multiplies[0].grid: must be 1..3, got 4"),
    ([{"area": "xw", "grid": 0}], "areas[2].multiplies[0].grid: must be 1..3, got 0"),
    ([{"area": "match"}], "tiers[3].wins: a multiplier and no win in what it multiplies: nothing to "
                          "multiply"),
    ([{"area": "xw", "grid": 1}], "tiers[3].wins: a multiplier and no win in what it multiplies: nothing to "
                                  "multiply"),
]


@pytest.mark.parametrize(("value", "said"), REFUSED, ids=[s.split(": ")[0] + f" {v!r}" for v, s in REFUSED])
def test_the_loader_and_audits_reader_refuse_a_bad_multiplies_in_the_same_words(tmp_path, value, said):
    doc = _doc()
    doc["areas"][BOX]["multiplies"] = value
    assert _both(tmp_path / "g.toml", doc) == (said, said)


def test_the_shipped_spec_multiplies_puzzle_3_and_both_readers_take_it(tmp_path):
    doc = _doc()
    assert doc["areas"][BOX]["multiplies"] == [{"area": "xw", "grid": 3}]
    assert _both(tmp_path / "g.toml", doc) == (None, None)
    assert _both(tmp_path / "h.toml", doc | {"areas": doc["areas"][:BOX] + [
        doc["areas"][BOX] | {"multiplies": [{"area": "xw"}, {"area": "match"}]}]}) == (None, None)


@pytest.mark.parametrize(("prize", "said"), [
    ("25.00", None),  # $5 in PUZZLE 1 + 2 x $10 in PUZZLE 3
    ("30.00", "tiers[15].prize"),  # 2 x ($5 + $10): every prize doubled, as without `multiplies`
])
def test_both_readers_price_a_tier_by_what_the_box_covers(tmp_path, prize, said):
    doc = _doc()
    doc["play"]["max_wins"] = 2
    doc["tiers"].append({"id": "p1p3", "prize": prize, "count": 1, "wins": [
        {"area": "xw", "prize": "A5", "how": "match"}, {"area": "xw", "prize": "C10", "how": "match"},
        {"area": "mult", "prize": "2X", "how": "ticket"}]})
    loader, audit = _both(tmp_path / "g.toml", doc)
    assert (loader and loader.split(": ")[0], audit and audit.split(": ")[0]) == (said, said), (loader, audit)


def _bonus_c10() -> dict[str, Any]:
    """The shipped spec with its bonus word paying the code C10 of PUZZLE 3's legend (crossword.md section 9:
    a bonus word's prize may be a symbol a legend also lists), the INSTANT WORD's tier w75 winning it."""
    doc = _doc()
    doc["areas"][0]["bonus"]["prize"] = "C10"
    doc["symbols"] = [s for s in doc["symbols"] if s["code"] != "I75"]
    assert doc["tiers"][7]["id"] == "w75"
    doc["tiers"][7]["wins"] = [{"area": "xw", "prize": "C10", "how": "bonus"}]
    return doc


@pytest.mark.parametrize(("extra", "said"), [
    ([], None),
    ([{"area": "mult", "prize": "2X", "how": "ticket"}],
     "tiers[7].wins: a multiplier and no win in what it multiplies: nothing to multiply"),
])
def test_a_bonus_words_win_of_a_puzzle_3_code_is_no_puzzle_3_win_to_both_readers(tmp_path, extra, said):
    """ticket_multiplier.md section 9: `grid` covers the puzzle's legend (`match`) wins; the bonus word's
    win is not covered whatever its code, so a tier of it and a 2X has nothing to multiply."""
    doc = _bonus_c10()
    doc["tiers"][7]["wins"] += extra
    assert _both(tmp_path / "g.toml", doc) == (said, said)


@pytest.mark.parametrize(("prize", "said"), [
    ("30.00", None),  # the bonus word's $10 + 2 x PUZZLE 3's $10
    ("40.00", "tiers[15].prize"),  # 2 x ($10 + $10): the bonus word's prize doubled too
])
def test_both_readers_price_a_bonus_words_win_unmultiplied_beside_a_puzzle_3_win(tmp_path, prize, said):
    doc = _bonus_c10()
    doc["play"]["max_wins"] = 2
    doc["tiers"].append({"id": "bp3", "prize": prize, "count": 1, "wins": [
        {"area": "xw", "prize": "C10", "how": "bonus"}, {"area": "xw", "prize": "C10", "how": "match"},
        {"area": "mult", "prize": "2X", "how": "ticket"}]})
    loader, audit = _both(tmp_path / "g.toml", doc)
    assert (loader and loader.split(": ")[0], audit and audit.split(": ")[0]) == (said, said), (loader, audit)


SWEPT = [path for path in spec_paths(_doc()["areas"][BOX], ("areas", BOX))]


@pytest.mark.parametrize("path", SWEPT, ids=[".".join(map(str, p)) for p in SWEPT])
def test_every_field_of_the_box_mutated_is_refused_by_both_readers_naming_the_same_field(tmp_path, path):
    """test_refuses_what_loader_refuses.py's sweep (deleted, "", -1, "x", 0) on the box's fields alone (the
    whole spec in that sweep meets an older disagreement: its crossword's `bonus` deleted)."""
    for value in HOSTILE:
        compare_readers(tmp_path / "g.toml", "examples/bclc_deluxe_crossword", path, value)


@pytest.mark.parametrize(("multiplies", "said"), [
    ([{"area": "xw", "grid": 3}], None),  # PUZZLE 1's winners show the box as losers would
    (None, "areas[2].multipliers_on_losers: not used: no pool holds a losing ticket (every ticket wins a "
           "tier)"),  # a ticket-wide box on a game of winners only shows no multiplier beside no win
])
def test_multipliers_on_losers_with_no_loser_is_used_when_winners_elsewhere_show_the_box(tmp_path, multiplies,
                                                                                          said):
    doc = _doc()
    doc["tiers"][0]["count"] += 44  # every ticket of one pool of 428,600 (whole books of 50) wins
    doc["printed"] |= {"order_tickets": 428_600, "pool_tickets": 428_600}
    del doc["printed"]["split"], doc["published"]
    if multiplies is None:
        del doc["areas"][BOX]["multiplies"]
    assert _both(tmp_path / "g.toml", doc) == (said, said)
