"""The spec format's two promises, from the command line, for mutated specs: a spec `poolgen check`
accepts generates and verifies (`generate`, then audit's `verify` with the spec: exit 0), and anything
else is one line naming the file and the field, exit 2, no traceback (docs/new-game.md).

The base is Happy Holidays cut to one pool of 3,000 tickets in 10 packs of 300 (no published figures:
a designed table), 880 winners ($1 tier of 395) paying $1,770.00. Every case is a change of that
document: a field's type, sign, size or spelling; sections that are not tables; pack parameters at the
edge of what the counts allow; play parameters at the edge of what the style lays out. A case pinned to
a field must be refused naming it; a case pinned "generates" must be accepted and verify; the rest may
go either way, but only one of those two ways. A hypothesis search adds random one-field changes."""

from __future__ import annotations

import copy
import json
import math
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import SEED_A, small_happy_holidays


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return json.dumps(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_value(x)}" for k, x in v.items()) + " }"
    return "[ " + ", ".join(_value(x) for x in v) + " ]"


def _dumps(doc: dict[str, Any]) -> str:
    """A TOML document of `doc` (tables as [k], lists of tables as [[k]], everything else inline)."""
    def table_list(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)
    lines = [f"{json.dumps(k)} = {_value(v)}" for k, v in doc.items() if not isinstance(v, dict)
             and not table_list(v)]
    for k, v in doc.items():
        if isinstance(v, dict):
            lines += ["", f"[{json.dumps(k)}]"] + [f"{json.dumps(kk)} = {_value(vv)}" for kk, vv in v.items()]
    for k, v in doc.items():
        if table_list(v):
            for item in v:
                lines += ["", f"[[{json.dumps(k)}]]"] + [f"{json.dumps(kk)} = {_value(vv)}"
                                                         for kk, vv in item.items()]
    return "\n".join(lines) + "\n"


def _base(folder: Path) -> dict[str, Any]:
    doc = tomllib.loads(small_happy_holidays(folder, 3000).read_text())
    del doc["published"]
    doc["game"]["prize_table"] = "designed"
    for tier in doc["tiers"]:
        tier.pop("published_cost", None)
    doc["tiers"][1]["count"] = 395  # 880 winners: 88 a pack on average, exactly
    return doc


