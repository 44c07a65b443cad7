"""audit/read/specs: a spec with one field deleted, or an unknown field added, in any table (through the
first two items of each list), is refused by audit's reader in exactly poolgen's loader's words, or taken
by both: a user reads `poolgen check` and `verify --spec` say the same thing. A sweep found audit's
reader leaving out the loader's reasons (an area_match game's wild and bonus key, `spots_per_area`,
`match_pays`, a tier count `printed.split` would spread) and naming `amount_multipliers` otherwise."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

SPECS = ["primetime_payout", "examples/id_king_cashword", "happy_holidays"]


def _tables(value: object, at: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    if isinstance(value, dict):
        yield at, value
        for key, item in value.items():
            yield from _tables(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:2]):
            yield from _tables(item, (*at, i))


def _said(spec: Path) -> list[str | None]:
    out: list[str | None] = []
    for read, error in ((load_spec, SpecError), (read_spec, UnusableInput)):
        try:
            read(spec)
            out.append(None)
        except error as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize("name", SPECS)
def test_both_readers_say_the_same_words_for_a_deleted_or_unknown_field(tmp_path, name):
    base = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text("utf-8"))
    spec, differ = tmp_path / "g.toml", []
    for at, table in list(_tables(base)):
        for edit in [("add", "zz_extra"), *(("del", key) for key in table)]:
            doc = copy.deepcopy(base)
            inner = doc
            for key in at:
                inner = inner[key]
            if edit[0] == "add":
                inner[edit[1]] = 1
            else:
                del inner[edit[1]]
            spec.write_text(dumps(doc), encoding="utf-8")
            loader, reader = _said(spec)
            if loader != reader:
                differ.append(f"{edit[0]} {'.'.join(map(str, (*at, edit[1])))}: {loader} / {reader}")
    assert differ == []
