"""A proof explains each win in words, naming a symbol by its caption beside it ("moneybag (WIN)").
A caption is optional in a spec (docs/new-game.md, section 1: a held-out Nebraska spec wrote its prize
symbols without captions): such a symbol is named alone, never with an empty "()" ("wins $20 () =
$20.00" was on every match of that spec's proofs)."""

from __future__ import annotations

from poolgen.loader import load_spec
from tests.support.spec_docs import kn_doc, write

# kn_doc: numbers 1..6 (codes 0..5), prizes FREE, $1.00, $5.00 (codes 0..2), specials BAG (6), 2X (7)
ROW = {"play_win_0": 0, "play_win_1": 1, "play_your_0": 0, "play_your_1": 6, "play_your_2": 7,
       "play_prize_0": 1, "play_prize_1": 2, "play_prize_2": 1}


def _lines(tmp_path, captions: dict[str, str]) -> list[str]:
    doc = kn_doc()
    for s in doc["symbols"]:
        if s["code"] in captions and s["group"] in ("prize", "special"):
            s["caption"] = captions[s["code"]]
    area = load_spec(write(tmp_path, doc)).play.areas[0]
    return area.module.explain("play", area.params, ROW)[0]


def test_symbols_without_captions_are_named_without_empty_brackets(tmp_path):
    assert _lines(tmp_path, {}) == [
        "play, spot 1: YOUR NUMBER 1 matches a WINNING NUMBER: wins $1.00 = $1.00.",
        "play, spot 2: moneybag wins the prize shown below it: wins $5.00 = $5.00.",
        "play, spot 3: 2X wins 2 times the prize shown: wins 2 x $1.00 = $2.00."]


def test_symbols_with_captions_are_named_with_them(tmp_path):
    assert _lines(tmp_path, {"1": "ONE$", "5": "FIVE$", "BAG": "WIN", "2X": "DOUBLE"}) == [
        "play, spot 1: YOUR NUMBER 1 matches a WINNING NUMBER: wins $1.00 (ONE$) = $1.00.",
        "play, spot 2: moneybag (WIN) wins the prize shown below it: wins $5.00 (FIVE$) = $5.00.",
        "play, spot 3: 2X (DOUBLE) wins 2 times the prize shown: wins 2 x $1.00 = $2.00."]
