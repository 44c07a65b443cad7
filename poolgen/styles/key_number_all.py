"""The win-all symbol of key_number_match (docs/styles/key_number_match.md, sections 1, 2, 5 and 7.1):
a helper of that style, not a style of its own. Which sets of Y prize symbols make a win-all win's
sum, the set a tier pins (`shows`), and the Y prizes of a win-all tier's rows drawn uniformly among
the sequences that make it (or that show its pinned set)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from math import factorial
from typing import Any, Protocol

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import Win, WinError
from poolgen.money import Currency, fmt_cents, foreign_sign, parse_printed
from poolgen.rng import Stream, Weights, row_permutations

__all__ = ["MOST_SETS", "MOST_STATES", "Params", "TooManySets", "draw_prizes", "orderings", "pinned",
           "prize_sets", "read_all", "read_pinned"]

MOST_SETS = 100_000  # an unpinned win-all sum made by more sets of prizes than this is refused by `check`
MOST_STATES = 300_000  # partial sums searched for one: beyond, `check` refuses too (never hangs)


class Params(Protocol):
    """What these helpers read of a key_number_match area's parameters (its `Params`)."""

    @property
    def yours(self) -> int: ...

    @property
    def prizes(self) -> tuple[Symbol, ...]: ...

    @property
    def specials(self) -> tuple[Symbol, ...]: ...

    @property
    def currency(self) -> Currency: ...


class TooManySets(ValueError):
    """More than MOST_SETS sets of prizes make the sum."""


