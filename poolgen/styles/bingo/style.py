"""Bingo (contract: docs/styles/bingo.md): one or more 5 x 5 cards (columns B, I, N, G, O of the
numbers 1-15, 16-30, 31-45, 46-60, 61-75; a FREE centre where the spec says) and CALLER'S NUMBERS.
A card's cell is marked when its number is called (the FREE centre always); each card wins the prize
of its highest listed pattern it completes, only that one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from poolgen.errors import RunError
from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Cell, Groups, Section, Win, WinError, prize_entry
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, big_integers_each, derive_stream, integers, row_permutations
from poolgen.styles.bingo.cells import CENTRE, acceptance, cells_of, profile_table, set_table
from poolgen.styles.bingo.patterns import SHAPES, Pattern, read_patterns

__all__ = ["FIELDS", "OPTIONAL_SPOTS", "SHAPES", "SPOTS", "Params", "best", "check_wins", "columns", "entry",
           "explain", "face", "forced_cards", "lay_out", "layout_note", "marks", "read_area", "read_win",
           "shapes", "uniform_cards", "weight_accept"]

FIELDS: frozenset[str] = frozenset({"cards", "free", "calls", "patterns", "prizes", "numbers"})
MAX_CARDS = 8  # section 2: six-card games are sold; a ticket's 8 x 25 cells fit
# every column holds an index into `numbers` (0..74: the numbers 1..75; 75: the FREE centre; section 4)
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_call_", ("numbers",)),) + tuple(
    (f"_card{k}_", ("numbers",)) for k in range(MAX_CARDS))
# cards 5..8 count only where the area has them (poolgen/game/spots.py): an area of at most 4 cards keeps
# the spot rules, and so the imaging art entries, it had when 4 was the most
OPTIONAL_SPOTS = tuple(f"_card{k}_" for k in range(4, MAX_CARDS))
TRIES = 10_000
PROBE = 1024  # loser draws `check` makes: at least 8 must complete no pattern (section 2)


@dataclass(frozen=True)
class Params:
    cards: int
    free: bool
    calls: int
    patterns: tuple[Pattern, ...]  # prizes increasing
    prizes: tuple[Symbol, ...]
    numbers: tuple[Symbol, ...]  # the numbers 1..75 as printed, then the FREE centre's symbol if free


def _needed(params_free: bool, alt: tuple[int, ...]) -> tuple[int, ...]:
    """An alternative's cells that need a called number (the FREE centre needs none)."""
    return tuple(c for c in alt if not (params_free and c == CENTRE))


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    cards = ctx.whole(table, "cards", where, 1, high=MAX_CARDS)
    free = r.get(table, "free", where, bool)
    calls = ctx.whole(table, "calls", where, 1, high=74)
    prizes = ctx.group(table, "prizes", where, "prizes")
    numbers = ctx.group(table, "numbers", where, "numbers")
    if len(numbers) != 75 + free or any(numbers[v].code != str(v + 1) for v in range(75)):
        raise r.fail(f"{where}.numbers", "the symbols of the numbers 1 to 75 (codes \"1\" .. \"75\", in "
                                         f"order){', then the FREE centre' if free else ''}")
    patterns = read_patterns(r, r.get(table, "patterns", where, list), where, prizes)
    params = Params(cards, free, calls, patterns, prizes, numbers)
    for i, pattern in enumerate(patterns):
        if not _reachable(params, i):
            raise r.fail(f"{where}.patterns[{i}]", f"no card with {calls} calls completes "
                                                   f"{pattern.name!r} as its highest pattern")
    if _losers_fit(params) < 8:
        raise r.fail(f"{where}.calls", f"fewer than 8 of {PROBE:,} draws of the calls and {cards} card(s) "
                                       f"complete no pattern on any card with {calls} calls")
    return params


def _reachable(params: Params, p: int) -> bool:
    """Whether some alternative of pattern p, marked alone (with the FREE centre), needs at most
    `calls` numbers and completes no higher pattern."""
    for alt in params.patterns[p].sets:
        marked = np.zeros((1, 25), dtype=bool)
        marked[0, list(alt)] = True
        if params.free:
            marked[0, CENTRE] = True
        if len(_needed(params.free, alt)) <= params.calls and best(params, marked)[0] == p:
            return True
    return False


