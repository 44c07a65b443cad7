"""A third engine for `lines` areas marked by a caller (`calls = N`), from docs/styles/lines.md (section 1b
and what it adds to sections 2 to 8), docs/styles/play.md, docs/pool-files.md and docs/validation.md
(section 4, the imaging file) alone.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it). `judge`: given a
manifest's `play` entry and a pool table, every row's wins and the reasons an illegal row is refused,
worded as the contract states them. `from_files`: a run's imaging files read against the spec's symbols
(every spot a (code, text, caption) of the area's groups, the code the one the pool row's value names in
the play entry), each ticket's marked cells, complete lines and prize worked out from the printed codes
and the spec's values alone, and held to the pool's `prize_cents`. `law`: section 7 step 1b followed
literally on a tiny deck, every outcome of its draws enumerated, giving the exact probability of each
(caller, board) of a tier. `lay_out`: a pool's layout drawn again from its seed, as step 1b states it."""

from __future__ import annotations

import bisect
import itertools
import json
import math
import tomllib
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import polars as pl

from .printed import verdicts
from .split import Stream

Win = tuple[str, str, int, str]  # (area, how, by, prize code)


def _inside(value: int | None, size: int) -> bool:
    return value is not None and 0 <= value < size


def _shown(value: int | None) -> str:
    return "null" if value is None else "negative" if value < 0 else ">=9999" if value >= 9999 else str(value)


def _listed(values: list[int | None]) -> str:
    return ", ".join(_shown(v) for v in values)


def _code(item: str | dict) -> str:
    return item if isinstance(item, str) else item["code"]


def readable(area: dict) -> bool:
    """Section 3 for an entry with a caller: False when step 4 must fail unread."""
    rows, cols, pictures, calls = area.get("rows"), area.get("cols"), area.get("pictures"), area.get("calls")
    lines, prizes = area.get("lines"), area.get("prizes")
    if not (type(rows) is int and type(cols) is int and 1 <= rows * cols <= 16 and rows >= 1
            and isinstance(pictures, list) and len({str(_code(x)) for x in pictures}) == len(pictures)
            and ("symbol" in area) + ("symbols" in area) + ("calls" in area) == 1
            and type(calls) is int and 1 <= calls <= len(pictures) - 1 and len(pictures) <= 255
            and rows * cols <= len(pictures) and isinstance(prizes, list) and prizes
            and isinstance(lines, list) and lines and ("legend" in area) != ("line_prizes" in area)):
        return False
    codes = [_code(x) for x in prizes]
    if not all(isinstance(line, list) and len(line) >= 3 and len(set(line)) == len(line)
               and all(type(k) is int and 0 <= k < rows * cols for k in line) for line in lines):
        return False
    if "legend" in area:
        numbers = [e.get("lines") if isinstance(e, dict) else None for e in area["legend"]]
        return bool(numbers) and all(type(n) is int and 1 <= n <= len(lines) for n in numbers) \
            and numbers == sorted(set(numbers)) and all(e["prize"] in codes for e in area["legend"])
    per = area["line_prizes"]
    return per == "shown" or isinstance(per, list) and len(per) == len(lines) and all(c in codes for c in per)


def complete_lines(lines: list[list[int]], marked: set[int]) -> list[int]:
    """The listed lines (their indices, spec order) whose every cell is marked (section 1b)."""
    return [i for i, line in enumerate(lines) if all(k in marked for k in line)]


def caller_row(area: dict, cells: list[int | None], calls: list[int | None],
               spots: list[int | None]) -> tuple[list[Win], list[str]]:
    """One caller's area of one row (lines.md sections 5 and 6): its wins and the reasons, named in the
    order of rules 1, 5, 6, 3, 4."""
    aid, p = area["id"], len(area["pictures"])
    prizes = [_code(x) for x in area["prizes"]]
    reasons = []
    if not all(_inside(v, p) for v in cells):
        reasons.append(f"{aid}: a cell code out of range ({_listed(cells)})")
    called = [v for v in calls if _inside(v, p)]
    if len(called) < len(calls) or len(set(called)) < len(called):
        reasons.append(f"{aid}: the caller's pictures are not distinct pictures ({_listed(calls)})")
    board = [v for v in cells if _inside(v, p)]
    if len(set(board)) < len(board):
        reasons.append(f"{aid}: the board shows a picture twice ({_listed(cells)})")
    marked = {k for k, v in enumerate(cells) if _inside(v, p) and v in set(called)}
    done = complete_lines(area["lines"], marked)
    wins: list[Win] = []
    if "legend" in area:
        numbers = {e["lines"]: e["prize"] for e in area["legend"]}
        if len(done) in numbers:
            wins.append((aid, "match", 1, numbers[len(done)]))
        elif done and len(done) >= min(numbers):
            reasons.append(f"{aid}: {len(done)} complete lines: the legend has no prize for {len(done)}")
    elif area["line_prizes"] == "shown":
        if not all(_inside(v, len(prizes)) for v in spots):
            reasons.append(f"{aid}: a prize spot code out of range ({_listed(spots)})")
        wins += [(aid, "match", 1, prizes[spots[i]]) for i in done if _inside(spots[i], len(prizes))]
    else:
        wins += [(aid, "match", 1, _code(area["line_prizes"][i])) for i in done]
    return wins, reasons


