"""poolgen/styles/ticket_multiplier.py's `multiplies` (docs/styles/ticket_multiplier.md section 9) on
BCLC's $5 Deluxe Crossword as loaded: the box covers PUZZLE 3's legend prizes alone, a tier pays k x its
covered wins plus the rest, the manifest entry states the field as the spec lists it, and the proof
names what the box multiplies."""

from __future__ import annotations

from poolgen.game.multiplied import covered, ticket_cents, ticket_problem
from poolgen.game.play import Win
from poolgen.loader import load_spec
from tests.support import ROOT

SPEC = ROOT / "specs" / "examples" / "bclc_deluxe_crossword.toml"


def _box():
    game = load_spec(SPEC)
    return game, next(a for a in game.play.areas if a.id == "mult")


def test_the_box_covers_puzzle_3s_legend_prizes_alone():
    _, box = _box()
    assert box.params.multiplies == (("xw", 3),)
    assert box.params.over == (("xw", frozenset({"C10", "C25", "C100", "C2000"})),)


def test_a_tier_pays_k_times_its_covered_wins_plus_its_other_wins_in_cents():
    game, _ = _box()
    w20 = game.play.wins["w20"]
    doubled = next(w for w in w20 if w.how == "ticket")
    puzzle_1 = next(w for w in game.play.wins["w5"])
    puzzle_3 = next(w for w in w20 if w.how != "ticket")
    assert ticket_cents(w20) == 2000
    assert ticket_cents((puzzle_1, puzzle_3, doubled)) == 500 + 2 * 1000
    assert ticket_cents((puzzle_1, Win(doubled.area, "ticket", 2, doubled.prize), puzzle_3)) == 2 * 1500


def test_the_entry_states_multiplies_as_the_spec_lists_it():
    game, _ = _box()
    entry = next(a for a in game.play.document()["areas"] if a["id"] == "mult")
    assert entry["multiplies"] == [{"area": "xw", "grid": 3}]
    assert entry["multipliers_on_losers"] is True


def test_the_proof_names_what_the_box_multiplies():
    _, box = _box()
    row = {"mult_spot_0": 2}  # 3X
    title = box.module.face("mult", box.params, row)[0][0]
    assert title == "PRIZE MULTIPLIER: MULTIPLY PRIZES WON IN xw PUZZLE 3"
    assert box.module.explain("mult", box.params, row)[0] == [
        "mult, spot 1: 3X (TRIPLE) revealed: every prize won in xw PUZZLE 3 is paid 3 times."]


def test_a_bonus_words_win_is_not_puzzle_3s_even_when_its_prize_is_one_puzzle_3s_legend_lists():
    """Section 9: `grid` covers that puzzle's legend wins (`how` "match"); a bonus word is no puzzle's, and
    its win is not covered even when its prize is a code the legend lists (crossword.md section 9 lets
    the two boxes show one code): a bonus $10 of code C10 beside a 2X is paid $10, not $20."""
    game, _ = _box()
    w20 = game.play.wins["w20"]
    doubled = next(w for w in w20 if w.how == "ticket")
    puzzle_3 = next(w for w in w20 if w.how != "ticket")
    bonus = Win("xw", "bonus", 1, puzzle_3.prize)
    assert (covered(doubled, puzzle_3), covered(doubled, bonus)) == (True, False)
    assert ticket_cents((bonus, puzzle_3, doubled)) == 1000 + 2 * 1000
    assert ticket_problem((bonus, doubled)) == ("a multiplier and no win in what it multiplies: nothing to "
                                                "multiply")
