"""audit/read/specs/told_apart.py: two symbols one spot prints alike (docs/new-game.md section 2, "Symbols
are told apart"). poolgen's loader refused such a spec (a number 26 beside a win-all symbol printed "26":
27,791 losing tickets of a pool of 120,000 showed a "26" among YOUR NUMBERS); audit's reader took it, so
`verify --spec` held a run to a spec `check` refuses, in silence. Both refuse it now in the same line, on
the cases of tests/poolgen/loader/test_look_alike_symbols.py and on every style's shipped examples with one
symbol printed as another."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from audit.read.specs.told_apart import SPOT_RULES
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.styles import AREA_STYLES
from tests.support import ROOT
from tests.support.spec_docs import dumps, kn_doc, write

TELL = "a player cannot tell them apart"
# the area fields that name a symbol group, in every style (docs/new-game.md, section 2's table and more)
GROUP_FIELDS = ("numbers", "pictures", "alphabet", "arrows", "specials", "multipliers", "prizes")


def _said(spec: Path) -> tuple[str | None, str | None]:
    """(the loader's line, audit's reader's line) on `spec`, None for a spec taken."""
    try:
        load_spec(spec)
        loader = None
    except SpecError as exc:
        loader = str(exc)
    try:
        read_spec(spec)
        audit = None
    except UnusableInput as exc:
        audit = str(exc)
    return loader, audit


@pytest.mark.parametrize(("index", "text", "line"), [
    (9, "5", "symbols[9].symbol: '5' is printed for symbols[4] too (group 'number', code '5'), and the "
             "spots play_your_* show both: a player cannot tell them apart"),
    (1, "1", "symbols[1].symbol: '1' is printed for symbols[0] too (group 'number', code '1'), and the "
             "spots play_win_* show both: a player cannot tell them apart"),
])
def test_audits_reader_refuses_symbols_one_spot_prints_alike_in_the_loaders_line(tmp_path, index, text, line):
    doc = kn_doc()
    doc["symbols"][index]["symbol"] = text  # the automatic BAG printed "5"; the number 2 printed "1"
    spec = write(tmp_path, doc)
    assert _said(spec) == (f"{spec}: {line}", f"{spec}: {line}")


def test_audits_reader_takes_a_number_and_a_prize_printed_alike_on_spots_of_their_own(tmp_path):
    doc = kn_doc()
    doc["symbols"][8]["symbol"] = "5"  # the $5 prize printed "5": prize spots show no number
    spec = write(tmp_path, doc)
    assert _said(spec) == (None, None)


def _examples() -> list[Path]:
    """Every shipped spec of play areas (format 2): each style of the table appears in one or more."""
    return [p for p in sorted((ROOT / "specs").glob("**/*.toml"))
            if tomllib.loads(p.read_text(encoding="utf-8")).get("format") == 2]


def _look_alikes(doc: dict[str, Any]) -> list[tuple[int, int]]:
    """(i, j): symbols i and j printed alike, for the first two symbols of each group an area names, and
    the first symbols of every two groups of one area."""
    out = []
    for area in doc["areas"]:
        firsts = []
        for field in GROUP_FIELDS:
            members = [k for k, s in enumerate(doc["symbols"]) if s["group"] == area.get(field)]
            out += [(members[0], members[1])] if len(members) > 1 else []
            firsts += members[:1]
        out += [(i, j) for i in firsts for j in firsts if i < j]
    return list(dict.fromkeys(out))


def test_audits_reader_and_the_loader_say_the_same_of_every_example_with_two_symbols_printed_alike(tmp_path):
    refused: set[str] = set()  # the styles of the areas a look-alike refusal names
    for example in _examples():
        doc = tomllib.loads(example.read_text(encoding="utf-8"))
        for i, j in _look_alikes(doc):
            changed = tomllib.loads(example.read_text(encoding="utf-8"))
            for k in (i, j):  # words, not an amount: a prize printed as another's amount is refused first
                changed["symbols"][k]["symbol"] = "ALIKE"
            spec = tmp_path / example.name
            spec.write_text(dumps(changed), encoding="utf-8")
            loader, audit = _said(spec)
            assert audit == loader, f"{example.stem}: symbols[{i}] and [{j}] printed alike"
            if loader is not None and loader.endswith(TELL):
                spots = loader.split("and the spots ")[1].split("*")[0]
                refused |= {a["style"] for a in doc["areas"]
                            if spots in {a["id"] + prefix for prefix, _ in SPOT_RULES[a["style"]]}}
    assert refused == {s for s, rules in SPOT_RULES.items() if rules}  # each style with a rule refuses a pair



def test_audits_table_has_every_area_style_and_each_rule_is_one_of_the_generators_spots():
    """A style added to the generator without its row in audit's table would pass `verify --spec` with
    symbols `check` refuses; a rule audit reads that the generator's style has not is not the contract's."""
    assert set(SPOT_RULES) == set(AREA_STYLES)
    assert {style: [r for r in rules if r not in AREA_STYLES[style].SPOTS]
            for style, rules in SPOT_RULES.items()} == {style: [] for style in SPOT_RULES}
