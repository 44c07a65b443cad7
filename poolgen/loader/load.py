"""Loading a spec file into a `Game`: the only code that knows spec file formats.

`load_spec(path)` reads the file through the input boundary (poolgen/files/read.py), parses the
TOML with its nesting and digit runs bounded, bounds every value (poolgen/loader/bounds.py), and
hands the document to its form by `format`: 1, an eInstant of a ticket-wide style
(poolgen/loader/einstant.py); 2, a printed game of play areas (poolgen/loader/printed.py). Anything it
cannot accept is one `SpecError("<file>: <field>: <reason>")`: an unknown or missing field, a float
where money belongs, a negative or non-integer count, a count that does not fit in or divide into
a pool, an undeclared symbol, a duplicate tier, a parameter a style cannot lay out.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from poolgen.errors import SpecError
from poolgen.files.read import display, parse_toml, read_input
from poolgen.game.model import Game
from poolgen.limits import MAX_SPEC_BYTES
from poolgen.loader.bounds import bound_values
from poolgen.loader.currency import read_currency
from poolgen.loader.einstant import read_einstant
from poolgen.loader.printed import read_printed
from poolgen.loader.reader import Reader

__all__ = ["FORMS", "default_spec_dir", "load_spec"]

FORMS = {1: read_einstant, 2: read_printed}  # `format` -> the form that reads it


def default_spec_dir() -> Path:
    """`specs/` in the working folder, else the one beside the installed package (a source tree)."""
    here = Path("specs")
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "specs"


def load_spec(path: Path | str) -> Game:
    """Read and validate one spec file."""
    path = Path(path)
    r = Reader(path)
    raw_bytes = read_input(path, "spec", SpecError, MAX_SPEC_BYTES)
    if display(path.name) != path.name:
        raise SpecError(f"{display(path)}: the file name is not UTF-8 text; rename the spec file")
    doc = parse_toml(raw_bytes, r.file, SpecError)
    bound_values(r, doc)
    fmt = doc.get("format")  # read before any field a form reads
    if fmt is None or isinstance(fmt, bool) or not isinstance(fmt, int) or fmt not in FORMS:
        raise r.fail("format", "missing field" if fmt is None else
                     f"must be 1 or 2 (a game of play areas), not {fmt!r}")
    r.currency = read_currency(r, doc)  # before any amount is read
    return FORMS[fmt](r, path, hashlib.sha256(raw_bytes).hexdigest(), doc)
