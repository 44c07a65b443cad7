"""Crossword (contract: docs/styles/crossword.md): YOUR LETTERS and one or more grids of listed words;
a word is completed when YOUR LETTERS hold every letter of it, and the number of completed words,
across all the grids, wins the prize the legend lists for that number (only that one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Cell, Groups, Section, Win, WinError, prize_entry
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream
from poolgen.styles.crossword import doubler as doubling
from poolgen.styles.crossword import fill
from poolgen.styles.crossword.bonus import Bonus
from poolgen.styles.crossword.doubler import Doubler, mark_name
from poolgen.styles.crossword.grids import Grid, read_grid
from poolgen.styles.crossword.legends import Legend, read_entry, read_legends, targets
from poolgen.styles.crossword.probe import probe_grids, unfit
from poolgen.styles.crossword.words import Lexicon, lexicon

FIELDS: frozenset[str] = frozenset({"letters", "alphabet", "grids", "colours", "prizes", "legend", "legends",
                                    "bonus", "doubler"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_letter_", ("alphabet",)), ("_cell_", ("alphabet",)),
                                                  ("_bonus_", ("alphabet",)),
                                                  ("_doubler_", ("cell_numbers",)))
COLOURS = {"black": "#212529", "red": "#C92A2A", "blue": "#1864AB", "green": "#2B8A3E",
           "purple": "#6741D9", "orange": "#D9480F", "gold": "#B08900"}
MAX_LETTER_SETS = 2_000_000  # the letter sets YOUR LETTERS are drawn from (section 7): 18 of 26 is 1,562,275


@dataclass(frozen=True)
class Params:
    letters: int
    alphabet: tuple[Symbol, ...]
    grids: tuple[Grid, ...]
    colours: tuple[str, ...]
    prizes: tuple[Symbol, ...]
    legends: tuple[Legend, ...]  # one over all the grids, or one a grid (per_grid; section 10)
    bonus: Bonus | None = None  # the BONUS WORD (section 9), if the area has one
    per_grid: bool = False  # `legends`: each grid's words count for its own legend alone
    doubler: Doubler | None = None  # a DOUBLER cell a grid (section 11), if the area has one

    @property
    def cell_numbers(self) -> tuple[Symbol, ...]:
        """What a `_doubler_` column shows (imaging): a letter cell's index in its grid, as its number."""
        return tuple(Symbol(i, "cell", str(i), str(i), "")
                     for i in range(max(len(g.cells) for g in self.grids)))

    def hits(self, wins: Sequence[Win]) -> list[bool | None] | None:
        """Per legend, the tier's doubler state (section 11), or None in an area without a doubler."""
        return doubling.hits(self.legends, wins, self.doubler.by) if self.doubler else None

    def anyhow(self, spans: int) -> list[None] | None:
        """`hits` asking nothing of `spans` legends, in an area with a doubler (its cells still drawn)."""
        return [None] * spans if self.doubler else None

    @property
    def free(self) -> bool:
        return bool(self.doubler and self.doubler.free)

    @property
    def lexicon(self) -> Lexicon:
        return lexicon("".join(s.code for s in self.alphabet))

    @property
    def legend(self) -> Legend:
        """The first legend: the only one unless per_grid."""
        return self.legends[0]

    @property
    def words(self) -> int:
        return sum(len(g.slots) for g in self.grids)

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """The words each legend counts: (first, end) slot ranges, one a legend (fill.lay_tickets)."""
        if not self.per_grid:
            return ((0, self.words),)
        ends = np.cumsum([0] + [len(g.slots) for g in self.grids]).tolist()
        return tuple((int(a), int(b)) for a, b in zip(ends[:-1], ends[1:], strict=True))


def _alphabet(ctx: AreaReading, table: Mapping[str, Any], where: str) -> tuple[Symbol, ...]:
    alphabet = ctx.group(table, "alphabet", where, "letters")
    codes = [s.code for s in alphabet]
    if any(len(c) != 1 or not "A" <= c <= "Z" for c in codes):
        raise ctx.r.fail(f"{where}.alphabet", "the letters' codes are the capital letters A to Z")
    return alphabet


