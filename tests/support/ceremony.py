"""Running a commit-reveal seed ceremony from the command line (docs/ceremony.md), and its derivation
written out a third time, with hashlib alone."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app

PARTIES = ("vendor", "lottery", "auditor")


def invoke(*args: str, input: str | None = None):
    """`poolgen ARGS...` in this process, `input` typed at its prompts."""
    return CliRunner().invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None):
    """`poolgen ARGS...`, which must succeed."""
    result = invoke(*args, input=input)
    assert result.exit_code == 0, result.output
    return result


def refused(result, message: str) -> None:
    """The command exited 2 saying exactly `poolgen: error: MESSAGE`."""
    assert result.exit_code == 2, result.output
    assert result.stderr == f"poolgen: error: {message}\n"


def new(folder: Path, *extra: str) -> Path:
    """`ceremony new` of ceremony c1, the three PARTIES (and `extra` options), as folder/c1.ceremony."""
    file = folder / "c1.ceremony"
    ok("ceremony", "new", str(file), "--id", "c1", *(a for p in PARTIES for a in ("--party", p)), *extra)
    return file


def commit(file: Path, party: str) -> str:
    """`party` commits (its contribution beside the ceremony file); its commitment."""
    result = ok("ceremony", "commit", str(file), "--party", party, "--contribution",
                str(file.parent / f"{party}.contribution"), "--yes")
    return result.stdout.splitlines()[0].split(": ")[1]


def reveal(file: Path, party: str):
    """`party` reveals its contribution; the result, whatever it is."""
    return invoke("ceremony", "reveal", str(file), "--party", party, "--contribution",
                  str(file.parent / f"{party}.contribution"), "--yes")


def verify(run: Path, keys, *extra: str, audit: bool = False) -> tuple[int, dict]:
    """`poolgen verify --json` (or `audit verify`) of `run`: its exit code and report."""
    result = CliRunner().invoke(audit_app if audit else app,
                                ["verify", str(run), "--public-key", str(keys.public), "--json", *extra])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def third_derivation(doc: dict) -> bytes:
    """docs/ceremony.md, section "Derivation", written out once more with hashlib alone."""
    def lp(b: bytes) -> bytes:
        return len(b).to_bytes(8, "big") + b

    t = b"poolgen/ceremony/transcript/v1" + lp(doc["id"].encode())
    seed = b""
    for p in doc["parties"]:
        secret = p["kind"] == "secret"
        t += lp(p["name"].encode()) + lp(p["kind"].encode()) + lp(
            bytes.fromhex(p["commitment"]) if secret else p["source"].encode())
        seed += lp(p["name"].encode()) + lp(bytes.fromhex(p["reveal"]) if secret else p["reveal"].encode())
    return hashlib.sha256(b"poolgen/ceremony/seed/v1" + hashlib.sha256(t).digest() + seed).digest()
