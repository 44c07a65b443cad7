"""`poolgen generate --json` (docs/manifest.md, "What `generate --json` prints"): the run folder, the seed's
source and file (never the seed), the signature, the pools, every file written with its size, SHA-256,
mode and whether it holds outcomes, and the manifest whole; exactly these keys, and what scripts read when
it printed the manifest (`run_id`, `totals`, `pools[].file`, `pools[].merkle`) where they were."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.support import SEED_A, small_einstant, small_happy_holidays
from tests.support.cli import invoke

KEYS = {"run", "run_id", "seed", "signed", "key_fingerprint", "pools", "totals", "files", "manifest"}
FILE_KEYS = {"name", "path", "role", "pool", "bytes", "sha256", "mode", "outcomes"}


def _seed_file(folder: Path) -> Path:
    path = folder / "s.seed"
    path.write_text(SEED_A.hex() + "\n")
    path.chmod(0o600)
    return path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_signed_printed_run_lists_every_file_it_wrote_with_its_hash(tmp_path):
    assert invoke("keys", "new", tmp_path / "keys").exit_code == 0
    for name in ("low", "high"):
        assert invoke("keys", "validation", "new", tmp_path / f"{name}.key").exit_code == 0
    seed = _seed_file(tmp_path)
    made = invoke("generate", small_happy_holidays(tmp_path, 6000), "--out", tmp_path / "runs",
                  "--run-id", "r", "--seed-file", seed, "--key", tmp_path / "keys" / "signing-key.pem",
                  "--workers", "1",
                  "--validation-key", tmp_path / "low.key", "--high-validation-key", tmp_path / "high.key",
                  "--json")
    assert made.exit_code == 0, made.output
    doc, run = json.loads(made.stdout), tmp_path / "runs" / "r"
    manifest = json.loads((run / "manifest.json").read_text())
    assert set(doc) == KEYS
    assert (doc["run"], doc["run_id"], doc["seed"]) == (str(run), "r",
                                                        {"source": "seed-file", "file": str(seed)})
    assert (doc["signed"], doc["key_fingerprint"]) == (True, manifest["signature"]["key_fingerprint"])
    assert (doc["manifest"], doc["totals"]) == (manifest, manifest["totals"])
    assert doc["totals"] == {"pools": 2, "tickets": 6000, "winners": 1756, "prize_cost_cents": 353600,
                             "sales_cents": 600000, "odds_1_in": "3.4169", "payout_pct": "58.9333"}
    assert [(f["name"], f["role"], f["pool"], f["mode"], f["outcomes"]) for f in doc["files"]] == [
        ("manifest.json", "manifest", None, "0644", False),
        ("manifest.sig", "manifest", None, "0644", False),
        ("pool-p1.parquet", "pool", "p1", "0600", True),
        ("imaging-p1.parquet", "imaging", "p1", "0600", True),
        ("pool-p2.parquet", "pool", "p2", "0600", True),
        ("imaging-p2.parquet", "imaging", "p2", "0600", True),
        ("packs.csv", "packs", None, "0644", False),
        ("validation-low.bin", "validation", None, "0600", True),
        ("validation-high.bin", "validation-high", None, "0600", True)]
    assert sorted(f["name"] for f in doc["files"]) == sorted(p.name for p in run.iterdir())  # all, no more
    for f in doc["files"]:
        assert set(f) == FILE_KEYS
        path = Path(f["path"])
        assert (path, f["bytes"], f["sha256"]) == (run / f["name"], path.stat().st_size, _sha256(path))
        assert f"{path.stat().st_mode & 0o777:04o}" == f["mode"]
    for pool, entry in zip(doc["pools"], manifest["pools"], strict=True):
        assert set(pool) == {"id", "tickets", "winners", "payout_pct", "file", "merkle", "path"}
        path = str(run / entry["file"]["name"])
        assert pool == {**{k: entry[k] for k in pool if k != "path"}, "path": path}
    assert [(p["id"], p["tickets"], p["winners"]) for p in doc["pools"]] == [("p1", 3000, 878),
                                                                             ("p2", 3000, 878)]
    assert SEED_A.hex() not in made.output
    assert made.stderr.startswith("signed by key ")  # what goes to stderr is as without --json


def test_a_fresh_seed_and_an_unsigned_run_say_so(tmp_path):
    out = tmp_path / "runs"
    made = invoke("generate", small_einstant(tmp_path, "hand_to_hand_tactics", 1000), "--pool", "d1.00",
                  "--out", out, "--run-id", "e", "--workers", "1", "--unsigned", "--json")
    assert made.exit_code == 0, made.output
    doc = json.loads(made.stdout)
    assert set(doc) == KEYS
    assert (doc["seed"], doc["signed"], doc["key_fingerprint"]) == (
        {"source": "fresh", "file": str(out / "e.seed")}, False, None)
    assert [(f["name"], f["role"], f["pool"], f["mode"], f["outcomes"]) for f in doc["files"]] == [
        ("manifest.json", "manifest", None, "0644", False),
        ("pool-d1.00.parquet", "pool", "d1.00", "0600", True)]
    assert sorted(p.name for p in (out / "e").iterdir()) == ["manifest.json", "pool-d1.00.parquet"]
    assert [f["sha256"] for f in doc["files"]] == [_sha256(out / "e" / f["name"]) for f in doc["files"]]
    assert (out / "e.seed").read_text().strip() not in made.output
    assert made.stderr.startswith(f"new seed saved to {out / 'e.seed'} (mode 0600)")


def test_without_json_the_line_is_unchanged(tmp_path):
    made = invoke("generate", small_einstant(tmp_path, "hand_to_hand_tactics", 1000), "--pool", "d1.00",
                  "--out", tmp_path / "runs", "--run-id", "e", "--seed-file", _seed_file(tmp_path),
                  "--workers", "1", "--unsigned")
    assert made.exit_code == 0, made.output
    assert made.stdout.startswith(f"run {tmp_path / 'runs' / 'e'}: 1 pool(s), 1,000 tickets, ")
    assert made.stdout.count("\n") == 1


def test_docs_manifest_md_names_exactly_these_keys():
    import re

    text = (Path(__file__).parents[3] / "docs" / "manifest.md").read_text()
    section = text.split("## What `generate --json` prints", 1)[1]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    assert {key for row in rows for key in re.findall(r"`(\w+)(?:\[\])?`", row)} == KEYS
