"""Run files no run would hold, read by `verify`, `check-proof` and `prove`: deep or malformed
manifests and random, deep or unbounded claims are unusable input, one line, exit 2. The run is
tests/boundary/conftest.py's `run`."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support.cli import one_line as _one_line

MANIFESTS = {  # name: (edit of manifest.json's text, message)
    "deep nesting": (lambda t: t[:-1] + ',"x":' + "[" * 3000 + "]" * 3000 + "}",
                     "not a usable manifest: nested more than 32 deep"),
    "NaN": (lambda t: re.sub(r'"tickets":\d+', '"tickets":NaN', t, count=1),
            "not a usable manifest: NaN; canonical documents hold no NaN or infinity"),
    "1e400": (lambda t: re.sub(r'"tickets":\d+', '"tickets":1e400', t, count=1),
              "not a usable manifest: a fractional number (1e400); canonical documents hold none"),
    "5,000 digits": (lambda t: re.sub(r'"tickets":\d+', '"tickets":' + "9" * 5000, t, count=1),
                     "not a usable manifest: an integer of more than 30 digits"),
    "a repeated key": (lambda t: '{"run_id":"forged",' + t[1:],
                       "not a usable manifest: the key 'run_id' appears twice in one object"),
}


@pytest.mark.parametrize("case", list(MANIFESTS))
@pytest.mark.parametrize("verifier", ["poolgen", "audit"])
def test_malformed_manifest_is_unusable_input(run, tmp_path, case, verifier):
    edit, message = MANIFESTS[case]
    bad = tmp_path / "r"
    shutil.copytree(run / "runs" / "r", bad)
    (bad / "manifest.json").write_text(edit((bad / "manifest.json").read_text()))
    key = str(run / "keys" / "signing-key.pub.pem")
    result = CliRunner().invoke(app if verifier == "poolgen" else audit_app,
                                ["verify", str(bad), "--public-key", key])
    _one_line(result, verifier, f"{bad / 'manifest.json'}: {message}")
    claim = CliRunner().invoke(audit_app, ["check-proof", str(run / "claim.json"), str(bad / "manifest.json"),
                                           "--public-key", key])
    _one_line(claim, "audit", f"{bad / 'manifest.json'}: {message}")
    if verifier == "poolgen":  # poolgen's own readers of a run folder pass the same boundary
        proved = CliRunner().invoke(app, ["prove", str(bad), (run / "ticket").read_text()])
        _one_line(proved, "poolgen", f"{bad / 'manifest.json'}: {message}")


CLAIMS = {
    "random bytes": (bytes(range(256)) * 4, "not a JSON proof: not UTF-8 text (byte 128)"),
    "deep nesting": (b"[" * 3000 + b"]" * 3000, "not a proof: nested more than 32 deep"),
    "a huge integer": (b'{"position": ' + b"7" * 5000 + b"}",
                       "not a usable proof: an integer of more than 30"),
    "infinity": (b'{"position": Infinity}', "not a usable proof: Infinity; canonical documents hold no NaN"),
}


@pytest.mark.parametrize("case", list(CLAIMS))
def test_hostile_claims(run, tmp_path, case):
    data, message = CLAIMS[case]
    claim = tmp_path / "claim.json"
    claim.write_bytes(data)
    result = CliRunner().invoke(audit_app, ["check-proof", str(claim),
                                            str(run / "runs" / "r" / "manifest.json"),
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem")])
    _one_line(result, "audit", f"{claim}: {message}")


def test_a_claim_repeating_a_key_is_refused_whichever_copy_a_reader_would_take(run, tmp_path):
    """A parser that keeps the first of two `row`s would show this claim a $50,000 prize; one that keeps
    the last, the honest losing row that the path proves. Either way the claim is refused."""
    honest = (run / "claim.json").read_text()
    claim = tmp_path / "claim.json"
    claim.write_text('{"row": {"ticket": "465-0000009-123", "prize_cents": 5000000}, ' + honest.lstrip()[1:])
    result = CliRunner().invoke(audit_app, ["check-proof", str(claim),
                                            str(run / "runs" / "r" / "manifest.json"),
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem")])
    _one_line(result, "audit", f"{claim}: not a usable proof: the key 'row' appears twice in one object")


def test_the_honest_claim_still_checks(run):
    result = CliRunner().invoke(audit_app, ["check-proof", str(run / "claim.json"),
                                            str(run / "runs" / "r" / "manifest.json"),
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem")])
    ticket = (run / "ticket").read_text()
    assert result.exit_code == 0 and result.stdout.startswith(f"valid proof: ticket {ticket}")


@pytest.mark.parametrize(("given", "message"), [
    ("a folder", "is a folder, not a signature file"),
    ("missing", "signature file not found"),
    ("a pipe", "is not a regular file (a pipe, device or socket); give a signature file"),
])
def test_a_signature_given_that_cannot_be_read_is_unusable_input(run, tmp_path, given, message):
    """`--signature FILE` names the file: one that cannot be read is unusable input (exit 2, its own
    reason), not an invalid proof said as 'no signature beside the manifest' (exit 1) as until 2026-12-04.
    Without --signature, no manifest.sig beside the manifest is unusable input too (docs/merkle.md 4)."""
    signature = tmp_path / "manifest.sig"
    if given == "a folder":
        signature.mkdir()
    elif given == "a pipe":
        os.mkfifo(signature)
    result = CliRunner().invoke(audit_app, ["check-proof", str(run / "claim.json"),
                                            str(run / "runs" / "r" / "manifest.json"),
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem"),
                                            "--signature", str(signature)])
    _one_line(result, "audit", f"{signature}: {message}")


_NAMED = {"verify-run": ["verify", "RUN\nx", "--public-key", "KEY"],
          "verify-key": ["verify", "RUN", "--public-key", "KEY\x1b[2Jx"],
          "check-proof": ["check-proof", "CLAIM\nx", "MANIFEST", "--public-key", "KEY"],
          "code-hash": ["code-hash", "no\npackage"]}


@pytest.mark.parametrize(("program", "case"), [("poolgen", "verify-run"), ("poolgen", "verify-key"),
                                               ("audit", "verify-run"), ("audit", "verify-key"),
                                               ("audit", "check-proof"), ("audit", "code-hash")])
def test_a_control_character_in_a_file_name_is_escaped_in_the_one_line(run, program, case):
    """audit's refusals (also poolgen verify's, which are audit's) printed the name as given: a newline
    in a missing file's name made the message two lines, an escape sequence reached the terminal."""
    names = {"RUN": run / "runs" / "r", "KEY": run / "keys" / "signing-key.pub.pem",
             "CLAIM": run / "claim.json", "MANIFEST": run / "runs" / "r" / "manifest.json"}
    args = [next((a.replace(k, str(v)) for k, v in names.items() if a.startswith(k)), a)
            for a in _NAMED[case]]
    result = CliRunner().invoke(app if program == "poolgen" else audit_app, args)
    bad = next(a for a in args if not a.isprintable())
    _one_line(result, program, bad.replace("\n", "\\n").replace("\x1b", "\\x1b"))


