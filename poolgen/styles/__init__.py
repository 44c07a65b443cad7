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

Optionally: SPOTS (column suffix -> the symbol lists a stored code indexes, for the imaging file)
and layout_note(params, [(tickets, wins) per tier]) -> str | None (a note for `poolgen check`).
"""

from __future__ import annotations

import re
from importlib import import_module
from pkgutil import iter_modules
from types import ModuleType

STYLES = ("key_number_match", "match_n", "bonus_reveal")
_STYLE_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


def einstant_module(style: str) -> ModuleType:
    """The generator module of an eInstant style, named by a `format = 1` eInstant spec's
    `game.style`: poolgen/styles/<style>.py with KIND = "einstant", providing

        lay_out(spec, pool, tiers, stream) -> dict[str, ndarray]   the layout columns
        play_document(spec) -> dict     every parameter audit's engine needs (the manifest's `play`,
                                        {"style": style, ...}); raises SpecError for a bad parameter
        check_structure(spec, result)   optional: what `poolgen check` must prove

    LookupError for a name that is not such a module."""
    if not _STYLE_NAME.fullmatch(style) or style in STYLES:
        raise LookupError(style)
    try:
        module = import_module(f"poolgen.styles.{style}")
    except ModuleNotFoundError as exc:
        if exc.name == f"poolgen.styles.{style}":
            raise LookupError(style) from None
        raise
    if getattr(module, "KIND", None) != "einstant":
        raise LookupError(style)
    return module


def einstant_styles() -> list[str]:
    """The names of the eInstant styles there are (for an error message)."""
    names = [m.name for m in iter_modules(__path__) if _STYLE_NAME.fullmatch(m.name)]
    return [n for n in sorted(names) if n not in STYLES and _is_einstant(n)]


def _is_einstant(name: str) -> bool:
    try:
        einstant_module(name)
    except LookupError:
        return False
    return True


def style_module(style: str) -> ModuleType:
    """The generator module of a play style; LookupError for a style there is none of."""
    if style not in STYLES:
        raise LookupError(style)
    return import_module(f"poolgen.styles.{style}")


def prize_entry(symbols) -> list[dict]:
    return [{"code": s.code, "cents": s.cents} for s in symbols]
