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
from poolgen.money import fmt_cents
from poolgen.rng import Stream
from poolgen.styles.crossword import fill
from poolgen.styles.crossword.bonus import Bonus
from poolgen.styles.crossword.grids import Grid, read_grid
from poolgen.styles.crossword.words import Lexicon, lexicon

FIELDS: frozenset[str] = frozenset({"letters", "alphabet", "grids", "colours", "prizes", "legend", "bonus"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_letter_", ("alphabet",)), ("_cell_", ("alphabet",)),
                                                  ("_bonus_", ("alphabet",)))
COLOURS = {"black": "#212529", "red": "#C92A2A", "blue": "#1864AB", "green": "#2B8A3E",
           "purple": "#6741D9", "orange": "#D9480F", "gold": "#B08900"}
MAX_LETTER_SETS = 1_000_000  # the letter sets a ticket's YOUR LETTERS may be drawn from (section 7)


@dataclass(frozen=True)
class Params:
    letters: int
    alphabet: tuple[Symbol, ...]
    grids: tuple[Grid, ...]
    colours: tuple[str, ...]
    prizes: tuple[Symbol, ...]
    legend: tuple[tuple[int, Symbol], ...]  # (completed words, prize), by number of words
    bonus: Bonus | None = None  # the BONUS WORD (section 9), if the area has one

    @property
    def lexicon(self) -> Lexicon:
        return lexicon("".join(s.code for s in self.alphabet))

    @property
    def words(self) -> int:
        return sum(len(g.slots) for g in self.grids)


def _alphabet(ctx: AreaReading, table: Mapping[str, Any], where: str) -> tuple[Symbol, ...]:
    alphabet = ctx.group(table, "alphabet", where, "letters")
    codes = [s.code for s in alphabet]
    if any(len(c) != 1 or not "A" <= c <= "Z" for c in codes):
        raise ctx.r.fail(f"{where}.alphabet", "the letters' codes are the capital letters A to Z")
    return alphabet


def _legend(ctx: AreaReading, table: Mapping[str, Any], where: str,
            prizes: tuple[Symbol, ...]) -> tuple[tuple[int, Symbol], ...]:
    r = ctx.r
    raw = r.get(table, "legend", where, list)
    if not raw:
        raise r.fail(f"{where}.legend", "list the prize of each number of completed words")
    out: list[tuple[int, Symbol]] = []
    for i, item in enumerate(raw):
        at = f"{where}.legend[{i}]"
        if not isinstance(item, dict):
            raise r.fail(at, "must be a table { words, prize }")
        for key in item:
            if key not in ("words", "prize"):
                raise r.fail(f"{at}.{key}", "unknown field")
        words = ctx.whole(item, "words", at, 1)
        code = r.get(item, "prize", at, str)
        prize = next((s for s in prizes if s.code == code), None)
        if prize is None:
            raise r.fail(f"{at}.prize", f"{code!r} is not one of the area's prize symbols")
        if out and words <= out[-1][0]:
            raise r.fail(f"{at}.words", "the legend lists numbers of words in increasing order")
        if any(p.code == code for _, p in out):
            raise r.fail(f"{at}.prize", f"prize {code!r} is already the legend's for another number")
        out.append((words, prize))
    return tuple(out)


def _bonus(ctx: AreaReading, table: Mapping[str, Any], where: str, lengths: frozenset[int],
           prizes: tuple[Symbol, ...]) -> Bonus | None:
    """`bonus = { length, prize }` (section 9), or None."""
    r = ctx.r
    if "bonus" not in table:
        return None
    raw, at = table["bonus"], f"{where}.bonus"
    if not isinstance(raw, dict):
        raise r.fail(at, "must be a table { length, prize }")
    for key in raw:
        if key not in ("length", "prize"):
            raise r.fail(f"{at}.{key}", "unknown field")
    length = ctx.whole(raw, "length", at, 1)
    if length not in lengths:
        raise r.fail(f"{at}.length", f"no listed word of {length} letters is spelt in the alphabet "
                                     f"(lengths {', '.join(str(n) for n in sorted(lengths))})")
    code = r.get(raw, "prize", at, str)
    prize = next((s for s in prizes if s.code == code), None)
    if prize is None:
        raise r.fail(f"{at}.prize", f"{code!r} is not one of the area's prize symbols")
    return Bonus(length, prize)


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
    p = Params(letters, alphabet, tuple(grids), colours, prizes, _legend(ctx, table, where, prizes),
               _bonus(ctx, table, where, lex.lengths, prizes))
    if p.legend[-1][0] > p.words:
        raise r.fail(f"{where}.legend", f"{p.legend[-1][0]} completed words; the grids hold {p.words}")
    if comb(len(alphabet), letters) > MAX_LETTER_SETS:
        raise r.fail(f"{where}.letters", f"more than {MAX_LETTER_SETS:,} sets of {letters} letters of "
                                         f"{len(alphabet)} to draw from")
    targets = [(0, p.legend[0][0] - 1, "a ticket without the legend's prize")] + \
        [(n, n, f"{n} completed words") for n, _ in p.legend]
    for lo, hi, what in targets:
        if not fill.feasible(lex, p.grids, lo, hi, letters):
            raise r.fail(f"{where}.legend", _unfit(p, what, lo, hi))
    if p.bonus and not fill.feasible(lex, p.grids, *targets[0][:2], letters, (p.bonus.length, False)):
        raise r.fail(f"{where}.bonus", _unfit(p, targets[0][2], *targets[0][:2], False))
    return p


def _unfit(p: Params, what: str, lo: int, hi: int, completed: bool | None = None) -> str:
    """Why the probe refuses a target (sections 2 and 9)."""
    tries = fill.PROBE[0] * fill.PROBE[1]
    bonus = "" if completed is None else \
        f" and {'completes' if completed else 'leaves incomplete'} a bonus word"
    return (f"{what}: none of {tries:,} draws of the grids and {p.letters} YOUR LETTERS completes "
            f"{lo}..{hi} words{bonus}")


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    if how == "bonus" and params.bonus is not None:
        if code != params.bonus.prize.code:
            raise WinError("prize", f"prize {code!r} is not the bonus word's ({params.bonus.prize.code!r})")
        if by is not None:
            raise WinError("by", "the bonus word's prize wins as listed: no `by`")
        return params.bonus.prize, 1
    prize = next((s for s in params.prizes if s.code == code), None)
    if prize is None or not any(s.code == code for _, s in params.legend):
        raise WinError("prize", f"prize {code!r} is not one the legend lists")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a crossword win is \"match\" (the legend's prize for its "
                              "number of completed words)" + (" or \"bonus\" (its bonus word's prize)"
                                                                if params.bonus else ""))
    if by is not None:
        raise WinError("by", "the legend's prize wins as listed: no `by`")
    return prize, 1


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if sum(w.how == "match" for w in wins) > 1:
        return "a ticket wins one legend prize (only the highest)"
    if sum(w.how == "bonus" for w in wins) > 1:
        return "a ticket wins its bonus word's prize once"
    if params.bonus is None:
        return None
    lo, hi = _targets(params, wins)
    completed = any(w.how == "bonus" for w in wins)
    if not fill.feasible(params.lexicon, params.grids, lo, hi, params.letters,
                         (params.bonus.length, completed)):
        return _unfit(params, "this tier", lo, hi, completed)
    return None


