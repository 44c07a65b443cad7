"""Poker hand (contract: docs/styles/poker_hand.md): YOUR HAND of five cards, no dealer, paid by its
RANK from a CHART ("a pair of jacks or better"), the deck the standard 52 cards or 53 with a wild JOKER
(code 52), a JOKER hand paying `joker_multiplier` times the chart's prize where the spec says so. A
winning ticket's hand is uniform among the hands of exactly its paying RANK (and, with a multiplier, of
its JOKER shown or not), a losing ticket's among the hands the chart does not pay (section 8)."""

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
from poolgen.styles.poker_ranking import (
    FIVE_OF_A_KIND,
    JACK,
    JOKER,
    LEVELS,
    PAIRS,
    deck_hands,
    joker_shown,
    level_name,
    levels,
)

FIELDS: frozenset[str] = frozenset({"prizes", "chart", "joker", "joker_multiplier", "five_of_a_kind"})
MOST_BY = 10  # the largest joker_multiplier
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_card_", ("cards",)),)
JOKER_SYMBOL = Symbol(-1, "card", "JOKER", "JOKER", "JOKER")
# (level, JOKER shown) that no hand of the deck is (section 9): a tier won so is refused
NO_HANDS = {(LEVELS.index("two_pair"), True): "no two_pair hand shows the JOKER (the JOKER makes it three of "
                                              "a kind or better)",
            (FIVE_OF_A_KIND, False): "every five_of_a_kind hand shows the JOKER"}


def words(name: str) -> str:
    return "no paying hand" if name == "none" else name.replace("_", " ")


@dataclass(frozen=True)
class Params:
    prizes: tuple[Symbol, ...]
    chart: tuple[tuple[int, Symbol], ...]  # (level, prize), best first (contract section 2)
    joker: bool = False
    pair: int = JACK  # the lowest pair level 1 pays (a rank code: the chart's last line, a pair's name)
    five: bool = True  # with the JOKER: five_of_a_kind a RANK (`five_of_a_kind`, section 5)
    multiplier: int = 1  # `joker_multiplier`: a winning hand showing the JOKER pays this times its prize

    @property
    def cards(self) -> tuple[Symbol, ...]:
        """The deck's symbols by code: the 52 cards, then the JOKER where the deck has it."""
        return CARDS + ((JOKER_SYMBOL,) if self.joker else ())

    def pays(self) -> dict[int, Symbol]:
        return dict(self.chart)

    def ranks(self) -> tuple[bool, int, bool]:
        """The ranking's arguments (poker_ranking.deck_hands)."""
        return self.joker, self.pair, self.five


