"""The spec format's two promises (a spec `check` accepts generates and verifies; anything else is one
line naming the file and the field, exit 2, no traceback) for the fields that came on 2026-12-05:
`game.number` of four digits (docs/validation.md section 2), a lines area's `symbols`
(docs/styles/lines.md 1a) and pack parameters beside `printed.split` (docs/new-game.md 2b), each at its
edges. A sweep of 102 such specs (game numbers 0..10^20, of every TOML type; `symbols` empty, of one,
twice, of numbers, lists, tables, booleans, unknown, unicode and bidirectional pictures, 300 long, with
decoys; splits under every pack parameter) and of every pack parameter's exact edge on California's
Tic Tac Bonus, generated from several seeds, found nothing wrong: these pin what it found.

Bases: Happy Holidays cut to one pool of 3,000 (tests/support `small_happy_holidays`); Tic Tac Bonus
(specs/examples/ca_tic_tac_bonus.toml, X's or O's, split evenly) cut to four pools of 5,000 and a last
of 300 (50 and 3 books of 100, every count a 900th), of which the last pool is generated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import ROOT, SEED_A, small_happy_holidays


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fields")
    assert CliRunner().invoke(app, ["keys", "new", str(root / "keys")]).exit_code == 0
    (root / "s.seed").write_text(SEED_A.hex() + "\n")
    (root / "s.seed").chmod(0o600)
    return {"seed": root / "s.seed", "key": root / "keys" / "signing-key.pem",
            "public": root / "keys" / "signing-key.pub.pem"}


def _tic_tac(text: str | None = None) -> str:
    """Tic Tac Bonus cut to an order of 20,300 (pools of 5,000; p5 of 300), counts a 900th (at least 1),
    its published figures dropped."""
    text = (ROOT / "specs/examples/ca_tic_tac_bonus.toml").read_text() if text is None else text
    for key, value in (("order_tickets", 20300), ("pool_tickets", 5000)):
        text = re.sub(rf"^{key} = \d+", f"{key} = {value}", text, count=1, flags=re.M)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 900)}", text, flags=re.M)
    return re.sub(r"^(winners|odds) = .*\n", "", text, flags=re.M)


def _designed(text: str) -> str:
    """Happy Holidays's spec without its published figures (the cut's would not reconcile with them)."""
    text = re.sub(r"^\[published\].*?\n\n", "", text, count=1, flags=re.M | re.S)
    text = re.sub(r"^published_cost = .*\n", "", text, flags=re.M)
    return text.replace('prize_table = "regulation"', 'prize_table = "designed"')


def _check(spec: Path):
    result = CliRunner().invoke(app, ["check", str(spec)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def _generates_and_verifies(tools: dict[str, Path], spec: Path, pool: str) -> None:
    assert _check(spec).exit_code == 0
    made = CliRunner().invoke(app, ["generate", str(spec), "--pool", pool, "--seed-file", str(tools["seed"]),
                                    "--key", str(tools["key"]), "--out", str(spec.parent / "runs"),
                                    "--run-id", "r", "--workers", "1"])
    assert made.exit_code == 0, (made.output, made.exception)
    verified = CliRunner().invoke(audit_app, ["verify", str(spec.parent / "runs" / "r"), "--public-key",
                                              str(tools["public"]), "--spec", str(spec), "--workers", "1"])
    assert verified.exit_code == 0, verified.output


def _refused(spec: Path, said: str) -> None:
    result = _check(spec)
    assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {spec}: {said}\n")


RANGE = "game.number: must be 0..9999 (the first 3 digits of every ticket id, 4 from 1000), not"


@pytest.mark.parametrize(("number", "said"), [
    ("999", None), ("1000", None), ("9999", None),
    ("10000", f"{RANGE} 10000"), ("-1", f"{RANGE} -1"),
    ('"2029"', "game.number: must be a whole number, not '2029'"),
    ("2029.0", "game.number: must be a whole number, not 2029.0"),
    ("true", "game.number: must be a whole number, not True"),
    ("100000000000000000000", "game.number: 100000000000000000000 is out of range (a whole number below "
                               "2**63)"),
])
def test_a_game_number_at_its_edges_generates_and_verifies_or_is_refused_naming_it(tools, tmp_path, number,
                                                                                     said):
    text = (ROOT / "specs/happy_holidays.toml").read_text()
    text = text.replace("\nnumber = 465\n", f"\nnumber = {number}\n")
    spec = small_happy_holidays(tmp_path, 3000, _designed(text))
    if said is None:
        _generates_and_verifies(tools, spec, "p1")
    else:
        _refused(spec, said)


SYMBOLS = "areas[0].symbols"


@pytest.mark.parametrize(("value", "said"), [
    ('["O", "X"]', None),
    ("[]", f"{SYMBOLS}: a list of 2 or more of the area's pictures (a single one is `symbol`)"),
    ('["X"]', f"{SYMBOLS}: a list of 2 or more of the area's pictures (a single one is `symbol`)"),
    ('["X", "O", "X"]', f"{SYMBOLS}[2]: 'X' twice"),
    (str(["X"] * 300).replace("'", '"'), f"{SYMBOLS}[1]: 'X' twice"),
    ('["X", 1]', f"{SYMBOLS}[1]: '1' is not one of the area's pictures"),
    ('[true, "O"]', f"{SYMBOLS}[0]: 'True' is not one of the area's pictures"),
    ('["X", ["O"]]', f"{SYMBOLS}[1]: \"['O']\" is not one of the area's pictures"),
    ('["x", "O"]', f"{SYMBOLS}[0]: 'x' is not one of the area's pictures"),
    ('["É", "O"]', f"{SYMBOLS}[0]: 'É' is not one of the area's pictures"),
    ('["X", "O", "\\u202e"]', f"{SYMBOLS}[2]: text holds a bidirectional control character (U+202E)"),
    ('"XO"', f"{SYMBOLS}: must be a list, not 'XO'"),
])
def test_a_lines_areas_symbols_generate_and_verify_or_are_refused_naming_them(tools, tmp_path, value, said):
    text = (ROOT / "specs/examples/ca_tic_tac_bonus.toml").read_text()
    assert text.count('symbols = ["X", "O"]') == 2
    spec = tmp_path / "g.toml"
    spec.write_text(_tic_tac(text.replace('symbols = ["X", "O"]', f"symbols = {value}", 1)))
    if said is None:
        _generates_and_verifies(tools, spec, "p5")
    else:
        _refused(spec, said)


POOL5 = "pool p5 (3 packs of 100)"


@pytest.mark.parametrize(("packs", "said"), [
    ("min_winners = 20", None),
    ("min_winners = 21", f"packs.min_winners: {POOL5} has 62 winners when every share rounds down, fewer "
                         "than 21 x 3 = 63"),
    ("max_winners = 32", None),
    ("max_winners = 31", f"packs.max_winners: {POOL5} has 94 winners when every share rounds up, more than "
                         "31 x 3 = 93"),
    ("min_winners = 20\nmax_winners = 32\nmin_prize_value = \"84.00\"", None),
    ("min_prize_value = \"84.01\"", "packs.min_prize_value: pool p5 (every share rounded down): no "
                                    "arrangement meeting the pack parameters found after 200 proposals per "
                                    "ticket from each of 4 starts (1 packs still short)"),
])
def test_pack_parameters_beside_a_split_at_their_edges_generate_and_verify_or_are_refused(tools, tmp_path,
                                                                                           packs, said):
    """The edges a bisection of each parameter found for Tic Tac Bonus's five pools: the last pool (3
    books) binds them all."""
    text = _tic_tac().replace("\n[published]\n", f"\n[packs]\n{packs}\n\n[published]\n")
    spec = tmp_path / "g.toml"
    spec.write_text(text)
    if said is None:
        _generates_and_verifies(tools, spec, "p5")
    else:
        _refused(spec, said)
