"""A symbol's `art` (poolgen/loader/printed.py, docs/new-game.md): the printer's art-library file of a
format-2 spec's spot symbols, read into `Symbol.art`; a group has it on every symbol or on none, no two
of a group name one file, it is a bare file name of printable ASCII, and it is refused where no spot
shows the group or a spot could not tell two symbols' art apart; an eInstant spec has none."""

from __future__ import annotations

import re

import pytest

from poolgen.loader import load_spec
from tests.support import ROOT, spec_path
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import kn_doc, write


def _kn(tmp_path, **arts):
    """kn_doc with `art` on the symbols named by index (symbols[i] -> arts[f"s{i}"])."""
    doc = kn_doc()
    for key, art in arts.items():
        doc["symbols"][int(key[1:])]["art"] = art
    return write(tmp_path, doc)


def _numbers_art(**more) -> dict[str, str]:
    """Art on all six numbers of kn_doc (symbols[0..5])."""
    return {f"s{i}": f"N{i + 1}.eps" for i in range(6)} | more


def test_art_is_read_onto_the_symbols_of_the_example():
    spec = load_spec(ROOT / "specs/examples/lucky_pairs.toml")
    assert [(s.code, s.art) for s in spec.symbols if s.group == "picture"] == [
        ("BELL", "LP902_bell.eps"), ("STAR", "LP902_star.eps"), ("HEART", "LP902_heart.eps"),
        ("CLOVER", "LP902_clover.eps"), ("HORSESHOE", "LP902_horseshoe.eps"),
        ("DIAMOND", "LP902_diamond.eps")]
    assert {s.art for s in spec.symbols if s.group == "prize"} == {None}


def test_a_number_and_a_prize_may_share_a_code_with_art_on_other_spots(tmp_path):
    # "5" is a number (spots play_win_*, play_your_*) and a prize (play_prize_*): never on one spot
    spec = load_spec(_kn(tmp_path, **_numbers_art(s6="FREE.ai", s7="ONE.ai", s8="FIVE.ai")))
    assert [s.art for s in spec.symbols] == ["N1.eps", "N2.eps", "N3.eps", "N4.eps", "N5.eps", "N6.eps",
                                             "FREE.ai", "ONE.ai", "FIVE.ai", None, None]


@pytest.mark.parametrize(("arts", "message"), [
    ({"s0": "N1.eps"}, "symbols[1].art: missing: every symbol of group 'number' has art or none does "
                       "(symbols[0] has)"),
    (_numbers_art(s3="N1.eps"),
     "symbols[3].art: duplicate art 'N1.eps' in group 'number' (symbols[0] has it)"),
    (_numbers_art(s3="n1.EPS"),
     "symbols[3].art: duplicate art 'n1.EPS' in group 'number' (symbols[0] has it)"),
    (_numbers_art(s0="art/N1.eps"),
     "symbols[0].art: 'art/N1.eps' is not an art file name (1 to 128 printable ASCII characters, no "
     "directory: no / \\ : or .., not starting with . or a space)"),
    (_numbers_art(s0="..\\N1.eps"), "symbols[0].art: '..\\\\N1.eps' is not an art file name"),
    (_numbers_art(s0="N..1.eps"), "symbols[0].art: 'N..1.eps' is not an art file name"),
    (_numbers_art(s0="C:N1.eps"), "symbols[0].art: 'C:N1.eps' is not an art file name"),
    (_numbers_art(s0=".N1.eps"), "symbols[0].art: '.N1.eps' is not an art file name"),
    (_numbers_art(s0="N1.eps "), "symbols[0].art: 'N1.eps ' is not an art file name"),
    (_numbers_art(s0="N\u00e9.eps"), "symbols[0].art: 'N\u00e9.eps' is not an art file name"),
    (_numbers_art(s0=""), "symbols[0].art: '' is not an art file name"),
    (_numbers_art(s0="N" * 129), "symbols[0].art: '" + "N" * 80 + "' is not an art file name"),
    (_numbers_art(s0=7), "symbols[0].art: must be a string"),
])
def test_bad_art_is_refused_in_one_line(tmp_path, arts, message):
    one_line(invoke("check", _kn(tmp_path, **arts)), "poolgen", f"g.toml: {message}")


def test_art_of_a_bare_file_name_up_to_128_characters_is_accepted(tmp_path):
    name = "HH387 dollar_bill (v2)+final,#1.eps"
    spec = load_spec(_kn(tmp_path, **_numbers_art(s0=name, s1="N" * 128)))
    assert [s.art for s in spec.symbols][:2] == [name, "N" * 128]


def test_art_a_spot_could_not_tell_apart_is_refused(tmp_path):
    # the YOUR spots show numbers and specials: a special coded "5" beside the number 5 with art
    doc = kn_doc()
    doc["symbols"][9]["code"] = "5"
    for i in range(6):
        doc["symbols"][i]["art"] = f"N{i + 1}.eps"
    one_line(invoke("check", write(tmp_path, doc)), "poolgen",
             "g.toml: symbols[4].art: the spots play_your_* show two symbols of code '5': their art cannot "
             "be told apart")


def test_art_on_a_group_no_spot_shows_is_not_used(tmp_path):
    # Tic Tac Cash's prizes are printed in its legend, not on a spot (docs/styles/lines.md)
    text = (ROOT / "specs/examples/tic_tac_cash.toml").read_text()
    count = iter(range(100))
    text = re.sub(r'^(group = "prize"\n)', lambda m: f'{m.group(1)}art = "P{next(count)}.eps"\n', text,
                  flags=re.M)
    path = tmp_path / "t.toml"
    path.write_text(text)
    result = invoke("check", path)
    one_line(result, "poolgen", "t.toml: symbols[")
    assert result.stderr.split("].art: ", 1)[1] == (
        "not used: group 'prize' is shown on no spot of the imaging file (its symbols are printed "
        "otherwise)\n")


def test_an_einstant_spec_has_no_art(tmp_path):
    text = spec_path("primetime_payout").read_text()
    text = text.replace("[[symbols]]\n", '[[symbols]]\nart = "x.eps"\n', 1)
    path = tmp_path / "e.toml"
    path.write_text(text)
    one_line(invoke("check", path), "poolgen", "e.toml: symbols[0].art: unknown field")
