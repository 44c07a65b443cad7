"""Blackjack (contract: docs/styles/blackjack.md): H HANDS of k spots, each with a PRIZE, against one
DEALER'S TOTAL; a HAND wins its prize when the points of its spots add up to 21 or less and above the
DEALER'S TOTAL's points (over 21 and ties lose). With `dealer_cards` the DEALER'S TOTAL is the sum of
several dealer spots; with `pays = "count"` the ticket wins the legend's prize for its number of winning
HANDS (contract sections 9 to 11)."""

from __future__ import annotations

import itertools
import math
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
    WinError,
    pool_prize_mix,
    prize_entry,
    shown_prize_win,
    unpaid_legend_line,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.rng.sampling import weighted_choices

FIELDS: frozenset[str] = frozenset({"hands", "hand_cards", "numbers", "points", "dealer_totals",
                                    "dealer_points", "prizes", "dealer_cards", "pays", "legend"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_dealer_", ("dealer_totals",)), ("_card_", ("numbers",)),
                                                  ("_prize_", ("prizes",)))
OPTIONAL_SPOTS = ("_prize_",)  # no PRIZE spots with pays = "count" (contract section 10)
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
    dealer_cards: int = 1
    legend: tuple[tuple[int, Symbol], ...] = ()  # pays = "count": (hands won, prize), counts consecutive

    @property
    def by_count(self) -> bool:
        return bool(self.legend)

    @cached_property
    def dealers(self) -> np.ndarray:
        """Every c-tuple of `dealer_totals` codes, in lexicographic order (spot 0 first; c = 1: each code)."""
        n = len(self.dealer_totals)
        return np.array(list(itertools.product(range(n), repeat=self.dealer_cards)), dtype=np.int64)

    @cached_property
    def tuples(self) -> np.ndarray:
        """Every k-tuple of `numbers` codes, in lexicographic order (spot 0 first)."""
        n = len(self.numbers)
        return np.array(list(itertools.product(range(n), repeat=self.hand_cards)), dtype=np.int64)

    @cached_property
    def beats(self) -> np.ndarray:
        """beats[d, j]: tuple j wins against the DEALER's tuple d (sections 5 and 9)."""
        total = np.asarray(self.points, dtype=np.int64)[self.tuples].sum(axis=1)
        dealer = np.asarray(self.dealer_points, dtype=np.int64)[self.dealers].sum(axis=1)[:, None]
        beats: np.ndarray = (total[None, :] <= 21) & (total[None, :] > dealer)
        return beats

    def weights(self, wins: int) -> list[int]:
        """W(d)^w L(d)^(H-w) for every DEALER's tuple d (section 7, step 3; section 11), exact."""
        won = self.beats.sum(axis=1).tolist()
        return [int(w) ** wins * (len(self.tuples) - int(w)) ** (self.hands - wins) for w in won]

    def counts(self, wins: tuple[Win, ...]) -> list[int]:
        """pays = "count": the numbers of HANDS won a tier's wins in the area stand for (section 11)."""
        first, last = self.legend[0][0], self.legend[-1][0]
        if not wins:
            return list(range(first))
        c = next(c for c, s in self.legend if s.code == wins[0].prize.code)
        return list(range(c, self.hands + 1)) if c == last else [c]

    def displays(self, m: int) -> int:
        """The displays in which exactly m HANDS win: C(H, m) times the sum of W(d)^m L(d)^(H-m)."""
        return math.comb(self.hands, m) * sum(self.weights(m))


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
    c = ctx.whole(table, "dealer_cards", where, 1, required=False, default=1, high=3)
    if len(dealer) ** c > MOST_HANDS:
        raise r.fail(f"{where}.dealer_cards", f"{len(dealer)} symbols in {c} spots make "
                                              f"{len(dealer) ** c} dealer's hands; at most {MOST_HANDS}")
    prizes = ctx.group(table, "prizes", where, "prizes")
    pays = r.get(table, "pays", where, str) if "pays" in table else "hand"
    if pays not in ("hand", "count"):
        raise r.fail(f"{where}.pays", f"\"hand\" or \"count\", not {pays!r}")
    if pays == "hand" and "legend" in table:
        raise r.fail(f"{where}.legend", "unknown field: a legend is read only with pays = \"count\"")
    legend = _legend(ctx, table, where, prizes, hands) if pays == "count" else ()
    params = Params(hands, k, numbers, points, dealer, dealer_points, prizes, c, legend)
    if not any(params.weights(0)):
        raise r.fail(f"{where}.dealer_points", f"no DEALER'S TOTAL lets all {hands} hands lose: a ticket "
                                               "that wins nothing here needs one")
    if max(len(numbers), len(dealer), len(prizes)) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    return params


def _legend(ctx: AreaReading, table: Mapping[str, Any], where: str, prizes: tuple[Symbol, ...],
            hands: int) -> tuple[tuple[int, Symbol], ...]:
    """Section 10: `{ count, prize }` lines, counts consecutive from the first, each prize its own."""
    r = ctx.r
    raw = r.get(table, "legend", where, list)
    if not raw:
        raise r.fail(f"{where}.legend", "list the prize of each number of hands won")
    legend: list[tuple[int, Symbol]] = []
    for i, item in enumerate(raw):
        at = f"{where}.legend[{i}]"
        if not isinstance(item, dict):
            raise r.fail(at, "must be a table { count, prize }")
        for key in item:
            if key not in ("count", "prize"):
                raise r.fail(f"{at}.{key}", "unknown field")
        count = ctx.whole(item, "count", at, 1, high=hands)
        prize = next((s for s in prizes if s.code == r.get(item, "prize", at, str)), None)
        if prize is None:
            raise r.fail(f"{at}.prize", f"{item['prize']!r} is not one of the area's prize symbols")
        if legend and count <= legend[-1][0]:
            raise r.fail(f"{at}.count", "the legend lists numbers of hands won in increasing order")
        if legend and count != legend[-1][0] + 1:
            raise r.fail(f"{at}.count", f"the legend lists consecutive counts: {legend[-1][0] + 1}, "
                                        f"not {count}")
        if any(p.code == prize.code for _, p in legend):
            raise r.fail(f"{at}.prize", f"prize {prize.code!r} is already the legend's for another count")
        legend.append((count, prize))
    return tuple(legend)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    if params.by_count:
        prize = next((s for _, s in params.legend if s.code == code), None)
        if prize is None:
            raise WinError("prize", f"prize {code!r} is not one the legend lists")
        if how != "match":
            raise WinError("how", f"how = {how!r}: a blackjack win is \"match\" (the legend's prize for the "
                                  "hands won)")
        if by is not None:
            raise WinError("by", "a listed prize wins as listed: no `by`")
        return prize, 1
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="a blackjack win is \"match\" (a hand wins its prize)",
                           no_by="a hand wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    w, h = len(wins), params.hands
    if params.by_count:
        if w > 1:
            return f"{w} wins in the area; a ticket wins there at most 1 times"  # as audit's reader says it
        if not any(params.displays(m) for m in params.counts(wins)):
            return f"no display lets {', '.join(map(str, params.counts(wins)))} of the {h} hands win"
        return None
    if w > h:
        return f"{w} wins, but the area has {h} hands (one win each)"
    if not any(params.weights(w)):
        return f"no DEALER'S TOTAL lets {w} of the {h} hands win and the other {h - w} lose"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"hands": params.hands, "hand_cards": params.hand_cards,
            "numbers": [s.code for s in params.numbers], "points": list(params.points),
            "dealer_totals": [s.code for s in params.dealer_totals],
            "dealer_points": list(params.dealer_points), "prizes": prize_entry(params.prizes),
            **({"dealer_cards": params.dealer_cards} if params.dealer_cards != 1 else {}),
            **({"pays": "count", "legend": [{"count": n, "prize": s.code} for n, s in params.legend]}
               if params.by_count else {})}


