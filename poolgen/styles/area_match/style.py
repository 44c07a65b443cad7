"""The `area_match` eInstant style: up to A play areas of S spots, each showing symbols and a prize
amount. Contract: docs/styles/area_match.md; every parameter is the spec's ([play] spots_per_area,
[layout], [[symbols]]), read by `params.read` and written into the manifest by `params.document`.

S - 1 like symbols (a wild symbol matching every matchable symbol, wilds matching each other) win the
area's amount times the spec's `match_pays`, S like symbols their times; the bonus key symbol with a
bonus game's symbol plays that game, which wins N prizes of the area's amount. No share shows a
display that reads as a win it is not paid (contract section 5, rules 10 and 11): no area shows
S - 1 of one bonus symbol, a bonus area shows one bonus key and one game symbol, and no share shows the
bonus key in one area and a bonus game's symbol in another.

Generation (section 7 of the contract), in this fixed order of stream use:
  1. `a0_s0` uniform over the symbol codes, independent of the tier;
  2. per winning tier, a decomposition of the prize into k area values, uniform among the tier's
     usable (enumerated, possibly thinned) decompositions; then a uniform permutation onto the
     areas (a bonus-only value moves to area 0 when `a0_s0` is a bonus symbol);
  3. the one won area of each winning share that may play a bonus game;
  4. each winning area's realisation, uniform among those that exist (match ways only in the
     areas that may not play a bonus; area 0: those compatible with `a0_s0`);
  5. each share's bonus-symbol mode (which bonus symbols its areas may show);
  6. every area's symbols, uniform among the ordered tuples of its class and mode;
  7. bonus results (scoring mask of a chances game, section of a grid game);
  8. losing areas' decoy amounts, copied from uniformly chosen winning areas of the pool.
Values are counted in half-denominations, so every amount multiplier is a whole number. The tables
(area classes, symbol tuples, ways, flat lookup tables) are in `tables`, the decompositions of a
prize into area values in `decompositions`.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TypeVar

import numpy as np

from poolgen.errors import SpecError
from poolgen.game.model import CheckResult, Game, Pool
from poolgen.rng import Stream, integers, integers_by_key, row_permutations
from poolgen.styles.area_match.decompositions import (
    TooManyDecompositions,
    decomposition_codes,
    decompositions,
)
from poolgen.styles.area_match.params import Params, document, read
from poolgen.styles.area_match.tables import ANY, N_MODES, NO_BONUS_SYMBOL, NO_GAME, NO_KEY, Draws, draws

__all__ = ["check", "document", "lay_out", "read", "unlaid"]

_R = TypeVar("_R")


def _fail(game: Game, field: str, why: str) -> SpecError:
    return SpecError(f"{game.file}: layout.{field}: {why}")


# ---------------------------------------------------------------------------------------------
# Laying out a pool


def _bonus_area(code: np.ndarray, s0_bonus: np.ndarray, d: Draws, stream: Stream) -> np.ndarray:
    """Steps 2 (end) and 3: the won area of each winning share that may play a bonus game (-1:
    none). Moves a bonus-only value to area 0 of the shares whose a0_s0 is a bonus symbol (in place
    in `code`, the winners' (n_w, k) value codes)."""
    n_w, k = code.shape
    bo = d.bonus_only[code]
    has_bo = bo.any(axis=1)
    bo_at = bo.argmax(axis=1)  # the share's bonus-only value (at most one)
    move = np.flatnonzero(has_bo & s0_bonus & (bo_at != 0))
    if move.size:
        there = code[move, bo_at[move]]
        code[move, bo_at[move]] = code[move, 0]
        code[move, 0] = there
        bo_at[move] = 0
    won = code > 0
    n_won = won.sum(axis=1)
    free = np.full(n_w, -1, dtype=np.int64)
    free[has_bo] = bo_at[has_bo]
    free[~has_bo & s0_bonus & won[:, 0]] = 0
    lone = ~has_bo & ~s0_bonus & (n_won == 1)
    free[lone] = won[lone].argmax(axis=1)
    pick = np.flatnonzero(~has_bo & ~s0_bonus & (n_won >= 2))
    if pick.size:
        r = integers_by_key(stream, np.arange(k + 1), n_won[pick])  # the r-th won area, r from 0
        free[pick] = (np.cumsum(won[pick], axis=1) <= r[:, None]).sum(axis=1)
    return free


def _modes(p: Params, kind: np.ndarray, s0: np.ndarray, s0_bonus: np.ndarray, tiers: np.ndarray,
           stream: Stream) -> np.ndarray:
    """Step 5: the bonus-symbol mode of every area, (k, n), for k > 1 areas.

    A share with a bonus area: that area ANY, the others NO_BONUS_SYMBOL. Any other share has a mode
    M: NO_GAME if a0_s0 is the bonus key, NO_KEY if it is a bonus game's symbol, else a fair coin
    between the two. A loser is *bare* (every area NO_BONUS_SYMBOL but area 0,
    which keeps M when a0_s0 is a bonus symbol) with probability B / T, where T is the number of
    losing areas 1..k-1 of the winners of its group (a0_s0 not a bonus symbol; a0_s0 the bonus
    key; the first bonus game's symbol; ...) and B those of them in shares with a bonus area: so the
    areas 1..k-1 of losers show no bonus symbol because of a bonus elsewhere as often as those of
    winners do."""
    k, n = kind.shape
    in_bonus = kind >= p.first_bonus
    bonus_share = in_bonus.any(axis=0)
    lose = tiers == 0
    lost_later = (kind[1:] == 0).sum(axis=0)  # losing areas 1..k-1 of each share
    # group of a share: 0 if a0_s0 is not a bonus symbol, else 1 + its place in p.bonus_symbols
    groups = 1 + len(p.bonus_symbols)
    group_of = np.zeros(p.n_symbols, dtype=np.int64)  # by code - 1
    group_of[np.array(p.bonus_symbols) - 1] = np.arange(1, groups)
    group = group_of[s0]
    # draw key: 0 a winner (group 0: the coin), 1 + g a loser of group g
    bounds = np.empty(1 + groups, dtype=np.int64)
    bare_below = np.zeros(1 + groups, dtype=np.int64)
    for g in range(groups):
        of_g = ~lose & (group == g)
        bounds[1 + g] = max(int(lost_later[of_g].sum()), 1)
        bare_below[1 + g] = int(lost_later[of_g & bonus_share].sum())
    bounds[0], bounds[1], bare_below[1] = 2, 2 * bounds[1], 2 * bare_below[1]  # and the coin
    draw = np.flatnonzero(~bonus_share & (lose | ~s0_bonus))  # pool order
    key = np.where(lose[draw], 1 + group[draw], 0)
    u = integers_by_key(stream, bounds, key)
    share_mode = np.where(s0 == p.key - 1, NO_GAME, NO_KEY)
    plain = ~s0_bonus[draw]
    share_mode[draw[plain]] = np.where(u[plain] % 2 == 0, NO_KEY, NO_GAME)
    bare = np.zeros(n, dtype=bool)
    bare[draw] = lose[draw] & (u < bare_below[key])
    mode = np.broadcast_to(share_mode, (k, n)).copy()
    mode[:, bonus_share | bare] = NO_BONUS_SYMBOL
    keep0 = bare & s0_bonus
    mode[0, keep0] = share_mode[keep0]
    mode[in_bonus] = ANY
    return mode


def lay_out(params: Params, game: Game, pool: Pool, tiers: np.ndarray,
            stream: Stream) -> dict[str, np.ndarray]:
    """The layout columns of every share of `pool` (docs/styles/area_match.md, section 2).

    Steps 2 to 4 and 7 work on the winning shares and their won areas only (the won areas in
    row-major order of (share, area), the order in which they use the stream); every other area
    is losing."""
    k, denom = pool.play_areas, pool.denomination_cents
    if k is None or denom is None:
        raise SpecError(f"{game.file}: pool {pool.id}: not an eInstant pool")
    # every amount multiplier x denom is whole cents: params.read proved it when the spec loaded
    tiers = np.asarray(tiers)
    n = len(tiers)
    d = draws(params)

    # 1. what the player sees first: independent of the tier
    s0 = integers(stream, params.n_symbols, size=n)  # code - 1
    s0_bonus = np.isin(s0, np.array(params.bonus_symbols) - 1)

    # 2. decompositions (as value codes), then a uniform assignment of the values to areas; only
    # the winning shares, in pool order, have rows here
    winners = np.flatnonzero(tiers > 0)
    tier_w = tiers[winners]
    by_tier = np.argsort(tier_w, kind="stable")  # each tier's winners in pool order, tier by tier
    ends = np.cumsum(np.bincount(tier_w.astype(np.intp), minlength=len(pool.tiers)))
    code = np.zeros((winners.size, k), dtype=np.uint16)  # value codes: at most len(ways().values)
    for t in range(1, len(pool.tiers)):
        rows = by_tier[ends[t - 1]:ends[t]]
        if not rows.size:
            continue
        table = _bounded(game, pool, game.tiers[t - 1].times, decomposition_codes, params)
        if not len(table):
            raise unlaid(game, pool, t - 1)
        code[rows] = table[integers(stream, len(table), size=rows.size)]
    if k > 1 and winners.size:
        perm = row_permutations(stream, winners.size, k)
        code = np.take_along_axis(code, perm, axis=1)

    # 3. the area that may play a bonus game; 4. how each winning area wins
    free = _bonus_area(code, s0_bonus[winners], d, stream)
    won = np.flatnonzero(code)  # won areas: flat (winner, area) positions, row-major
    area = won % k
    share = winners[won // k]
    at = area * n + share  # won areas' places in the (k, n) arrays of areas' columns
    fit = np.where(area == 0, s0[share], d.not_area0)  # area 0 must fit a0_s0
    key = code.reshape(-1)[won].astype(np.int64) * d.way_key_width + fit
    match_only = area != free[won // k]
    way = key * d.way_width + integers_by_key(stream, d.way_bound, 2 * key + match_only)
    kind_w, prizes_w = d.way_kind[way], d.way_prizes[way]
    amount_w = d.way_amount[way] * denom // 2
    kind = np.zeros((k, n), dtype=np.uint8)  # LOSE but where won
    kind.reshape(-1)[at] = kind_w

    # 5. which bonus symbols each area may show (section 7)
    mode = np.full((k, n), ANY, dtype=np.int64)
    if k > 1:
        mode[:] = _modes(params, kind, s0, s0_bonus, tiers, stream)

    # 6. symbols, uniform among the ordered tuples of each area's class and mode
    symbols = []
    for i in range(k):
        key_i = kind[i] * np.int64(N_MODES) + mode[i]
        if i == 0:
            key0 = key_i * params.n_symbols + s0
            packed = d.sym0[key0 * d.sym0_width + integers_by_key(stream, d.sym0_bound, key0)]
        else:
            packed = d.sym[key_i * d.sym_width + integers_by_key(stream, d.sym_bound, key_i)]
        symbols.append(packed.view(np.uint8).reshape(n, params.spots))

    # 7. bonus results
    bonus = np.flatnonzero(kind_w >= params.first_bonus)  # among the won areas, in their order
    bonus_key = ((kind_w[bonus] - params.first_bonus).astype(np.int64) * (params.max_prizes + 1)
                 + prizes_w[bonus])
    result_b = d.bonus_result[bonus_key * d.bonus_width
                              + integers_by_key(stream, d.bonus_bound, bonus_key)]

    # 8. amounts: winning areas their own, losing areas a copy of a random winning area's
    place = share * k + area  # won areas' places in the (n, k) arrays of shares' areas
    lost = np.ones((n, k), dtype=bool)
    lost.reshape(-1)[place] = False
    n_lost = n * k - won.size
    amount = np.empty((n, k), dtype=np.int64)
    if won.size:
        amount[lost] = amount_w[integers(stream, won.size, size=n_lost)]
    else:
        halves = np.array(params.amounts_half, dtype=np.int64)
        amount[lost] = halves[integers(stream, len(halves), size=n_lost)] * denom // 2
    amount.reshape(-1)[place] = amount_w

    bonus_at = at[bonus]
    bonus_code = np.zeros((k, n), dtype=np.uint8)
    bonus_code.reshape(-1)[bonus_at] = kind_w[bonus] - (params.first_bonus - 1)  # the game's code 1, 2, ...
    result = np.zeros((k, n), dtype=np.uint8)
    result.reshape(-1)[bonus_at] = result_b
    prizes = np.zeros((k, n), dtype=np.uint8)
    prizes.reshape(-1)[bonus_at] = prizes_w[bonus]
    cols: dict[str, np.ndarray] = {}
    for i in range(k):
        for j in range(params.spots):
            cols[f"a{i}_s{j}"] = np.ascontiguousarray(symbols[i][:, j])
        cols[f"a{i}_amount"] = np.ascontiguousarray(amount[:, i])
        cols[f"a{i}_bonus"] = bonus_code[i]
        cols[f"a{i}_bonus_result"] = result[i]
        cols[f"a{i}_bonus_prizes"] = prizes[i]
    return cols


# ---------------------------------------------------------------------------------------------
# poolgen check


def _bounded(game: Game, pool: Pool, multiplier: Decimal,
             enumerate_: Callable[[Params, Decimal, int], _R], p: Params) -> _R:
    """`enumerate_(p, multiplier, k)` for the pool's k play areas, or the one-line SpecError naming
    the field when there are too many decompositions to enumerate (a machine's memory)."""
    try:
        return enumerate_(p, multiplier, pool.play_areas or 1)
    except TooManyDecompositions as exc:
        raise SpecError(f"{game.file}: einstant.play_areas: pool {pool.id}, multiplier {multiplier:f}: "
                        f"{exc}; use fewer play areas or amount multipliers") from None


def unlaid(game: Game, pool: Pool, i: int) -> SpecError:
    """The one line `check` and `generate` refuse tiers[i] with in a pool it has no layout in."""
    return SpecError(f"{game.file}: tiers[{i}]: pool {pool.id}: the prize cannot be made of play-area "
                     "wins with layout.amount_multipliers")


def check(params: Params, game: Game, result: CheckResult) -> None:
    """Prove every tier of every pool can be laid out: it has at least one decomposition (else the
    SpecError `generate` gives, `unlaid`)."""
    fewest: tuple[int, str] | None = None
    most: tuple[int, str] | None = None
    thinned = 0
    for pool in game.pools:
        for t in game.tiers:
            rows, total = _bounded(game, pool, t.times, decompositions, params)
            where = f"{pool.id} multiplier {t.times:f}"
            if total == 0:  # bad input, as `generate` says it: exit 2 from both
                raise unlaid(game, pool, t.index - 1)
            if total > params.cap:
                thinned += 1
            if fewest is None or total < fewest[0]:
                fewest = (total, where)
            if most is None or total > most[0]:
                most = (total, where)
    if fewest is not None and most is not None:
        result.notes.append(
            f"{game.name}: layout: every tier of the {len(game.pools)} pools decomposes into "
            f"play-area wins (fewest decompositions {fewest[0]:,} for {fewest[1]}, most "
            f"{most[0]:,} for {most[1]}; {thinned} (tier, pool) lists thinned to "
            f"{params.cap:,})")
