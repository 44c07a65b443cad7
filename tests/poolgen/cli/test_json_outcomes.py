"""`--json` on the commands that write files (proof, report, imaging export, imaging sequence, demo): one
JSON document on standard output saying what was written, its SHA-256, what it counts and whether it
holds outcomes, with exactly these keys; the line each prints without --json is unchanged."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from poolgen.deliverables.printer import SHIP_FILES
from tests.support import SEED_A, small_happy_holidays
from tests.support.cli import invoke


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict[str, Path]:
    """A signed printed run of one Happy Holidays pool of 3,000 tickets (10 books of 300), seed A."""
    root = tmp_path_factory.mktemp("json")
    assert invoke("keys", "new", root / "keys").exit_code == 0
    seed = root / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    spec = small_happy_holidays(root, 3000)
    made = invoke("generate", spec, "--out", root / "runs", "--run-id", "r", "--seed-file", seed, "--key",
                  root / "keys" / "signing-key.pem", "--workers", "1")
    assert made.exit_code == 0, made.output
    return {"run": root / "runs" / "r", "spec": spec, "public": root / "keys" / "signing-key.pub.pem"}


def _json(*args: object) -> tuple[int, dict]:
    done = invoke(*args, "--json")
    assert done.exit_code in (0, 1), done.output
    return done.exit_code, json.loads(done.stdout)


def test_proof_json_names_the_pdf_its_hash_and_what_it_draws(signed, tmp_path):
    out = tmp_path / "proof.pdf"
    code, doc = _json("proof", signed["run"], "--out", out, "--spec", signed["spec"])
    assert set(doc) == {"proof", "mode", "bytes", "sha256", "drawn", "count", "outcomes", "pools",
                        "selection"}
    assert (code, doc["proof"], doc["mode"], doc["bytes"], doc["sha256"]) == \
        (0, str(out), "0600", out.stat().st_size, _sha256(out))
    assert (doc["drawn"], doc["outcomes"], doc["pools"]) == ("specimens", False, ["p1"])
    assert doc["selection"].startswith("one specimen of every tier of pool(s) p1")
    real = tmp_path / "real.pdf"
    code, doc = _json("proof", signed["run"], "--out", real, "--spec", signed["spec"], "--real",
                      "--per-tier", 2)
    assert (code, doc["drawn"], doc["outcomes"], doc["sha256"]) == (0, "tickets", True, _sha256(real))
    plain = invoke("proof", signed["run"], "--out", tmp_path / "again.pdf", "--spec", signed["spec"])
    assert plain.stdout == f"proof {tmp_path / 'again.pdf'}: {doc['count'] // 2} specimen(s), no ticket of " \
                           f"the pool (mode 0600)\n"


def test_report_json_names_the_pdf_its_edition_and_the_verdict(signed, tmp_path):
    out = tmp_path / "report.pdf"
    code, doc = _json("report", signed["run"], "--out", out, "--spec", signed["spec"], "--public-key",
                      signed["public"])
    assert set(doc) == {"report", "mode", "bytes", "sha256", "pools", "edition", "outcomes", "verified"}
    assert doc == {"report": str(out), "mode": "0600", "bytes": out.stat().st_size, "sha256": _sha256(out),
                   "pools": 1, "edition": "public", "outcomes": False, "verified": code == 0}
    internal = tmp_path / "internal.pdf"
    code, doc = _json("report", signed["run"], "--out", internal, "--internal")
    assert (code, doc["edition"], doc["outcomes"], doc["verified"]) == (0, "internal", True, None)


def test_imaging_export_json_hashes_the_file_it_wrote(signed, tmp_path):
    out = tmp_path / "imaging.csv"
    code, doc = _json("imaging", "export", signed["run"], "--out", out)
    assert (code, doc) == (0, {"imaging": str(out), "mode": "0600", "sha256": _sha256(out), "format": "csv",
                               "tickets": 3000, "outcomes": True, "signature_checked": False})
    fixed = tmp_path / "imaging.txt"
    code, doc = _json("imaging", "export", signed["run"], "--out", fixed, "--format", "fixed", "--spec",
                      signed["spec"])
    layout = tmp_path / "imaging.layout.csv"
    length = len(fixed.read_bytes().split(b"\n")[0])
    assert (code, doc) == (0, {"imaging": str(fixed), "mode": "0600", "sha256": _sha256(fixed),
                               "format": "fixed", "tickets": 3000, "record_characters": length,
                               "layout": str(layout), "layout_sha256": _sha256(layout), "outcomes": True,
                               "signature_checked": False})


def test_imaging_sequence_json_counts_and_hashes_every_file(signed, tmp_path):
    out = tmp_path / "ship"
    code, doc = _json("imaging", "sequence", signed["run"], "--out", out, "--packs-per-carton", 3,
                      "--cartons-per-pallet", 2)
    assert (code, doc) == (0, {"sequence": str(out), "packs": 10, "cartons": 4, "pallets": 2,
                               "packs_per_carton": 3, "cartons_per_pallet": 2, "outcomes": False,
                               "files": [{"name": n, "sha256": _sha256(out / n)} for n in SHIP_FILES]})


def test_demo_json_is_the_only_thing_on_stdout(signed, tmp_path):
    """The steps' own output goes to stderr; stdout is one JSON document, where every file is."""
    out = tmp_path / "outputs"
    given = tmp_path / "demo.seed"
    given.write_text(SEED_A.hex() + "\n")
    given.chmod(0o600)
    done = subprocess.run([sys.executable, "-m", "poolgen", "demo", "--out", str(out), "--spec",
                           str(signed["spec"]), "--seed-file", str(given), "--json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    (folder,) = out.iterdir()
    doc = json.loads(done.stdout)
    fingerprint = done.stderr.split("public key fingerprint: ")[1].split("\n")[0]
    assert (done.returncode, doc) == (0, {
        "demo": str(folder), "run": str(folder / "happy_holidays-p1"), "seed_file": str(given),
        "private_key": str(folder / "keys" / "signing-key.pem"),
        "public_key": str(folder / "keys" / "signing-key.pub.pem"), "fingerprint": fingerprint,
        "proof": str(folder / "proof.pdf"), "report": str(folder / "report.pdf"), "ok": True,
        "stopped_at": None, "exit_code": 0})
    assert "verified: every step passes" in done.stderr
    assert SEED_A.hex() not in done.stdout + done.stderr