def best(params: Params, marked: np.ndarray) -> np.ndarray:
    """Per card (row of `marked`): the index of the highest pattern it completes, -1 for none."""
    highest = np.full(marked.shape[0], -1, dtype=np.int64)
    held = marked.astype(np.int16)
    for p, pattern in enumerate(params.patterns):
        table, sizes = set_table(pattern.sets)
        done = ((held @ table) == sizes).any(axis=1)
        highest[done] = p
    return highest


def uniform_cards(stream: Stream, m: int, free: bool) -> np.ndarray:
    card = np.zeros((m, 25), dtype=np.int64)
    for c in range(5):
        cells = cells_of(c, free)
        card[:, cells] = row_permutations(stream, m, 15)[:, :len(cells)] + 15 * c + 1
    return card


def marks(card: np.ndarray, called: np.ndarray) -> np.ndarray:
    marked: np.ndarray = np.take_along_axis(called, card, axis=1) | (card == 0)
    return marked


def _losers_fit(params: Params) -> int:
    """Section 2's probe: of PROBE draws of the calls and `cards` uniform cards (card by card), how many
    complete no pattern on any card (a losing ticket's round is kept as often)."""
    stream = derive_stream(bytes(32), "bingo", "check")
    called = _calls(stream, PROBE, params.calls)
    lose = np.ones(PROBE, dtype=bool)
    for _ in range(params.cards):
        lose &= best(params, marks(uniform_cards(stream, PROBE, params.free), called)) < 0
    return int(lose.sum())


def _calls(stream: Stream, m: int, calls: int) -> np.ndarray:
    """(m, 76) booleans: number v called (index 0, the FREE centre's, never)."""
    called = np.zeros((m, 76), dtype=bool)
    np.put_along_axis(called, row_permutations(stream, m, 75)[:, :calls] + 1, True, axis=1)
    return called


def forced_cards(stream: Stream, params: Params, called: np.ndarray,
                  p: int) -> tuple[np.ndarray, np.ndarray]:
    """Contract section 7, step 3: per row an alternative of pattern p uniformly, then a card uniform
    among the cards whose alternative's cells are all called; (cards, accepted). Per column, the
    alternative's cells (top to bottom) take the column's first draw's called numbers in its order
    (its uncalled ones after), the other cells the second draw's numbers not so taken, in its order."""
    m = called.shape[0]
    alts = params.patterns[p].sets
    pick = integers(stream, len(alts), size=m)
    card = np.zeros((m, 25), dtype=np.int64)
    ok = np.ones(m, dtype=bool)
    rows = np.arange(m)[:, None]
    for c in range(5):
        cells = cells_of(c, params.free)
        base = 15 * c + 1
        first = row_permutations(stream, m, 15) + base
        second = row_permutations(stream, m, 15) + base
        by_call = first[rows, np.argsort(~called[rows, first], axis=1, kind="stable")]
        have = called[:, base:base + 15].sum(axis=1)
        inside = _in_alt(alts, params.free, c)[pick]  # (m, cells): the cell is in the row's alternative
        s = inside.sum(axis=1)
        ok &= have >= s
        # where each number stands in by_call: a number is taken when it stands before s
        place = np.empty((m, 15), dtype=np.int64)
        place[rows, by_call - base] = np.arange(15)[None, :]
        taken = place[rows, second - base] < s[:, None]
        picked = second[rows, np.argsort(taken, axis=1, kind="stable")]
        rank_in = np.cumsum(inside, axis=1) - 1
        rank_out = np.cumsum(~inside, axis=1) - 1
        card[:, cells] = np.where(inside, by_call[rows, np.maximum(rank_in, 0)],
                                  picked[rows, np.maximum(rank_out, 0)])
    return card, ok


@cache
def _in_alt(sets: tuple[tuple[int, ...], ...], free: bool, c: int) -> np.ndarray:
    """(sets, column c's numbered cells): whether each of the column's cells is in each cell set."""
    return np.array([[k in alt for k in cells_of(c, free)] for alt in sets], dtype=bool).reshape(
        len(sets), len(cells_of(c, free)))


