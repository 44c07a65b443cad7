"""Step 8's features of the styles whose area is a row of games (or pairs), each winning its own
PRIZE: prize_box, yours_beats_theirs, add_up, cards and blackjack. Each contract (section 8, cards section 9)
promises that a game (a pair) that does not win is drawn the same way whatever the ticket's tier:
so among the tickets on which game g does not win, what game g shows has one distribution on winners
and losers. Which games win is read with the style's audit engine (audit/styles/, from the same
contract), so a game's own win is left out (code -1) and only its non-winning appearances are
compared; a winning game shows its win, which is not hidden.

| style | per game (pair) g, on tickets whose game g does not win, each against win/lose |
|---|---|
| prize_box | the PRIZE box `<id>_prize_<g>`; each picture `<id>_spot_<g*S+j>` |
| yours_beats_theirs | `<id>_yours_<g>`, `<id>_theirs_<g>`, `<id>_prize_<g>` (and `<id>_mult_<g>`, if any) |
| add_up | the PRIZE `<id>_prize_<g>`; each number `<id>_spot_<g*S+j>`; the game's total |
| cards | the PRIZE `<id>_prize_<g>` (the hands are not promised: cards.md section 9) |
| blackjack | the PRIZE `<id>_prize_<g>` (the DEALER'S TOTAL and the cards are not promised: blackjack.md 8) |
| keno | the WINNING NUMBERS `<id>_win_<i>`, the smallest, the set (classifier); not the games (keno.md 8) |
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.stats.styles.kinds import AreaFeatures, Get, Tests
from audit.styles import area_engine
from audit.styles import blackjack as audit_blackjack
from audit.styles import cards as audit_cards
from audit.styles.interface import Reasons

__all__ = ["add_up", "add_up_columns", "blackjack", "blackjack_columns", "cards", "cards_columns", "keno",
           "keno_columns", "prize_box", "prize_box_columns", "yours_beats_theirs",
           "yours_beats_theirs_columns"]


def _won(area: dict[str, Any], columns: list[str], get: Get) -> list[np.ndarray]:
    """Per game (slot) of the area, whether it wins, by the style's audit engine (illegal rows are
    steps 4 to 6's to name: here a row only counts as it reads)."""
    table = pl.DataFrame({c: get(c) for c in columns})
    return [slot.won for slot in area_engine(area["style"]).evaluate(table, area, Reasons())]