@pytest.mark.parametrize("program", ["poolgen", "audit"])
def test_a_malformed_party_key_is_refused_in_the_programs_own_name(run, program):
    """`poolgen verify --party-key vendor` said "audit: error: ...": audit's parser of the option ended the
    command itself, in its own name, where every other refusal of poolgen verify says poolgen."""
    result = CliRunner().invoke(app if program == "poolgen" else audit_app,
                                ["verify", str(run / "runs" / "r"), "--public-key",
                                 str(run / "keys" / "signing-key.pub.pem"), "--party-key", "vendor"])
    assert (result.exit_code, result.stderr) == (2, f"{program}: error: --party-key 'vendor': write "
                                                    "NAME=FILE\n")


def test_check_proof_without_the_manifests_signature_file_is_unusable_input(run, tmp_path):
    """A missing signature file is an input not given (exit 2, one line naming the file), as a missing
    manifest or key is; it said `INVALID proof` and exited 1, the verdict on a proof that was checked."""
    copy = tmp_path / "r"
    copy.mkdir()
    shutil.copy(run / "runs" / "r" / "manifest.json", copy / "manifest.json")
    claim, manifest = str(run / "claim.json"), str(copy / "manifest.json")
    key = str(run / "keys" / "signing-key.pub.pem")
    beside = CliRunner().invoke(audit_app, ["check-proof", claim, manifest,
                                            "--public-key", key])
    assert beside.stdout == ""
    _one_line(beside, "audit", f"{copy / 'manifest.sig'}: signature file not found (the manifest's "
                               "signature: beside it, or give --signature FILE)")
    given = CliRunner().invoke(audit_app, ["check-proof", claim, manifest,
                                           "--public-key", key, "--signature", str(tmp_path / "none.sig")])
    _one_line(given, "audit", f"{tmp_path / 'none.sig'}: signature file not found")


def test_check_proof_with_a_signature_that_does_not_verify_is_an_invalid_proof(run, tmp_path):
    copy = tmp_path / "r"
    copy.mkdir()
    shutil.copy(run / "runs" / "r" / "manifest.json", copy / "manifest.json")
    claim, manifest = str(run / "claim.json"), str(copy / "manifest.json")
    signature = bytearray((run / "runs" / "r" / "manifest.sig").read_bytes())
    signature[0] ^= 1
    (copy / "manifest.sig").write_bytes(bytes(signature))
    result = CliRunner().invoke(audit_app, ["check-proof", claim, manifest,
                                            "--public-key", str(run / "keys" / "signing-key.pub.pem")])
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout.startswith("INVALID proof: the signature does not verify with the given public "
                                    "key (")
    assert len(result.stdout.splitlines()) == 1