def weight_accept(stream: Stream, params: Params, called: np.ndarray, marked: np.ndarray, p: int,
                   ok: np.ndarray) -> np.ndarray:
    """Section 7, step 2's correction for a pattern of several cell sets: accept a card with
    probability (1 / N_max) / (sum over its complete sets of 1 / N_i) (exact, big integers)."""
    alts = params.patterns[p].sets
    if len(alts) == 1:
        return ok
    out = ok.copy()
    rows = np.flatnonzero(ok)
    if not rows.size:
        return out
    have = called[rows, 1:].reshape(-1, 5, 15).sum(axis=2)
    table, sizes = set_table(alts)
    complete = ((marked[rows].astype(np.int16) @ table) == sizes).astype(np.int16)
    held = complete @ profile_table(alts, params.free)
    # alpha depends on (have, held) alone: computed once per distinct pair, not once per row
    pairs, which = np.unique(np.concatenate([have, held], axis=1), axis=0, return_inverse=True)
    alphas = [acceptance(alts, params.free, tuple(pair[:5]), tuple(pair[5:])) for pair in pairs.tolist()]
    below = np.array([alpha < 1 for alpha in alphas], dtype=bool)[which.reshape(-1)]
    fractions = [alphas[i] for i in which.reshape(-1)[below].tolist()]
    # one draw a row whose alpha < 1, in row order, read in a few calls (the same words as a call a row)
    draws = big_integers_each(stream, [alpha.denominator for alpha in fractions])
    out[rows[below]] = [u < alpha.numerator for u, alpha in zip(draws, fractions, strict=True)]
    return out


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    prize = next((p.prize for p in params.patterns if p.prize.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not a pattern's")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a bingo win is \"match\" (a card's highest pattern's prize)")
    if by is not None:
        raise WinError("by", "a pattern's prize wins as listed: no `by`")
    return prize, 1


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    return f"each of the {params.cards} card(s) wins one prize at most" if len(wins) > params.cards else None


def entry(params: Params) -> dict[str, Any]:
    return {"numbers": [s.code for s in params.numbers], "cards": params.cards, "free": params.free,
            "calls": params.calls,
            "patterns": [p.entry() for p in params.patterns],
            "prizes": prize_entry(params.prizes)}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_call_{i}" for i in range(params.calls)] + [
        f"{area_id}_card{k}_{c}" for k in range(params.cards) for c in range(25)]


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, rows drawn again until every card completes its target."""
    calls_out = np.zeros((n, params.calls), dtype=np.int64)
    cards_out = np.zeros((n, params.cards, 25), dtype=np.int64)
    code_of = {p.prize.code: i for i, p in enumerate(params.patterns)}
    for rows, wins in groups:
        if not rows.size:
            continue
        base = np.array([code_of[w.prize.code] for w in wins] + [-1] * (params.cards - len(wins)),
                        dtype=np.int64)
        targets = base[row_permutations(stream, rows.size, params.cards)]
        todo = np.arange(rows.size)
        for _ in range(TRIES):
            if not todo.size:
                break
            m = todo.size
            order = row_permutations(stream, m, 75)[:, :params.calls] + 1
            called = np.zeros((m, 76), dtype=bool)
            np.put_along_axis(called, order, True, axis=1)
            good = np.ones(m, dtype=bool)
            cards = np.zeros((m, params.cards, 25), dtype=np.int64)
            for k in range(params.cards):
                for t in np.unique(targets[todo, k]):
                    sel = np.flatnonzero(targets[todo, k] == t)
                    if t < 0:
                        card = uniform_cards(stream, sel.size, params.free)
                        good[sel] &= best(params, marks(card, called[sel])) < 0
                    else:
                        card, ok = forced_cards(stream, params, called[sel], int(t))
                        marked = marks(card, called[sel])
                        ok &= best(params, marked) == t
                        good[sel] &= weight_accept(stream, params, called[sel], marked, int(t), ok)
                    cards[sel, k] = card
            keep = todo[good]
            calls_out[rows[keep]] = order[good]
            cards_out[rows[keep]] = cards[good]
            todo = todo[~good]
        if todo.size:
            raise RunError(f"area {area_id!r}: cards not laid out in {TRIES:,} rounds")
    out = _stored(np.concatenate([calls_out, cards_out.reshape(n, -1)], axis=1)).astype(np.uint8)
    return {name: np.ascontiguousarray(out[:, j]) for j, name in enumerate(columns(area_id, params))}


def _stored(values: np.ndarray) -> np.ndarray:
    """Numbers 1..75 (0: FREE) as stored: their index into `numbers` (section 4)."""
    return np.where(values == 0, 75, values - 1)


def _value(stored: int) -> int:
    return 0 if stored == 75 else stored + 1


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _card(area_id: str, params: Params, row: Mapping[str, Any], k: int) -> np.ndarray:
    return np.array([_value(int(row[f"{area_id}_card{k}_{c}"])) for c in range(25)], dtype=np.int64)


def _called(area_id: str, params: Params, row: Mapping[str, Any]) -> np.ndarray:
    called = np.zeros((1, 76), dtype=bool)
    for i in range(params.calls):
        v = _value(int(row[f"{area_id}_call_{i}"]))
        if 0 < v <= 75:
            called[0, v] = True
    return called


def _shown(params: Params, stored: int) -> str:
    return params.numbers[stored].symbol if 0 <= stored < len(params.numbers) else "?"


def _picture(area_id: str, p: int, pattern: Pattern) -> Section:
    """A custom pattern's 5 x 5 picture: its first cell set's cells marked X (the title says how many
    sets it has). Its spots name no column of the ticket (`<id>_pattern<p>_<c>`): never a win."""
    title = pattern.name.upper() + (f"  (ANY OF {len(pattern.sets)})" if len(pattern.sets) > 1 else "")
    return (title, [(f"{area_id}_pattern{p}_{c}", "X" if c in pattern.sets[0] else "", "", None, None)
                    for c in range(25)])


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """Each card as a 5 x 5 grid, a 5 x 5 picture of each custom pattern (beside the cards), the
    caller's numbers, then the patterns' legend."""
    out: list[Section] = []
    for k in range(params.cards):
        names = [f"{area_id}_card{k}_{c}" for c in range(25)]
        cells: list[Cell] = [(name, _shown(params, int(row[name])), "", None, None) for name in names]
        out.append((f"B I N G O  CARD {k + 1}", cells))
    out += [_picture(area_id, p, pattern) for p, pattern in enumerate(params.patterns) if pattern.custom]
    calls: list[Cell] = [(name, _shown(params, int(row[name])), "", None, None)
                         for name in columns(area_id, params)[:params.calls]]
    legend: list[Cell] = [("", p.name.upper().replace("_", " "), p.prize.symbol, None, None)
                          for p in params.patterns]
    return out + [("CALLER'S NUMBERS", calls), ("PATTERNS", legend)]


def shapes(area_id: str, params: Params) -> list[tuple[int, int, str] | None]:
    """The cards and the custom patterns' pictures are drawn as 5 x 5 grids; the caller's numbers and
    the legend as spots."""
    return [(5, 5, "")] * (params.cards + sum(p.custom for p in params.patterns)) + [None, None]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Each card's highest completed pattern and its prize (contract section 5), and its cells."""
    called = _called(area_id, params, row)
    lines: list[str] = []
    winning: set[str] = set()
    for k in range(params.cards):
        marked = marks(_card(area_id, params, row, k)[None, :], called)
        p = int(best(params, marked)[0])
        if p < 0:
            continue
        pattern = params.patterns[p]
        lines.append(f"{area_id}: card {k + 1} completes {pattern.name} (its highest pattern): "
                     f"{fmt_cents(pattern.prize.cents or 0, currency)}.")
        for alt in pattern.sets:
            if marked[0, list(alt)].all():
                winning |= {f"{area_id}_card{k}_{c}" for c in alt}
    return lines, winning


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first pattern no tier's win lists, and why (poolgen/loader/printed.py refuses it: every ticket
    would print a pattern's prize that never wins; contract, section 2)."""
    paid = {w.prize.code for w in wins}
    for i, pattern in enumerate(params.patterns):
        if pattern.prize.code not in paid:
            return f"patterns[{i}].prize", f"no tier wins {pattern.prize.code!r} (every ticket would print " \
                                           "it in the legend, and it could never win)"
    return None