def _bonus(ctx: AreaReading, table: Mapping[str, Any], where: str, lengths: frozenset[int],
           prizes: tuple[Symbol, ...]) -> Bonus | None:
    """`bonus = { length, prize }` (section 9), or None."""
    r = ctx.r
    if "bonus" not in table:
        return None
    raw, at = table["bonus"], f"{where}.bonus"
    if not isinstance(raw, dict):
        raise r.fail(at, "must be a table { length, prize }")
    length = ctx.whole(raw, "length", at, 1)
    if length not in lengths:
        raise r.fail(f"{at}.length", f"no listed word of {length} letters is spelt in the alphabet "
                                     f"(lengths {', '.join(str(n) for n in sorted(lengths))})")
    return Bonus(length, read_entry(ctx, raw, at, ("length", "prize"), prizes))


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    alphabet = _alphabet(ctx, table, where)
    letters = ctx.whole(table, "letters", where, 1, high=len(alphabet))
    lex = lexicon("".join(s.code for s in alphabet))
    if not lex.words:
        raise r.fail(f"{where}.alphabet", "no listed word is spelt in these letters")
    raw = r.get(table, "grids", where, list)
    if not raw:
        raise r.fail(f"{where}.grids", "at least one grid (a list of rows of '.' and '#')")
    grids = []
    for g, rows in enumerate(raw):
        try:
            grids.append(read_grid(rows if isinstance(rows, list) else [], lex.lengths))
        except ValueError as exc:
            raise r.fail(f"{where}.grids[{g}]", str(exc)) from None
    colours = tuple(r.get(table, "colours", where, list, required=False) or ())
    if colours and (len(colours) != len(grids) or any(c not in COLOURS for c in colours)):
        raise r.fail(f"{where}.colours", f"one colour per grid, each one of {', '.join(COLOURS)}")
    prizes = ctx.group(table, "prizes", where, "prizes")
    legends, per_grid = read_legends(ctx, table, where, prizes, len(grids))
    p = Params(letters, alphabet, tuple(grids), colours, prizes, legends,
               _bonus(ctx, table, where, lex.lengths, prizes), per_grid,
               doubling.read(ctx, table, where, grids, per_grid))
    if not per_grid and p.legend[-1][0] > p.words:
        raise r.fail(f"{where}.legend", f"{p.legend[-1][0]} completed words; the grids hold {p.words}")
    for g, legend in enumerate(legends if per_grid else ()):
        if legend[-1][0] > len(p.grids[g].slots):
            raise r.fail(f"{where}.legends[{g}]", f"{legend[-1][0]} completed words; grid {g + 1} holds "
                                                  f"{len(p.grids[g].slots)}")
    if comb(len(alphabet), letters) > MAX_LETTER_SETS:
        raise r.fail(f"{where}.letters", f"more than {MAX_LETTER_SETS:,} sets of {letters} letters of "
                                         f"{len(alphabet)} to draw from")
    if per_grid:
        probe_grids(p, where, ctx)
        return p
    targets = [(0, p.legend[0][0] - 1, "a ticket without the legend's prize")] + \
        [(n, n, f"{n} completed words") for n, _ in p.legend]
    for lo, hi, what in targets:
        if not fill.feasible(lex, p.grids, lo, hi, letters, None, None, p.anyhow(1), p.free):
            raise r.fail(f"{where}.legend", unfit(p, what, lo, hi))
    if p.bonus and not fill.feasible(lex, p.grids, *targets[0][:2], letters, (p.bonus.length, False), None,
                                     p.anyhow(1), p.free):
        raise r.fail(f"{where}.bonus", unfit(p, targets[0][2], *targets[0][:2], False))
    return p


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    if how == "bonus" and params.bonus is not None:
        if code != params.bonus.prize.code:
            raise WinError("prize", f"prize {code!r} is not the bonus word's ({params.bonus.prize.code!r})")
        if by is not None:
            raise WinError("by", "the bonus word's prize wins as listed: no `by`")
        return params.bonus.prize, 1
    prize = next((s for s in params.prizes if s.code == code), None)
    if prize is None or not any(s.code == code for legend in params.legends for _, s in legend):
        raise WinError("prize", f"prize {code!r} is not one the legend lists")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a crossword win is \"match\" (the legend's prize for its "
                              "number of completed words)" + (" or \"bonus\" (its bonus word's prize)"
                                                                if params.bonus else ""))
    k = next((params.doubler.by[i] for i, legend in enumerate(params.legends)
              if any(s.code == code for _, s in legend)), 1) if params.doubler else 1
    if params.doubler is not None and by is not None and by != 1:
        if by != k:
            raise WinError("by", f"by = {by}: a doubled legend prize is by = {k} (the area's doubler), an "
                                 "undoubled one has no `by`")
        return prize, by
    if by is not None:
        raise WinError("by", "the legend's prize wins as listed: no `by`" +
                       (f" (or by = {k}, doubled)" if params.doubler else ""))
    return prize, 1


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    for g, legend in enumerate(params.legends):
        if sum(w.how == "match" and any(s.code == w.prize.code for _, s in legend) for w in wins) > 1:
            return "a ticket wins one legend prize " + \
                (f"in grid {g + 1} (only the highest)" if params.per_grid else "(only the highest)")
    if sum(w.how == "bonus" for w in wins) > 1:
        return "a ticket wins its bonus word's prize once"
    if params.bonus is None and not params.per_grid and params.doubler is None:
        return None
    lo, hi = targets(params.legends, wins)
    completed = any(w.how == "bonus" for w in wins)
    bonus = (params.bonus.length, completed) if params.bonus else None
    hits = params.hits(wins)
    if not params.per_grid:
        if not fill.feasible(params.lexicon, params.grids, lo[0], hi[0], params.letters, bonus, None, hits,
                             params.free):
            return unfit(params, "this tier", lo[0], hi[0], completed if params.bonus else None, hits)
        return None
    if not fill.feasible(params.lexicon, params.grids, lo, hi, params.letters, bonus, params.spans, hits,
                         params.free):
        return unfit(params, "this tier", lo, hi, completed if params.bonus else None, hits)
    return None


