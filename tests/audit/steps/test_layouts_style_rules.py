"""Step 4 (audit/steps/layouts.py) refusing, in real signed runs, a row that breaks one rule a style
contract states (docs/styles/<style>.md, its sections on illegal rows and on what is never shown), for
the styles no other re-signed run tests: one row of a small real run of the style's example game given
a layout that breaks exactly that rule, the imaging file made again from it, the manifest restated and
signed again with the run's real key (tests/support/layout_tamper.py), as an insider holding it could.
`poolgen verify` must fail step 4 alone, naming the ticket, its row and the rule's reason in the
contract's words. (match_n, prize_legend_duel: test_layouts_contract_rules.py; area_match:
test_layouts_unpaid_displays.py; lines: tests/third_engines/.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from poolgen.loader import load_spec
from tests.support import small_example, small_wild_side
from tests.support.layout_tamper import cli_verify, copied, replace_a_row, signed_run

Row = dict[str, Any]


def _codes(row: Row, prefix: str, count: int, changed: Row) -> str:
    """The area's stored codes `prefix`0 .. `prefix`{count-1} after the change, as a reason lists them."""
    return ", ".join(str((row | changed)[f"{prefix}{j}"]) for j in range(count))


def _hand(area: str, cards: list[int]) -> Row:
    """A poker_hand area's five cards (codes: poker_hand.md section 4, 52 the JOKER)."""
    return {f"{area}_card_{i}": c for i, c in enumerate(cards)}


def _first_winning_pair(row: Row) -> int:
    return next(p for p in range(4) if row[f"duel_yours_{p}"] > row[f"duel_theirs_{p}"])


_POINTS = [4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]  # pa_blackjack_10's cards 4 .. 10, J, Q, K, A
_DEALER = [16, 17, 18, 19, 20, 0]  # its DEALER'S TOTALS 16 .. 20, BUST


def _first_winning_hand(row: Row) -> int:
    """blackjack.md section 5: the first HAND of 21 or less above the DEALER'S TOTAL."""
    d = _DEALER[row["table_dealer_0"]]
    return next(h for h in range(8) if d < _POINTS[row[f"table_card_{2 * h}"]]
                + _POINTS[row[f"table_card_{2 * h + 1}"]] <= 21)


