"""audit/proof.py: a proof document that is not a proof (a field of the wrong type or out of range, a hash
not in 64 lower-case hex digits, a row value with no encoding) is unusable input, refused before the
manifest is read: exit 2 and one line naming the file (docs/merkle.md, section 4); it exited 1 as an
INVALID proof, the verdict on a proof that was checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.errors import MalformedProof
from audit.proof import check_proof
from audit.read.manifest import load_public_key
from tests.support.reseal import signed_small_run


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict:
    """A signed 3,000-ticket Happy Holidays run and the proof of its first ticket."""
    from tests.support.cli import invoke  # noqa: PLC0415 (poolgen makes the proof; audit checks it)
    from tests.support.virns import virn_of  # noqa: PLC0415

    out = signed_small_run(tmp_path_factory.mktemp("proof"))
    made = invoke("merkle-proof", out["run"], "465-0000007-000", virn_of(out["run"], "465-0000007-000"),
                  "--json")
    assert made.exit_code == 0, made.output
    return out | {"proof": json.loads(made.stdout)}


def _check_proof(made: dict, tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "proof.json"
    path.write_text(text)
    return path, CliRunner().invoke(audit_app, ["check-proof", str(path), str(made["run"] / "manifest.json"),
                                                "--public-key", str(made["public"]), *extra])


def _edit(made: dict, change) -> dict:
    proof = json.loads(json.dumps(made["proof"]))
    change(proof)
    return proof


MALFORMED = [
    ("a negative position", lambda p: p.update(position=-1) or p["row"].update(position=-1),
     "the proof's 'position' is not a position (0 or more): -1"),
    ("no tickets", lambda p: p.update(tickets=0), "the proof's 'tickets' is not a number of tickets: 0"),
    ("a leaf not in hex", lambda p: p.update(leaf="zz"),
     "the proof's 'leaf' is not a hash in 64 lower-case hex digits: 'zz'"),
    ("a root of 63 digits", lambda p: p["merkle"].update(root=p["merkle"]["root"][:63]),
     "the proof's merkle 'root' is not a hash in 64 lower-case hex digits: '"),
    ("a manifest hash in capitals", lambda p: p.update(manifest_sha256=p["manifest_sha256"].upper()),
     "the proof's 'manifest_sha256' is not a hash in 64 lower-case hex digits: '"),
    ("a row value null", lambda p: p["row"].update(play_spot_0=None),
     "the proof's row: column 'play_spot_0': None has no encoding (only integers, strings, booleans)"),
    ("a row value a list", lambda p: p["row"].update(tier=["lose"]),
     "the proof's row: column 'tier': ['lose'] has no encoding (only integers, strings, booleans)"),
    ("a row integer above 64 bits", lambda p: p["row"].update(book=2**64),
     "the proof's row: column 'book': integer 18446744073709551616 is outside 64 signed bits"),
    ("a row string with a lone surrogate", lambda p: p["row"].update(tier="\ud800"),
     "the proof's row: column 'tier': the value is not valid Unicode text (it has no UTF-8 form)"),
]


@pytest.mark.parametrize(("change", "why"), [(c, w) for _, c, w in MALFORMED],
                         ids=[n for n, _, _ in MALFORMED])
def test_a_malformed_proof_is_unusable_input_naming_the_file(made, tmp_path, change, why):
    path, result = _check_proof(made, tmp_path, json.dumps(_edit(made, change)))
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.startswith(f"audit: error: {path}: not a usable proof: {why}"), result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_a_malformed_proof_is_refused_before_the_manifest_is_read(made, tmp_path):
    """The proof is checked for shape first: a malformed proof beside a manifest that does not exist says
    what is wrong with the proof (the library raises MalformedProof, an UnusableInput)."""
    proof = _edit(made, lambda p: p.update(position="0"))
    with pytest.raises(MalformedProof, match=r"^the proof's 'position' is not an integer: '0'$"):
        check_proof(proof, tmp_path / "none" / "manifest.json", load_public_key(made["public"]))


def test_a_malformed_proof_on_standard_input_names_standard_input(made):
    text = json.dumps(_edit(made, lambda p: p.update(leaf=5)))
    result = CliRunner().invoke(audit_app, ["check-proof", "-", str(made["run"] / "manifest.json"),
                                            "--public-key", str(made["public"]), "--json"], input=text)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("audit: error: standard input: not a usable proof: the proof's 'leaf' is not "
                             "hexadecimal text: 5\n")


def test_the_untouched_small_proof_is_valid_and_a_changed_prize_invalid(made, tmp_path):
    _, ok = _check_proof(made, tmp_path, json.dumps(made["proof"]))
    assert ok.exit_code == 0
    assert ok.stdout.startswith("valid proof: ticket 465-0000007-000 (pool p1, position 0")
    claimed = _edit(made, lambda p: p["row"].update(prize_cents=p["row"]["prize_cents"] + 100))
    _, bad = _check_proof(made, tmp_path, json.dumps(claimed))
    assert (bad.exit_code, bad.stdout) == (1, "INVALID proof: the proof's leaf is not the hash of its row\n")
