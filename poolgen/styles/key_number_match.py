"""Key number match (contract: docs/styles/key_number_match.md): W winning numbers, Y your-number
spots each with a prize below it; a match wins the prize shown (times the area's `match_by`), an
automatic symbol wins it outright, a multiplier symbol wins k times it, a win-all symbol every prize
shown in the area (poolgen/styles/key_number_all.py). Optional conventions that keep winners and
losers alike: `distinct_numbers` and `decoy_weights` (contract section 8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import Area, AreaReading, Cell, Groups, Section, Win, WinError, prize_entry
from poolgen.limits import MAX_MULTIPLIER
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.styles.key_number_all import draw_prizes, pinned, read_all

FIELDS: frozenset[str] = frozenset({"spots", "winning", "winning_from", "yours", "numbers", "prizes",
                                    "specials", "match_by", "distinct_numbers", "decoy_weights"})
# imaging (poolgen/deliverables/imaging.py): column suffix -> the area's symbol lists, in code order
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("_win_", ("numbers",)), ("_your_", ("numbers", "specials")), ("_prize_", ("prizes",)))


@dataclass(frozen=True)
class Params:
    winning: int
    yours: int
    numbers: tuple[Symbol, ...]
    prizes: tuple[Symbol, ...]
    specials: tuple[Symbol, ...]
    match_by: int
    source: str | None = None  # the earlier area whose WINNING NUMBERS this one matches
    distinct: bool = False  # contract section 8.1: losing numbers distinct, matches spread evenly
    weights: tuple[int, ...] | None = None  # section 8.2: decoy prize weights, in `prizes` order
    currency: Currency = USD  # the game's: a win-all win's `prize` is written in it, as every amount


def _source(ctx: AreaReading, table: Mapping[str, Any], where: str, numbers: tuple[Symbol, ...]) -> Area:
    """`winning_from`: an earlier key_number_match area of the same numbers, with its own WINNING
    NUMBERS (a YOUR WILD NUMBERS area matching the ticket's LUCKY NUMBERS)."""
    r = ctx.r
    if "winning" in table:
        raise r.fail(f"{where}.winning", "not used: the area matches the winning numbers of "
                                         f"{table['winning_from']!r}")
    name = r.get(table, "winning_from", where, str)
    area = next((a for a in ctx.areas if a.id == name), None)
    if area is None or area.style != "key_number_match" or area.params.source is not None \
            or not area.params.winning:
        raise r.fail(f"{where}.winning_from", f"{name!r} is not an earlier key_number_match area "
                                              "with winning numbers of its own")
    if area.params.numbers != numbers:
        raise r.fail(f"{where}.numbers", f"must be the numbers of area {name!r}")
    return area


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    numbers = ctx.group(table, "numbers", where, "numbers")
    source = _source(ctx, table, where, numbers) if "winning_from" in table else None
    p = Params(winning=source.params.winning if source else ctx.whole(table, "winning", where, 0),
               yours=ctx.whole(table, "yours", where, 1), numbers=numbers,
               prizes=ctx.group(table, "prizes", where, "prizes"),
               specials=ctx.group(table, "specials", where, "specials", required=False) or (),
               match_by=ctx.whole(table, "match_by", where, 1, required=False, default=1,
                                  high=MAX_MULTIPLIER),
               source=source.id if source else None,
               distinct=r.get(table, "distinct_numbers", where, bool, required=False) or False,
               currency=r.currency)
    p = replace(p, weights=_weights(ctx, table, where, p.prizes))
    spots, own = ctx.whole(table, "spots", where, 1), 0 if source else p.winning
    if spots != own + 2 * p.yours:
        raise r.fail(f"{where}.spots", f"{spots} spots, but {own} winning numbers and {p.yours} "
                                       f"your numbers with their prizes are {own + 2 * p.yours}")
    if not p.winning and not p.specials:
        raise r.fail(f"{where}.winning", "0 winning numbers (a key symbol game) leave only special symbols "
                                         "to win: give the area `specials`")
    if len(p.numbers) <= p.winning:
        raise r.fail(f"{where}.numbers", f"{len(p.numbers)} numbers leave none for a losing spot "
                                         f"beside {p.winning} winning numbers")
    if p.distinct and len(p.numbers) - p.winning < p.yours:
        raise r.fail(f"{where}.distinct_numbers", f"{len(p.numbers) - p.winning} losing numbers cannot "
                                                  f"fill {p.yours} spots with distinct numbers")
    if len(p.numbers) + len(p.specials) > 255 or len(p.prizes) > 255:
        raise r.fail(where, "more than 255 symbols of one kind do not fit a uint8 code")
    _win_all(ctx, p, where)
    return p


def _win_all(ctx: AreaReading, p: Params, where: str) -> None:
    """A win-all symbol (contract section 1): one an area, its sum made of cash prizes only, with no
    decoy weights (its Y prizes are all drawn as the sum, section 7.1), and below 2^40 cents."""
    alls = [s.code for s in p.specials if s.how == "all"]
    if not alls:
        return
    if len(alls) > 1:
        raise ctx.r.fail(f"{where}.specials", f"{len(alls)} win-all symbols ({', '.join(alls)}): an area "
                                              "has at most one")
    if any(s.free for s in p.prizes):
        raise ctx.r.fail(f"{where}.prizes", "a free ticket cannot be part of a win-all symbol's sum: an "
                                            "area with one has cash prize symbols only")
    if p.weights is not None:
        raise ctx.r.fail(f"{where}.decoy_weights", "not with a win-all symbol: a win-all ticket shows "
                                                   "no decoy prize")
    if p.yours * max(s.cents or 0 for s in p.prizes) >= 1 << 40:
        raise ctx.r.fail(f"{where}.prizes", f"{p.yours} of its largest prize reach 2^40 cents")


def _weights(ctx: AreaReading, table: Mapping[str, Any], where: str,
             prizes: tuple[Symbol, ...]) -> tuple[int, ...] | None:
    """`decoy_weights`: a whole-number weight 1 .. 1000000 for every prize symbol, by code."""
    raw = ctx.r.get(table, "decoy_weights", where, dict, required=False)
    if raw is None:
        return None
    codes = [s.code for s in prizes]
    for code in raw:
        if code not in codes:
            raise ctx.r.fail(f"{where}.decoy_weights.{code}", "not one of the area's prize symbols")
    for code in codes:
        if code not in raw:
            raise ctx.r.fail(f"{where}.decoy_weights.{code}", "missing: every prize symbol has a weight")
        w = raw[code]
        if isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= 1_000_000:
            raise ctx.r.fail(f"{where}.decoy_weights.{code}", "must be a whole number 1 .. 1000000 "
                                                              f"(every prize symbol is shown), not {w!r}")
    return tuple(raw[c] for c in codes)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    if how == "all":
        return read_all(params, by, code)
    prize = next((s for s in params.prizes if s.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not one of its prize symbols")
    if how == "match":
        if not params.winning:
            raise WinError("how", "the area has no WINNING NUMBERS to match (winning = 0): only its special "
                                  "symbols win")
        if by is not None and by != params.match_by:
            raise WinError("by", f"a match here pays {params.match_by} times the prize shown, not {by}")
        if prize.free and params.match_by > 1:
            raise ValueError("a free ticket cannot be multiplied (the area's matches pay "
                             f"{params.match_by} times)")
        return prize, params.match_by
    if how == "automatic":
        if by is not None:
            raise WinError("by", "an automatic win has no `by`")
        if not any(s.how == "automatic" for s in params.specials):
            raise WinError("how", "it has no automatic-win symbol")
        return prize, 1
    if how == "multiplier":
        if by is None or not any(s.how == "multiplier" and s.by == by for s in params.specials):
            have = ", ".join(str(s.by) for s in params.specials if s.how == "multiplier") or "none"
            raise WinError("by", f"no multiplier symbol with by = {by} (it has: {have})")
        if prize.free:
            raise ValueError("a free ticket cannot be multiplied")
        return prize, by
    raise WinError("how", f"how = {how!r}: a key number match win is \"match\", \"automatic\", "
                          "\"multiplier\" or \"all\"")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.yours:
        return f"{len(wins)} wins do not fit {params.yours} your-number spots"
    if any(w.how == "all" for w in wins) and len(wins) > 1:
        return "a win-all symbol wins every prize of the area, each once: the tier lists no other win in it"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"winning": params.winning, "yours": params.yours, "numbers": [s.code for s in params.numbers],
            "prizes": prize_entry(params.prizes),
            "specials": [{"code": s.code, "how": s.how, "by": s.by} for s in params.specials],
            "match_by": params.match_by} | ({"winning_from": params.source} if params.source else {}) \
        | ({"distinct_numbers": True} if params.distinct else {}) \
        | ({"decoy_weights": dict(zip((s.code for s in params.prizes), params.weights, strict=True))}
           if params.weights else {})


def columns(area_id: str, params: Params) -> list[str]:
    own: list[str] = [] if params.source else [f"{area_id}_win_{i}" for i in range(params.winning)]
    return (own + [f"{area_id}_your_{j}" for j in range(params.yours)]
            + [f"{area_id}_prize_{j}" for j in range(params.yours)])


def _special(p: Params, win: Win) -> int:
    """The your-number code of the special symbol a win shows."""
    for s_index, s in enumerate(p.specials):
        if s.how == win.how and (win.how != "multiplier" or s.by == win.by):
            return len(p.numbers) + s_index
    raise AssertionError("read_win admits only wins the area has a symbol for")


def _decoys(p: Params, groups: Groups, mix: Sequence[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """Section 8.2: the cumulative prize weights of a losing spot on winning tickets (w, as given)
    and on losing tickets (u, the winners' mixture: every spot of a winner shows each prize symbol
    as often as a loser's spot does). `groups[0]` is the pool's losing tier."""
    if p.weights is None:
        return None
    w = np.array(p.weights, dtype=np.int64)
    index = {s.code: i for i, s in enumerate(p.prizes)}
    u = np.zeros_like(w)
    for count, (_, wins) in zip(mix[1:], groups[1:], strict=True):
        c = np.bincount([index[x.prize.code] for x in wins], minlength=w.size).astype(np.int64)
        u += count * (c * int(w.sum()) + (p.yours - len(wins)) * w)
    return np.cumsum(w), np.cumsum(u if u.sum() else w)


def _prize_draws(p: Params, stream: Stream, k: int, cum: np.ndarray | None) -> np.ndarray:
    """A prize code for every spot of k rows: uniform, or by the cumulative weights `cum`."""
    if cum is None:
        return integers(stream, len(p.prizes), size=k * p.yours).reshape(k, p.yours)
    draw = integers(stream, int(cum[-1]), size=k * p.yours).reshape(k, p.yours)
    if len(cum) > 16:
        return np.searchsorted(cum, draw, side="right")
    # searchsorted(cum, draw, side="right") for a short cum: how many running sums are <= the draw
    # (cum never falls), counted one sum at a time
    index = np.zeros(draw.shape, dtype=np.uint8)
    for c in cum.tolist():
        index += draw >= c
    return index.astype(np.int64)


def _distinct(p: Params, wins: tuple[Win, ...], numbers: np.ndarray, stream: Stream, p_codes: np.ndarray,
              prize_index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Section 8.1 for k rows whose numbers (winning first) are drawn: the i-th match shows the
    winning number of a fresh random order at i mod W, the j-th losing spot the j-th losing number."""
    k, w_count = numbers.shape[0], p.winning
    order = row_permutations(stream, k, p.yours)
    spread = row_permutations(stream, k, w_count)
    at = np.arange(k)
    y_codes = np.zeros((k, p.yours), dtype=np.int64)
    matches = 0
    for j, w in enumerate(wins):
        spot = order[:, j]
        if w.how == "match":
            y_codes[at, spot] = numbers[at, spread[:, matches % w_count]]
            matches += 1
        else:
            y_codes[at, spot] = _special(p, w)
        if w.how != "all":  # a win-all tier's prizes are drawn apart (lay_out)
            p_codes[at, spot] = prize_index[w.prize.code]
    # the j-th losing spot the j-th losing number: all at once (each row's spots are distinct)
    losing = numbers[:, w_count:w_count + p.yours - len(wins)]
    np.put_along_axis(y_codes, order[:, len(wins):], losing, axis=1)
    return y_codes, p_codes


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract sections 7 and 8: per tier, vectorised over its rows."""
    shared = None
    if params.source:  # the source area's WINNING NUMBERS, laid out before this area
        shared = np.stack([done[f"{params.source}_win_{i}"] for i in range(params.winning)],
                          axis=1).astype(np.int64)
    n_numbers, w_count, y_count = len(params.numbers), params.winning, params.yours
    prize_index = {s.code: i for i, s in enumerate(params.prizes)}
    cum = _decoys(params, groups, mix)
    win = np.zeros((n, w_count), dtype=np.uint8)
    your = np.zeros((n, y_count), dtype=np.uint8)
    prize = np.zeros((n, y_count), dtype=np.uint8)
    for g, (rows, wins) in enumerate(groups):
        k = rows.size
        if not k:
            continue
        if shared is None:
            numbers = row_permutations(stream, k, n_numbers)
        else:  # the source's winning numbers first, then the others in increasing order
            mine = shared[rows]
            is_win = np.zeros((k, n_numbers), dtype=bool)
            np.put_along_axis(is_win, mine, True, axis=1)
            free = np.nonzero(~is_win)  # row-major: each row's other numbers in increasing order
            if free[0].size == k * (n_numbers - w_count):  # each row's w_count winning numbers distinct
                others = free[1].reshape(k, n_numbers - w_count)
            else:  # the same, by a stable sort (False first)
                others = np.argsort(is_win, axis=1, kind="stable")[:, :n_numbers - w_count]
            if params.distinct:  # in a random order
                others = np.take_along_axis(others, row_permutations(stream, k, n_numbers - w_count), axis=1)
            numbers = np.concatenate([mine, others], axis=1)
        if params.distinct:
            p_codes = _prize_draws(params, stream, k, None if cum is None else cum[0 if g else 1])
            y_codes, p_codes = _distinct(params, wins, numbers, stream, p_codes, prize_index)
        else:
            order = row_permutations(stream, k, y_count)
            pick = integers(stream, n_numbers - w_count, size=k * y_count).reshape(k, y_count)
            y_codes = np.take_along_axis(numbers[:, w_count:], pick, axis=1)
            p_codes = _prize_draws(params, stream, k, None if cum is None else cum[0 if g else 1])
            at = np.arange(k)
            for j, w in enumerate(wins):
                spot = order[:, j]
                if w.how == "match":
                    y_codes[at, spot] = numbers[at, integers(stream, w_count, size=k)]
                else:
                    y_codes[at, spot] = _special(params, w)
                if w.how != "all":
                    p_codes[at, spot] = prize_index[w.prize.code]
        whole = next((w for w in wins if w.how == "all"), None)
        if whole is not None:  # section 7.1: its Y prizes drawn afresh, adding up to its sum
            p_codes = draw_prizes(stream, tuple(s.cents or 0 for s in params.prizes), y_count, whole.cents, k,
                                  pinned(params, whole))
        win[rows] = numbers[:, :w_count]
        your[rows] = y_codes
        prize[rows] = p_codes
    names = columns(area_id, params)
    values = ([] if params.source else [win[:, i] for i in range(w_count)]) + \
        [your[:, j] for j in range(y_count)] + [prize[:, j] for j in range(y_count)]
    return {name: np.ascontiguousarray(v) for name, v in zip(names, values, strict=True)}


def _shown(p: Params, code: int) -> Symbol | None:
    """The symbol a your-number code shows (a number or a special), or None when out of range."""
    if 0 <= code < len(p.numbers):
        return p.numbers[code]
    if 0 <= code - len(p.numbers) < len(p.specials):
        return p.specials[code - len(p.numbers)]
    return None


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The area as drawn: sections of cells (column, symbol text, caption, prize text, prize caption)."""
    def sym(table: tuple[Symbol, ...], i: int) -> Symbol | None:
        return table[i] if 0 <= i < len(table) else None
    winning: list[Cell] = []
    for i in range(0 if params.source else params.winning):
        s = sym(params.numbers, row[f"{area_id}_win_{i}"])
        winning.append((f"{area_id}_win_{i}", s.symbol if s else "?", s.caption if s else "", None, None))
    yours: list[Cell] = []
    for j in range(params.yours):
        s, prize = _shown(params, row[f"{area_id}_your_{j}"]), sym(params.prizes, row[f"{area_id}_prize_{j}"])
        yours.append((f"{area_id}_your_{j}", s.symbol if s else "?", s.caption if s else "",
                      prize.symbol if prize else "?", prize.caption if prize else ""))
    if params.source:
        return [(f"YOUR NUMBERS (matching the WINNING NUMBERS of {params.source})", yours)]
    if not params.winning:  # a key symbol game: no WINNING NUMBERS to draw
        return [("YOUR SYMBOLS", yours)]
    return [("WINNING NUMBERS", winning), ("YOUR NUMBERS", yours)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the columns that win."""
    lines, winning = [], set()
    spots = [row[f"{area_id}_your_{j}"] for j in range(params.yours)]
    whole = next((j for j, c in enumerate(spots) if getattr(_shown(params, c), "how", None) == "all"), None)
    if whole is not None:  # section 5: the first win-all symbol wins every prize shown, each once
        s, shown = _shown(params, spots[whole]), [row[f"{area_id}_prize_{j}"] for j in range(params.yours)]
        cents = sum(params.prizes[k].cents or 0 for k in shown if 0 <= k < len(params.prizes))
        return ([f"{area_id}, spot {whole + 1}: {s.symbol if s else '?'} wins all {params.yours} prizes "
                 f"shown: {fmt_cents(cents, currency)}."],
                {f"{area_id}_your_{j}" for j in range(params.yours)})
    wins = {row[f"{params.source or area_id}_win_{i}"] for i in range(params.winning)}
    for j in range(params.yours):
        code = row[f"{area_id}_your_{j}"]
        s, k = _shown(params, code), row[f"{area_id}_prize_{j}"]
        prize = params.prizes[k] if 0 <= k < len(params.prizes) else None
        if s is None or prize is None:
            continue
        if code < len(params.numbers) and code in wins:
            by, why = params.match_by, f"YOUR NUMBER {s.symbol} matches a WINNING NUMBER"
        elif s.how == "automatic":
            by, why = 1, f"{s.captioned} wins the prize shown below it"
        elif s.how == "multiplier":
            by, why = s.by, f"{s.captioned} wins {s.by} times the prize shown"
        else:
            continue
        winning.add(f"{area_id}_your_{j}")
        amount = f"{by} x {prize.symbol} = " if by != 1 else f"{prize.captioned} = "
        lines.append(f"{area_id}, spot {j + 1}: {why}: wins {amount}{fmt_cents(by * prize.cents, currency)}.")
    return lines, winning


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    """Nothing to note for `poolgen check`: every promise of the contract holds for any counts."""
    return None


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first special symbol no tier's win shows, and why (poolgen/loader/printed.py refuses it: a
    special symbol is shown only by a win of it, section 6, and a win shows the area's first symbol of
    its kind, `_special`; contract, section 2)."""
    shown = {_special(params, w) - len(params.numbers) for w in wins if w.how != "match"}
    for s in (s for k, s in enumerate(params.specials) if k not in shown):
        first = next(f for f in params.specials if f.how == s.how and (s.how != "multiplier" or f.by == s.by))
        if first is not s:
            kind = f"multiplier symbol by {s.by}" if s.how == "multiplier" else f"{s.how} symbol"
            return "specials", f"a win shows the area's first {kind}, {first.code!r}: {s.code!r} is never " \
                               "shown"
        if s.how == "multiplier":
            return "specials", f"no tier wins with its multiplier {s.code!r} (the game would print a " \
                               "multiplier that never pays)"
        kind = "win-all" if s.how == "all" else "automatic"
        return "specials", f"no tier wins with its {kind} symbol {s.code!r} (the game would print a symbol " \
                           "that never pays)"
    return None
