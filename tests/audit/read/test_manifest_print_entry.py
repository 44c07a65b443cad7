"""audit/read/manifest.py: a signed manifest whose `print` entry is not an object (docs/manifest.md: the
printed run's settings) is unreadable: step 1 fails naming it, exit 1, no traceback. A fuzz of re-signed
Poker Night runs found `print = "x"`, -1 or a list ending `verify` in an AttributeError traceback (step
9's imaging jobs read `print` as an object before any step looked at it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support.reseal import resign, signed_small_run


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return signed_small_run(tmp_path_factory.mktemp("print"))


@pytest.mark.parametrize("value", ["x", -1, [{}], None], ids=["text", "number", "list", "null"])
@pytest.mark.parametrize("program", [audit_app, app], ids=["audit", "poolgen"])
def test_a_print_entry_that_is_not_an_object_fails_step_1_without_a_traceback(
        made: dict, tmp_path: Path, value: object, program: object) -> None:
    run = tmp_path / "run"
    run.mkdir()
    for f in made["run"].iterdir():
        (run / f.name).write_bytes(f.read_bytes())
    resign(run, lambda doc: doc.__setitem__("print", value), made["signer"])
    result = CliRunner().invoke(program, ["verify", str(run), "--public-key", str(made["public"]), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, result.output
    step = json.loads(result.stdout)["steps"][0]
    assert (step["status"], step["reasons"]) == (
        "fail", ["manifest.json is not a valid manifest: manifest.print: not an object"])
