"""The draws a third party needs to redraw a pool's tier order under pack parameters, from
docs/randomness.md sections 3, 5.2 and 5.6 to 5.10 alone: section 3's big integers and weighted
choices on split.py's stream, the tilts' bisection, 5.2's winners per pack, the two-dimensional
divide-and-conquer on pairs (w, c) of 5.7 to 5.9 and 5.8's direct draw of a pack's spaced places.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it); packs.py puts
these together section by section."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from math import comb

from tests.third_engines.split import Stream

TOP = 1 << 62  # the tilts' u and v lie in [1, 2^62)

# --- section 3's choices, on split.Stream's words ---------------------------------------------------


def big_integer(stream: Stream, n: int) -> int:
    """`big_integers(n, 1)`: mask-and-reject on ceil(bits / 64) words, at least one (bits the bit length
    of n - 1), word i bits 64i .. 64i + 63 of the candidate."""
    bits = (n - 1).bit_length()
    words, mask = max(1, -(-bits // 64)), (1 << bits) - 1
    while True:
        v = sum(w << (64 * i) for i, w in enumerate(stream.words(words))) & mask
        if v < n:
            return v


def choices(stream: Stream, weights: list[int], count: int) -> list[int]:
    """`Weights(weights).choices(count)`: slot j's index the i with cum[i-1] <= u T < cum[i], u's bits
    from word j of one draw of `count` words, then one more word at a time while unsettled."""
    total, cum, acc = sum(weights), [], 0
    for w in weights:
        acc += w
        cum.append(acc)
    out = []
    for word in stream.words(count):
        low, high, scale = word * total, (word + 1) * total, 1 << 64
        while True:
            i = bisect_right(cum, low // scale)  # the first i with cum[i] scale > low
            if high <= cum[i] * scale:
                break
            more = stream.words(1)[0]
            base = low << 64
            low, high, scale = base + more * total, base + (more + 1) * total, scale << 64
        out.append(i)
    return out


def largest(holds: Callable[[int], bool], near: int | None = None) -> int:
    """The largest u in [1, 2^62) for which `holds(u)` (monotone: true up to some u), 1 if none. From
    `near`, a guess (the last round's value), the search gallops out from it before it bisects: the
    same u, in fewer tries than from the whole range."""
    if near is None or not 1 <= near < TOP:
        lo, hi = 1, TOP - 1
    elif holds(near):
        lo, step = near, 1
        while lo + step < TOP - 1 and holds(lo + step):
            lo, step = lo + step, step * 2
        hi = min(lo + step, TOP - 1)
    else:
        hi, step = near, 1
        while hi - step > 1 and not holds(hi - step):
            hi, step = hi - step, step * 2
        lo = max(hi - step, 1)
    if not holds(lo):
        return 1
    if holds(hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if holds(mid) else (lo, mid)
    return lo


def lowest(u: int) -> tuple[int, int]:
    """x = u / 2^20 as a / b in lowest terms (5.2's and 5.6's a and b)."""
    shift = min((u & -u).bit_length() - 1, 20)
    return u >> shift, 1 << (20 - shift)


# --- 5.2: winners per pack --------------------------------------------------------------------------


def tilt(m: int, packs: int, wins: int, lo: int, hi: int) -> int:
    """5.2 step 1: u, the largest in [1, 2^62) with the mean of w under C(m, w) (u / 2^20)^w on [lo, hi]
    at most W / B."""
    span = range(lo, hi + 1)
    base = [comb(m, w) << (20 * (hi - w)) for w in span]

    def holds(u: int) -> bool:
        return sum((packs * w - wins) * b * u ** (w - lo) for w, b in zip(span, base, strict=True)) <= 0

    return largest(holds)


def winners_per_pack(stream: Stream, m: int, packs: int, wins: int, lo: int, hi: int) -> list[int]:
    """5.2 steps 1-2: W_1..W_B, by the tilt and divide-and-conquer."""
    if wins in (packs * lo, packs * hi):  # every pack holds the bound: nothing to draw
        return [wins // packs] * packs
    a, b = lowest(tilt(m, packs, wins, lo, hi))
    q = [comb(m, w) * a ** w * b ** (hi - w) for w in range(lo, hi + 1)]
    top = max(q)
    while True:
        ws = [lo + i for i in choices(stream, q, packs - 1)]
        last = wins - sum(ws)
        if lo <= last <= hi and big_integer(stream, top) < q[last - lo]:
            return [*ws, last]


def ordered(stream: Stream, contents: list[list[int]], m: int) -> list[int]:
    """5.2 step 4: pack b's ticket j is its content at index j of row b of `row_permutations(B, m)`."""
    rows = stream.row_permutations(len(contents), m)
    return [pack[j] for pack, row in zip(contents, rows, strict=True) for j in row]


def labels(counts: list[int], tiers: set[int]) -> list[int]:
    """The tier indices of `tiers` in tier order, each its count."""
    return [t for t in sorted(tiers) for _ in range(counts[t])]


def permuted(stream: Stream, items: list[int]) -> list[int]:
    """`items` indexed by `permutation(len(items))`, as section 4 indexes the tier multiset."""
    return [items[i] for i in stream.permutation(len(items))] if items else []


def deal(groups: list[tuple[list[int], list[int]]], m: int) -> list[list[int]]:
    """Packs' contents: each group's labels (already permuted) dealt out pack by pack, c[b] to pack b,
    the groups in order; losers (0) fill the rest."""
    packs = len(groups[0][1]) if groups else 0
    at = [0] * len(groups)
    out = []
    for b in range(packs):
        pack: list[int] = []
        for g, (items, per) in enumerate(groups):
            pack += items[at[g]:at[g] + per[b]]
            at[g] += per[b]
        out.append(pack + [0] * (m - len(pack)))
    return out


def apart(m: int, c: int, d: int) -> int:
    """Ways to choose c of m places every two at least d apart (5.8)."""
    return 1 if c == 0 else comb(m - (c - 1) * (d - 1), c) if m >= (c - 1) * d + 1 else 0


# --- pairs (w, c): 5.7, 5.8 and 5.9's tables --------------------------------------------------------

Table = dict[tuple[int, int], int]  # (w, c) -> f(w, c), pairs in order of w, then c


_TILTS: dict[tuple[object, ...], tuple[int, int]] = {}


def pair_tilt(tables: list[tuple[int, Table]], wins: int, held: int, lo: int, hi: int,
              k: int) -> tuple[int, int]:
    """5.7 step 1 (5.9 step 2 with two tables): u, v, each the largest in [1, 2^62) keeping the packs'
    mean w (then c) at most W / B (C / B), 4 rounds from v = 2^20; `tables` (packs using it, f). The
    tilts read no stream: each set of arguments is solved once and kept (a pool's tries, up to 10,000
    of them under 5.13, all ask for the same)."""
    key = (tuple((n, tuple(t.items())) for n, t in tables), wins, held, lo, hi, k)
    if key not in _TILTS:
        _TILTS[key] = _solve_pair_tilt(tables, wins, held, lo, hi, k)
    return _TILTS[key]


def _solve_pair_tilt(tables: list[tuple[int, Table]], wins: int, held: int, lo: int, hi: int,
                     k: int) -> tuple[int, int]:
    used = []  # (packs, its grids of terms f(w, c) 2^(20 (hi - w + k - c)) by c, then w - lo: as they
    for n, t in tables:  # are, times w, times c)
        if n:
            grid = [[0] * (hi - lo + 1) for _ in range(k + 1)]
            for (w, c), f in t.items():
                grid[c][w - lo] = f << (20 * (hi - w + k - c))
            times = ([[x * (lo + i) for i, x in enumerate(row)] for row in grid],
                     [[x * c for x in row] for c, row in enumerate(grid)])
            used.append((n, grid, times))

    def horner(grid: list[list[int]], u: int, v: int) -> int:
        """The sum of term u^(w - lo) v^c, by Horner's rule in u, then in v."""
        out = 0
        for row in reversed(grid):
            inner = 0
            for x in reversed(row):
                inner = inner * u + x
            out = out * v + inner
        return out

    def mean_at_most(u: int, v: int, which: int, target: int) -> bool:
        """(sum over tables of n_i A_i / Z_i) <= target, in whole numbers."""
        got = [(horner(grid, u, v), horner(times[which], u, v)) for _, grid, times in used]
        left, right = 0, target
        for i, (n, _, _) in enumerate(used):
            prod = n * got[i][1]
            for j, (z, _) in enumerate(got):
                if j != i:
                    prod *= z
            left += prod
        for z, _ in got:
            right *= z
        return left <= right

    u: int | None = None
    v = 1 << 20
    for _ in range(4):
        u = largest(lambda x, v=v: mean_at_most(x, v, 0, wins), u)
        v = largest(lambda y, u=u: mean_at_most(u, y, 1, held), v)
    assert u is not None
    return u, v


def pair_draw(stream: Stream, tables: list[Table], which: list[int], wins: int, held: int, lo: int,
              hi: int, k: int, u: int, v: int) -> list[tuple[int, int]]:
    """Divide-and-conquer on pairs (5.7 step 2, 5.9 step 3): packs 0..B-2 each from its own table
    (`which[b]`), one `choices` a table, table 1's packs (5.9's holding S1's ticket) before table 0's;
    the last pack's pair the rest, accepted iff its table has it and `big_integers(max q)` < q(pair)
    (drawn only then); else again."""
    keys = [list(t) for t in tables]
    qs = [[f * u ** w * v ** c << (20 * (hi - w + k - c)) for (w, c), f in t.items()] for t in tables]
    index = [dict(zip(ks, q, strict=True)) for ks, q in zip(keys, qs, strict=True)]
    packs = len(which)
    while True:
        got: dict[int, tuple[int, int]] = {}
        for t in sorted(set(which[:-1]), reverse=True):
            members = [b for b in range(packs - 1) if which[b] == t]
            for b, i in zip(members, choices(stream, qs[t], len(members)), strict=True):
                got[b] = keys[t][i]
        last = (wins - sum(w for w, _ in got.values()), held - sum(c for _, c in got.values()))
        table = index[which[-1]]
        if last in table and big_integer(stream, max(qs[which[-1]])) < table[last]:
            return [got[b] for b in range(packs - 1)] + [last]


def spaced_places(stream: Stream, packs: list[tuple[list[int], list[int]]], m: int, d: int) -> list[int]:
    """5.8 step 3: per pack (its spaced tickets, its other tickets), the spaced places by p's entries
    below r, the other places by q's entries below m - c; the pool's tier order."""
    p = stream.row_permutations(len(packs), m)
    q = stream.row_permutations(len(packs), m)
    out = []
    for (spaced, others), prow, qrow in zip(packs, p, q, strict=True):
        c = len(spaced)
        r = m - (c - 1) * (d - 1)
        y = sorted([e for e in prow if e < r][:c])
        places = {yi + i * (d - 1): spaced[i] for i, yi in enumerate(y)}
        pi = [e for e in qrow if e < m - c]
        rest = iter(pi)
        out += [places[j] if j in places else others[next(rest)] for j in range(m)]
    return out


def falling(n: int, c: int) -> int:
    """n (n - 1) ... (n - c + 1), 0 once a factor would be 0 or less (5.10)."""
    out = 1
    for i in range(c):
        out *= max(n - i, 0)
    return out