def entry(params: Params) -> dict[str, Any]:
    bonus = {"bonus": {"length": params.bonus.length, "prize": params.bonus.prize.code}} \
        if params.bonus else {}
    return {"letters": params.letters, "alphabet": [s.code for s in params.alphabet],
            "grids": [list(g.rows) for g in params.grids], "prizes": prize_entry(params.prizes),
            **_legend_entry(params),
            "words": list(params.lexicon.words), **bonus,
            **({"doubler": {"by": params.doubler.written(), **({} if params.doubler.free is None else {
                "free": params.doubler.free})}} if params.doubler else {})}


def _legend_entry(params: Params) -> dict[str, Any]:
    """`legend` (one) or `legends` (one a grid), as the spec lists them (sections 3 and 10)."""
    written = [[{"words": n, "prize": s.code} for n, s in legend] for legend in params.legends]
    return {"legends": written} if params.per_grid else {"legend": written[0]}


def columns(area_id: str, params: Params) -> list[str]:
    cells = sum(len(g.cells) for g in params.grids)
    return ([f"{area_id}_letter_{j}" for j in range(params.letters)]
            + [f"{area_id}_cell_{j}" for j in range(cells)]
            + [f"{area_id}_bonus_{j}" for j in range(params.bonus.length if params.bonus else 0)]
            + [f"{area_id}_doubler_{g}" for g in range(len(params.grids) if params.doubler else 0)])


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    lex = params.lexicon
    letters = np.zeros((n, params.letters), dtype=np.int64)
    cells = np.zeros((n, sum(len(g.cells) for g in params.grids)), dtype=np.int64)
    extra = np.zeros((n, params.bonus.length if params.bonus else 0), dtype=np.int64)
    doubled = np.zeros((n, len(params.grids) if params.doubler else 0), dtype=np.int64)
    for rows, wins in groups:
        if not rows.size:
            continue
        lo, hi = targets(params.legends, wins)
        tier = wins[0].prize.code if wins else "no win here"
        if params.bonus and wins:
            tier = " + ".join(f"{w.how} {w.prize.code}" for w in wins)
        bonus = (params.bonus.length, any(w.how == "bonus" for w in wins)) if params.bonus else None
        words, shown, word, marked = fill.lay_tickets(lex, params.grids, np.tile(lo, (rows.size, 1)),
                                                      np.tile(hi, (rows.size, 1)), params.letters, stream,
                                                      tier, bonus, params.spans, params.hits(wins),
                                                      params.free)
        letters[rows] = shown
        doubled[rows] = marked
        if params.bonus:
            extra[rows] = lex.letters[word, :params.bonus.length]
        slot, base = 0, 0
        for g in params.grids:
            for s in g.slots:
                for pos, c in enumerate(s.cells):
                    cells[rows, base + c] = lex.letters[words[:, slot], pos]
                slot += 1
            base += len(g.cells)
    out = np.concatenate([letters, cells, extra, doubled], axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(out[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    """For `poolgen check`: grids are promised nothing about win/lose (section 8)."""
    return None


def _grid_letters(params: Params, area_id: str, row: Mapping[str, Any]) -> list[list[int]]:
    out, base = [], 0
    for g in params.grids:
        out.append([int(row[f"{area_id}_cell_{base + k}"]) for k in range(len(g.cells))])
        base += len(g.cells)
    return out


def _text(params: Params, code: int) -> Symbol | None:
    return params.alphabet[code] if 0 <= code < len(params.alphabet) else None


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """YOUR LETTERS, each grid as rows x columns cells (a cell of no letter: column ""), the BONUS
    WORD's letters in a row (if the area has one), then the printed legend (cells of no column: the
    number of words and its prize; the bonus word's prize last)."""
    mine: list[Cell] = []
    for j in range(params.letters):
        s = _text(params, int(row[f"{area_id}_letter_{j}"]))
        mine.append((f"{area_id}_letter_{j}", s.symbol if s else "?", s.caption if s else "", None, None))
    sections: list[Section] = [("YOUR LETTERS", mine)]
    base = 0
    for g, grid in enumerate(params.grids):
        index = {rc: k for k, rc in enumerate(grid.cells)}
        cells: list[Cell] = []
        for i, line in enumerate(grid.rows):
            for j in range(len(line)):
                k = index.get((i, j))
                if k is None:
                    cells.append(("", "", "", None, None))
                    continue
                s = _text(params, int(row[f"{area_id}_cell_{base + k}"]))
                marked = params.doubler and k == row[f"{area_id}_doubler_{g}"]
                mark = f"x{params.doubler.by[g if params.per_grid else 0]}" \
                    if params.doubler and marked else ""
                text = mark if mark and params.free else s.symbol if s else "?"  # a free space: its mark
                cells.append((f"{area_id}_cell_{base + k}", text, "" if params.free else mark, None, None))
        base += len(grid.cells)
        sections.append((f"CROSSWORD {g + 1}", cells))
    legend: list[Cell] = [("", f"PUZZLE {g + 1}: {n} WORDS" if params.per_grid else f"{n} WORDS", p.symbol,
                            None, None) for g, one in enumerate(params.legends) for n, p in one]
    if params.bonus:
        word: list[Cell] = []
        for j in range(params.bonus.length):
            s = _text(params, int(row[f"{area_id}_bonus_{j}"]))
            word.append((f"{area_id}_bonus_{j}", s.symbol if s else "?", "", None, None))
        sections.append(("BONUS WORD", word))
        legend.append(("", "BONUS WORD", params.bonus.prize.symbol, None, None))
    if (d := params.doubler) is not None:
        legend += [("", f"PUZZLE {g + 1}: {mark_name(k)}" if d.listed else mark_name(k), f"x{k}", None, None)
                   for g, k in enumerate(d.by if d.listed else d.by[:1])]
    return [*sections, ("PRIZE LEGEND", legend)]


def shapes(area_id: str, params: Params) -> list[tuple[int, int, str] | None]:
    """Per section of `face`: (rows, columns, colour) of one drawn as a grid (YOUR LETTERS too), None
    for the legend."""
    grids = [(len(g.rows), len(g.rows[0]), COLOURS[params.colours[i]] if params.colours else "")
             for i, g in enumerate(params.grids)]
    bonus = [(1, params.bonus.length, "")] if params.bonus else []  # the bonus word: one row
    return [(2, -(-params.letters // 2), ""), *grids, *bonus, None]  # YOUR LETTERS in two rows


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the cells of the completed words."""
    have = {int(row[f"{area_id}_letter_{j}"]) for j in range(params.letters)}
    lines: list[str] = []
    winning: set[str] = set()
    found: list[list[str]] = [[] for _ in params.legends]  # completed words, by legend
    cells: list[set[str]] = [set() for _ in params.legends]
    marks: set[str] = set()  # the doubler cells (section 11)
    base = 0
    for g, letters in enumerate(_grid_letters(params, area_id, row)):
        k = g if params.per_grid else 0
        free = int(row[f"{area_id}_doubler_{g}"]) if params.doubler else -1
        if params.doubler:
            marks.add(f"{area_id}_cell_{base + free}")
        for s in params.grids[g].slots:
            codes = [letters[c] for c in s.cells]
            if all(letters[c] in have or (params.free and c == free) for c in s.cells):
                found[k].append("".join(t.symbol if (t := _text(params, c)) else "?" for c in codes))
                cells[k] |= {f"{area_id}_cell_{base + c}" for c in s.cells}
        base += len(params.grids[g].cells)
    for k, legend in enumerate(params.legends):
        prize = next((s for n, s in legend if n == len(found[k])), None)
        where = f" grid {k + 1}:" if params.per_grid else ""
        by = params.doubler.by[k] if params.doubler and cells[k] & marks else 1
        if found[k]:
            lines.append(f"{area_id}:{where} {len(found[k])} completed word(s): {', '.join(found[k])}"
                         + (f": wins {fmt_cents(prize.cents or 0, currency)}"
                            + (f" x{by} (a doubler cell)" if by > 1 else "") + "."
                            if prize else ": no prize."))
        if prize is not None:
            winning |= cells[k] | {f"{area_id}_letter_{j}" for j in range(params.letters)}
    if params.bonus:
        codes = [int(row[f"{area_id}_bonus_{j}"]) for j in range(params.bonus.length)]
        if all(c in have for c in codes):
            text = "".join(t.symbol if (t := _text(params, c)) else "?" for c in codes)
            lines.append(f"{area_id}: the bonus word {text} is completed: wins "
                         f"{fmt_cents(params.bonus.prize.cents or 0, currency)} besides.")
            winning |= {f"{area_id}_bonus_{j}" for j in range(params.bonus.length)}
            winning |= {f"{area_id}_letter_{j}" for j in range(params.letters)}
    return lines, winning


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first legend line or bonus word no tier's win lists, and why (poolgen/loader/printed.py
    refuses it: every ticket would print a prize that never wins; contract, sections 2 and 9)."""
    paid = {w.prize.code for w in wins if w.how == "match"}
    for g, legend in enumerate(params.legends):
        for i, (_, prize) in enumerate(legend):
            if prize.code not in paid:
                return (f"legends[{g}][{i}].prize" if params.per_grid else f"legend[{i}].prize",
                        f"no tier wins {prize.code!r} (every ticket would print it in the legend, and it "
                        "could never win)")
    if params.bonus is not None and not any(w.how == "bonus" for w in wins):
        return "bonus", "no tier wins it (every ticket would print it, and it could never win)"
    if params.doubler is not None and not any(w.how == "match" and w.by > 1 for w in wins):
        return "doubler", "no tier wins a doubled prize (every ticket would print it, and it could never win)"
    return None
