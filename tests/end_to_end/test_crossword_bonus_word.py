"""The Kansas "$100,000 Crossword" example (specs/examples/hundred_thousand_crossword.toml: a crossword
with a BONUS WORD, docs/styles/crossword.md section 9) end to end from the command line, cut to one pool
of 3,000 tickets: check, generate (signed), verify every step with the spec and the seed, by poolgen and
by audit alone, and draw the proof, whose bonus-word tiers show the word and its prize."""

from __future__ import annotations

import json

from pypdf import PdfReader

from audit.cli import app as audit_app
from tests.support import SEED_A, small_example
from tests.support.cli import invoke


def test_the_bonus_word_example_checks_generates_verifies_and_proves(tmp_path):
    spec = small_example(tmp_path, "hundred_thousand_crossword", 3000)
    (tmp_path / "run.seed").write_text(SEED_A.hex() + "\n")
    (tmp_path / "run.seed").chmod(0o600)
    assert invoke("keys", "new", tmp_path / "keys").exit_code == 0
    checked = invoke("check", spec, "--json")
    assert checked.exit_code == 0, checked.output
    game = json.loads(checked.stdout)["games"][0]
    assert (game["pools"][0]["tickets"], game["pools"][0]["winners"]) == (3000, 840)
    seed = tmp_path / "run.seed"
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", seed, "--pool", "p1",
                  "--run-id", "bw", "--workers", "1", "--key", tmp_path / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    run, public = tmp_path / "runs" / "bw", tmp_path / "keys" / "signing-key.pub.pem"
    entry = json.loads((run / "manifest.json").read_text())["play"]
    assert entry["areas"][0]["bonus"] == {"length": 5, "prize": "B25"}
    assert {"area": "puzzle", "how": "bonus", "by": 1, "prize": "B25", "prize_cents": 2500} in \
        next(t for t in entry["tiers"] if t["id"] == "w4b")["wins"]
    result = invoke("verify", run, "--public-key", public, "--spec", spec, "--seed-file", seed,
                    "--json")  # poolgen's: step 7 regenerates the pool from the seed, byte for byte
    assert result.exit_code == 0, result.output
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["pass"] * 9
    result = invoke("verify", run, "--public-key", public, "--spec", spec, "--json", application=audit_app)
    assert result.exit_code == 0, result.output  # audit alone: step 4 evaluates every bonus word
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == \
        ["pass"] * 6 + ["skip", "pass", "pass"]
    proof = invoke("proof", run, "--spec", spec, "--out", tmp_path / "proof.pdf")
    assert proof.exit_code == 0, proof.output
    text = "\n".join(page.extract_text() for page in PdfReader(tmp_path / "proof.pdf").pages)
    assert text.count("BONUS WORD") >= 14, text[:2000]  # a section and a legend line on each tier's page
