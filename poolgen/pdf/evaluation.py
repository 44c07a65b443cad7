"""What a ticket's layout pays, evaluated for the proof pages by the rules of specs/<game>.md.

One evaluator per game of the four shipped games (a game of play styles is evaluated by
poolgen/pdf/faces_styles.py), each giving the prize, the lines that explain it and the spots
that win; and the layout columns each game's evaluator and ticket face read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType

from poolgen.money import fmt_cents
from poolgen.pdf import faces_styles
from poolgen.spec import Spec, Symbol

__all__ = ["EVALUATORS", "Evaluation", "LAYOUT_COLUMNS", "evaluate", "required_columns"]


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


# Format-1 games with an evaluator of their own: none now (every shipped game is a spec of styles).
EVALUATORS: dict[str, Callable[[Spec, dict, dict], Evaluation]] = {}


def evaluate(spec: Spec, pool: dict, row: dict) -> Evaluation:
    """What a ticket's layout pays under its game's rules (specs/<game>.md, section Evaluation)."""
    if spec.styles is not None:  # a game of play styles: poolgen/pdf/faces_styles.py
        return faces_styles.evaluate(spec, pool, row, Evaluation)
    if spec.style is not None:  # an eInstant of a generic style: poolgen/pdf/faces_<style>.py
        return einstant_faces(spec.style).evaluate(spec, pool, row)
    return EVALUATORS[spec.rules](spec, pool, row)


def einstant_faces(style: str) -> ModuleType:
    """The proof module of an eInstant style, poolgen/pdf/faces_<style>.py: `columns(spec, pool)`,
    `evaluate(spec, pool, row) -> Evaluation`, `draw(c, spec, pool, row, ev, x, y, w, h)` (the face)
    and `key_note(spec) -> str` (the cover's note under the symbol key)."""
    return import_module(f"poolgen.pdf.faces_{style}")


# The layout columns each game's evaluator and ticket face read (specs/<game>.md, section Columns).
LAYOUT_COLUMNS: dict[str, Callable[[dict], list[str]]] = {}


def required_columns(spec: Spec, pool: dict) -> list[str]:
    """Every column a proof page of this pool reads: the common ones, then the game's layout."""
    ids = ["book", "ticket_no"] if spec.kind == "printed" else ["serial"]
    if spec.style is not None:
        layout = einstant_faces(spec.style).columns(spec, pool)
    else:
        layout = faces_styles.columns(spec) if spec.styles is not None else LAYOUT_COLUMNS[spec.rules](pool)
    return ["position", "ticket", "tier", "prize_cents", *ids, *layout]
