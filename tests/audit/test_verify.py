"""The audit checklist (audit/verify.py) against a real signed run, honest and tampered: every
tampering is caught, each by the step it belongs to, with a specific reason; exit codes 0 (verified), 1 (a
step fails), 2 (unusable).

One Happy Holidays pool cut to 3,000 tickets (tests/support small_happy_holidays: the real game's
manifest, rules and tiers, in 10 books) is generated once; every case works on a copy: what each step
catches and the reason it gives do not depend on the pool's size, and a full pool of 300,000 is
verified every step, seed included, by tests/end_to_end/test_happy_holidays.py. The ticket proofs
work on a full pool (p1, 300,000 tickets: a path of five levels of the 16-ary tree). Cases
that need the audit's rules engine for Happy Holidays (the match_n style, audit/styles/match_n.py) to
judge layouts are skipped until it exists; without it, step 4 fails, which is asserted too.

Then the checklist's plumbing: a check that crashes is reported with its exception, and a pool file that
is not Parquet fails step 3 and skips 4 to 6."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.read.manifest import Manifest
from audit.verify import VerifyRequest, pool_outcomes, verify_run
from audit.verify import attempt as _attempt
from poolgen.cli.main import app
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, SEED_B, small_happy_holidays, spec_path
from tests.support.virns import virn_of

HAVE_RULES = importlib.util.find_spec("audit.styles.match_n") is not None
needs_rules = pytest.mark.skipif(not HAVE_RULES, reason="audit/styles/match_n.py not written yet")
POOL = "pool-p1.parquet"
LAYOUT = [f"play_spot_{j}" for j in range(6)]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A signed run of the 3,000-ticket cut, its keys, seed files and spec: generated once for the
    module."""
    tmp = tmp_path_factory.mktemp("tamper")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec_file = small_happy_holidays(tmp, 3000)
    run = generate(GenerateRequest(load_spec(spec_file), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp / "runs", run_id="r", pool_ids=["p1"],
                                   signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    (tmp / "right.seed").write_text(SEED_A.hex() + "\n")
    (tmp / "right.seed").chmod(0o600)  # a seed file others may read is refused
    (tmp / "wrong.seed").write_text(SEED_B.hex() + "\n")
    (tmp / "wrong.seed").chmod(0o600)  # a seed file others may read is refused
    return {"run": run.folder, "keys": keys, "signer": signer, "tmp": tmp, "spec": spec_file}


@pytest.fixture(scope="module")
def full(base, tmp_path_factory) -> Path:
    """A signed run of one full Happy Holidays pool (p1, 300,000 tickets), signed with base's key."""
    signer = base["signer"]
    return generate(GenerateRequest(load_spec(spec_path("happy_holidays")), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path_factory.mktemp("full"),
                                    run_id="r", pool_ids=["p1"], signature=signer.manifest_entry()),
                    finish=signer.sign_run).folder


@pytest.fixture
def run(base, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(base["run"], copy)
    return copy


def verify(base, run: Path, *extra: str, key: Path | None = None) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(key or base["keys"].public),
                                      "--json", *extra])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def status(report: dict) -> dict[int, str]:
    return {s["step"]: s["status"] for s in report["steps"]}


def reasons(report: dict, step: int) -> str:
    return " | ".join(report["steps"][step - 1]["reasons"])


def rewrite(run: Path, change) -> None:
    """Read the pool table, change it, and write it back as poolgen writes it."""
    table = pl.read_parquet(run / POOL)
    change(table).write_parquet(run / POOL, compression="zstd", statistics=True)


def reseal(base, run: Path, *, merkle: bool = True, edit=None) -> None:
    """What an insider holding the signing key would do: restate the file's size and hash (and its
    Merkle root), optionally edit the manifest, and sign again."""
    doc = json.loads((run / "manifest.json").read_bytes())
    pool = doc["pools"][0]
    pool["file"] = file_entry(run / POOL)
    if merkle:
        pool["merkle"]["root"] = merkle_root(pl.read_parquet(run / POOL)).hex()
    if edit:
        edit(doc)
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)


def _loser_and_winner(table: pl.DataFrame) -> tuple[int, int]:
    loser = table.with_row_index().filter(pl.col("tier") == "lose")["index"][0]
    winner = table.with_row_index().filter(pl.col("tier") == "100")["index"][0]
    return int(loser), int(winner)


