"""Field access for the spec loader: every problem with a field becomes one SpecError naming the
file and the field (`<file>: <field>: <reason>`), and every number read is within `poolgen.limits`."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal, TypeVar, overload

from poolgen.errors import SpecError
from poolgen.files.read import display
from poolgen.limits import bounded_decimal
from poolgen.loader.bounds import bound_money
from poolgen.money import USD, parse_printed

_KIND_NAMES: dict[type, str] = {str: "string", list: "list", dict: "table", int: "whole number"}
_T = TypeVar("_T")


class Reader:
    """Field access that turns every problem into one SpecError naming file and field (the
    `poolgen.game.play.FieldReader` an area style reads with). Tables are the parsed TOML's."""

    def __init__(self, path: Path) -> None:
        self.file = display(path)  # as the user typed it: two folders' game.toml are told apart
        self.currency = USD  # the spec's `game.currency`, read first (poolgen/loader/load.py)

    def fail(self, where: str, why: str) -> SpecError:
        return SpecError(f"{self.file}: {where}: {why}")

    def table(self, parent: Mapping[str, Any], key: str, where: str, allowed: set[str]) -> dict[str, Any]:
        value = parent.get(key)
        if not isinstance(value, dict):
            raise self.fail(where, "missing table" if value is None else "must be a table")
        self.known(value, where, allowed)
        return value

    def no_symbols(self, doc: Mapping[str, Any]) -> SpecError:
        """The spec has no `symbols` list; named where a `symbols = [...]` written below a table's header
        went (TOML reads it as that table's key)."""
        why = "missing: a spec declares its symbols as [[symbols]]"
        for key, value in doc.items():
            tables = [(key, value)] if isinstance(value, dict) else \
                [(f"{key}[{i}]", t) for i, t in enumerate(value) if isinstance(t, dict)] \
                if isinstance(value, list) else []
            holder = next((where for where, t in tables if "symbols" in t), None)
            if holder is not None:
                return self.fail("symbols", f"{why} ({holder} holds a 'symbols' key: TOML reads a key "
                                            "written below a table's header as that table's; write it above "
                                            "the first table)")
        return self.fail("symbols", why)

    def known(self, table: Mapping[str, Any], where: str, allowed: set[str]) -> None:
        for k in table:
            if k not in allowed:
                raise self.fail(f"{where}.{k}" if where else k, "unknown field")

    @overload
    def get(self, table: Mapping[str, Any], key: str, where: str, kind: type[_T],
            required: Literal[True] = True) -> _T: ...

    @overload
    def get(self, table: Mapping[str, Any], key: str, where: str, kind: type[_T],
            required: bool) -> _T | None: ...

    @overload
    def get(self, table: Mapping[str, Any], key: str, where: str, kind: tuple[type, ...],
            required: bool = True) -> Any: ...

    def get(self, table: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...],
            required: bool = True) -> Any:
        """`table[key]` if it is a `kind` (a whole number is never a bool); None when absent and
        not `required`."""
        if key not in table:
            if required:
                raise self.fail(f"{where}.{key}", "missing field")
            return None
        value = table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(f"{where}.{key}", f"must be a whole number, not {value!r}")
        if not isinstance(value, kind):
            kinds = kind if isinstance(kind, tuple) else (kind,)
            name = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
            raise self.fail(f"{where}.{key}", f"must be a {name}, not {value!r}")
        return value

    def count(self, table: Mapping[str, Any], key: str, where: str) -> int:
        value = self.get(table, key, where, int)
        if value < 0:
            raise self.fail(f"{where}.{key}", f"must not be negative, got {value}")
        return value

    @overload
    def money(self, table: Mapping[str, Any], key: str, where: str,
              required: Literal[True] = True) -> int: ...

    @overload
    def money(self, table: Mapping[str, Any], key: str, where: str, required: bool) -> int | None: ...

    def money(self, table: Mapping[str, Any], key: str, where: str, required: bool = True) -> int | None:
        """Cents of a money field, a decimal string ("2.50"); None when absent and not `required`."""
        if key not in table:
            if required:
                raise self.fail(f"{where}.{key}", "missing field")
            return None
        value = table[key]
        if isinstance(value, float):
            raise self.fail(f"{where}.{key}", f"money must be a decimal string such as "
                                              f"\"{value:.2f}\", not the float {value!r}")
        if not isinstance(value, str):
            raise self.fail(f"{where}.{key}", f"money must be a decimal string, not {value!r}")
        try:
            cents, well_formed = parse_printed(value, self.currency)
        except ValueError as exc:
            raise self.fail(f"{where}.{key}", str(exc)) from None
        if not well_formed:
            raise self.fail(f"{where}.{key}", f"{value!r} is not a well-formed amount")
        return bound_money(self, f"{where}.{key}", cents, self.currency)

    def decimal(self, table: Mapping[str, Any], key: str, where: str) -> Decimal:
        value = self.get(table, key, where, str)
        try:
            number = bounded_decimal(value)
        except ValueError as exc:
            raise self.fail(f"{where}.{key}", str(exc)) from None
        if not number.is_finite() or number < 0:
            raise self.fail(f"{where}.{key}", f"{value!r} is not a non-negative number")
        return number
