"""Symbols a player cannot tell apart (poolgen/loader/printed.py, docs/new-game.md section 2): the spots
of an area that show several symbols (a key number match's YOUR NUMBERS: its numbers and its special
symbols) never print one text for two of them. A held-out Ohio game (3770:1-9-110: "If the number "26"
is revealed in any one of the "your numbers" play spots, the player automatically wins all ten prize
amounts") written with the number 26 beside a win-all symbol printed "26" checked, generated and
verified, and 27,791 losing tickets of a pool of 120,000 showed a "26" among YOUR NUMBERS. And a cash
prize symbol printed as a dollar amount alone is worth that amount (Winner Wonderland's "$5.00" written
worth $10.00 checked: three of them would pay $10)."""

from __future__ import annotations

from poolgen.loader import load_spec
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import kn_doc, write


def test_a_special_symbol_printed_as_a_number_of_its_spots_is_refused(tmp_path):
    doc = kn_doc()
    doc["symbols"][9]["symbol"] = "5"  # the automatic BAG printed "5", as the number 5 is
    one_line(invoke("check", write(tmp_path, doc)), "poolgen",
             "g.toml: symbols[9].symbol: '5' is printed for symbols[4] too (group 'number', code '5'), "
             "and the spots play_your_* show both: a player cannot tell them apart")


def test_two_numbers_printed_alike_are_refused(tmp_path):
    doc = kn_doc()
    doc["symbols"][1]["symbol"] = "1"  # the number 2 printed "1"
    one_line(invoke("check", write(tmp_path, doc)), "poolgen",
             "g.toml: symbols[1].symbol: '1' is printed for symbols[0] too (group 'number', code '1'), "
             "and the spots play_win_* show both: a player cannot tell them apart")


def test_a_number_and_a_prize_may_print_alike_on_spots_of_their_own(tmp_path):
    doc = kn_doc()
    doc["symbols"][8]["symbol"] = "5"  # the $5 prize printed "5": prize spots show no number
    spec = load_spec(write(tmp_path, doc))
    assert [s.symbol for s in spec.symbols][4:9] == ["5", "6", "FREE", "$1.00", "5"]


def test_a_prize_symbol_printed_as_another_amount_is_refused(tmp_path):
    doc = kn_doc()
    doc["symbols"][8]["value"] = "50.00"  # printed "$5.00", worth $50: three of them would pay $50
    one_line(invoke("check", write(tmp_path, doc)), "poolgen",
             "g.toml: symbols[8].symbol: '$5.00' reads as $5.00, but its value is $50.00: a player reads "
             "the amount printed")


def test_a_prize_symbol_printed_as_its_value_or_as_words_is_taken(tmp_path):
    doc = kn_doc()
    doc["symbols"][8]["symbol"] = "$5"  # no cents printed: $5.00
    doc["symbols"][7]["symbol"] = "$1 CASH"  # not an amount alone: the caption's business
    spec = load_spec(write(tmp_path, doc))
    assert [(s.symbol, s.cents) for s in spec.symbols][7:9] == [("$1 CASH", 100), ("$5", 500)]

