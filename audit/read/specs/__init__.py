"""What a spec file says each pool must hold, read with tomllib alone (step 5 with --spec).

`read_spec(path)` is the one reader of both spec formats: format 1, an eInstant of a style
(einstant.py), and format 2, a game of play styles (printed.py). It knows the format; the model it
returns (model.py `SpecExpectation`) does not say which it came from. money.py reads a spec's
amounts as poolgen's loader does. Before the model is built, whatever poolgen's loader refuses is
refused naming the same field: the fields every game has (shapes.py, with duel_play.py and
match_layout.py for the eInstant styles), an area's style fields (area_fields.py, area_lists.py), unknown
and unused fields (known.py, unused.py), two symbols one spot prints alike (told_apart.py), a win its
area's style does not take (wins.py), and [packs] or [blocks] rules against the pools (pack_rules.py;
packs.py reads the rules for the steps).
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from audit.errors import UnusableInput
from audit.read.limits import MAX_SPEC_BYTES, bound_toml, printable_text, read_input
from audit.read.specs.einstant import read_einstant
from audit.read.specs.known import refuse_unknown
from audit.read.specs.model import Claim, SpecExpectation
from audit.read.specs.printed import read_printed
from audit.read.specs.shapes import refuse_misshapen

__all__ = ["Claim", "SpecExpectation", "read_spec"]


def read_spec(path: Path) -> SpecExpectation:
    """What the spec at `path` says a run holds; UnusableInput naming the file and what is wrong."""
    raw = read_input(path, "spec", MAX_SPEC_BYTES)
    name, digest = Path(path).name, hashlib.sha256(raw).hexdigest()
    if raw.startswith(b"\xef\xbb\xbf"):  # TOML has none; tomllib says "Invalid statement (at line 1...)"
        raise UnusableInput(f"{path}: not a TOML spec: it starts with a byte-order mark; save it as UTF-8 "
                            "without one")
    try:
        text = raw.decode("utf-8")
        bound_toml(text)
        doc = tomllib.loads(text)
        printable_text(doc)
        fmt = doc.get("format")  # exactly the int 1 or 2 (2.0 == 2 and True == 1 in Python)
        if type(fmt) is not int or fmt not in (1, 2):
            raise UnusableInput("format: missing field" if fmt is None else
                                f"format: must be 1 or 2 (a game of play areas), not {fmt!r}")
        refuse_misshapen(doc)  # a field of every game missing or of the wrong kind, named as the loader does
        refuse_unknown(doc)  # a field nothing uses, named as poolgen's loader names it
        if fmt == 2:  # a game of play styles
            return read_printed(doc, name, digest)
        return read_einstant(doc, name, digest)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UnusableInput(f"{path}: not a TOML spec: {exc}") from None
    except UnusableInput as exc:  # a field's value, named by where it is
        raise UnusableInput(f"{path}: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError, RecursionError,
            StopIteration, AttributeError) as exc:
        # ArithmeticError: decimal.InvalidOperation, ZeroDivisionError, OverflowError; StopIteration: a
        # lookup (`next`) of a code or id the spec lists nowhere
        why = "a code or id names nothing the spec lists" if isinstance(exc, StopIteration) else \
            exc or "a value is out of range"
        raise UnusableInput(f"{path}: not a spec this verifier can read ({type(exc).__name__}: {why})") \
            from None
