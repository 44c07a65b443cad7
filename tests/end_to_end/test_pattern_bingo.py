"""Pattern Bingo (specs/examples/pattern_bingo.toml: custom patterns, docs/styles/bingo.md) from the
command line, on a pool of 3,000 tickets (its tier counts a twentieth of the example's, at least 1):
check, generate, verify every step (the seed's reproduction too) with exit 0, and a proof whose faces
draw the custom patterns and agree with every tier."""

from __future__ import annotations

import io
import json
import re

from pypdf import PdfReader

from tests.support import ROOT, SEED_A
from tests.support.cli import invoke

EXAMPLE = ROOT / "specs" / "examples" / "pattern_bingo.toml"


def _small(text: str) -> str:
    text = text.replace("order_tickets = 60000", "order_tickets = 3000").replace(
        "pool_tickets = 60000", "pool_tickets = 3000")
    return re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m[1]) // 20)}", text, flags=re.M)


def test_a_small_pattern_bingo_run_generates_verifies_and_proves(tmp_path):
    spec = tmp_path / "pattern_bingo.toml"
    spec.write_text(_small(EXAMPLE.read_text()))
    (tmp_path / "run.seed").write_text(SEED_A.hex() + "\n")
    (tmp_path / "run.seed").chmod(0o600)
    assert invoke("check", spec).exit_code == 0
    assert invoke("keys", "new", tmp_path / "keys").exit_code == 0
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", tmp_path / "run.seed",
                  "--run-id", "pb", "--workers", "1", "--key", tmp_path / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    run = tmp_path / "runs" / "pb"
    manifest = json.loads((run / "manifest.json").read_text())
    [area] = manifest["play"]["areas"]
    assert [p.get("shape") or p["name"] for p in area["patterns"]] == [
        "line", "postage_stamp", "two_lines", "T", "L", "frame"]
    assert area["patterns"][3]["cells"] == [[0, 1, 2, 3, 4, 7, 12, 17, 22]]
    counts = {t["id"]: t["count"] for t in manifest["pools"][0]["tiers"]}
    assert counts == {"lose": 2540, "line": 300, "two_cards_line": 45, "stamp": 75, "two_lines": 30,
                      "t": 6, "l": 3, "frame": 1}
    result = invoke("verify", run, "--public-key", tmp_path / "keys" / "signing-key.pub.pem", "--spec", spec,
                    "--seed-file", tmp_path / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9
    assert report["steps"][3]["details"][0] == ("pool p1: 3,000 layouts evaluated by audit.styles (bingo): "
                                                "each pays its stored prize (460 winners), none illegal")
    proof = invoke("proof", run, "--spec", spec, "--out", tmp_path / "proof.pdf")
    assert proof.exit_code == 0, proof.output
    pages = [p.extract_text() for p in PdfReader(io.BytesIO((tmp_path / "proof.pdf").read_bytes())).pages]
    assert len(pages) == 2 + 8  # cover, index, one specimen of every tier and the losing tier
    assert all("- agrees" in t and "T  (area bingo, bingo)" in t and "L  (ANY OF 4)" in t for t in pages[2:])
    assert not any("ILLEGAL" in t for t in pages)
    assert sum("card 1 completes L (its highest pattern)" in t or "card 2 completes L (its highest pattern)"
               in t for t in pages) == 1
