"""Blackjack (contract: docs/styles/blackjack.md): H HANDS of k spots, each with a PRIZE, against one
DEALER'S TOTAL; a HAND wins its prize when the points of its spots add up to 21 or less and above the
DEALER'S TOTAL's points (over 21 and ties lose)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import (
    AreaReading,
    Cell,
    Groups,
    Section,
    Win,
    pool_prize_mix,
    prize_entry,
    shown_prize_win,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.rng.sampling import weighted_choices

FIELDS: frozenset[str] = frozenset({"hands", "hand_cards", "numbers", "points", "dealer_totals",
                                    "dealer_points", "prizes"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_dealer_", ("dealer_totals",)), ("_card_", ("numbers",)),
                                                  ("_prize_", ("prizes",)))
MOST_HANDS = 4096  # the k-tuples of `numbers` a HAND can show (contract section 2)


@dataclass(frozen=True)
class Params:
    hands: int
    hand_cards: int
    numbers: tuple[Symbol, ...]
    points: tuple[int, ...]
    dealer_totals: tuple[Symbol, ...]
    dealer_points: tuple[int, ...]
    prizes: tuple[Symbol, ...]

    @cached_property
    def tuples(self) -> np.ndarray:
        """Every k-tuple of `numbers` codes, in lexicographic order (spot 0 first)."""
        n = len(self.numbers)
        return np.array(list(itertools.product(range(n), repeat=self.hand_cards)), dtype=np.int64)

    @cached_property
    def beats(self) -> np.ndarray:
        """beats[d, j]: tuple j wins against DEALER'S TOTAL d (section 5)."""
        total = np.asarray(self.points, dtype=np.int64)[self.tuples].sum(axis=1)
        dealer = np.asarray(self.dealer_points, dtype=np.int64)[:, None]
        beats: np.ndarray = (total[None, :] <= 21) & (total[None, :] > dealer)
        return beats

    def weights(self, wins: int) -> list[int]:
        """W(d)^w L(d)^(H-w) for every DEALER'S TOTAL d (section 7, step 3), exact."""
        won = self.beats.sum(axis=1).tolist()
        return [int(w) ** wins * (len(self.tuples) - int(w)) ** (self.hands - wins) for w in won]


def _points(ctx: AreaReading, table: Mapping[str, Any], where: str, key: str, group: tuple[Symbol, ...],
            name: str, low: int, high: int) -> tuple[int, ...]:
    r = ctx.r
    raw = r.get(table, key, where, object)  # not a list: the contract's words (section 2), not get's
    if not isinstance(raw, list) or not all(type(v) is int for v in raw):
        raise r.fail(f"{where}.{key}", f"a list of whole numbers, one per symbol of the group {name!r}")
    if len(raw) != len(group):
        raise r.fail(f"{where}.{key}", f"{len(group)} numbers for the {len(group)} symbols of {name!r}, "
                                       f"not {len(raw)}")
    for i, v in enumerate(raw):
        if not low <= v <= high:
            raise r.fail(f"{where}.{key}[{i}]", f"{low}..{high}, not {v}")
    return tuple(raw)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    hands = ctx.whole(table, "hands", where, 1, high=16)
    k = ctx.whole(table, "hand_cards", where, 1, high=3)
    numbers = ctx.group(table, "numbers", where, "numbers")
    if len(numbers) < 2:
        raise r.fail(f"{where}.numbers", "at least 2 numbers: a hand must be able to win and to lose")
    points = _points(ctx, table, where, "points", numbers, str(table["numbers"]), 1, 99)
    if len(numbers) ** k > MOST_HANDS:
        raise r.fail(f"{where}.hand_cards", f"{len(numbers)} symbols in {k} spots make "
                                            f"{len(numbers) ** k} hands; at most {MOST_HANDS}")
    dealer = ctx.group(table, "dealer_totals", where, "numbers")
    dealer_points = _points(ctx, table, where, "dealer_points", dealer, str(table["dealer_totals"]), 0, 21)
    if not any(Params(hands, k, numbers, points, dealer, dealer_points, ()).weights(0)):
        raise r.fail(f"{where}.dealer_points", f"no DEALER'S TOTAL lets all {hands} hands lose: a ticket "
                                               "that wins nothing here needs one")
    prizes = ctx.group(table, "prizes", where, "prizes")
    if max(len(numbers), len(dealer), len(prizes)) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    return Params(hands, k, numbers, points, dealer, dealer_points, prizes)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="a blackjack win is \"match\" (a hand wins its prize)",
                           no_by="a hand wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    w, h = len(wins), params.hands
    if w > h:
        return f"{w} wins, but the area has {h} hands (one win each)"
    if not any(params.weights(w)):
        return f"no DEALER'S TOTAL lets {w} of the {h} hands win and the other {h - w} lose"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"hands": params.hands, "hand_cards": params.hand_cards,
            "numbers": [s.code for s in params.numbers], "points": list(params.points),
            "dealer_totals": [s.code for s in params.dealer_totals],
            "dealer_points": list(params.dealer_points), "prizes": prize_entry(params.prizes)}


