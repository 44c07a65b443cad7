"""audit/read/specs/labels.py, area_fields.py (a maze's arrows) and art.py: a `labels` list of another
length than its area's sections (bonus_reveal, match_n, maze, ticket_multiplier, symbol_count, poker_hand,
lines, prize_box, yours_beats_theirs), a maze's arrows not UP, RIGHT, DOWN, LEFT in that order, and a
symbol's `art` that is no bare file name, missing beside a symbol of its group that has one, or a file
twice in a group, are refused by audit's reader naming the field poolgen's loader names (in its words,
but for the labels' section titles, which only the loader draws). The sweep of every style's fields found
audit's reader taking each."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

ART = "is not an art file name (1 to 128 printable ASCII characters, no directory: no / \\ : or .., not " \
      "starting with . or a space)"
CASES: list[tuple[str, tuple[Any, ...], object, str]] = [
    ("wild_side", ("areas", 2, "labels"), ["A", "B"],
     "areas[2].labels: 2 title(s) for the area's 1 section(s)"),
    ("examples/five_alarm_flames", ("areas", 0, "labels"), ["A"],
     "areas[0].labels: 1 title(s) for the area's 2 section(s)"),
    ("examples/arrow_maze", ("areas", 0, "labels"), [],
     "areas[0].labels: 0 title(s) for the area's 1 section(s)"),
    ("examples/tic_tac_cash", ("areas", 0, "labels"), ["A", "B", "C"],
     "areas[0].labels: 3 title(s) for the area's 2 section(s)"),
    ("examples/lucky_pairs", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for the area's"),
    ("examples/high_card_duel", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for the area's"),
    # cards and blackjack (audit's reader took any count): 2 a game, 3 a hold 'em deal, the shared
    # dealer's and 1 a game; a blackjack area's DEALER'S TOTAL and 1 a HAND
    ("examples/poker_showdown", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for the area's 6 "
                                                               "section(s)"),
    ("examples/holdem_poker", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for the area's "
                                                             "12 section(s)"),
    ("examples/poker_night", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for the area's 9 "
                                                            "section(s)"),
    ("examples/pa_blackjack_10", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for the "
                                                                "area's 9 section(s)"),
    ("examples/va_blackjack_classic", ("areas", 0, "labels"), ["A"], "areas[0].labels: 1 title(s) for "
                                                                     "the area's 17 section(s)"),  # legend
    ("examples/arrow_maze", ("symbols", 0, "code"), "NORTH",
     "areas[0].arrows: the 4 arrows, codes UP, RIGHT, DOWN, LEFT in that order"),
    ("examples/lucky_pairs", ("symbols", 0, "art"), " LP902_bell.eps",
     f"symbols[0].art: ' LP902_bell.eps' {ART}"),
    ("examples/lucky_pairs", ("symbols", 0, "art"), "../bell.eps", f"symbols[0].art: '../bell.eps' {ART}"),
    ("examples/lucky_pairs", ("symbols", 0, "art"), 0, "symbols[0].art: must be a string, not 0"),
    ("examples/lucky_pairs", ("symbols", 0, "art"), "lp902_STAR.eps",
     "symbols[1].art: duplicate art 'LP902_star.eps' in group 'picture' (symbols[0] has it)"),
]


@pytest.mark.parametrize(("name", "path", "value", "said"), CASES, ids=[f"{c[0]}:{c[3][:40]}" for c in CASES])
def test_audits_reader_refuses_labels_arrows_or_art_naming_the_loaders_field(tmp_path, name, path, value,
                                                                            said):
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text("utf-8"))
    table = doc
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value).startswith(f"{spec}: {said}")
    assert str(reader.value).startswith(f"{spec}: {said}")


def test_a_symbol_without_art_beside_one_with_art_is_refused_by_both(tmp_path):
    doc = tomllib.loads((ROOT / "specs" / "examples" / "lucky_pairs.toml").read_text("utf-8"))
    del doc["symbols"][1]["art"]
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    said = f"{spec}: symbols[1].art: missing: every symbol of group 'picture' has art or none does " \
           "(symbols[0] has)"
    with pytest.raises(SpecError, match=r"symbols\[1\]\.art") as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert (str(loader.value), str(reader.value)) == (said, said)
