"""audit/read/specs/unused.py: a spec's legend line, bingo pattern, multiplier or special symbol that no
tier's win shows (or a crossword's BONUS WORD no tier wins) is a field nothing uses. poolgen's loader
refused such a spec, naming the field; audit's reader took it, so `verify --spec` held a run to a spec
`check` refuses, in silence. Both refuse it now, naming the same field in the same words. Each case is an
example spec with one such line or symbol added."""

from __future__ import annotations

import hashlib
import tomllib

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

NEVER_WINS = "(every ticket would print it in the legend, and it could never win)"


def _area(doc: dict, style: str) -> dict:
    return next(a for a in doc["areas"] if a["style"] == style)


def _prize_line(style: str, key: str, line: dict):
    """A new prize symbol X, above every other prize (legends list prizes in increasing order), and a line
    of `key` paying it."""
    def change(doc: dict) -> None:
        area = _area(doc, style)
        doc["symbols"].append({"group": area["prizes"], "code": "X", "symbol": "X", "value": "90000.00"})
        area[key].append(line | {"prize": "X"})
    return change


def _first_grid_line(doc: dict) -> None:
    """A first line of grid 1's legend, 2 words for a new prize symbol X below every other prize."""
    area = _area(doc, "crossword")
    doc["symbols"].append({"group": area["prizes"], "code": "X", "symbol": "X", "value": "1.00"})
    area["legends"][0].insert(0, {"words": 2, "prize": "X"})


def _bonus_word(doc: dict) -> None:
    """A BONUS WORD (and its section's title) paying a new prize symbol X that no tier wins (of 4 letters:
    with 5, `check`'s draws no longer meet tier 12's 8 words of grid 2 beside an incomplete bonus word since
    the word list lost its slurs, and that is said first)."""
    area = _area(doc, "crossword")
    doc["symbols"].append({"group": area["prizes"], "code": "X", "symbol": "X", "value": "90000.00"})
    area["bonus"] = {"length": 4, "prize": "X"}
    area["labels"].insert(-1, "BONUS WORD")


def _ninth_line(doc: dict) -> None:
    """A ninth line of Cool 7's grid (cells 0, 4, 7) printing a new prize symbol X that no tier wins."""
    area = _area(doc, "lines")
    doc["symbols"].append({"group": area["prizes"], "code": "X", "symbol": "X", "value": "900.00"})
    area["lines"].append([0, 4, 7])
    area["line_prizes"].append("X")


def _no_straight_flush(doc: dict) -> None:
    """BCLC's chart as printed, its straight flush ($500) paid by no tier (the tier left out)."""
    doc["tiers"] = [t for t in doc["tiers"] if t["id"] != "straight_flush"]


def _symbol(style: str, group: str, symbol: dict):
    def change(doc: dict) -> None:
        doc["symbols"].append({"group": _area(doc, style)[group]} | symbol)
    return change


AUTOMATIC = "a win shows the area's first automatic symbol, 'ROLL': 'STAR' is never shown"


def _never_pays(code: str) -> str:
    return f"no tier wins with its multiplier {code!r} (the game would print a multiplier that never pays)"


CASES = {
    "a symbol_count legend line": ("five_alarm_flames", _prize_line("symbol_count", "legend", {"count": 7}),
                                   f"areas[0].legend[4].prize: not used: no tier wins 'X' {NEVER_WINS}"),
    "a lines legend line": ("tic_tac_cash", _prize_line("lines", "legend", {"lines": 4}),
                            f"areas[0].legend[3].prize: not used: no tier wins 'X' {NEVER_WINS}"),
    "a line's printed prize": ("cool_sevens", _ninth_line, "areas[0].line_prizes[8]: not used: no tier wins "
                               "'X' (every ticket would print it for line 9, and it could never win)"),
    "a prize no line's spot shows": ("fl_loteria", _symbol("lines", "prizes", {
        "code": "X", "symbol": "X", "value": "60000.00"}), "areas[0].prizes: not used: no tier wins 'X' (no "
        "line's prize spot would ever show it)"),
    "a crossword legend line": ("hundred_thousand_crossword",
                                _prize_line("crossword", "legend", {"words": 14}),
                                f"areas[0].legend[10].prize: not used: no tier wins 'X' {NEVER_WINS}"),
    "a crossword grid's legend line": (
        "cashtastic_crossword", _first_grid_line,
        f"areas[0].legends[0][0].prize: not used: no tier wins 'X' {NEVER_WINS}"),
    "a crossword bonus word": ("cashtastic_crossword", _bonus_word, "areas[0].bonus: not used: no tier wins "
                               "it (every ticket would print it, and it could never win)"),
    "a bingo pattern": ("pattern_bingo", _prize_line("bingo", "patterns", {"shape": "full"}),
                        f"areas[0].patterns[6].prize: not used: no tier wins 'X' {NEVER_WINS}"),
    "a ticket multiplier": ("diamond_life", _symbol("ticket_multiplier", "multipliers", {
        "code": "TRP", "symbol": "3X", "by": 3}), f"areas[1].multipliers: not used: {_never_pays('TRP')}"),
    "a match_n multiplier": ("cash_explosion", _symbol("match_n", "multipliers", {
        "code": "7X", "symbol": "7X", "by": 7}), f"areas[0].multipliers: not used: {_never_pays('7X')}"),
    "a second automatic special": ("big_cash_riches", _symbol("key_number_match", "specials", {
        "code": "STAR", "symbol": "star", "how": "automatic"}), f"areas[0].specials: not used: {AUTOMATIC}"),
    "a poker chart line no tier wins": ("poker_lotto_instant", _no_straight_flush, "areas[0].chart[1].prize: "
                                        "not used: no tier wins '500' (every ticket would print it in the "
                                        "chart, and it could never win)"),
    "a special multiplier": ("big_cash_riches", _symbol("key_number_match", "specials", {
        "code": "9X", "symbol": "9X", "how": "multiplier", "by": 9}),
        f"areas[0].specials: not used: {_never_pays('9X')}"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_field_no_win_uses_is_refused_by_audits_spec_reader_as_by_the_loader(tmp_path, case):
    name, change, line = CASES[case]
    doc = tomllib.loads((ROOT / "specs" / "examples" / f"{name}.toml").read_text())
    change(doc)
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc))
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value) == f"{spec}: {line}"
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"


def test_line_prizes_neither_a_list_nor_shown_is_refused_by_audits_reader_as_by_the_loader(tmp_path):
    """A string other than "shown" is no list of codes: not read letter by letter as line prizes."""
    doc = tomllib.loads((ROOT / "specs" / "examples" / "fl_loteria.toml").read_text())
    _area(doc, "lines")["line_prizes"] = "foo"
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc))
    line = 'areas[0].line_prizes: a list of the prize printed for each line, or "shown" (a prize spot a line)'
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value) == f"{spec}: {line}"
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"


@pytest.mark.parametrize("spec", sorted((ROOT / "specs").glob("**/*.toml")), ids=lambda p: p.stem)
def test_every_shipped_spec_uses_every_field_for_audits_reader_too(spec):
    """No false refusal: every spec the loader accepts, audit's reader reads."""
    load_spec(spec)
    assert read_spec(spec).sha256 == hashlib.sha256(spec.read_bytes()).hexdigest()
