"""audit/read/specs: a spec poolgen's loader refuses is refused by audit's reader too, naming the same
field, and a spec the loader takes audit's reader takes. A sweep found audit reading specs the loader
refuses (a blank tier id or symbol code, a number where a caption or `how` must be text, published figures
and `layout.match_pays` of the wrong type; then a style field left out or out of its range, a win its
area's style does not take, [packs] and [blocks] rules no pool's counts allow, a missing
`free_ticket_cost`): `verify --spec` then held a run to a spec no generation could have used. Every field
found by walking the TOML of the shipped games and a few examples (the first item of each list), and
then every field inside their areas, the first tiers' wins and an eInstant's [play] and [layout] (each
nested table's and list's first item too), is deleted or set to "", -1, "x" or 0; whenever the loader
refuses the result, audit's reader must refuse it naming the field the loader names, and whenever the
loader takes it, audit's reader must take it. In-process, loader and reader only (no generation)."""

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

SPECS = ["wild_side", "happy_holidays", "hand_to_hand_tactics", "primetime_payout", "examples/cool_sevens",
         "examples/happy_holidays_packs", "examples/hand_to_hand_blocks"]
DELETE = "<deleted>"
HOSTILE: list[object] = [DELETE, "", -1, "x", 0]
# What the loader refuses by a search or by drawing, which audit's reader leaves to `check` and step 4
# (docs/new-game.md, section 3): (spec, field, value) -> the field the loader names; audit takes the spec.
SEARCHED = {("examples/pattern_bingo", "areas.0.patterns.0.shape", "x"): "areas[0].patterns[0]"}


def spec_paths(value: object, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every field of a TOML document, through the first item of each list."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*at, key)
            yield from spec_paths(item, (*at, key))
    elif isinstance(value, list) and value and isinstance(value[0], dict | list):
        yield from spec_paths(value[0], (*at, 0))


def _cases() -> list[tuple[str, tuple[Any, ...]]]:
    out = []
    for name in SPECS:
        doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
        out += [(name, path) for path in spec_paths(doc) if path != ("format",)]
    return out


CASES = _cases()


def _mutated(name: str, path: tuple[Any, ...], value: object) -> dict[str, Any]:
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    table = doc
    for key in path[:-1]:
        table = table[key]
    if value == DELETE:
        del table[path[-1]]
    else:
        table[path[-1]] = copy.deepcopy(value)
    return doc


def compare_readers(spec: Path, name: str, path: tuple[Any, ...], value: object) -> None:
    """The loader and audit's reader agree on the spec `name` with `path` set to `value`: both take it, or
    audit's reader refuses it naming the field the loader names (or it is one of SEARCHED)."""
    doc = _mutated(name, path, value)
    spec.write_text(dumps(doc), encoding="utf-8")
    try:
        load_spec(spec)
        field = None
    except SpecError as exc:
        field = str(exc).removeprefix(f"{spec}: ").split(": ")[0]
    try:
        read_spec(spec)
        said = None
    except UnusableInput as exc:
        said = str(exc)
    at = f"{'.'.join(map(str, path))} = {value!r}"
    searched = SEARCHED.get((name, ".".join(map(str, path)), value))
    if searched is not None:
        assert (field, said) == (searched, None), f"{at}: no longer a refusal only a search makes"
    elif field is None:
        assert said is None, f"{at}: the loader takes the spec, audit's reader says {said}"
    elif said is None or not said.startswith(f"{spec}: {field}"):
        pytest.fail(f"{at}: the loader refuses {field}, audit's reader "
                    f"{'takes the spec' if said is None else 'says ' + said}")


@pytest.mark.parametrize(("name", "path"), CASES, ids=[f"{n}:{'.'.join(map(str, p))}" for n, p in CASES])
def test_audits_reader_refuses_a_mutated_spec_the_loader_refuses_naming_the_same_field(tmp_path, name, path):
    for value in HOSTILE:
        compare_readers(tmp_path / "g.toml", name, path, value)


def _nested_cases() -> list[tuple[str, tuple[Any, ...]]]:
    """Every field inside every area, the first two tiers' wins and an eInstant's [play] and [layout]."""
    out = []
    for name in SPECS + NESTED:
        doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
        tables = [(("areas", i), a) for i, a in enumerate(doc.get("areas", []))]
        tables += [(("tiers", i, "wins", j), w) for i, t in enumerate(doc["tiers"][:2])
                   for j, w in enumerate(t.get("wins", []))]
        tables += [((key,), doc[key]) for key in ("play", "layout") if doc["format"] == 1 and key in doc]
        out += [(name, path) for at, table in tables for path in spec_paths(table, at)]
    swept = set(CASES)
    return [case for case in dict.fromkeys(out) if case not in swept]


# one example or two of every style beside SPECS' (symbol_count, crossword, bingo, maze, add_up, cards and
# its hold 'em deal and shared dealer, prize_box, yours_beats_theirs, ticket_multiplier, win-all key
# numbers, prize per line, area_match, poker_hand's chart, blackjack, a multiplier a pair,
# keno's games and key, blackjack's count legend)
NESTED = ["examples/five_alarm_flames", "examples/cashtastic_crossword", "examples/ar_10x_extra_crossword",
          "examples/pattern_bingo", "examples/arrow_maze", "examples/bank_roll", "examples/poker_showdown",
          "examples/holdem_poker", "examples/poker_night", "examples/lucky_pairs", "examples/high_card_duel",
          "examples/double_bag", "examples/red_hot_wild_7s", "examples/fl_loteria",
          "examples/two_million_blitz", "examples/lucky_reels_areas", "examples/poker_lotto_instant",
          "examples/pa_blackjack_10", "examples/power_duel",
          "examples/ne_scratch_keno", "examples/va_blackjack_classic"]
NESTED_CASES = _nested_cases()


@pytest.mark.parametrize(("name", "path"), NESTED_CASES,
                         ids=[f"{n}:{'.'.join(map(str, p))}" for n, p in NESTED_CASES])
def test_audits_reader_refuses_a_spec_of_a_mutated_area_win_or_style_table_as_the_loader_does(
        tmp_path, name, path):
    for value in HOSTILE:
        compare_readers(tmp_path / "g.toml", name, path, value)
