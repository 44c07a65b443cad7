"""A spec's fields of every game, refused when missing or of the wrong kind, before anything reads them,
naming the field as poolgen's loader names it (docs/new-game.md, sections 1 and 3: the [game] table, the
[[symbols]] and [[tiers]] of either format). Without this a missing [game] read as a KeyError and a
blank symbol code or a number for a caption passed `verify --spec` where `check` refuses the spec.

Each rule is (field, kind, required); kinds: text, code (text, not blank), name (a lower-case name:
a-z, 0-9, _, starting with a letter, at most 64), whole (an integer, never a boolean), count (a whole
number, not negative), game_number (0..999), decimal (a multiplier: text of a finite
number, not negative)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_misshapen"]

_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
_PRIZE_TABLES = ("regulation", "designed", "partly designed")
_KINDS = ("printed", "einstant")

_GAME = {1: [("name", "text", True), ("number", "whole", False), ("kind", "kind", False)],
         2: [("id", "name", True), ("number", "game_number", True), ("prize_table", "prize_table", False),
             ("name", "text", True), ("regulation", "text", True), ("source", "text", True)]}
_GAME_1_LATE = [("regulation", "text", True), ("source", "text", True)]
_SYMBOL = {1: [("code", "code1", True), ("group", "text", True), ("symbol", "text", True),
               ("caption", "text", False)],
           2: [("group", "text", True), ("code", "code2", True), ("symbol", "text", True),
               ("caption", "text", False)]}
_TIER = {1: [("multiplier", "decimal", True), ("count", "count", True)],
         2: [("id", "tier_id", True), ("get", "text", False), ("count", "count", True)]}
_BLANK = {"code1": "the play and the manifest name the symbol by its code",
          "code2": "a tier's wins and the manifest name the symbol by its code",
          "tier_id": "the pool files, the manifest and [packs] name a tier by its id"}


def _value(table: dict[str, Any], key: str, where: str, kind: str, required: bool) -> None:
    at = f"{where}.{key}"
    if key not in table:
        if required:
            raise UnusableInput(f"{at}: missing field")
        return
    value = table[key]
    if kind in ("whole", "count", "game_number"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnusableInput(f"{at}: must be a whole number, not {value!r}")
        if kind == "count" and value < 0:
            raise UnusableInput(f"{at}: must not be negative, got {value}")
        if kind == "game_number" and not 0 <= value <= 999:
            raise UnusableInput(f"{at}: must be 0..999 (three digits of every ticket id), not {value}")
        return
    if kind == "decimal":
        _decimal(value, at)
        return
    if not isinstance(value, str):
        raise UnusableInput(f"{at}: must be a string, not {value!r}")
    if kind in _BLANK and not value.strip():
        raise UnusableInput(f"{at}: must not be blank: {_BLANK[kind]}")
    if kind == "name" and not _NAME.fullmatch(value):
        raise UnusableInput(f"{at}: {value[:80]!r} is not a lower-case name (a-z, 0-9, _; at most 64)")
    if kind == "prize_table" and value not in _PRIZE_TABLES:
        raise UnusableInput(f"{at}: must be one of {', '.join(_PRIZE_TABLES)}, not {value!r}")
    if kind == "kind" and value not in _KINDS:
        raise UnusableInput(f"{at}: must be one of {', '.join(_KINDS)}, not {value!r}")


def _decimal(value: object, at: str) -> None:
    """A multiplier: a non-negative finite number, written as text ("4.5")."""
    if not isinstance(value, str):
        raise UnusableInput(f"{at}: must be a string, not {value!r}")
    try:
        number = Decimal(value.strip())
    except InvalidOperation:
        raise UnusableInput(f"{at}: {value!r} is not a number") from None
    if not number.is_finite() or number < 0:
        raise UnusableInput(f"{at}: {value!r} is not a non-negative number")


def _table(doc: dict[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key)
    if not isinstance(value, dict):
        raise UnusableInput(f"{key}: {'missing table' if value is None else 'must be a table'}")
    return value


def _rows(doc: dict[str, Any], key: str, missing: str) -> list[Any]:
    rows = doc.get(key)
    if not isinstance(rows, list) or not rows:
        raise UnusableInput(f"{key}: {missing}")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise UnusableInput(f"{key}[{i}]: must be a table")
    return rows


def refuse_misshapen(doc: dict[str, Any]) -> None:
    """UnusableInput naming the first field of [game], [[symbols]] or [[tiers]] that is missing or of
    the wrong kind, in poolgen's loader's words."""
    fmt = 2 if doc.get("format") == 2 else 1
    game = _table(doc, "game")
    for key, kind, required in _GAME[fmt]:
        _value(game, key, "game", kind, required)
    if fmt == 2:
        _table(doc, "printed")
        _rows(doc, "areas", "missing: a spec declares its play areas as [[areas]]")
    else:
        if "style" not in game and "id" in game:  # an eInstant names its game and style together
            raise UnusableInput("game.id: goes with game.style (a spec without a style names its rules)")
        if "style" not in game or game.get("kind", "einstant") != "einstant":
            return  # not an eInstant of a style: the reader refuses it as such
        _value(game, "style", "game", "text", True)
        _value(game, "id", "game", "name", True)
        _table(doc, "einstant")
    symbols = doc.get("symbols")
    if isinstance(symbols, list) and symbols:
        for i, s in enumerate(symbols):
            if isinstance(s, dict):
                for key, kind, required in _SYMBOL[fmt]:
                    _value(s, key, f"symbols[{i}]", kind, required)
    for i, t in enumerate(_rows(doc, "tiers", "missing: a spec declares its prize tiers as [[tiers]]")):
        for key, kind, required in _TIER[fmt]:
            _value(t, key, f"tiers[{i}]", kind, required)
    if fmt == 1:
        for key, kind, required in _GAME_1_LATE:
            _value(game, key, "game", kind, required)