def columns(area: dict) -> tuple[list[str], list[str], list[str]]:
    """The area's cell, call and prize spot columns (section 4)."""
    aid, lines = area["id"], area["lines"]
    shown = area.get("line_prizes") == "shown"
    return ([f"{aid}_cell_{k}" for k in range(area["rows"] * area["cols"])],
            [f"{aid}_call_{j}" for j in range(area["calls"])],
            [f"{aid}_prize_{i}" for i in range(len(lines))] if shown else [])


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize (reasons "" when it is legal). Every area of
    the play entry must be a lines area with a caller."""
    got = []
    for area in play["areas"]:
        assert area["style"] == "lines" and "calls" in area, area["id"]
        cells, calls, spots = columns(area)
        got.append([caller_row(area, list(c), list(n), list(s)) for c, n, s in zip(
            table.select(cells).rows(), table.select(calls).rows(),
            table.select(spots).rows() if spots else [()] * table.height, strict=True)])
    rows = [([w for a in per for w in a[0]], [r for a in per for r in a[1]])
            for per in zip(*got, strict=True)]
    return verdicts(play, table, rows)


COMMON = ("position", "ticket", "book", "ticket_no", "serial", "tier", "prize_cents", "salt")


def unread(play: dict, table: pl.DataFrame) -> list[str]:
    """The pool's columns neither docs/pool-files.md's common ones nor any area's of section 4: step 4
    fails a pool holding any (a call column beyond N, a prize spot without `"shown"`, ...)."""
    read = {c for area in play["areas"] for part in columns(area) for c in part}
    return [c for c in table.columns if c not in COMMON and c not in read]


def _cents(value: str) -> int:
    cents = Decimal(value) * 100
    assert cents == cents.to_integral_value(), value
    return int(cents)


def from_files(run: Path, spec: Path) -> list[str]:
    """What the run's printed tickets say against its pool files, from the imaging files, the manifest
    and the spec alone: every disagreement, one a line (none: every ticket shows what the pool pays).
    A ticket's prize here is the spec's: the lines complete on its printed board (a card marked when the
    printed caller shows its code), each paying its prize spot's value (or the legend's, or the line's
    printed prize)."""
    doc = tomllib.loads(spec.read_text())
    manifest = json.loads((run / "manifest.json").read_text())
    groups: dict[str, dict[str, tuple[str, str, str | None]]] = {}
    for s in doc["symbols"]:
        groups.setdefault(s["group"], {})[s["code"]] = (s["symbol"], s.get("caption", ""), s.get("value"))
    out = []
    for pool in manifest["pools"]:
        table = pl.read_parquet(run / pool["file"]["name"])
        imaging = pl.read_parquet(run / f"imaging-{pool['id']}.parquet")
        if imaging["book"].to_list() != table["book"].to_list() or \
                imaging["ticket_no"].to_list() != table["ticket_no"].to_list():
            out.append(f"{pool['id']}: the imaging file's tickets are not the pool's, in order")
            continue
        paid = [0] * table.height
        for area, spec_area in zip(manifest["play"]["areas"], doc["areas"], strict=True):
            deck, money = groups[spec_area["pictures"]], groups[spec_area["prizes"]]
            cells, calls, spots = columns(area)
            kinds = [(c, deck, area["pictures"]) for c in cells + calls] + \
                [(c, money, [_code(x) for x in area["prizes"]]) for c in spots]
            for col, group, codes in kinds:
                shown = imaging.select(col, f"{col}_text", f"{col}_caption").rows()
                for pos, ((code, text, caption), value) in enumerate(zip(shown, table[col], strict=True)):
                    if code not in group or group[code][:2] != (text, caption):
                        out.append(f"{pool['id']}: {col} at {pos} shows ({code}, {text}, {caption}), "
                                   f"not a symbol of group {spec_area['pictures']}")
                    elif not _inside(value, len(codes)) or codes[value] != code:
                        out.append(f"{pool['id']}: {col} at {pos} shows {code}, the pool stores {value}")
            for pos, row in enumerate(imaging.select(cells + calls + spots).rows()):
                board, caller = row[:len(cells)], set(row[len(cells):len(cells) + len(calls)])
                if len(set(board)) < len(board):
                    out.append(f"{pool['id']}: {area['id']} at {pos}: the board shows a card twice")
                if len(caller) < len(calls):
                    out.append(f"{pool['id']}: {area['id']} at {pos}: the caller shows a card twice")
                done = complete_lines(area["lines"], {k for k, c in enumerate(board) if c in caller})
                lp = spec_area.get("line_prizes")
                if "legend" in spec_area:
                    legend = {e["lines"]: e["prize"] for e in spec_area["legend"]}
                    won = [legend[len(done)]] if len(done) in legend else []
                elif lp == "shown":
                    won = [row[len(cells) + len(calls) + i] for i in done]
                else:
                    won = [lp[i] for i in done]
                paid[pos] += sum(_cents(money[c][2] or "0") for c in won)
        for pos, (mine, stored) in enumerate(zip(paid, table["prize_cents"], strict=True)):
            if mine != stored:
                out.append(f"{pool['id']}: ticket at {pos} ({table['ticket'][pos]}) shows {mine} cents, "
                           f"the pool pays {stored}")
    return out


def law(p: int, n: int, cells: int, lines: list[list[int]], complete: int) -> dict[tuple, Fraction]:
    """Section 7 step 1b followed literally on a deck of pictures 0 .. p-1, a caller of n and a board of
    `cells` cells: the placements completing exactly `complete` lines (a tier of a legend number, or 0
    for a loser) that some caller and board show, each drawn with weight w(m); then every permutation D
    of the deck and S of the caller's places equally likely. Returns the probability of each layout
    (caller as printed, board), summed over every way of drawing it."""
    def w(m: int) -> int:
        return math.perm(n, m) * math.perm(p - n, cells - m)

    placements = [x for x in range(2 ** cells)
                  if (m := bin(x).count("1")) <= n and cells - m <= p - n
                  and len(complete_lines(lines, {k for k in range(cells) if x >> k & 1})) == complete]
    total = sum(w(bin(x).count("1")) for x in placements)
    out: Counter = Counter()
    each = Fraction(1, math.factorial(p) * math.factorial(n))
    for x in placements:
        chance = Fraction(w(bin(x).count("1")), total) * each
        for d in itertools.permutations(range(p)):
            for s in itertools.permutations(range(n)):
                board, j, u = [], 0, 0
                for k in range(cells):
                    if x >> k & 1:
                        board.append(d[s[j]])
                        j += 1
                    else:
                        board.append(d[n + u])
                        u += 1
                out[(d[:n], tuple(board))] += chance
    return dict(out)


def lay_out(seed: bytes, rules: str, pool: str, area: dict, tiers: list[tuple[str, int, list[str]]],
            tickets: int, per_pack: int, row_by_row: bool = False) -> tuple[list[str], dict[str, list[int]]]:
    """A pool of one caller's area drawn again from its seed: `tiers` (id, count, the prize codes of its
    wins in the area, in the spec's order) in pool order, the losers first (randomness.md section 4);
    every tier's rows by lines.md section 7 step 1b, then (`"shown"`) steps 3 and 4; then the neighbour
    rule (randomness.md 5.1), packs of `per_pack`: every run of one tier inside a pack holding two
    identical neighbours drawn again, together, until none does. Returns every position's tier and the
    area's columns (codes: indices into the area's pictures, prizes). `row_by_row`: the other reading of
    step 1b's "per row" (D then S for one row, then the next row's)."""
    base = [t for t, count, _ in tiers for _ in range(count)]
    assert len(base) == tickets
    order = Stream(seed, ("poolgen/v1", rules, pool, "order")).permutation(tickets)
    at = [base[order[q]] for q in range(tickets)]
    stream = Stream(seed, ("poolgen/v1", rules, pool, "layout"))
    cells, calls, spots = columns(area)
    cols = {c: [0] * tickets for c in cells + calls + spots}
    codes = [_code(x) for x in area["prizes"]]
    weights = [sum(count * wins.count(c) for _, count, wins in tiers) for c in codes]
    weights = weights if sum(weights) else [1] * len(codes)  # step 3: the pool's wins in the area
    again = list(range(tickets))
    while again:
        for tier, _, wins in tiers:
            rows = [q for q in again if at[q] == tier]
            _step_1b(stream, area, wins, rows, cols, row_by_row)
            if spots:
                _steps_3_and_4(stream, area, wins, weights, rows, cols)
        again = []
        for run in _runs(at, per_pack):
            if any(all(v[q] == v[q + 1] for v in cols.values()) for q in run[:-1]):
                again += run
    return at, cols


def _pays(area: dict, wins: list[str], done: list[int]) -> bool:
    """Whether a placement whose complete lines are `done` pays exactly `wins` (section 7, step 1)."""
    if "legend" in area:
        number = {e["prize"]: e["lines"] for e in area["legend"]}[wins[0]] if wins else 0
        return len(done) == number
    if area["line_prizes"] == "shown":
        return len(done) == len(wins)
    return sorted(_code(area["line_prizes"][i]) for i in done) == sorted(wins)


def _steps_3_and_4(stream: Stream, area: dict, wins: list[str], weights: list[int], rows: list[int],
                   cols: dict[str, list[int]]) -> None:
    """Step 3: every line's prize spot drawn by the weights, L a row in line order; step 4 (a tier of
    wins): the complete lines' spots the tier's prizes, in the order of `row_permutations(m)`."""
    aid, lines = area["id"], area["lines"]
    cum = list(itertools.accumulate(weights))
    draws = stream.integers(cum[-1], len(rows) * len(lines))
    codes = [_code(x) for x in area["prizes"]]
    perms = stream.row_permutations(len(rows), len(wins)) if wins and rows else [[] for _ in rows]
    for r, (q, perm) in enumerate(zip(rows, perms, strict=True)):
        board = [cols[f"{aid}_cell_{k}"][q] for k in range(area["rows"] * area["cols"])]
        called = {cols[f"{aid}_call_{j}"][q] for j in range(area["calls"])}
        done = complete_lines(lines, {k for k, v in enumerate(board) if v in called})
        for i in range(len(lines)):
            cols[f"{aid}_prize_{i}"][q] = bisect.bisect_right(cum, draws[r * len(lines) + i])
        for j, i in enumerate(done):
            cols[f"{aid}_prize_{i}"][q] = codes.index(wins[perm[j]])


def _runs(at: list[str], per_pack: int) -> list[list[int]]:
    """The maximal runs of positions of one tier inside one pack, in position order."""
    out: list[list[int]] = []
    for q, tier in enumerate(at):
        if q and q % per_pack and at[q - 1] == tier:
            out[-1].append(q)
        else:
            out.append([q])
    return out


_DONE: dict[tuple, list[list[int]]] = {}


def _placements(size: int, lines: list[list[int]]) -> list[list[int]]:
    """The complete lines of every placement of marked cells 0 .. 2^size - 1 (worked out once a board)."""
    key = (size, tuple(map(tuple, lines)))
    if key not in _DONE:
        _DONE[key] = [complete_lines(lines, {k for k in range(size) if x >> k & 1}) for x in range(2 ** size)]
    return _DONE[key]


def _step_1b(stream: Stream, area: dict, wins: list[str], rows: list[int], cols: dict[str, list[int]],
             row_by_row: bool) -> None:
    """Section 7 step 1b for the rows of a tier paying `wins`: the placements drawn with
    weights w(m) (increasing order), then `row_permutations(P)` for all the rows, then
    `row_permutations(N)`."""
    p, n, size = len(area["pictures"]), area["calls"], area["rows"] * area["cols"]
    valid = [x for x, done in enumerate(_placements(size, area["lines"]))
             if (m := bin(x).count("1")) <= n and size - m <= p - n and _pays(area, wins, done)]
    weights = [math.perm(n, c) * math.perm(p - n, size - c) for c in (bin(x).count("1") for x in valid)]
    picked = [valid[i] for i in stream.choices(weights, len(rows))]
    if row_by_row:
        pairs = [(stream.row_permutations(1, p)[0], stream.row_permutations(1, n)[0]) for _ in rows]
        deck, place = [d for d, _ in pairs], [s for _, s in pairs]
    else:
        deck, place = stream.row_permutations(len(rows), p), stream.row_permutations(len(rows), n)
    for q, x, d, s in zip(rows, picked, deck, place, strict=True):
        on = off = 0
        for k in range(size):
            if x >> k & 1:
                cols[f"{area['id']}_cell_{k}"][q] = d[s[on]]
                on += 1
            else:
                cols[f"{area['id']}_cell_{k}"][q] = d[n + off]
                off += 1
        for j in range(n):
            cols[f"{area['id']}_call_{j}"][q] = d[j]