def _chart(ctx: AreaReading, table: Mapping[str, Any], where: str, prizes: tuple[Symbol, ...],
           top: int, multiplier: int) -> tuple[tuple[tuple[int, Symbol], ...], int]:
    """(the chart's (level, prize) lines, the lowest pair level 1 pays)."""
    r = ctx.r
    items = r.get(table, "chart", where, list)
    out: list[tuple[int, Symbol]] = []
    pair = JACK
    for i, item in enumerate(items):
        at = f"{where}.chart[{i}]"
        if not isinstance(item, dict) or set(item) != {"hand", "prize"}:
            raise r.fail(at, "must be a table { hand, prize }")
        hand = r.get(item, "hand", at, str)
        want = top - i
        if want == 1 and hand in PAIRS:
            pair = PAIRS.index(hand)
        elif want < 1 or hand != LEVELS[want]:
            said = "nothing: the chart has every rank" if want < 1 else repr(LEVELS[want])
            said += " (or another pair's: 'twos_or_better' to 'aces_or_better')" if want == 1 else ""
            raise r.fail(f"{at}.hand", f"{hand[:80]!r}, but a chart pays from the best rank down: here "
                                       f"{said}")
        code = r.get(item, "prize", at, str)
        prize = next((s for s in prizes if s.code == code), None)
        if prize is None:
            raise r.fail(f"{at}.prize", "not one of the area's prize symbols")
        if multiplier > 1 and prize.free:
            raise r.fail(f"{at}.prize", f"{code!r} is a free ticket, which a JOKER hand cannot win "
                                        f"{multiplier} times (joker_multiplier)")
        if any(p.code == code for _, p in out):
            raise r.fail(f"{at}.prize", f"{code!r} is paid for another hand too (a win's prize names its "
                                        "hand)")
        out.append((want, prize))
    if not out:
        raise r.fail(f"{where}.chart", "list the hands that pay, best first, each with its prize")
    return tuple(out), pair


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    joker = r.get(table, "joker", where, bool, required=False) or False
    five = r.get(table, "five_of_a_kind", where, bool, required=False) is not False
    multiplier = ctx.whole(table, "joker_multiplier", where, 2, required=False, default=1, high=MOST_BY)
    prizes = ctx.group(table, "prizes", where, "prizes")
    r.get(table, "chart", where, list)  # its type before the fields tied to `joker`, as audit reads them
    for key, why in (("five_of_a_kind", "without the JOKER no hand is five of a kind"),
                     ("joker_multiplier", "without the JOKER no hand shows it")):
        if key in table and not joker:
            raise r.fail(f"{where}.{key}", f"only with joker = true ({why})")
    top = FIVE_OF_A_KIND if joker and five else FIVE_OF_A_KIND - 1
    chart, pair = _chart(ctx, table, where, prizes, top, multiplier)
    return Params(prizes, chart, joker, pair, five, multiplier)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    """A chart prize, `match`; with `joker_multiplier` k, `by = k` names a hand showing the JOKER and no
    `by` one without it (section 2)."""
    line = next(((lv, p) for lv, p in params.chart if p.code == code), None)
    if line is None:
        raise WinError("prize", f"prize {code!r} is not one the chart pays")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a poker_hand win is \"match\" (the chart's prize for the "
                              "hand)")
    k = params.multiplier
    if by is not None and k == 1:
        raise WinError("by", "a listed prize wins as listed: no `by`")
    if by is not None and by != k:
        raise WinError("by", f"by = {by}: a hand showing the JOKER wins by = {k} (joker_multiplier), one "
                             "without it has no `by`")
    empty = NO_HANDS.get((line[0], by is not None)) if params.multiplier > 1 else None
    if empty:
        raise WinError("by", f"{empty}: no ticket can win {code!r} {'with' if by else 'without'} it")
    return line[1], by or 1


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
    """Section 3: `five_of_a_kind` and `joker_multiplier` only when the spec sets them otherwise."""
    return {"deck": "standard-52+joker" if params.joker else "standard-52", "ranking": "poker-hand-class",
            "chart": [{"hand": level_name(lv, params.pair), "prize": p.code} for lv, p in params.chart],
            "prizes": prize_entry(params.prizes), "joker": params.joker} \
        | ({} if params.five else {"five_of_a_kind": False}) \
        | ({"joker_multiplier": params.multiplier} if params.multiplier > 1 else {})


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_card_{i}" for i in range(HAND)]


def _targets(params: Params, wins: tuple[Win, ...]) -> np.ndarray:
    """Section 8, step 1: the indices in H of the hands a row of these wins may show."""
    _, level = deck_hands(*params.ranks())
    if not wins:
        return np.flatnonzero(level < min(lv for lv, _ in params.chart))
    want = level == next(lv for lv, p in params.chart if p.code == wins[0].prize.code)
    if params.multiplier > 1:
        want &= joker_shown() == (wins[0].by > 1)
    return np.flatnonzero(want)


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 8, per tier in pool order, vectorised over its rows."""
    hands, _ = deck_hands(*params.ranks())
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
    chart: list[Cell] = [("", words(level_name(lv, params.pair)).upper(), "", p.symbol, p.caption)
                         for lv, p in params.chart]
    if params.multiplier > 1:
        chart.append(("", f"A WINNING HAND WITH THE JOKER WINS {params.multiplier}X", "", None, None))
    return [("YOUR HAND", cells), ("PRIZE CHART", chart)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """What the hand pays (contract section 6), and its cells when it pays."""
    names = columns(area_id, params)
    cards = [int(row[c]) for c in names]
    if not all(0 <= c < DECK + params.joker for c in cards) or len(set(cards)) < HAND:
        return [], set()
    level = int(levels(np.array([cards]), params.pair, params.five)[0])
    prize = params.pays().get(level)
    if prize is None:
        return [], set()
    k = params.multiplier if JOKER in cards else 1
    times = f" ({k} x {fmt_cents(prize.cents or 0, currency)}: the JOKER)" if k > 1 else ""
    return ([f"{area_id}: {' '.join(map(_text, cards))} is {words(level_name(level, params.pair))}: wins "
             f"{fmt_cents(k * (prize.cents or 0), currency)}{times}."], set(names))
