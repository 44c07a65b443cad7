"""What a command says when it succeeds: every path it names (here an output path holding a newline and
an ESC sequence) is escaped as in its error lines (poolgen.files.read.printable): a name never adds a
line to the output nor reaches the terminal as an escape sequence. Until 2026-12-04 the success lines
of publish, seal, unseal, rng, seed new, keys new and others printed it raw."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.support import ceremony
from tests.support.cli import invoke

NAME = "out\nforged line\x1b[2J"
SHOWN = "out\\nforged line\\x1b[2J"  # as `printable` escapes it


def _commands(run, printed, tmp: Path, where: Path) -> dict[str, list[object]]:
    r, p = run / "runs" / "r", printed / "runs" / "r"
    return {
        "seed new": ["seed", "new", where],
        "keys new": ["keys", "new", where],
        "keys validation new": ["keys", "validation", "new", where],
        "keys recipient": ["keys", "recipient", where],
        "generate": ["generate", run / "happy_holidays.toml", "--pool", "p1", "--out", where, "--seed-file",
                     run / "s.seed", "--unsigned", "--workers", "1"],
        "publish": ["publish", r, "--out", where, "--public-key", run / "keys" / "signing-key.pub.pem"],
        "seal": ["seal", p / "imaging-p1.parquet", "--to", tmp / "printer" / "recipient-key.pub.pem",
                 "--out", where],
        "unseal": ["unseal", tmp / "p1.sealed", "--key", tmp / "printer" / "recipient-key.pem",
                   "--out", where],
        "rng bytes": ["rng", "bytes", "--seed-file", run / "s.seed", "--label", "poolgen/v1/x/p1/order",
                      "--count", "8", "--out", where],
        "imaging export": ["imaging", "export", p, "--out", where],
        "imaging sequence": ["imaging", "sequence", p, "--out", where],
        "proof": ["proof", r, "--spec", run / "happy_holidays.toml", "--out", where],
        "report": ["report", r, "--out", where],
        "validate --ledger": ["validate", p, *_ticket(p), "--validation-key", printed / "low.key",
                              "--ledger", where, "--index-dir", tmp / "index",
                              "--public-key", printed / "keys" / "signing-key.pub.pem"],
    }


def _ticket(run: Path) -> list[str]:
    """A winning ticket's barcode and VIRN (the smallest prize: a low-tier one), as a player hands them in."""
    if not (run / "imaging-p1.parquet").exists():  # the names only
        return []
    rows = pl.concat([pl.read_parquet(run / "imaging-p1.parquet", columns=["barcode", "virn"]),
                      pl.read_parquet(run / "pool-p1.parquet", columns=["prize_cents"])], how="horizontal")
    return list(rows.filter(pl.col("prize_cents") > 0).sort("prize_cents").row(0)[:2])


NAMES = [*_commands(Path("run"), Path("printed"), Path("t"), Path("x")), "ceremony new", "ceremony commit"]


@pytest.mark.parametrize("command", NAMES)
def test_a_path_in_a_success_line_is_escaped(run, printed_run, tmp_path, command):
    where = tmp_path / NAME
    if command.startswith("ceremony"):
        file = where if command == "ceremony new" else tmp_path / "c1.ceremony"
        made = ceremony.invoke(*map(str, ceremony.new_args(tmp_path, file)))
        if command == "ceremony new":
            result = made
        else:  # the contribution file's path is in its line
            result = ceremony.invoke("ceremony", "commit", str(file), "--party", "vendor", "--key",
                                     ceremony.key(file, "vendor"), "--contribution", str(where), "--yes")
    else:
        if command in ("seal", "unseal"):
            assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
            assert invoke("seal", printed_run / "runs" / "r" / "imaging-p1.parquet", "--to",
                          tmp_path / "printer" / "recipient-key.pub.pem", "--out",
                          tmp_path / "p1.sealed").exit_code == 0
        result = invoke(*_commands(run, printed_run, tmp_path, where)[command])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "\x1b" not in result.output and "\nforged line" not in result.output, result.output
    assert SHOWN in result.output, result.output
    assert where.exists()  # the file or folder itself has the name it was given


def test_a_path_in_json_output_is_escaped_by_json(run, tmp_path):
    """--json output is one JSON document: JSON escapes a control character itself, and the name reads
    back exactly."""
    where = tmp_path / NAME
    result = invoke("seed", "new", where, "--json")
    assert result.exit_code == 0 and "\x1b" not in result.stdout
    assert json.loads(result.stdout)["seed_file"] == str(where)