def columns(area_id: str, params: Params) -> list[str]:
    return ([f"{area_id}_dealer_{j}" for j in range(params.dealer_cards)]
            + [f"{area_id}_card_{i}" for i in range(params.hands * params.hand_cards)]
            + ([] if params.by_count else [f"{area_id}_prize_{h}" for h in range(params.hands)]))


def _cards(params: Params, stream: Stream, dealer: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Section 7, step 4: every HAND's k-tuple, winning or losing against its row's DEALER, one call."""
    beats = params.beats
    winning = [np.flatnonzero(b) for b in beats]  # per DEALER: its winning tuples, in order
    losing = [np.flatnonzero(~b) for b in beats]
    n_win = np.array([len(x) for x in winning])[dealer][:, None]
    n_lose = np.array([len(x) for x in losing])[dealer][:, None]
    pick = integers(stream, np.where(won, n_win, n_lose))
    chosen = np.zeros(won.shape, dtype=np.int64)
    for d in range(len(beats)):
        at = dealer == d
        if at.any():
            chosen[at] = np.where(won[at], winning[d][np.minimum(pick[at], len(winning[d]) - 1)]
                                  if len(winning[d]) else 0,
                                  losing[d][np.minimum(pick[at], len(losing[d]) - 1)]
                                  if len(losing[d]) else 0)
    return chosen


def _by_count(params: Params, stream: Stream, k: int, wins: tuple[Win, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Section 11, steps 1 to 3: the number of HANDS won, which, and the DEALER's tuple, per row."""
    ms = params.counts(wins)
    m = np.asarray(ms, dtype=np.int64)[weighted_choices(stream, [params.displays(x) for x in ms], k)]
    which = row_permutations(stream, k, params.hands)
    won = np.zeros((k, params.hands), dtype=bool)
    won[np.arange(k)[:, None], which] = np.arange(params.hands)[None, :] < m[:, None]
    dealer = np.zeros(k, dtype=np.int64)
    for x in ms:
        at = m == x
        if at.any():
            dealer[at] = weighted_choices(stream, params.weights(x), int(at.sum()))
    return won, dealer


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7 (11 with pays = "count"), per tier in pool order, vectorised over its rows."""
    h_, k_ = params.hands, params.hand_cards
    index = {s.code: i for i, s in enumerate(params.prizes)}
    cumulative = None if params.by_count else pool_prize_mix(params.prizes, groups, mix)
    dealer_col = np.zeros(n, dtype=np.int64)
    cards = np.zeros((n, h_ * k_), dtype=np.int64)
    prize = np.zeros((n, 0 if params.by_count else h_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        if cumulative is None:
            won, dealer = _by_count(params, stream, k, wins)
        else:
            which = row_permutations(stream, k, h_)
            draws = integers(stream, int(cumulative[-1]), size=k * h_).reshape(k, h_)
            box = np.searchsorted(cumulative, draws, side="right")
            dealer = weighted_choices(stream, params.weights(len(wins)), k)
            won = np.zeros((k, h_), dtype=bool)
            won[np.arange(k)[:, None], which[:, :len(wins)]] = True
        chosen = _cards(params, stream, dealer, won)
        if cumulative is not None:
            for i, w in enumerate(wins):
                box[np.arange(k), which[:, i]] = index[w.prize.code]
            prize[rows] = box
        dealer_col[rows] = dealer
        cards[rows] = params.tuples[chosen].reshape(k, h_ * k_)
    flat = np.concatenate([params.dealers[dealer_col], cards, prize], axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(flat[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """pays = "count": the first legend line no tier's win lists (contract section 10)."""
    return unpaid_legend_line(params.legend, wins) if params.by_count else None


def _sym(group: tuple[Symbol, ...], code: int) -> Symbol | None:
    return group[code] if 0 <= code < len(group) else None


def _cell(column: str, s: Symbol | None, what: str) -> Cell:
    return (column, s.symbol if s else "?", f"{what}: {s.caption if s else ''}", None, None)


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The DEALER'S TOTAL (or HAND), then one section per HAND: its spots and its PRIZE (pays = "count":
    the legend last)."""
    c_ = params.dealer_cards
    dealer = [_cell(f"{area_id}_dealer_{j}", _sym(params.dealer_totals, int(row[f"{area_id}_dealer_{j}"])),
                    "DEALER") for j in range(c_)]
    sections: list[Section] = [("DEALER'S TOTAL" if c_ == 1 else "DEALER'S HAND", dealer)]
    k_ = params.hand_cards
    for h in range(params.hands):
        cells = [_cell(f"{area_id}_card_{i}", _sym(params.numbers, int(row[f"{area_id}_card_{i}"])), "CARD")
                 for i in range(h * k_, (h + 1) * k_)]
        if params.by_count:
            sections.append((f"HAND {h + 1}", cells))
            continue
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{h}"]))
        sections.append((f"HAND {h + 1}: BEAT THE DEALER'S TOTAL, WIN PRIZE",
                         cells + [_cell(f"{area_id}_prize_{h}", z, "PRIZE")]))
    if params.by_count:
        last = params.legend[-1][0]
        sections.append(("HANDS WON: PRIZE", [("", f"{n}{'+' if n == last and n < params.hands else ''}", "",
                                               p.symbol, p.caption) for n, p in params.legend]))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract sections 5 and 10), and the cells of the winning HANDS."""
    lines: list[str] = []
    winning: set[str] = set()
    dealer = [int(row[f"{area_id}_dealer_{j}"]) for j in range(params.dealer_cards)]
    if not all(0 <= d < len(params.dealer_totals) for d in dealer):
        return lines, winning
    against = sum(params.dealer_points[d] for d in dealer)
    shown = "+".join(params.dealer_totals[d].symbol for d in dealer)
    k_ = params.hand_cards
    won = 0
    for h in range(params.hands):
        codes = [int(row[f"{area_id}_card_{i}"]) for i in range(h * k_, (h + 1) * k_)]
        z = None if params.by_count else _sym(params.prizes, int(row[f"{area_id}_prize_{h}"]))
        if (z is None and not params.by_count) or not all(0 <= c < len(params.numbers) for c in codes):
            continue
        total = sum(params.points[c] for c in codes)
        if total <= 21 and total > against:
            won += 1
            winning |= {f"{area_id}_card_{i}" for i in range(h * k_, (h + 1) * k_)}
            winning |= {f"{area_id}_dealer_{j}" for j in range(params.dealer_cards)}
            if z is not None:
                winning.add(f"{area_id}_prize_{h}")
                lines.append(f"{area_id}, hand {h + 1}: {total} beats the dealer's "
                             f"{shown}: wins {fmt_cents(z.cents or 0, currency)}.")
    paid = [p for n, p in params.legend if n <= won]
    if params.by_count and paid:
        lines.append(f"{area_id}: {won} hands beat the dealer's {shown} ({against}): the legend's prize, "
                     f"{fmt_cents(paid[-1].cents or 0, currency)}.")
    elif params.by_count:
        winning = set()
    return lines, winning
