"""Fixed-width records for the press (docs/validation.md, section 4, "Fixed-width for the press"): the
CSV export's fields in its order, one record a ticket, each field padded to a width fixed by the game
(the widest value the field can take), so that every pool of one order gets the same layout.

Field types: N a whole number, right-aligned, zero-filled; D a digit string of exactly its width
(barcode, VIRN: their leading zeros are part of them); A printable ASCII text, left-aligned,
space-filled. A text field's width is the longest value of its spot's symbol table (code, text,
caption, or art file); the refused cases (a value not printable ASCII, or ending in a space, which the
padding would swallow) are refused for the whole table, whatever this run's tickets show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from poolgen.deliverables.identity import barcode_digits
from poolgen.deliverables.imaging import spot_alphabets
from poolgen.errors import RunError
from poolgen.game.model import Game, Printed

__all__ = ["Field", "art_prefix", "fixed_layout", "layout_csv", "press_bytes", "records"]

NUMBER, DIGITS, TEXT = "N", "D", "A"
LAYOUT_HEADER = "field,start,end,width,type\n"


@dataclass(frozen=True)
class Field:
    """One field of a record: columns start .. end (1-based, inclusive) of every record."""

    name: str
    start: int
    width: int
    type: str  # NUMBER, DIGITS or TEXT

    @property
    def end(self) -> int:
        return self.start + self.width - 1


def art_prefix(spot: str, art: Mapping[str, Mapping[str, str]]) -> str | None:
    """The `print.art` spot prefix a spot column belongs to (the prefix, then digits), if any."""
    return next((p for p in art if spot.startswith(p) and spot[len(p):].isdigit()), None)


def fixed_layout(game: Game, columns: list[str], art: Mapping[str, Mapping[str, str]]) -> list[Field]:
    """The layout of the export's `columns` (`sequence`, the imaging columns, the art columns) for a run
    of `game`: from the game's order and symbol tables and the manifest's art, never from the tickets."""
    sales = game.sales
    if not isinstance(sales, Printed):
        raise RunError(f"{game.file}: not a printed game; an eInstant has no imaging file")
    books = sum(p.books or 0 for p in game.pools)
    assert game.number is not None  # a printed game's number is required (poolgen/loader/printed.py)
    known = {"sequence": (NUMBER, len(str(sales.order_tickets))),
             "barcode": (DIGITS, barcode_digits(game.number)),
             "virn": (DIGITS, sales.virn_digits), "book": (NUMBER, len(str(books - 1))),
             "ticket_no": (NUMBER, len(str(sales.tickets_per_book - 1)))}
    spots = [c for c in columns if c not in known and not c.endswith(("_text", "_caption", "_art"))]
    alphabets = spot_alphabets(game, spots)
    if alphabets is None:
        raise RunError(f"{game.file}: the imaging columns are not this spec's spots")
    values: dict[str, list[str]] = {}
    for spot, alphabet in alphabets.items():
        for k, suffix in enumerate(("", "_text", "_caption")):
            values[spot + suffix] = [symbol[k] for symbol in alphabet.values()]
        prefix = art_prefix(spot, art)
        if prefix is not None:
            values[spot + "_art"] = ["", *art[prefix].values()]  # empty: a symbol with no art
    fields, start = [], 1
    for name in columns:
        if name in known:
            kind, width = known[name]
        elif name in values:
            kind, width = TEXT, max([1, *(len(_ascii(game, name, v)) for v in values[name])])
        else:
            raise RunError(f"{game.file}: imaging column {name} is not one of this spec's spots")
        fields.append(Field(name, start, width, kind))
        start += width
    return fields


def _ascii(game: Game, name: str, value: str) -> str:
    """`value` if every character is printable ASCII or the game's currency sign (one byte in ISO
    8859-15: docs/validation.md section 4)."""
    if not all(" " <= ch <= "~" or ch == game.currency.sign for ch in value):
        raise RunError(f"{game.file}: {name}: {value!r} is not printable ASCII; fixed-width records "
                       f"are ASCII only (--format csv writes UTF-8)")
    if value.endswith(" "):
        raise RunError(f"{game.file}: {name}: {value!r} ends in a space, which a fixed-width "
                       f"field's padding would swallow (--format csv keeps it)")
    return value


def press_bytes(csv: bytes, sign: str) -> bytes:
    """Records as polars writes them (UTF-8) as the press reads them: ISO 8859-15, one byte a character
    (ASCII as is; the game's currency sign £ 0xA3, € 0xA4)."""
    return csv if " " <= sign <= "~" else csv.replace(sign.encode(), sign.encode("iso8859_15"))


def layout_csv(fields: list[Field]) -> bytes:
    """The layout file: `field,start,end,width,type`, one row a field in record order."""
    rows = "".join(f"{f.name},{f.start},{f.end},{f.width},{f.type}\n" for f in fields)
    return (LAYOUT_HEADER + rows).encode("ascii")


def records(table: pl.DataFrame, fields: list[Field], where: str, sign: str = "$") -> pl.DataFrame:
    """`table` (the export's text columns, in the layout's order) as one column of records, each exactly
    the layout's length (text: printable ASCII or the game's currency `sign`); RunError naming the first
    field a value of which does not fit."""
    text = r"^[ -~]*$" if " " <= sign <= "~" else rf"^[ -~{sign}]*$"
    if table.columns != [f.name for f in fields]:
        raise RunError(f"{where}: its columns are not those of the layout")
    checks = []
    for f in fields:
        col = pl.col(f.name)
        fits = col.str.len_chars() == f.width if f.type == DIGITS else col.str.len_chars() <= f.width
        checks.append((f, (fits & col.str.contains(text if f.type == TEXT else r"^[0-9]+$"))
                       .fill_null(False)))
    if not table.select(pl.all_horizontal([c for _, c in checks]).all()).item():
        f, fits = next((f, c) for f, c in checks if not table.select(c.all()).item())
        value = table.filter(~fits)[f.name][0]
        raise RunError(f"{where}: {f.name} {value!r} does not fit the layout's field ({f.type}, {f.width} "
                       f"characters)")
    parts = [pl.col(f.name).str.zfill(f.width) if f.type == NUMBER else pl.col(f.name).str.pad_end(f.width)
             for f in fields]
    return table.select(pl.concat_str(parts).alias("record"))