# (game, tickets, tier, the row's new values from its stored ones, the reason from the row and them, and
# what the row then pays where that is not its stored prize)
Case = tuple[str, int, str, Callable[[Row], Row], Callable[[Row, Row], str], int | None]
CASES: dict[str, Case] = {
    # prize_box.md section 5, rule 2: N = 2 like pictures win; three of one picture in game 1
    "prize_box: more than N like pictures": (
        "lucky_pairs", 2400, "lose", lambda r: {f"games_spot_{j}": 1 for j in range(3)},
        lambda r, v: "games: game 1: more than 2 like pictures", None),
    # symbol_count.md section 5, rule 2: a decoy (PEPPER) more than most_alike = 2 times, no FLAME
    "symbol_count: a decoy more than most_alike times": (
        "five_alarm_flames", 2400, "lose",
        lambda r: {f"flames_spot_{j}": c for j, c in enumerate([1, 1, 1, 2, 2, 3, 3, 4])},
        lambda r, v: "flames: PEPPER shown 3 times, at most 2", None),
    # symbol_count.md section 5, rule 3: 7 FLAMEs, a count the legend (3, 4, 5, 6) does not price
    "symbol_count: a count the legend does not price": (
        "five_alarm_flames", 2400, "lose",
        lambda r: {f"flames_spot_{j}": c for j, c in enumerate([0, 0, 0, 0, 0, 0, 0, 1])},
        lambda r, v: "flames: 7 x FLAME: the legend has no prize for 7", None),
    # add_up.md section 6: a game the tier does not win never reaches the target (3 + 4 = 7, under $2)
    "add_up: a loser's game reaching the target": (
        "bank_roll", 2400, "lose",
        lambda r: {f"roll_spot_{j}": 0 for j in range(12)} | {"roll_spot_0": 2, "roll_spot_1": 3,
                                                              "roll_prize_0": 0},
        lambda r, v: "its wins are not its tier 'lose''s (1 win(s) paying 200 cents)", 200),
    # maze.md section 6: a loser's paths all end unpaid; START 10 goes UP three times out of the top at
    # column 0 ($2), START 14 RIGHT out of an exit not listed (a code out of range, rule 1, has no
    # imaging symbol: poolgen cannot print it)
    "maze: a loser's path by a listed exit": (
        "arrow_maze", 2400, "lose", lambda r: {"maze_cell_10": 0, "maze_cell_5": 0, "maze_cell_0": 0,
                                               "maze_cell_14": 1},
        lambda r, v: "its wins are not its tier 'lose''s (1 win(s) paying 200 cents)", 200),
    # ticket_multiplier.md section 6 and play.md rule 3: a DBL (code D = 3) on a ticket of no other win
    "ticket_multiplier: a multiplier on a loser": (
        "diamond_life", 2400, "lose", lambda r: {"bonus_spot_0": 3},
        lambda r, v: "a ticket-wide multiplier x2 on a ticket with no other win; its wins are not its tier "
                     "'lose''s (0 win(s) paying 0 cents)", None),
    # cards.md section 6: a card of the deck shown twice in the area (the dealer's first card twice)
    "cards: a card shown twice": (
        "poker_showdown", 2400, "lose", lambda r: {"poker_dealer_1": r["poker_dealer_0"]},
        lambda r, v: f"poker: a card shown twice: {_card(r['poker_dealer_0'])}", None),
    # poker_hand.md section 7, a chart down to tens_or_better: a loser never shows a pair of 10s (10C 10D AH
    # 7S 2C pays the chart's $2)
    "poker_hand: a loser's pair of 10s under a tens_or_better chart": (
        "tens_or_better_poker", 5460, "lose", lambda r: _hand("hand", [32, 33, 50, 23, 0]),
        lambda r, v: "its wins are not its tier 'lose''s (1 win(s) paying 200 cents)", 200),
    # poker_hand.md section 7 with joker_multiplier: a tier without `by` never shows the JOKER (JOKER 9C 9D
    # 4H 2S: three of a kind with the JOKER, twice $4) ...
    "poker_hand: the JOKER in a tier without it": (
        "oh_joker_poker", 540, "three_of_a_kind", lambda r: _hand("hand", [52, 28, 29, 10, 3]),
        lambda r, v: "its wins are not its tier 'three_of_a_kind''s (1 win(s) paying 800 cents)", 800),
    # ... and a tier of `by` 2 always does (9H 9C 9D 4H 2S: three of a kind, $4 once)
    "poker_hand: no JOKER in a tier with it": (
        "oh_joker_poker", 540, "three_of_a_kind_joker", lambda r: _hand("hand", [30, 28, 29, 10, 3]),
        lambda r, v: "its wins are not its tier 'three_of_a_kind_joker''s (1 win(s) paying 400 cents)", 400),
    # yours_beats_theirs.md section 6: a pair the tier does not win never beats THEIR symbol
    "yours_beats_theirs: a loser's pair beating theirs": (
        "high_card_duel", 2400, "lose", lambda r: {"duel_yours_0": 12, "duel_theirs_0": 0, "duel_prize_0": 0},
        lambda r, v: "its wins are not its tier 'lose''s (1 win(s) paying 200 cents)", 200),
    # yours_beats_theirs.md section 6: a winning pair's PRIZE is the tier's prize for it ($4, not $2)
    "yours_beats_theirs: a winning pair's prize not its tier's": (
        "high_card_duel", 2400, "p2", lambda r: {f"duel_prize_{_first_winning_pair(r)}": 1},
        lambda r, v: "its wins are not its tier 'p2''s (1 win(s) paying 400 cents)", 400),
    # blackjack.md section 6: a HAND the tier does not win never totals 21 or less above the DEALER'S
    # TOTAL (10 + A = 21 beats every DEALER'S TOTAL, 20 and BUST included)
    "blackjack: a loser's hand beating the dealer's total": (
        "pa_blackjack_10", 2400, "lose",
        lambda r: {"table_card_0": 6, "table_card_1": 10, "table_prize_0": 0},
        lambda r, v: "its wins are not its tier 'lose''s (1 win(s) paying 100 cents)", 100),
    # blackjack.md section 6: a winning HAND's PRIZE is the tier's prize for it ($1, not $2)
    "blackjack: a winning hand's prize not its tier's": (
        "pa_blackjack_10", 2400, "p2", lambda r: {f"table_prize_{_first_winning_hand(r)}": 0},
        lambda r, v: "its wins are not its tier 'p2''s (1 win(s) paying 100 cents)", 100),
    # blackjack.md section 5: over 21 loses (A + A = 22 in the tier's winning HAND)
    "blackjack: a winning hand over 21": (
        "pa_blackjack_10", 2400, "p2",
        lambda r: {f"table_card_{2 * _first_winning_hand(r) + j}": 10 for j in range(2)},
        lambda r, v: "its wins are not its tier 'p2''s (0 win(s) paying 0 cents)", 0),
    # blackjack.md section 10: a losing ticket's HANDS win nothing (all A + A = 22 but HAND 1, 10 + A = 21,
    # against a dealer's 2 + 2: one HAND won, the legend's $3)
    "blackjack count: a loser's hands winning a legend line": (
        "va_blackjack_classic", 2400, "lose",
        lambda r: {"table_dealer_0": 0, "table_dealer_1": 0, "table_card_0": 8}
        | {f"table_card_{i}": 12 for i in range(1, 30)},
        lambda r, v: "its wins are not its tier 'lose''s (1 win(s) paying 300 cents)", 300),
    # blackjack.md section 9: the DEALER'S cards are added (A + A = 22 beats every HAND; its first card
    # alone, 11, would not)
    "blackjack count: the dealer's cards added": (
        "va_blackjack_classic", 2400, "p3", lambda r: {"table_dealer_0": 12, "table_dealer_1": 12},
        lambda r, v: "its wins are not its tier 'p3''s (0 win(s) paying 0 cents)", 0),
    # bingo.md section 5, rule 1: the caller's numbers are distinct (the second call repeats the first)
    "bingo: a caller's number twice": (
        "pattern_bingo", 2400, "lose", lambda r: {"bingo_call_1": r["bingo_call_0"]},
        lambda r, v: "bingo: the caller's numbers are not distinct numbers 1-75 "
                     f"({_codes(r, 'bingo_call_', 30, v)})", None),
    # crossword.md section 5, rule 2: YOUR LETTERS show no letter twice
    "crossword: YOUR LETTERS show a letter twice": (
        "hundred_thousand_crossword", 2400, "lose", lambda r: {"puzzle_letter_1": r["puzzle_letter_0"]},
        lambda r, v: "puzzle: YOUR LETTERS show a letter twice", None),
    # key_number_match.md section 5, rule 4 (judged with the area showing them; `wild` reads them too)
    "key_number_match: two winning numbers equal": (
        "wild_side", 3000, "lose", lambda r: {"numbers_win_1": r["numbers_win_0"]},
        lambda r, v: "numbers: two winning numbers are equal", None),
    # bonus_reveal.md section 6, rule 2: one picture more than most_alike = 2 times (3 GLDBARs)
    "bonus_reveal: a picture more than most_alike times": (
        "wild_side", 3000, "lose", lambda r: {f"bonus_spot_{j}": 0 for j in range(3)},
        lambda r, v: "bonus: one picture shows 3 times (at most 2: more read as a match that wins nothing)",
        None),
}