def _tier(doc: dict[str, Any], tier_id: str) -> dict[str, Any]:
    return next(t for t in doc["tiers"] if t["id"] == tier_id)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set the field at the dotted `path` ("tiers.0.count") to `value`; DROP removes it."""
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        key: Any = int(last) if last.isdigit() else last
        if value is DROP:
            del node[key]
        else:
            node[key] = copy.deepcopy(value)
    return change


DROP = object()
GENERATES = "generates"
EITHER = "either"


def _packs(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return _set("packs", fields)


def _with_count(tier_id: str, count: int, change: Callable[[dict[str, Any]], None]):
    def both(doc: dict[str, Any]) -> None:
        _tier(doc, tier_id)["count"] = count
        change(doc)
    return both


# name: (change of the base document, or raw bytes; the field refused, GENERATES or EITHER)
CASES: dict[str, tuple[Any, str]] = {
    "float money": (_set("printed.price", 1.0), "printed.price"),
    "negative price": (_set("printed.price", "-1.00"), "printed.price"),
    "sub-cent price": (_set("printed.price", "1.001"), "printed.price"),
    "zero pool": (_set("printed.pool_tickets", 0), "printed.pool_tickets"),
    "huge pool": (_set("printed.pool_tickets", 2**63 - 1), "printed."),
    "float count": (_set("tiers.0.count", 200.0), "tiers[0].count"),
    "negative count": (_set("tiers.0.count", -1), "tiers[0].count"),
    "huge count": (_set("tiers.0.count", 10**18), "tiers"),
    "counts beyond the pool": (_set("tiers.0.count", 2900), "tiers"),
    "duplicate tier names": (_set("tiers.1.id", "free"), "tiers[1].id"),
    "tier named lose": (_set("tiers.0.id", "lose"), "tiers[0].id"),
    "prize that disagrees": (_set("tiers.1.prize", "$2"), "tiers[1].prize"),
    "float symbol value": (_set("symbols.1.value", 1.0), "symbols[1].value"),
    "unicode game id": (_set("game.id", "jeu_é"), "game.id"),
    "very long game id": (_set("game.id", "x" * 5000), "game.id"),
    "an escape sequence in the game's name": (_set("game.name", "Happy\x1b[2JHolidays"), "game.name"),
    "a NUL in a symbol's caption": (_set("symbols.1.caption", "ONE\x00"), "symbols[1].caption"),
    "unknown section": (_set("bogus", {"a": 1}), "bogus"),
    "misspelled key": (_set("printed.pool_tikets", 3000), "printed.pool_tikets"),
    "array for a table": (_set("printed", [{"price": "1.00"}]), "printed"),
    "table for an array": (_set("tiers", {"id": "x"}), "tiers"),
    "string for areas": (_set("areas", "play"), "areas"),
    "no format": (_set("format", DROP), "format"),
    "format 3": (_set("format", 3), "format"),
    "unknown style": (_set("areas.0.style", "bingo_deluxe"), "areas[0].style"),
    "duplicate symbol": (lambda d: d["symbols"].append(dict(d["symbols"][1])), "symbols[6].code"),
    "symbol group nothing uses": (lambda d: d["symbols"].append({"group": "x", "code": "1", "symbol": "1"}),
                                  "symbols[6].group"),
    "value on a free ticket": (_set("symbols.0.value", "1.00"), "symbols[0]"),
    "match more than spots": (_set("areas.0.match", 7), "areas[0].match"),
    "neighbours blank": (_packs(neighbours=""), "packs.neighbours"),
    "min winners above max": (_packs(min_winners=90, max_winners=80), "packs.max_winners"),
    "min winners above the average": (_packs(min_winners=89), "packs.min_winners"),
    "cap below the count": (_packs(caps=[{"tiers": ["5"], "at_most": 4}]), "packs.caps[0].at_most"),
    "spacing of one": (_packs(spacing=[{"tiers": ["100"], "min_distance": 1}]), "packs.spacing[0]"),
    "spacing beyond a pack": (_packs(spacing=[{"tiers": ["100"], "min_distance": 301}]), "packs.spacing[0]"),
    "floor beyond the pool": (_packs(min_prize_value="177.01"), "packs.min_prize_value"),
    "floor as a float": (_packs(min_prize_value=150.0), "packs.min_prize_value"),
    "packs as an array": (_set("packs", [{"min_winners": 1}]), "packs"),
    "caps an empty list": (_packs(caps=[]), "packs.caps"),
    "max winners a whole pack": (_packs(max_winners=300), "packs.max_winners"),
    "a cap of a whole pack": (_packs(caps=[{"prize": "1.00", "at_most": 300}]), "packs.caps[0].at_most"),
    # at the edge: exactly what the counts allow
    "min winners exactly the average": (_packs(min_winners=88), GENERATES),
    "max winners exactly the average": (_packs(max_winners=88), GENERATES),
    "caps x packs exactly a tier's count": (
        _with_count("5", 40, _packs(caps=[{"tiers": ["5"], "at_most": 4}])), GENERATES),
    "spacing a whole pack": (_packs(spacing=[{"tiers": ["20", "100"], "min_distance": 300}]), GENERATES),
    "spacing a pack's half, two a pack": (_with_count("5", 20, _packs(spacing=[{"tiers": ["5"],
                                                                               "min_distance": 150}])),
                                          GENERATES),
    "just-fitting spacing beside a floor": (_packs(min_prize_value="1.00",
                                                   spacing=[{"tiers": ["1", "2"], "min_distance": 2}]),
                                            GENERATES),
    "floor exactly reachable": (_packs(min_prize_value="177.00"), EITHER),
    "floor and winners at their edges": (_packs(min_winners=88, max_winners=88, min_prize_value="170.00"),
                                         EITHER),
    # play at its edges
    "one more spot": (_set("areas.0.spots", 7), EITHER),
    "match every spot": (_set("areas.0.match", 6), "packs.neighbours"),
    "match two": (_set("areas.0.match", 2), EITHER),
    "a prize only one layout shows": (_set("areas.0.spots", 3), "packs.neighbours"),
    "one layout a prize, neighbours off": (
        lambda d: (_set("areas.0.spots", 3)(d), _packs(neighbours="off")(d)), GENERATES),
    "max wins huge": (_set("play.max_wins", 2**63 - 1), EITHER),
    "a tier of none": (_set("tiers.4.count", 0), GENERATES),
    # the bytes themselves
    "empty file": (b"", "format"),
    "not UTF-8": (b"format = 2\n\xff\xfe = 1\n", "not valid TOML: not UTF-8 text"),
    "NUL bytes": (b"format = 2\x00\n", "not valid TOML"),
    "deep nesting": (b"x = " + b"[" * 40 + b"]" * 40 + b"\n", "not a spec"),
    "deep tables": (b"[" + b".".join([b"a"] * 200) + b"]\n", "format"),
}


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fuzz")
    made = CliRunner().invoke(app, ["keys", "new", str(root / "keys")])
    assert made.exit_code == 0, made.output
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    return {"root": root, "seed": seed, "key": root / "keys" / "signing-key.pem",
            "public": root / "keys" / "signing-key.pub.pem"}


def _refused(result: Any, field: str | None) -> None:
    """Exit 2, one stderr line `poolgen: error: DIR/g.toml: FIELD...` (the spec as given), no traceback."""
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and len(lines) == 1, (result.exit_code, result.output)
    assert re.match(r"poolgen: error: \S*/g\.toml: " + re.escape(field or ""), lines[0]), lines[0]
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


def _accepted_generates_and_verifies(tools: dict[str, Path], spec: Path, folder: Path) -> None:
    made = CliRunner().invoke(app, ["generate", str(spec), "--pool", "p1", "--seed-file", str(tools["seed"]),
                                    "--key", str(tools["key"]), "--out", str(folder), "--run-id", "r",
                                    "--workers", "1"])
    assert made.exit_code == 0, (made.output, made.exception)
    verified = CliRunner().invoke(audit_app, ["verify", str(folder / "r"), "--public-key",
                                              str(tools["public"]), "--spec", str(spec)])
    assert verified.exit_code == 0, verified.output


def _run(tools: dict[str, Path], folder: Path, text: bytes, want: str) -> None:
    spec = folder / "g.toml"
    spec.write_bytes(text)
    result = CliRunner().invoke(app, ["check", str(spec)])
    assert "Traceback" not in result.output
    if want == GENERATES:
        assert result.exit_code == 0, result.output
    elif want != EITHER:
        _refused(result, want)
    if result.exit_code == 0:
        _accepted_generates_and_verifies(tools, spec, folder / "runs")
    else:
        _refused(result, None)


@pytest.mark.parametrize("case", list(CASES))
def test_a_mutated_spec_is_refused_in_one_line_or_generates_and_verifies(tools, tmp_path, case):
    change, want = CASES[case]
    if isinstance(change, bytes):
        text = change
    else:
        doc = _base(tmp_path)
        change(doc)
        text = _dumps(doc).encode()
    _run(tools, tmp_path, text, want)


def _fields(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _fields(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _fields(v, (*path, i))
    return out


VALUES = st.one_of(st.integers(-2, 400), st.sampled_from([0, 2**63 - 1, -(2**63), 1.5, True, "", "0", "-1.00",
                                                          "0.001", "1e3", "é\u202e", [], {}, [1], {"x": 1}]),
                   st.text(max_size=8))


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_one_field_changed_is_refused_in_one_line_or_checks(tools, tmp_path_factory, data):
    """Random one-field changes (type, sign, size, text, a table or list, a field dropped): check exits 0
    or refuses in one line naming the file (generate and verify are the table's part: they are slow)."""
    folder = tmp_path_factory.mktemp("any")
    doc = _base(folder)
    path = data.draw(st.sampled_from(_fields(doc)))
    node: Any = doc
    for p in path[:-1]:
        node = node[p]
    value = data.draw(st.one_of(st.just(DROP), VALUES))
    if value is DROP:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    spec = folder / "g.toml"
    spec.write_text(_dumps(doc))
    result = CliRunner().invoke(app, ["check", str(spec)])
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        _refused(result, None)