# ---- honest --------------------------------------------------------------------------------------

@needs_rules
def test_honest_run_passes_every_step(base, run):
    code, report = verify(base, run, "--spec", str(base["spec"]),
                          "--seed-file", str(base["tmp"] / "right.seed"))
    assert code == 0 and report["ok"] and report["failed_steps"] == []
    assert status(report) == dict.fromkeys(range(1, 10), "pass")
    assert report["public_key_fingerprint"] == base["keys"].fingerprint


def test_honest_run_passes_every_step_that_needs_no_rules_engine(base, run):
    code, report = verify(base, run, "--spec", str(base["spec"]))
    got = status(report)
    assert {n: got[n] for n in (1, 2, 3, 5, 6)} == dict.fromkeys((1, 2, 3, 5, 6), "pass")
    assert got[7] == "skip" and "not requested" in reasons(report, 7)
    if HAVE_RULES:
        assert code == 0 and got[4] == "pass"
    else:
        assert code == 1 and got[4] == "fail"
        assert "audit engine for style 'match_n'" in reasons(report, 4)


def test_text_report_and_python_m_audit(base, run):
    result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(base["keys"].public)])
    assert "  1 signature     pass  Ed25519 signature over manifest.json" in result.stdout
    assert "  7 reproduction  skip  not requested" in result.stdout
    out = subprocess.run([sys.executable, "-m", "audit", "verify", str(run), "--public-key",
                          str(base["keys"].public)], capture_output=True, text=True)
    assert out.returncode == result.exit_code
    assert out.stdout.splitlines()[:3] == result.stdout.splitlines()[:3]



def test_text_report_says_what_step_7_of_audit_alone_rederived(base, run):
    """Step 7 of `python -m audit verify --seed-file` is a skip (no generator to regenerate the pools), yet
    it re-derived the salts, the tier order and the validation numbers, and says what it did not: the
    text report says so under the skip, as the JSON report and the PDF's checklist do."""
    result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                            "--seed-file", str(base["tmp"] / "right.seed")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  7 reproduction  skip  "))
    assert lines[at:at + 2] == [
        "  7 reproduction  skip  seed matches the commitment; pools not regenerated: this verifier has no "
        "generator (`poolgen verify --seed-file` regenerates them)",
        f"  {'':<15} {'':4}  seed matches the commitment; the salts and tier order of 1 pool(s) and 3,000 "
        "validation numbers re-derived from the seed; book numbers not re-derived: give --spec (the order's "
        "book slots are the spec's)"]

# ---- the tamper matrix -----------------------------------------------------------------------------