def entry(params: Params) -> dict[str, Any]:
    bonus = {"bonus": {"length": params.bonus.length, "prize": params.bonus.prize.code}} \
        if params.bonus else {}
    return {"letters": params.letters, "alphabet": [s.code for s in params.alphabet],
            "grids": [list(g.rows) for g in params.grids], "prizes": prize_entry(params.prizes),
            "legend": [{"words": n, "prize": s.code} for n, s in params.legend],
            "words": list(params.lexicon.words), **bonus}


def columns(area_id: str, params: Params) -> list[str]:
    cells = sum(len(g.cells) for g in params.grids)
    return ([f"{area_id}_letter_{j}" for j in range(params.letters)]
            + [f"{area_id}_cell_{j}" for j in range(cells)]
            + [f"{area_id}_bonus_{j}" for j in range(params.bonus.length if params.bonus else 0)])


def _targets(params: Params, wins: tuple[Win, ...]) -> tuple[int, int]:
    """(fewest, most) completed words of a ticket with these wins in the area (section 7)."""
    match = [w for w in wins if w.how == "match"]
    if match:
        n = next(n for n, s in params.legend if s.code == match[0].prize.code)
        return n, n
    return 0, params.legend[0][0] - 1


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    lex = params.lexicon
    letters = np.zeros((n, params.letters), dtype=np.int64)
    cells = np.zeros((n, sum(len(g.cells) for g in params.grids)), dtype=np.int64)
    extra = np.zeros((n, params.bonus.length if params.bonus else 0), dtype=np.int64)
    for rows, wins in groups:
        if not rows.size:
            continue
        lo, hi = _targets(params, wins)
        tier = wins[0].prize.code if wins else "no win here"
        if params.bonus and wins:
            tier = " + ".join(f"{w.how} {w.prize.code}" for w in wins)
        bonus = (params.bonus.length, any(w.how == "bonus" for w in wins)) if params.bonus else None
        words, shown, word = fill.lay_tickets(lex, params.grids, np.full(rows.size, lo),
                                              np.full(rows.size, hi), params.letters, stream, tier, bonus)
        letters[rows] = shown
        if params.bonus:
            extra[rows] = lex.letters[word, :params.bonus.length]
        slot, base = 0, 0
        for g in params.grids:
            for s in g.slots:
                for pos, c in enumerate(s.cells):
                    cells[rows, base + c] = lex.letters[words[:, slot], pos]
                slot += 1
            base += len(g.cells)
    out = np.concatenate([letters, cells, extra], axis=1).astype(np.uint8)
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
                cells.append((f"{area_id}_cell_{base + k}", s.symbol if s else "?", "", None, None))
        base += len(grid.cells)
        sections.append((f"CROSSWORD {g + 1}", cells))
    legend: list[Cell] = [("", f"{n} WORDS", p.symbol, None, None) for n, p in params.legend]
    if params.bonus:
        word: list[Cell] = []
        for j in range(params.bonus.length):
            s = _text(params, int(row[f"{area_id}_bonus_{j}"]))
            word.append((f"{area_id}_bonus_{j}", s.symbol if s else "?", "", None, None))
        sections.append(("BONUS WORD", word))
        legend.append(("", "BONUS WORD", params.bonus.prize.symbol, None, None))
    return [*sections, ("PRIZE LEGEND", legend)]


