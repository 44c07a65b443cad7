"""`check`'s probe of a crossword area (docs/styles/crossword.md, sections 2, 10 and 11): whether the
generator can lay out each number of completed words a legend lists, and a ticket of no win; and why a
target is refused, worded as the contract says."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from poolgen.game.play import AreaReading
from poolgen.styles.crossword import fill
from poolgen.styles.crossword.legends import targets

__all__ = ["probe_grids", "unfit"]


def probe_grids(p: Any, where: str, ctx: AreaReading) -> None:
    """Section 10's probe: each grid's every number and 0 .. w1 - 1 alone, then no win anywhere."""
    for g, (legend, span) in enumerate(zip(p.legends, p.spans, strict=True)):
        for lo, hi, what in [(0, legend[0][0] - 1, "a ticket without its legend's prize")] + \
                [(n, n, f"{n} completed words") for n, _ in legend]:
            if not fill.feasible(p.lexicon, p.grids, lo, hi, p.letters, None, (span,), p.anyhow(1), p.free):
                raise ctx.r.fail(f"{where}.legends[{g}]", unfit(p, f"grid {g + 1}: {what}", lo, hi))
    low, high = targets(p.legends, ())
    bonus = (p.bonus.length, False) if p.bonus else None
    if not fill.feasible(p.lexicon, p.grids, low, high, p.letters, bonus, p.spans, p.anyhow(len(p.spans)),
                         p.free):
        raise ctx.r.fail(f"{where}.{'bonus' if p.bonus else 'legends'}",
                         unfit(p, "a ticket of no win", low, high, False if p.bonus else None))


def unfit(p: Any, what: str, lo: int | list[int], hi: int | list[int],
           completed: bool | None = None, hits: Sequence[bool | None] | None = None) -> str:
    """Why the probe refuses a target (sections 2, 9 and 10: a range a grid, `1..2 and 0..3 words`)."""
    tries = fill.PROBE[0] * fill.PROBE[1]
    bonus = "" if completed is None else \
        f" and {'completes' if completed else 'leaves incomplete'} a bonus word"
    ranges = " and ".join(f"{a}..{b}" for a, b in zip(lo, hi, strict=True)) \
        if isinstance(lo, list) and isinstance(hi, list) else f"{lo}..{hi}"
    hits = hits or ()
    states = [f"{'a' if hit else 'no'} completed word holding {'its' if len(hits) == 1 else f'grid {g + 1}'}"
              f"{'' if len(hits) == 1 else chr(39) + 's'} doubler cell"
              for g, hit in enumerate(hits) if hit is not None]
    return (f"{what}: none of {tries:,} draws of the grids and {p.letters} YOUR LETTERS completes "
            f"{ranges} words{bonus}" + "".join(f" and {x}" for x in states))

