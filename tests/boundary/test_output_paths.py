"""Where a command is told to write (and a run folder it is told to read): a name the system refuses
to look up (longer than a file name may be) or a folder that is a file is one line naming the path,
exit 2, and nothing written; never a traceback (Path.exists raises on ENAMETOOLONG; a temporary file
never made cannot be unlinked)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from audit.cli import app as audit_app
from tests.support import ceremony
from tests.support.cli import invoke, one_line

LONG = "a" * 300  # NAME_MAX is 255 bytes


def _commands(run, printed, where: str) -> dict[str, list[object]]:
    r, p = run / "runs" / "r", printed / "runs" / "r"
    return {
        "seed new": ["seed", "new", where],
        "keys validation new": ["keys", "validation", "new", where],
        "keys recipient": ["keys", "recipient", where],
        "publish": ["publish", r, "--out", where, "--public-key", run / "keys" / "signing-key.pub.pem"],
        "imaging export": ["imaging", "export", p, "--out", where],
        "imaging sequence": ["imaging", "sequence", p, "--out", where],
        "rng bytes": ["rng", "bytes", "--seed-file", run / "s.seed", "--label", "poolgen/v1/x/p1/order",
                      "--count", "8", "--out", where],
        "proof": ["proof", r, "--spec", run / "happy_holidays.toml", "--out", where],  # the run's cut spec
        "report": ["report", r, "--out", where],
        "validate --ledger": ["validate", p, "465000000100013", "000000000000", "--validation-key",
                              printed / "low.key", "--ledger", where, "--index-dir", printed / "index",
                              "--public-key", printed / "keys" / "signing-key.pub.pem"],
        "validate --index-dir": ["validate", p, "465000000100013", "000000000000", "--validation-key",
                                 printed / "low.key", "--index-dir", where,
                                 "--public-key", printed / "keys" / "signing-key.pub.pem"],
    }


NAMES = list(_commands(Path("run"), Path("printed"), "x"))


@pytest.mark.parametrize("command", NAMES)
def test_a_name_too_long_to_write_is_one_line(run, printed_run, tmp_path, command):
    where = tmp_path / LONG
    result = invoke(*_commands(run, printed_run, str(where))[command])
    one_line(result, "poolgen", f"{where}")
    assert "File name too long" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", NAMES)
def test_a_folder_that_is_a_file_is_one_line(run, printed_run, tmp_path, command):
    plain = tmp_path / "plain"
    plain.write_bytes(b"x")
    where = plain / "x"
    result = invoke(*_commands(run, printed_run, str(where))[command])
    one_line(result, "poolgen", f"{plain}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"] and plain.read_bytes() == b"x"


@pytest.mark.parametrize("command", [*NAMES, "keys new", "ceremony new"])
def test_a_path_through_a_loop_of_symbolic_links_is_one_line(run, printed_run, tmp_path, command):
    """A folder on the way that is a loop of links (a -> b -> a): Path.resolve, which looks for a run folder
    around the destination, raised RuntimeError ("Symlink loop", Python 3.11) and the command ended on a
    traceback, exit 1 (seed new, keys, rng bytes, proof, report, publish, imaging export, ceremony new)."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    where = tmp_path / "a" / "x"
    commands = _commands(run, printed_run, str(where)) | {
        "keys new": ["keys", "new", where],
        "ceremony new": ceremony.new_args(tmp_path.parent / f"{tmp_path.name}-keys", where)}
    result = ceremony.invoke(*map(str, commands[command]))  # its clock before the ceremony's close
    one_line(result, "poolgen", f"{tmp_path / 'a'}")
    assert "Too many levels of symbolic links" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


READERS = {  # (application, arguments, the refusal after the path)
    "poolgen verify": ("poolgen", ["verify", "{run}", "--public-key", "{key}"], "run folder not found"),
    "audit verify": ("audit", ["verify", "{run}", "--public-key", "{key}"], "run folder not found"),
    "validate": ("poolgen", ["validate", "{run}", "465000000100013", "000000000000", "--public-key", "{key}"],
                 "no such run folder"),
    "merkle-proof": ("poolgen", ["merkle-proof", "{run}", "465-0000001-000"], "no such run folder"),
    "audit code-hash": ("audit", ["code-hash", "{run}"], "not a package folder (no __init__.py)"),
}


