"""Generic play styles, one module per style, looked up by the name a spec's area gives (`style = ...`).

Each module follows its contract in docs/styles/<style>.md and provides:

    FIELDS                                   the area fields it reads (besides id and style)
    read_area(ctx, table, where) -> params   read and check one [[areas]] table (SpecError)
    read_win(params, how, by, code)          -> (prize symbol, multiplier) of one win (ValueError)
    check_wins(params, wins) -> str | None   why a tier's wins in this area cannot be laid out
    entry(params) -> dict                    the area's entry in the manifest's `play`
    columns(area_id, params) -> list[str]    the area's layout columns
    lay_out(area_id, params, groups, n, stream, done) -> dict[str, ndarray]
                                             `groups`: (rows, wins) per tier; all from `stream`;
                                             `done`: the columns of the areas laid out before

Optionally: IMAGING (column suffix -> the symbol lists a stored code indexes, for the imaging file)
and layout_note(params, [(tickets, wins) per tier]) -> str | None (a note for `poolgen check`).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

STYLES = ("key_number_match", "match_n")


def style_module(style: str) -> ModuleType:
    """The generator module of a play style; LookupError for a style there is none of."""
    if style not in STYLES:
        raise LookupError(style)
    return import_module(f"poolgen.styles.{style}")


def prize_entry(symbols) -> list[dict]:
    return [{"code": s.code, "cents": s.cents} for s in symbols]
