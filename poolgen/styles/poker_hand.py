"""Poker hand (contract: docs/styles/poker_hand.md): YOUR HAND of five cards, no dealer, paid by its
RANK from a CHART ("a pair of jacks or better"), the deck the standard 52 cards or 53 with a wild JOKER
(code 52). A winning ticket's hand is uniform among the hands of exactly its paying RANK, a losing
ticket's among the hands the chart does not pay (section 8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Cell, Groups, Section, Win, WinError, prize_entry
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.styles.cards import CARDS, DECK, HAND, card_text
from poolgen.styles.poker_ranking import FIVE_OF_A_KIND, JOKER, LEVELS, deck_hands, levels

FIELDS: frozenset[str] = frozenset({"prizes", "chart", "joker"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_card_", ("cards",)),)
JOKER_SYMBOL = Symbol(-1, "card", "JOKER", "JOKER", "JOKER")
WORDS = {"five_of_a_kind": "five of a kind", "royal_flush": "royal flush", "straight_flush": "straight flush",
         "four_of_a_kind": "four of a kind", "full_house": "full house", "flush": "flush",
         "straight": "straight", "three_of_a_kind": "three of a kind", "two_pair": "two pair",
         "jacks_or_better": "jacks or better", "none": "no paying hand"}


@dataclass(frozen=True)
class Params:
    prizes: tuple[Symbol, ...]
    chart: tuple[tuple[int, Symbol], ...]  # (level, prize), best first (contract section 2)
    joker: bool = False

    @property
    def cards(self) -> tuple[Symbol, ...]:
        """The deck's symbols by code: the 52 cards, then the JOKER where the deck has it."""
        return CARDS + ((JOKER_SYMBOL,) if self.joker else ())

    def pays(self) -> dict[int, Symbol]:
        return dict(self.chart)


def _chart(ctx: AreaReading, table: Mapping[str, Any], where: str, prizes: tuple[Symbol, ...],
           joker: bool) -> tuple[tuple[int, Symbol], ...]:
    r = ctx.r
    items = r.get(table, "chart", where, list)
    top = FIVE_OF_A_KIND if joker else FIVE_OF_A_KIND - 1
    out: list[tuple[int, Symbol]] = []
    for i, item in enumerate(items):
        at = f"{where}.chart[{i}]"
        if not isinstance(item, dict) or set(item) != {"hand", "prize"}:
            raise r.fail(at, "must be a table { hand, prize }")
        hand = r.get(item, "hand", at, str)
        want = top - i
        if want < 1 or hand != LEVELS[want]:
            said = "nothing: the chart has every rank" if want < 1 else repr(LEVELS[want])
            raise r.fail(f"{at}.hand", f"{hand!r}, but a chart pays from the best rank down: here {said}")
        code = r.get(item, "prize", at, str)
        prize = next((s for s in prizes if s.code == code), None)
        if prize is None:
            raise r.fail(f"{at}.prize", "not one of the area's prize symbols")
        if any(p.code == code for _, p in out):
            raise r.fail(f"{at}.prize", f"{code!r} is paid for another hand too (a win's prize names its "
                                        "hand)")
        out.append((want, prize))
    if not out:
        raise r.fail(f"{where}.chart", "list the hands that pay, best first, each with its prize")
    return tuple(out)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    joker = ctx.r.get(table, "joker", where, bool, required=False) or False
    prizes = ctx.group(table, "prizes", where, "prizes")
    return Params(prizes, _chart(ctx, table, where, prizes, joker), joker)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    prize = next((p for _, p in params.chart if p.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not one the chart pays")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a poker_hand win is \"match\" (the chart's prize for the "
                              "hand)")
    if by is not None:
        raise WinError("by", "a listed prize wins as listed: no `by`")
    return prize, 1


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first chart line no tier's win pays, and why (poolgen/loader/printed.py refuses it: every
    ticket prints the chart, and the line could never win; contract, section 2)."""
    paid = {w.prize.code for w in wins}
    for i, (_, prize) in enumerate(params.chart):
        if prize.code not in paid:
            return f"chart[{i}].prize", f"no tier wins {prize.code!r} (every ticket would print it in the " \
                                        "chart, and it could never win)"
    return None


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    return f"{len(wins)} wins, but the area's one hand wins once at most" if len(wins) > 1 else None


def entry(params: Params) -> dict[str, Any]:
    return {"deck": "standard-52+joker" if params.joker else "standard-52", "ranking": "poker-hand-class",
            "chart": [{"hand": LEVELS[lv], "prize": p.code} for lv, p in params.chart],
            "prizes": prize_entry(params.prizes), "joker": params.joker}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_card_{i}" for i in range(HAND)]


def _targets(params: Params, wins: tuple[Win, ...]) -> np.ndarray:
    """Section 8, step 1: the indices in H of the hands a row of these wins may show."""
    _, level = deck_hands(params.joker)
    if wins:
        want = next(lv for lv, p in params.chart if p.code == wins[0].prize.code)
        return np.flatnonzero(level == want)
    return np.flatnonzero(level < min(lv for lv, _ in params.chart))


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 8, per tier in pool order, vectorised over its rows."""
    hands, _ = deck_hands(params.joker)
    out = np.zeros((n, HAND), dtype=np.uint8)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        targets = _targets(params, wins)
        chosen = hands[targets[integers(stream, targets.size, size=k)]]
        order = row_permutations(stream, k, HAND)
        out[rows] = np.take_along_axis(chosen, order, axis=1)
    return {name: np.ascontiguousarray(out[:, i]) for i, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _text(code: int) -> str:
    return "JOKER" if code == JOKER else card_text(code)


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """YOUR HAND, then the CHART (each hand that pays with its prize), as printed."""
    cells: list[Cell] = []
    for name in columns(area_id, params):
        c = int(row[name])
        s = params.cards[c] if 0 <= c < len(params.cards) else None
        cells.append((name, s.symbol if s else "?", s.caption if s else "", None, None))
    chart: list[Cell] = [("", WORDS[LEVELS[lv]].upper(), "", p.symbol, p.caption) for lv, p in params.chart]
    return [("YOUR HAND", cells), ("PRIZE CHART", chart)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """What the hand pays (contract section 6), and its cells when it pays."""
    names = columns(area_id, params)
    cards = [int(row[c]) for c in names]
    if not all(0 <= c < DECK + params.joker for c in cards) or len(set(cards)) < HAND:
        return [], set()
    level = int(levels(np.array([cards]))[0])
    prize = params.pays().get(level)
    if prize is None:
        return [], set()
    return ([f"{area_id}: {' '.join(map(_text, cards))} is {WORDS[LEVELS[level]]}: wins "
             f"{fmt_cents(prize.cents or 0, currency)}."], set(names))