def test_flipped_byte_in_a_pool_file(base, run):
    data = bytearray((run / POOL).read_bytes())
    data[len(data) // 2] ^= 0x01
    (run / POOL).write_bytes(bytes(data))
    code, report = verify(base, run)
    assert code == 1 and status(report)[2] == "fail"
    assert f"pool p1: {POOL} has SHA-256" in reasons(report, 2)
    assert status(report)[1] == "pass"


def test_one_prize_changed_and_the_file_rewritten(base, run):
    loser, _ = _loser_and_winner(pl.read_parquet(run / POOL))
    rewrite(run, lambda t: t.with_columns(
        pl.when(pl.int_range(pl.len()) == loser).then(10_000).otherwise(pl.col("prize_cents"))
        .alias("prize_cents")))
    code, report = verify(base, run)
    assert code == 1
    assert status(report)[2] == "fail" and "has SHA-256" in reasons(report, 2)
    assert status(report)[5] == "fail" and "tier 'lose' pays 0 cents, but its tickets store 0..10000" in \
        reasons(report, 5)
    assert status(report)[6] == "fail" and "is not the manifest's" in reasons(report, 6)


def test_one_prize_changed_even_when_resealed_with_the_real_key(base, run):
    loser, _ = _loser_and_winner(pl.read_parquet(run / POOL))
    rewrite(run, lambda t: t.with_columns(
        pl.when(pl.int_range(pl.len()) == loser).then(10_000).otherwise(pl.col("prize_cents"))
        .alias("prize_cents")))
    reseal(base, run)
    code, report = verify(base, run)
    assert code == 1
    assert {n: status(report)[n] for n in (1, 2, 3, 6)} == dict.fromkeys((1, 2, 3, 6), "pass")
    assert status(report)[4] == "fail"
    assert status(report)[5] == "fail"
    assert "prize cost (cents): recounted 186800, the manifest says 176800" in reasons(report, 5)
    if HAVE_RULES:
        assert f"(row {loser}) pays 0 cents, stores 10000" in reasons(report, 4)


@needs_rules
def test_two_tickets_layouts_swapped(base, run):
    table = pl.read_parquet(run / POOL)
    loser, winner = _loser_and_winner(table)
    swapped = table[LAYOUT].to_numpy().copy()
    swapped[[loser, winner]] = swapped[[winner, loser]]
    rewrite(run, lambda t: t.with_columns(pl.Series(c, swapped[:, j], dtype=t.schema[c])
                                          for j, c in enumerate(LAYOUT)))
    reseal(base, run)  # file hash, Merkle root and signature all restated: the layouts, and the
    code, report = verify(base, run)  # imaging file that still prints the old ones (step 9), tell
    assert code == 1 and report["failed_steps"] == [4, 9]
    why = reasons(report, 4)
    assert "2 layout(s) do not pay the stored prize" in why
    assert f"(row {loser}) pays 10000 cents, stores 0" in why
    assert f"(row {winner}) pays 0 cents, stores 10000" in why


def test_a_pool_file_deleted(base, run):
    (run / POOL).unlink()
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [2, 3, 4, 5, 6, 8]
    assert reasons(report, 2) == f"pool p1: {POOL} is missing"
    assert reasons(report, 8).startswith(f"pool p1: needs {POOL} readable with columns prize_cents, "
                                         "play_spot_0")
    for step in (3, 4, 5, 6):
        assert status(report)[step] == "skip"
        assert reasons(report, step) == f"pool p1: needs step 2: {POOL} is missing"


def test_an_extra_pool_file_added(base, run):
    shutil.copy(run / POOL, run / "pool-p2.parquet")
    code, report = verify(base, run)
    assert code == 1 and status(report)[2] == "fail"
    assert reasons(report, 2) == "unlisted file(s) in the run folder: pool-p2.parquet"
    assert {n: status(report)[n] for n in (1, 3, 5, 6)} == dict.fromkeys((1, 3, 5, 6), "pass")


def _edit_winners(doc: dict) -> None:
    doc["pools"][0]["winners"] += 1


def test_a_manifest_figure_edited(base, run):
    doc = json.loads((run / "manifest.json").read_bytes())
    _edit_winners(doc)
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    code, report = verify(base, run)
    assert code == 1
    assert status(report)[1] == "fail" and "the signature does not verify with the given public key" in \
        reasons(report, 1)
    assert status(report)[5] == "fail" and "winners: recounted 878, the manifest says 879" in \
        reasons(report, 5)


def test_a_manifest_figure_edited_and_resealed_with_the_real_key(base, run):
    reseal(base, run, edit=_edit_winners)
    code, report = verify(base, run)
    assert code == 1 and status(report)[1] == "pass" and status(report)[5] == "fail"
    assert "winners: recounted 878, the manifest says 879" in reasons(report, 5)


def test_the_manifest_resigned_with_another_key(base, run, tmp_path):
    other = Signer.from_file(new_key_pair(tmp_path / "mallory").private)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["signature"] = other.manifest_entry()
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    other.sign_run(run)
    code, report = verify(base, run)
    assert code == 1 and status(report)[1] == "fail"
    assert reasons(report, 1) == (f"the signature does not verify with the given public key "
                                  f"({base['keys'].fingerprint}); the manifest names signer key "
                                  f"{other.fingerprint}")
    # the same run verifies only with the key that signed it: the key given is the only trust
    code, report = verify(base, run, key=tmp_path / "mallory" / "signing-key.pub.pem")
    assert status(report)[1] == "pass"


def test_a_truncated_signature(base, run):
    sig = run / "manifest.sig"
    sig.write_bytes(sig.read_bytes()[:-1])
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"][0] == 1
    assert reasons(report, 1) == "manifest.sig is 63 bytes; an Ed25519 signature is 64"


def test_a_missing_signature_and_an_unsigned_run(base, run, tmp_path):
    (run / "manifest.sig").unlink()
    code, report = verify(base, run)
    assert code == 1 and reasons(report, 1) == "manifest.sig is missing"
    unsigned = generate(GenerateRequest(load_spec(small_happy_holidays(tmp_path, 3000)), SEED_A,
                                        now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path / "u", run_id="u",
                                        pool_ids=["p1"]))
    code, report = verify(base, unsigned.folder)
    assert code == 1 and "the run is unsigned" in reasons(report, 1)


def test_a_wrong_seed_file(base, run):
    code, report = verify(base, run, "--spec", str(base["spec"]),
                          "--seed-file", str(base["tmp"] / "wrong.seed"))
    assert code == 1 and status(report)[7] == "fail"
    assert reasons(report, 7) == "the seed does not match the manifest's seed commitment (wrong seed file)"
    assert {n: status(report)[n] for n in (1, 2, 3, 5, 6)} == dict.fromkeys((1, 2, 3, 5, 6), "pass")


def test_audit_alone_checks_the_seed_commitment_but_cannot_regenerate(base, run):
    """python -m audit has no generator (it never imports poolgen): step 7 checks the commitment only."""
    def audit_verify(seed: str) -> tuple[int, dict]:
        result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                                "--spec", str(base["spec"]),
                                                "--seed-file", str(base["tmp"] / seed), "--json"])
        return result.exit_code, json.loads(result.stdout)

    code, report = audit_verify("right.seed")
    assert status(report)[7] == "skip" and 7 not in report["failed_steps"]
    assert reasons(report, 7) == ("seed matches the commitment; pools not regenerated: this verifier has no "
                                  "generator (`poolgen verify --seed-file` regenerates them)")
    code, report = audit_verify("wrong.seed")
    assert code == 1 and status(report)[7] == "fail"
    assert reasons(report, 7) == "the seed does not match the manifest's seed commitment (wrong seed file)"


