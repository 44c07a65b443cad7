"""The desk opens a validation file only if its header is exactly docs/validation.md section 3's for the
run, tier and key (docs/back-office.md, section 2): `"game":465.0`, `true` for an integer or `"465"`
compare equal to, or pass for, the manifest's value in Python, and the desk paid from such a file where
audit refuses it. A re-made header, the file re-listed and the manifest signed again by an insider, is
refused in one line, exit 2, nothing paid or recorded."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from tests.support.cli import invoke, one_line
from tests.support.reseal import resign, signed_small_run


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return signed_small_run(tmp_path_factory.mktemp("header"), validation_keys=True)


def _winner(run: Path) -> tuple[str, str]:
    """A low-tier winner's barcode and VIRN (a $1 to $10 prize)."""
    rows = pl.concat([pl.read_parquet(run / "imaging-p1.parquet", columns=["barcode", "virn"]),
                      pl.read_parquet(run / "pool-p1.parquet", columns=["prize_cents"])], how="horizontal")
    b, v, _ = rows.filter(pl.col("prize_cents").is_between(1, 1000)).row(0)
    return b, v


def _remade(signed, tmp_path: Path, edit) -> Path:
    """A copy of the run whose low-tier validation file's header line is `edit`(header text), the file
    restated in the manifest and the manifest signed again."""
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    path = run / "validation-low.bin"
    data = path.read_bytes()
    end = data.index(b"\n")
    path.write_bytes(edit(data[:end].decode()).encode() + data[end:])
    resign(run, lambda doc: None, signed["signer"])
    return run


def _set(field: str, value: object):
    def edit(text: str) -> str:
        head = json.loads(text)
        head[field] = value
        return json.dumps(head, sort_keys=True, separators=(",", ":"))
    return edit


@pytest.mark.parametrize(("field", "value", "said"), [
    ("game", 465.0, "its header's game is 465.0, not 465"),
    ("game", "465", "its header's game is \"465\", not 465"),
    ("record_bytes", True, "its header's record_bytes is true, not 32"),
    ("known_bytes", 16.0, "its header's known_bytes is 16.0, not 16"),
    ("high_tier_cents", 60000.0, "its header's high_tier_cents is 60000.0, not 60000"),
    ("game", 466, "its header's game is 466, not 465"),
    ("note", "x", "its header holds field(s) ['note'] section 3 does not give"),
])
def test_a_validation_header_not_section_3s_is_refused_by_the_desk_and_nothing_is_paid(
        signed, tmp_path, field, value, said):
    head = json.loads((signed["run"] / "validation-low.bin").read_bytes().split(b"\n")[0])
    assert head["game"] == 465 and head["high_tier_cents"] == 60000  # the values the cases restate
    run = _remade(signed, tmp_path, _set(field, value))
    b, v = _winner(run)
    ledger = tmp_path / "claims.sqlite"
    result = invoke("validate", run, b, v, "--validation-key", signed["root"] / "low.key", "--public-key",
                    signed["public"], "--index-dir", tmp_path / "index", "--ledger", ledger)
    one_line(result, "poolgen", f"{run / 'validation-low.bin'}: {said} (docs/validation.md section 3: "
                                "exactly its nine fields, each of its JSON type, in canonical form); "
                                "refusing it")
    assert result.stdout == "" and not ledger.exists()


def test_a_validation_header_with_spaces_is_refused_by_the_desk(signed, tmp_path):
    run = _remade(signed, tmp_path, lambda text: json.dumps(json.loads(text), sort_keys=True))
    b, v = _winner(run)
    result = invoke("validate", run, b, v, "--validation-key", signed["root"] / "low.key", "--public-key",
                    signed["public"], "--index-dir", tmp_path / "index")
    one_line(result, "poolgen", f"{run / 'validation-low.bin'}: its header is not in canonical form")
    assert result.stdout == ""


def test_the_header_section_3_writes_is_paid(signed, tmp_path):
    """The same copy with its header untouched: the refusals above are the header's alone."""
    run = _remade(signed, tmp_path, lambda text: text)
    b, v = _winner(run)
    result = invoke("validate", run, b, v, "--validation-key", signed["root"] / "low.key", "--public-key",
                    signed["public"], "--index-dir", tmp_path / "index", "--ledger", tmp_path / "c.sqlite")
    assert result.exit_code == 0, result.output
    assert "paid, claim no. 1" in result.stdout


def test_an_index_an_earlier_poolgen_built_from_such_a_file_is_built_again_and_refused(signed, tmp_path):
    """An index records the header of the file it was built from; one that records none was built before
    the desk checked headers (perhaps from a file with `"game":465.0`): the desk builds it again from the
    vouched file, which refuses the header, rather than paying from it."""
    good, index = tmp_path / "good", tmp_path / "index"
    shutil.copytree(signed["run"], good)
    b, v = _winner(good)
    key = ("--validation-key", signed["root"] / "low.key", "--public-key", signed["public"],
           "--index-dir", index)
    assert invoke("validate", good, b, v, *key).exit_code == 0
    (built,) = index.glob("hh.low.*.sqlite")
    run = _remade(signed, tmp_path, _set("game", 465.0))
    sha = hashlib.sha256((run / "validation-low.bin").read_bytes()).hexdigest()
    old = index / f"hh.low.{sha[:16]}.sqlite"  # what an earlier poolgen built from the re-made file
    built.rename(old)
    db = sqlite3.connect(old)
    assert db.execute("SELECT value FROM meta WHERE name = 'header'").fetchone()[0].startswith('{"format"')
    db.execute("UPDATE meta SET value = ? WHERE name = 'sha256'", (sha,))
    db.execute("DELETE FROM meta WHERE name = 'header'")
    db.commit()
    db.close()
    ledger = tmp_path / "claims.sqlite"
    result = invoke("validate", run, b, v, *key, "--ledger", ledger)
    one_line(result, "poolgen", f"{run / 'validation-low.bin'}: its header's game is 465.0, not 465")
    assert result.stdout == "" and not ledger.exists()