@lru_cache(maxsize=256)
def prize_sets(values: tuple[int, ...], yours: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of `yours` prize symbols (their `values` in cents, > 0, in the area's prize
    order) whose values add up to `total`, as counts per symbol, in increasing lexicographic order of
    those counts (prizes[0]'s count first). TooManySets beyond MOST_SETS, or when deciding it takes
    more than MOST_STATES partial sums (20 prize symbols of unrelated values and 10 spots took 31 s)."""
    n = len(values)
    memo: dict[tuple[int, int, int], bool] = {}  # every partial sum started, decided or not

    def can(i: int, y: int, t: int) -> bool:
        """Whether y symbols of values[i:] add up to t."""
        if y == 0 or i == n or t <= 0:
            return y == 0 and t == 0
        key = (i, y, t)
        if key not in memo:
            # many distinct prize values: the partial sums multiply. Counted as each is started, those
            # still being decided too (a placeholder: the search never comes back to a key it is
            # deciding, as i grows along the stack)
            memo[key] = False
            if len(memo) > MOST_STATES:
                raise TooManySets(f"more than {MOST_STATES:,} partial sums of the area's prize symbols to "
                                  "search for it")
            memo[key] = any(can(i + 1, y - c, t - c * values[i]) for c in range(min(y, t // values[i]) + 1))
        return memo[key]

    out: list[tuple[int, ...]] = []

    def walk(i: int, y: int, t: int, counts: tuple[int, ...]) -> None:
        if i == n:
            if len(out) == MOST_SETS:
                raise TooManySets(f"more than {MOST_SETS:,} sets of prizes make it")
            out.append(counts)
            return
        for c in range(min(y, t // values[i]) + 1):
            if can(i + 1, y - c, t - c * values[i]):
                walk(i + 1, y - c, t - c * values[i], (*counts, c))

    if can(0, yours, total):
        walk(0, yours, total, ())
    return tuple(out)


def orderings(counts: tuple[int, ...]) -> int:
    """How many sequences of spots show this multiset: Y! / (c_0! c_1! ...)."""
    out = factorial(sum(counts))
    for c in counts:
        out //= factorial(c)
    return out


def read_all(params: Params, by: int | None, amount: str) -> tuple[Symbol, int]:
    """A win-all win (contract section 2): `prize` is the sum the area pays (an amount), proven to be
    the sum of Y of the area's prize symbols; its symbol the area's win-all symbol with that sum as its
    value (WinError naming the win's field)."""
    symbol, total = _sum(params, by, amount)
    _reachable(params, total)
    return replace(symbol, cents=total), 1


def read_pinned(params: Params, by: int | None, amount: str, shows: Mapping[str, Any]) \
        -> tuple[Symbol, int, tuple[tuple[str, int], ...]]:
    """A win-all win that pins the prizes its area shows (`shows`, contract section 2): as `read_all`,
    and its pinned (prize code, count) in the area's prize order. A pin that fills the Y spots and adds
    up to the sum proves the sum reachable, so the search is made only for a pin that does not (ValueError
    naming why), and an unreachable sum is refused first, in `read_all`'s words, as before a pin is read."""
    symbol, total = _sum(params, by, amount)
    try:
        out = _shows(params, total, shows)
    except ValueError:
        _reachable(params, total)
        raise
    return replace(symbol, cents=total), 1, out


def _sum(params: Params, by: int | None, amount: str) -> tuple[Symbol, int]:
    """The area's win-all symbol and the win's sum, in cents, as written."""
    symbol = next((s for s in params.specials if s.how == "all"), None)
    if symbol is None:
        raise WinError("how", "it has no win-all symbol")
    if by is not None:
        raise WinError("by", "a win-all win has no `by`")
    try:
        total, well_formed = parse_printed(amount, params.currency)
        if not well_formed:
            raise ValueError(amount)
    except ValueError as exc:
        if foreign_sign(amount.strip(), params.currency):  # '$50' in GBP: refused as every amount is
            raise WinError("prize", str(exc)) from None
        raise WinError("prize", f"prize {amount!r}: a win-all win's prize is the amount it pays "
                                f"(\"50.00\" or \"{params.currency.sign}50\")") from None
    return symbol, total


def _reachable(params: Params, total: int) -> None:
    """WinError (`prize`) unless Y of the area's prize symbols add up to `total`, found within the
    search's bounds."""
    values = tuple(s.cents or 0 for s in params.prizes)
    try:
        sets = prize_sets(values, params.yours, total)
    except TooManySets as exc:  # the amount asks too much of the search: the prize field says so
        raise WinError("prize", str(exc)) from None
    if not sets:
        c = params.currency
        raise WinError("prize", f"{fmt_cents(total, c)} cannot be made from {params.yours} of the area's "
                                f"prize symbols ({', '.join(fmt_cents(v, c) for v in values)})")


def _shows(params: Params, total: int, shows: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """A win-all win's `shows`: a count >= 1 for some of the area's prize symbols, by code, that fill
    its Y spots and add up to the win's sum `total`; (code, count) in the area's prize order."""
    codes = [s.code for s in params.prizes]
    for code, count in shows.items():
        if code not in codes:
            raise ValueError(f"{code!r} is not one of the area's prize symbols ({', '.join(codes)})")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= params.yours:
            raise ValueError(f"{code!r}: {count!r} is not a whole number of spots 1 .. {params.yours}")
    out = tuple((s.code, shows[s.code]) for s in params.prizes if s.code in shows)
    spots = sum(c for _, c in out)
    if spots != params.yours:
        raise ValueError(f"{spots} prizes shown, but the win-all symbol wins the area's {params.yours}: "
                         "its spots hold one prize each")
    shown = sum(c * (s.cents or 0) for s in params.prizes for code, c in out if code == s.code)
    if shown != total:
        raise ValueError(f"the prizes shown add up to {fmt_cents(shown, params.currency)}, but the win "
                         f"pays {fmt_cents(total, params.currency)}")
    return out


def pinned(params: Params, win: Win) -> tuple[int, ...]:
    """A win's pinned prizes as counts per prize symbol in `prizes` order; () when it pins none."""
    if not win.shows:
        return ()
    counts = dict(win.shows)
    return tuple(counts.get(s.code, 0) for s in params.prizes)


def draw_prizes(stream: Stream, values: tuple[int, ...], yours: int, total: int, rows: int,
                counts: tuple[int, ...] = ()) -> np.ndarray:
    """The prize codes of the Y spots of `rows` win-all rows (rows, Y): a multiset drawn with weight
    its number of orderings (`Weights.choices`, one word a row), its codes in increasing order put in
    a uniform order (`row_permutations(Y)`): every sequence of Y prizes adding up to `total` alike.
    With `counts` (a tier's pinned multiset, per symbol): that multiset, in a uniform order, no choice
    drawn: every sequence showing it alike."""
    if counts:
        codes: np.ndarray = np.repeat(np.arange(len(values)), counts)[row_permutations(stream, rows, yours)]
        return codes
    sets = prize_sets(values, yours, total)
    pick = Weights([orderings(c) for c in sets]).choices(stream, rows)
    table = np.array([np.repeat(np.arange(len(values)), c) for c in sets], dtype=np.int64).reshape(-1, yours)
    return np.take_along_axis(table[pick], row_permutations(stream, rows, yours), axis=1)