def shapes(area_id: str, params: Params) -> list[tuple[int, int, str] | None]:
    """Per section of `face`: (rows, columns, colour) of one drawn as a grid (YOUR LETTERS too), None
    for the legend."""
    grids = [(len(g.rows), len(g.rows[0]), COLOURS[params.colours[i]] if params.colours else "")
             for i, g in enumerate(params.grids)]
    bonus = [(1, params.bonus.length, "")] if params.bonus else []  # the bonus word: one row
    return [(2, -(-params.letters // 2), ""), *grids, *bonus, None]  # YOUR LETTERS in two rows


def explain(area_id: str, params: Params, row: Mapping[str, Any]) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the cells of the completed words."""
    have = {int(row[f"{area_id}_letter_{j}"]) for j in range(params.letters)}
    lines: list[str] = []
    winning: set[str] = set()
    found: list[str] = []
    base = 0
    for g, letters in enumerate(_grid_letters(params, area_id, row)):
        for s in params.grids[g].slots:
            codes = [letters[c] for c in s.cells]
            if all(c in have for c in codes):
                found.append("".join(t.symbol if (t := _text(params, c)) else "?" for c in codes))
                winning |= {f"{area_id}_cell_{base + c}" for c in s.cells}
        base += len(params.grids[g].cells)
    prize = next((s for n, s in params.legend if n == len(found)), None)
    if found:
        lines.append(f"{area_id}: {len(found)} completed word(s): {', '.join(found)}"
                     + (f": wins {fmt_cents(prize.cents or 0)}." if prize else ": no prize."))
    if prize is None:
        winning = set()
    else:
        winning |= {f"{area_id}_letter_{j}" for j in range(params.letters)}
    if params.bonus:
        codes = [int(row[f"{area_id}_bonus_{j}"]) for j in range(params.bonus.length)]
        if all(c in have for c in codes):
            text = "".join(t.symbol if (t := _text(params, c)) else "?" for c in codes)
            lines.append(f"{area_id}: the bonus word {text} is completed: wins "
                         f"{fmt_cents(params.bonus.prize.cents or 0)} besides.")
            winning |= {f"{area_id}_bonus_{j}" for j in range(params.bonus.length)}
            winning |= {f"{area_id}_letter_{j}" for j in range(params.letters)}
    return lines, winning