def _unless(won: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The codes of the tickets on which the game does not win; -1 (left out) where it does."""
    return np.where(won, -1, codes.astype(np.int64))


def prize_box_columns(area: dict[str, Any]) -> list[str]:
    aid, games, spots = area["id"], area["games"], area["spots"]
    return [f"{aid}_spot_{k}" for k in range(games * spots)] + [f"{aid}_prize_{g}" for g in range(games)]


def prize_box(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """prize_box.md section 8: among games that do not win, the box and each picture."""
    aid, spots = area["id"], area["spots"]
    won = _won(area, prize_box_columns(area), get)
    tests: Tests = []
    for g, w in enumerate(won):
        among = f"on tickets whose game {g} does not win, against win/lose"
        tests.append((f"{aid}_prize_{g} (a PRIZE box) {among}", _unless(w, get(f"{aid}_prize_{g}"))))
        tests += [(f"{aid}_spot_{k} (a picture) {among}", _unless(w, get(f"{aid}_spot_{k}")))
                  for k in range(g * spots, (g + 1) * spots)]
    return tests, [], []


def yours_beats_theirs_columns(area: dict[str, Any]) -> list[str]:
    parts = ("yours", "theirs", "prize") + (("mult",) if area.get("multipliers") else ())
    return [f"{area['id']}_{part}_{p}" for part in parts for p in range(area["pairs"])]


def yours_beats_theirs(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int],
                       get: Get) -> AreaFeatures:
    """yours_beats_theirs.md section 8: among pairs that do not win, YOUR symbol, THEIR symbol and
    the PRIZE."""
    aid = area["id"]
    won = _won(area, yours_beats_theirs_columns(area), get)
    tests: Tests = []
    for p, w in enumerate(won):
        among = f"on tickets whose pair {p} does not win, against win/lose"
        parts = (("yours", "YOUR symbol"), ("theirs", "THEIR symbol"), ("prize", "a PRIZE")) \
            + ((("mult", "a multiplier"),) if area.get("multipliers") else ())
        tests += [(f"{aid}_{part}_{p} ({what}) {among}", _unless(w, get(f"{aid}_{part}_{p}")))
                  for part, what in parts]
    return tests, [], []


def add_up_columns(area: dict[str, Any]) -> list[str]:
    aid, games, spots = area["id"], area["games"], area["spots"]
    return [f"{aid}_spot_{k}" for k in range(games * spots)] + [f"{aid}_prize_{g}" for g in range(games)]


def add_up(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """add_up.md section 8: among games that do not win, the PRIZE, each number and the total."""
    aid, spots = area["id"], area["spots"]
    values = np.array([int(x) for x in area["numbers"]], dtype=np.int64)
    won = _won(area, add_up_columns(area), get)
    tests: Tests = []
    for g, w in enumerate(won):
        among = f"on tickets whose game {g} does not win, against win/lose"
        shown = [get(f"{aid}_spot_{k}").astype(np.int64) for k in range(g * spots, (g + 1) * spots)]
        total = sum(values[np.clip(s, 0, len(values) - 1)] for s in shown)
        tests.append((f"{aid}_prize_{g} (a PRIZE) {among}", _unless(w, get(f"{aid}_prize_{g}"))))
        tests += [(f"{aid}_spot_{g * spots + j} (a number) {among}", _unless(w, s))
                  for j, s in enumerate(shown)]
        tests.append((f"the total of game {g} of {aid} {among}", _unless(w, np.asarray(total))))
    return tests, [], []


def cards_columns(area: dict[str, Any]) -> list[str]:
    return audit_cards.columns(area)  # cards.md section 4: a hold_em area's community cards too


def cards(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """cards.md section 9: among games that do not win, the PRIZE; the hands are not promised."""
    aid = area["id"]
    won = _won(area, cards_columns(area), get)
    tests: Tests = [(f"{aid}_prize_{g} (a PRIZE) on tickets whose game {g} does not win, against win/lose",
                     _unless(w, get(f"{aid}_prize_{g}"))) for g, w in enumerate(won)]
    return tests, [], [f"layout: {aid}: the hands: a losing game's hands depend on how many other games "
                       "the ticket wins (cards.md section 9: no promise)"]


def blackjack_columns(area: dict[str, Any]) -> list[str]:
    return audit_blackjack.columns(area)  # blackjack.md section 4


def blackjack(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """blackjack.md section 8: among HANDS that do not win, the PRIZE; the DEALER'S TOTAL and the cards
    are not promised."""
    aid = area["id"]
    if area.get("pays") == "count":  # section 10: no PRIZE spots; the cards are drawn by the hands won
        return [], [], [f"layout: {aid}: the DEALER'S cards and the HANDS: drawn by how many hands the "
                        "ticket wins (blackjack.md section 11: no promise)"]
    won = _won(area, blackjack_columns(area), get)
    tests: Tests = [(f"{aid}_prize_{h} (a PRIZE) on tickets whose hand {h} does not win, against win/lose",
                     _unless(w, get(f"{aid}_prize_{h}"))) for h, w in enumerate(won)]
    return tests, [], [f"layout: {aid}: the DEALER'S TOTAL and the cards: drawn by how many hands the ticket "
                       "wins (blackjack.md section 8: no promise)"]


def keno_columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_win_{i}" for i in range(area["winning"])]


def keno(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """keno.md section 8: the WINNING NUMBERS (each, the smallest, the set), drawn before anything the
    tier decides; the games are not promised."""
    aid = area["id"]
    win = [get(f"{aid}_win_{i}").astype(np.int64) for i in range(area["winning"])]
    tests: Tests = [(f"{aid}_win_{i} (a WINNING NUMBER) against win/lose", w) for i, w in enumerate(win)]
    tests.append((f"smallest WINNING NUMBER of {aid} against win/lose", np.minimum.reduce(win)))
    return tests, [(f"the set of WINNING NUMBERS of area {aid}", win)], \
        [f"{aid}: its games (which games win, and so what the others show, is the tier's: keno.md section 8)"]