def test_audit_alone_checks_the_seed_commitment_without_a_spec(base, run):
    """README: `python -m audit verify RUN --public-key K` checks only the seed commitment in step 7, which
    needs no spec; a spec is needed to regenerate, which only `poolgen verify` does (and still demands)."""
    for seed, code, step7 in (("right.seed", 0, "skip"), ("wrong.seed", 1, "fail")):
        result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                                "--seed-file", str(base["tmp"] / seed), "--json"])
        assert result.exit_code == (code if HAVE_RULES else 1), result.output
        assert status(json.loads(result.stdout))[7] == step7
        if step7 == "skip":
            assert reasons(json.loads(result.stdout), 7) == (
                "seed matches the commitment; pools not regenerated: this verifier has no generator "
                "(`poolgen verify --seed-file` regenerates them)")
    report = json.loads(result.stdout)
    assert reasons(report, 7) == "the seed does not match the manifest's seed commitment (wrong seed file)"


def test_a_spec_edited_after_the_run(base, run, tmp_path):
    edited = tmp_path / "happy_holidays.toml"
    text = base["spec"].read_text()
    assert text.count("count = 4\n") == 1  # the top tier's ($100) count, per pool of the cut
    edited.write_text(text.replace("count = 4\n", "count = 5\n"))
    code, report = verify(base, run, "--spec", str(edited))
    assert code == 1 and status(report)[5] == "fail"
    why = reasons(report, 5)
    assert "spec happy_holidays.toml has SHA-256" in why and "the manifest says" in why
    counts = [("lose", 0, 2_122), ("free", 100, 200), ("1", 100, 393), ("2", 200, 235), ("5", 500, 41),
              ("20", 2000, 5), ("100", 10_000, 4)]
    edited_counts = [("lose", 0, 2_121)] + counts[1:-1] + [("100", 10_000, 5)]
    assert f"pool p1: tiers {counts}, spec {edited_counts}" in why


# ---- unusable input -------------------------------------------------------------------------------

def test_unusable_input_exits_2(base, run, tmp_path):
    pub = str(base["keys"].public)
    cases = [
        (["verify", str(tmp_path / "nope"), "--public-key", pub], "run folder not found"),
        (["verify", str(run), "--public-key", str(tmp_path / "nokey.pem")], "public key file not found"),
        (["verify", str(run), "--public-key", str(base["keys"].private)], "is a private key"),
        (["verify", str(run), "--public-key", pub, "--seed-file", str(base["tmp"] / "right.seed")],
         "--seed-file needs --spec"),
        (["verify", str(run), "--public-key", pub, "--spec", str(tmp_path / "none.toml")],
         "spec file not found"),
    ]
    for args, message in cases:
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith("poolgen: error: ") and message in result.stderr  # poolgen's verify
    (run / "manifest.json").unlink()
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", pub])
    assert result.exit_code == 2 and "no manifest.json in the run folder" in result.stderr


