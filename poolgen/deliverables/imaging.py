"""The imaging file of one printed pool: what the printer's press prints on each ticket, in print
order (docs/validation.md, section 4). One row per ticket, in pool order:

    barcode (15 digits; 16 for a game numbered 1000..9999), virn, book, ticket_no, then for every
    layout column C of the pool file:
    C (the spot's spec symbol code), C_text (the symbol as printed), C_caption (its caption)

Spot codes are turned into symbols by the layout contract: for a ticket of play areas by its areas'
symbol lists (docs/styles/<style>.md, section 4), as each area style states in its `SPOTS` (column
suffix -> the area's symbol lists, in order). A layout whose columns are not covered gets no imaging
file, and `generate` says so.

Art: where a spec gives its symbols `art` (the printer's art-library files), the manifest's `print.art`
lists, for every spot prefix whose alphabet holds a symbol with art, each such symbol's code and art
(`art_spots`); the CSV export (poolgen/deliverables/printer.py) reads it to add a `C_art` column.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from poolgen.deliverables.identity import barcode_digits, barcode_numbers, virn_values
from poolgen.errors import RunError
from poolgen.game.model import Game, Pool
from poolgen.game.play import AreaPlay
from poolgen.game.spots import area_spots

Alphabet = dict[int, tuple[str, str, str]]  # stored value -> (spec code, text, caption)
SUFFIXES = ("", "_text", "_caption")  # a spot's three columns: its code, text and caption


def spot_alphabets(game: Game, layout_columns: list[str]) -> dict[str, Alphabet] | None:
    """Each layout column's alphabet, or None if a column is not covered."""
    rules: list[tuple[str, Alphabet]] = []
    for area in game.play.areas if isinstance(game.play, AreaPlay) else ():
        for suffix, lists in area_spots(area):  # the style's own rule (its contract, section 4)
            symbols = [s for name in lists for s in getattr(area.params, name)]
            alphabet = {i: (s.code, s.symbol, s.caption) for i, s in enumerate(symbols)}
            rules.append((area.id + suffix, alphabet))
    out = {}
    for column in layout_columns:
        match = [a for prefix, a in rules if column.startswith(prefix) and column[len(prefix):].isdigit()]
        if not match:
            return None
        out[column] = match[0]
    return out


def art_spots(game: Game) -> list[dict[str, Any]]:
    """The manifest's `print.art`: [{"spots": area id + column suffix, "symbols": [{"code", "art"}]}]
    for every spot prefix that shows a symbol with art, in the areas' and their styles' order; a
    spot's art is that of the code it shows (the loader refuses two symbols of one code on a spot)."""
    out = []
    for area in game.play.areas if isinstance(game.play, AreaPlay) else ():
        for suffix, lists in area_spots(area):
            symbols = [{"code": s.code, "art": s.art} for name in lists for s in getattr(area.params, name)
                       if s.art is not None]
            if symbols:
                out.append({"spots": area.id + suffix, "symbols": symbols})
    return out


def identity_numbers(game: Game, pool: Pool, df: pl.DataFrame, seed: bytes,
                     virn_digits: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ticket's barcode number and validation number, in pool order, as integers."""
    assert game.number is not None  # a printed game's number is required (poolgen/loader/printed.py)
    codes = barcode_numbers(game.number, df["book"].to_numpy(), df["ticket_no"].to_numpy())
    return codes, virn_values(seed, game.id, pool.id, df.height, virn_digits)


def imaging_table(game: Game, pool: Pool, df: pl.DataFrame, numbers: tuple[np.ndarray, np.ndarray],
                  virn_digits: int, layout_columns: list[str],
                  rows: tuple[int, int] | None = None) -> pl.DataFrame | None:
    """The pool's imaging table, or with `rows` (first, count) those rows of it; None if its layout
    cannot be mapped to symbols generically.

    `numbers`: the tickets' barcode and validation numbers (`identity_numbers`). A spot's code, text
    and caption are gathered from its alphabet's three short string columns by the stored value (one
    polars gather of the three per spot, no Python object per ticket)."""
    alphabets = spot_alphabets(game, layout_columns)
    if alphabets is None:
        return None
    codes, virn = numbers
    if rows is not None:  # a row group of the file (deliverables/write.py): 16 bytes a text value
        first, count = rows
        df = df.slice(first, count)
        codes, virn = codes[first:first + count], virn[first:first + count]
    assert game.number is not None  # a printed game's number is required (poolgen/loader/printed.py)
    columns = [pl.Series("barcode", codes).cast(pl.String).str.zfill(barcode_digits(game.number)),
               pl.Series("virn", virn).cast(pl.String).str.zfill(virn_digits),
               df["book"], df["ticket_no"]]
    for c in layout_columns:
        alphabet = alphabets[c]
        top = max(alphabet) + 1
        values = df[c].to_numpy()
        if values.size and (values.min() < 0 or values.max() >= top or any(
                int(v) not in alphabet for v in np.flatnonzero(np.bincount(values.astype(np.intp))))):
            raise RunError(f"pool {pool.id}: column {c} holds a code its contract does not map")
        symbols = [alphabet.get(v, ("?", "?", "?")) for v in range(top)]
        shown = pl.DataFrame({c + suffix: [s[k] for s in symbols] for k, suffix in enumerate(SUFFIXES)},
                             schema=dict.fromkeys((c + suffix for suffix in SUFFIXES), pl.String))
        at = df[c] if df[c].dtype.is_integer() else df[c].cast(pl.Int64)  # rows, never a boolean mask
        columns += shown[at].get_columns()  # one gather of the three columns (not one a column)
    table = pl.DataFrame(columns)
    return table if rows is None else table.rechunk()  # a row group: one chunk, written as one