@pytest.mark.parametrize("command", list(READERS))
def test_a_run_folder_named_too_long_to_look_up_is_one_line(run, tmp_path, command):
    prefix, args, why = READERS[command]
    where = tmp_path / LONG
    given = [a.format(run=where, key=run / "keys" / "signing-key.pub.pem") for a in args]
    result = invoke(*given, **({"application": audit_app} if prefix == "audit" else {}))
    one_line(result, prefix, f"{where}: {why}")


def _inside(run, printed, r: Path) -> dict[str, list[object]]:
    keys, spec = printed / "keys", printed / "happy_holidays.toml"
    return {
        "keys new": ["keys", "new", r / "keys"],
        "keys recipient": ["keys", "recipient", r / "keys"],
        "generate": ["generate", spec, "--out", r / "sub", "--seed-file", run / "s.seed", "--unsigned",
                     "--workers", "1"],
        "publish": ["publish", r, "--out", r / "bundle", "--public-key", keys / "signing-key.pub.pem"],
        "imaging export": ["imaging", "export", r, "--out", r / "imaging.csv"],
        "imaging sequence": ["imaging", "sequence", r, "--out", r / "ship"],
        "seal": ["seal", r / "packs.csv", "--to", r.parent / "printer" / "recipient-key.pub.pem", "--out",
                 r / "p.sealed"],
        "proof over the manifest": ["proof", r, "--spec", spec, "--out", r / "manifest.json", "--force"],
        "report": ["report", r, "--out", r / "report.pdf", "--public-key", keys / "signing-key.pub.pem"],
    }


@pytest.mark.parametrize("command", list(_inside(Path("run"), Path("printed"), Path("r"))))
def test_nothing_is_written_inside_a_run_folder(run, printed_run, tmp_path, command):
    """A run folder holds its signed files alone and leaves the building whole: a key, an export, a
    nested run or a PDF written there would go with it (or, with --force, replace a file of the run)."""
    r = tmp_path / "r"
    shutil.copytree(printed_run / "runs" / "r", r)
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    before = {p.name: p.read_bytes() for p in r.iterdir()}
    result = invoke(*_inside(run, printed_run, r)[command])
    one_line(result, "poolgen", "inside the run folder")
    assert {p.name: p.read_bytes() for p in r.iterdir()} == before


def _writers(run, tmp: Path, where: Path) -> dict[str, list[object]]:
    r, spec = run / "runs" / "r", run / "happy_holidays.toml"
    return {
        "report": ["report", r, "--out", where],
        "proof": ["proof", r, "--spec", spec, "--out", where],
        "publish": ["publish", r, "--out", where, "--public-key", run / "keys" / "signing-key.pub.pem"],
        "ceremony publish": ["ceremony", "publish", tmp / "c1.ceremony", "--out", where],
        "imaging export": ["imaging", "export", r, "--out", where],
        "rng bytes": ["rng", "bytes", "--seed-file", run / "s.seed", "--label", "poolgen/v1/x/p1/order",
                      "--count", "8", "--out", where],
    }


@pytest.mark.parametrize("command", list(_writers(Path("run"), Path("t"), Path("x"))))
def test_a_dangling_symbolic_link_is_an_existing_file_to_every_writer(run, tmp_path, command):
    """A symbolic link to a missing file at the output path is refused as an existing file is (without
    --force, docs/back-office.md section 6): `report` and `ceremony publish` replaced it, while `proof`
    and `publish` refused it; nothing is written at the link nor at its target."""
    if command == "ceremony publish":
        file = ceremony.new(tmp_path)
        for party in ceremony.PARTIES:
            ceremony.commit(file, party)
    where, target = tmp_path / "out", tmp_path / "missing" / "target"
    where.symlink_to(target)
    result = invoke(*_writers(run, tmp_path, where)[command])
    one_line(result, "poolgen", f"{where}: already exists")
    assert where.is_symlink() and os.readlink(where) == str(target) and not target.parent.exists()
