"""What a ticket's layout pays, evaluated for the proof pages: a game of play styles by
poolgen/pdf/faces/areas.py, an eInstant of a generic style by poolgen/pdf/faces_<style>.py, each giving
the prize, the lines that explain it and the spots that win; and the layout columns each reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType

from poolgen.money import fmt_cents
from poolgen.pdf.faces import areas as faces_styles
from poolgen.spec import Spec, Symbol

__all__ = ["Evaluation", "evaluate", "required_columns"]


@dataclass(frozen=True)
class Evaluation:
    """What a layout pays by the game's rules, how, and which spots win."""

    prize_cents: int
    lines: tuple[str, ...]
    winning: frozenset[str] = field(default_factory=frozenset)


def _symbol(table: tuple[Symbol, ...], i: int) -> Symbol:
    if 0 <= i < len(table):
        return table[i]
    return Symbol(group="?", code=f"?{i}", symbol=f"?{i}", caption="unknown", value_cents=None)


def _name(s: Symbol) -> str:
    """'Symbol of a Golden Football' -> 'Golden Football'."""
    text = s.symbol
    for prefix in ("Symbol of an ", "Symbol of a ", "Symbol of the ", "Symbol of "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _join_money(values: list[int]) -> str:
    return " + ".join(fmt_cents(v) for v in values)


def evaluate(spec: Spec, pool: dict, row: dict) -> Evaluation:
    """What a ticket's layout pays under its styles' contracts (docs/styles/)."""
    if spec.styles is not None:  # a game of play styles: poolgen/pdf/faces/areas.py
        return faces_styles.evaluate(spec, pool, row, Evaluation)
    return einstant_faces(spec.style).evaluate(spec, pool, row)  # poolgen/pdf/faces_<style>.py


def einstant_faces(style: str) -> ModuleType:
    """The proof module of an eInstant style, poolgen/pdf/faces_<style>.py: `columns(spec, pool)`,
    `evaluate(spec, pool, row) -> Evaluation`, `draw(c, spec, pool, row, ev, x, y, w, h)` (the face)
    and `key_note(spec) -> str` (the cover's note under the symbol key)."""
    return import_module(f"poolgen.pdf.faces.{style}")


def required_columns(spec: Spec, pool: dict) -> list[str]:
    """Every column a proof page of this pool reads: the common ones, then the game's layout."""
    ids = ["book", "ticket_no"] if spec.kind == "printed" else ["serial"]
    if spec.styles is not None:  # a game of play styles
        layout = faces_styles.columns(spec)
    else:  # an eInstant of a generic style
        layout = einstant_faces(spec.style).columns(spec, pool)
    return ["position", "ticket", "tier", "prize_cents", *ids, *layout]