def _card(code: int) -> str:
    """A card as cards.md section 4 prints it: rank then suit (51 `AS`, 8 `4C`)."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return ranks[code // 4] + "CDHS"[code % 4]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Callable[[str, int], dict[str, Any]]:
    """A signed run of the example game cut to one pool of `tickets`, made once a game."""
    made: dict[str, dict[str, Any]] = {}

    def run(game: str, tickets: int) -> dict[str, Any]:
        if game not in made:
            folder = tmp_path_factory.mktemp(game)
            spec = load_spec(small_wild_side(folder) if game == "wild_side" else small_example(folder, game,
                                                                                               tickets))
            made[game] = signed_run(folder, spec, spec.pools[0])
        return made[game]
    return run


@pytest.mark.parametrize("game", sorted({case[0] for case in CASES.values()}))
def test_an_honest_run_of_the_styles_example_verifies(runs, game, tmp_path):
    tickets = next(case[1] for case in CASES.values() if case[0] == game)
    base = runs(game, tickets)
    code, report = cli_verify(base, copied(base, tmp_path))
    assert (code, report["failed_steps"]) == (0, [])


@pytest.mark.parametrize("rule", list(CASES))
def test_a_row_breaking_a_style_rule_fails_step_4_naming_it(runs, rule, tmp_path: Path):
    game, tickets, tier, change, reason, pays = CASES[rule]
    base = runs(game, tickets)
    run = copied(base, tmp_path)
    row, ticket, stored = replace_a_row(base, run, tier, change)
    code, report = cli_verify(base, run)
    assert code == 1 and report["failed_steps"] == [4]
    unpaid = "" if pays is None else (f"1 layout(s) do not pay the stored prize: {ticket} (row {row}) pays "
                                      f"{pays} cents, stores {stored['prize_cents']}; ")
    assert report["steps"][3]["reasons"] == [
        f"pool {base['pool'].id}: {unpaid}1 illegal layout(s): {ticket} (row {row}): "
        f"{reason(stored, change(stored))}"]