def columns(area_id: str, params: Params) -> list[str]:
    return ([f"{area_id}_dealer_0"] + [f"{area_id}_card_{i}" for i in range(params.hands * params.hand_cards)]
            + [f"{area_id}_prize_{h}" for h in range(params.hands)])


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    h_, k_ = params.hands, params.hand_cards
    beats = params.beats
    winning = [np.flatnonzero(b) for b in beats]  # per DEALER'S TOTAL: its winning tuples, in order
    losing = [np.flatnonzero(~b) for b in beats]
    index = {s.code: i for i, s in enumerate(params.prizes)}
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    dealer_col = np.zeros(n, dtype=np.int64)
    cards = np.zeros((n, h_ * k_), dtype=np.int64)
    prize = np.zeros((n, h_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        which = row_permutations(stream, k, h_)
        box = np.searchsorted(cumulative, integers(stream, int(cumulative[-1]), size=k * h_).reshape(k, h_),
                              side="right")
        dealer = weighted_choices(stream, params.weights(len(wins)), k)
        won = np.zeros((k, h_), dtype=bool)
        won[np.arange(k)[:, None], which[:, :len(wins)]] = True
        n_win = np.array([len(x) for x in winning])[dealer][:, None]
        n_lose = np.array([len(x) for x in losing])[dealer][:, None]
        pick = integers(stream, np.where(won, n_win, n_lose))
        chosen = np.zeros((k, h_), dtype=np.int64)
        for d in range(len(params.dealer_totals)):
            at = dealer == d
            if at.any():
                chosen[at] = np.where(won[at], winning[d][np.minimum(pick[at], len(winning[d]) - 1)]
                                      if len(winning[d]) else 0,
                                      losing[d][np.minimum(pick[at], len(losing[d]) - 1)]
                                      if len(losing[d]) else 0)
        for i, w in enumerate(wins):
            box[np.arange(k), which[:, i]] = index[w.prize.code]
        dealer_col[rows] = dealer
        cards[rows] = params.tuples[chosen].reshape(k, h_ * k_)
        prize[rows] = box
    flat = np.concatenate([dealer_col[:, None], cards, prize], axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(flat[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _sym(group: tuple[Symbol, ...], code: int) -> Symbol | None:
    return group[code] if 0 <= code < len(group) else None


def _cell(column: str, s: Symbol | None, what: str) -> Cell:
    return (column, s.symbol if s else "?", f"{what}: {s.caption if s else ''}", None, None)


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The DEALER'S TOTAL, then one section per HAND: its spots and its PRIZE."""
    col = f"{area_id}_dealer_0"
    sections: list[Section] = [("DEALER'S TOTAL", [_cell(col, _sym(params.dealer_totals, int(row[col])),
                                                          "DEALER")])]
    k_ = params.hand_cards
    for h in range(params.hands):
        cells = [_cell(f"{area_id}_card_{i}", _sym(params.numbers, int(row[f"{area_id}_card_{i}"])), "CARD")
                 for i in range(h * k_, (h + 1) * k_)]
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{h}"]))
        sections.append((f"HAND {h + 1}: BEAT THE DEALER'S TOTAL, WIN PRIZE",
                         cells + [_cell(f"{area_id}_prize_{h}", z, "PRIZE")]))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the cells of the winning HANDS."""
    lines: list[str] = []
    winning: set[str] = set()
    d = int(row[f"{area_id}_dealer_0"])
    if not 0 <= d < len(params.dealer_totals):
        return lines, winning
    k_ = params.hand_cards
    for h in range(params.hands):
        codes = [int(row[f"{area_id}_card_{i}"]) for i in range(h * k_, (h + 1) * k_)]
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{h}"]))
        if z is None or not all(0 <= c < len(params.numbers) for c in codes):
            continue
        total = sum(params.points[c] for c in codes)
        if total <= 21 and total > params.dealer_points[d]:
            winning |= {f"{area_id}_card_{i}" for i in range(h * k_, (h + 1) * k_)}
            winning |= {f"{area_id}_prize_{h}", f"{area_id}_dealer_0"}
            lines.append(f"{area_id}, hand {h + 1}: {total} beats the dealer's "
                         f"{params.dealer_totals[d].symbol}: wins {fmt_cents(z.cents or 0, currency)}.")
    return lines, winning