def test_a_manifest_that_is_not_a_manifest(base, run):
    (run / "manifest.json").write_bytes(b"{}")
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [1, 2, 3, 4, 5, 6, 8]
    assert "manifest.json is not a valid manifest" in reasons(report, 1)
    assert reasons(report, 8) == "needs a readable manifest.json (step 1)"
    assert reasons(report, 2) == "needs a readable manifest.json (step 1)"


# ---- ticket proofs ---------------------------------------------------------------------------------

def test_prove_a_ticket_and_check_the_proof(base, full, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(full, run)
    result = CliRunner().invoke(app, ["prove", str(run), "465-0002054-034", virn_of(run, "465-0002054-034"),
                                      "--json"])
    assert result.exit_code == 0, result.output
    proof = json.loads(result.stdout)
    assert proof["pool"] == "p1" and proof["position"] == 4 * 300 + 34 and proof["tickets"] == 300_000
    assert proof["row"]["ticket"] == "465-0002054-034" and len(proof["path"]) == 5  # 16^4 < 300,000 < 16^5
    shape = [(len(s["left"]), len(s["right"])) for s in proof["path"]]
    assert shape == [(2, 13), (13, 2), (4, 11), (0, 15), (0, 4)]
    assert len(proof["row"]["salt"]) == 32
    good = tmp_path / "proof.json"
    good.write_text(result.stdout)
    manifest, pub = str(run / "manifest.json"), str(base["keys"].public)
    ok = CliRunner().invoke(audit_app, ["check-proof", str(good), manifest, "--public-key", pub])
    assert ok.exit_code == 0 and ok.stdout.startswith("valid proof: ticket 465-0002054-034 (pool p1")

    def check(edit) -> str:
        bad = json.loads(good.read_text())
        edit(bad)
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        out = CliRunner().invoke(audit_app, ["check-proof", str(tmp_path / "bad.json"), manifest,
                                             "--public-key", pub])
        assert out.exit_code == 1, out.output
        return out.stdout

    claimed = proof["row"]["prize_cents"] + 10_000
    assert "the proof's leaf is not the hash of its row" in check(
        lambda p: p["row"].update(prize_cents=claimed))
    assert "the path does not lead" in check(lambda p: (p["row"].update(prize_cents=claimed), p.pop("leaf")))
    assert "position 35 in a tree of 300000 leaves needs 3 and 12" in check(
        lambda p: p.update(position=35) or p["row"].update(position=35) or p.pop("leaf"))
    assert "no pool 'p9'" in check(lambda p: p.update(pool="p9"))
    as_json = CliRunner().invoke(audit_app, ["check-proof", str(good), manifest, "--public-key", pub,
                                             "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.stdout) == {
        "valid": True, "ticket": "465-0002054-034", "pool": "p1", "position": 1234, "tickets": 300_000,
        "prize_cents": proof["row"]["prize_cents"], "text": ok.stdout.strip()}
    (tmp_path / "bad.json").write_text(good.read_text().replace('"pool": "p1"', '"pool": "p9"'))
    bad = CliRunner().invoke(audit_app, ["check-proof", str(tmp_path / "bad.json"), manifest, "--public-key",
                                         pub, "--json"])
    assert bad.exit_code == 1 and json.loads(bad.stdout) == {
        "valid": False, "text": "INVALID proof: the manifest has no pool 'p9'"}
    (run / "manifest.sig").write_bytes(b"\0" * 64)
    assert "does not verify" in check(lambda p: None)
    missing = CliRunner().invoke(audit_app, ["check-proof", str(tmp_path / "none.json"), manifest,
                                             "--public-key", pub])
    assert missing.exit_code == 2


def test_prove_an_unknown_ticket(base, run):
    result = CliRunner().invoke(app, ["prove", str(run), "465-9999999-000", "0" * 12])
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"poolgen: error: {run}: no ticket '465-9999999-000' in any pool of "
                                     "the run")


# ---- generate's signing flags ----------------------------------------------------------------------

def test_generate_refuses_an_unsigned_run_unless_asked(base, tmp_path):
    seed = str(base["tmp"] / "right.seed")
    common = ["generate", str(small_happy_holidays(tmp_path, 3000)), "--out", str(tmp_path / "o"), "--pool",
              "p1", "--seed-file", seed, "--workers", "1"]  # signing does not depend on the pool's size
    refused = CliRunner().invoke(app, [*common, "--run-id", "a"])
    assert refused.exit_code == 2
    assert refused.stderr.strip() == ("poolgen: error: refusing to write an unsigned run; give --key FILE "
                                      "or --unsigned")
    key = str(base["keys"].private)
    both = CliRunner().invoke(app, [*common, "--run-id", "b", "--unsigned", "--key", key])
    assert both.exit_code == 2 and "give --key FILE or --unsigned, not both" in both.stderr
    assert not (tmp_path / "o" / "a").exists() and not (tmp_path / "o" / "b").exists()
    signed = CliRunner().invoke(app, [*common, "--run-id", "c", "--key", key])
    assert signed.exit_code == 0, signed.output
    assert f"signed by key {base['keys'].fingerprint}" in signed.stderr
    assert (tmp_path / "o" / "c" / "manifest.sig").stat().st_size == 64
    code, report = verify(base, tmp_path / "o" / "c")
    assert status(report)[1] == "pass"


def test_generate_with_an_encrypted_key(base, tmp_path, monkeypatch):
    keys = new_key_pair(tmp_path / "k", b"s3cret")
    common = ["generate", str(small_happy_holidays(tmp_path, 3000)), "--out", str(tmp_path / "o"), "--pool",
              "p1", "--seed-file", str(base["tmp"] / "right.seed"), "--workers", "1", "--key",
              str(keys.private)]  # the key's passphrase does not depend on the pool's size
    wrong = CliRunner().invoke(app, common + ["--run-id", "a"], env={"POOLGEN_KEY_PASSPHRASE": "nope"})
    assert wrong.exit_code == 2
    assert wrong.stderr.strip().endswith("signing-key.pem: wrong passphrase for the private key")
    monkeypatch.setenv("POOLGEN_KEY_PASSPHRASE", "s3cret")
    ok = CliRunner().invoke(app, common + ["--run-id", "b"])
    assert ok.exit_code == 0, ok.output
    code, report = verify(base, tmp_path / "o" / "b", key=keys.public)
    assert status(report)[1] == "pass"


# ---- the checklist's plumbing -------------------------------------------------------------------
def test_a_check_that_crashes_is_reported_with_its_exception():
    assert _attempt(4, int, "x") == ("fail", "could not be checked: ValueError: invalid literal for int() "
                                             "with base 10: 'x'")


def test_steps_3_to_6_of_a_pool_file_that_is_not_parquet(pp_folder, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(pp_folder, folder)
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    pool = manifest.pools[0]
    (folder / pool.file).write_bytes(b"not parquet")
    out = pool_outcomes(folder, pool, manifest.doc["game"]["rules"], manifest.kind, None, None,
                        manifest.doc["play"])
    assert out[2][0] == "fail" and out[3][0] == "fail"
    assert out[3][1].startswith("pool-d1.00x1.parquet cannot be read as Parquet: ")
    assert {s: out[s] for s in (4, 5, 6)} == {
        s: ("skip", "needs step 3: pool-d1.00x1.parquet cannot be read") for s in (4, 5, 6)}


def test_pools_checked_by_this_process_and_its_workers_say_what_one_process_says(tmp_path):
    """verify --workers 3 on five pools: two worker processes check the largest pools, this process the
    smallest (audit/verify.py `_pool_results`); the report, line by line and in the same order, is the
    one --workers 1 gives."""
    keys = new_key_pair(tmp_path / "keys")
    signer = Signer.from_file(keys.private)
    spec = load_spec(small_happy_holidays(tmp_path, 15_000))
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path,
                                   run_id="r", workers=2, signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    reports = [verify_run(VerifyRequest(run=run, public_key=keys.public, workers=w)).to_json()
               for w in (1, 3)]
    assert reports[0]["ok"] and reports[1] == reports[0]
    assert sum(d.startswith("pool p") for s in reports[0]["steps"] for d in s["details"]) >= 5 * 5
