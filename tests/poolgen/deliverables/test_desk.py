"""The reference validation desk (`poolgen validate`, a claims ledger shared by real processes) and
sealed deliverables (`poolgen seal` / `unseal`, HPKE): a wrong private key never opens a file."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import polars as pl
import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, spec_path


def invoke(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("desk")
    for tier in ("low", "high"):
        new_validation_key(root / f"{tier}.key")
    keys = (read_validation_key(root / "low.key"), read_validation_key(root / "high.key"))
    spec = load_spec(spec_path("wild_side"))
    folder = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root,
                                      run_id="ws", pool_ids=["p1"], validation_keys=keys)).folder
    rows = pl.concat(
        [
            pl.read_parquet(folder / "imaging-p1.parquet", columns=["barcode", "virn"]),
            pl.read_parquet(folder / "pool-p1.parquet", columns=["prize_cents"]),
        ],
        how="horizontal",
    )
    return {"root": root, "folder": folder, "rows": rows}


def ticket(run, where) -> tuple[str, str, int]:
    return run["rows"].filter(where).row(0)


def claim(run, barcode, virn, *more):
    return invoke(
        "validate", run["folder"], barcode, virn, "--validation-key", run["root"] / "low.key", *more
    )


def test_validation_keys_are_0600_and_never_printed(run):
    result = invoke("keys", "validation", "new", run["root"] / "k" / "v.key")
    assert result.exit_code == 0
    key = (run["root"] / "k" / "v.key").read_text().strip()
    assert (run["root"] / "k" / "v.key").stat().st_mode & 0o777 == 0o600 and len(key) == 64
    assert key not in result.output
    again = invoke("keys", "validation", "new", run["root"] / "k" / "v.key")
    assert again.exit_code == 2 and "already exists; not overwriting it" in again.output
    inside = invoke("keys", "validation", "new", run["folder"] / "v.key")
    assert inside.exit_code == 2 and "inside a run folder" in inside.output


def test_the_desk_answers_each_kind_of_claim(run):
    b, v, p = ticket(run, (pl.col("prize_cents") > 0) & (pl.col("prize_cents") < 60000))
    assert claim(run, b, v).output == f"{b}: prize ${p // 100:,}.{p % 100:02d} (low tier)\n"
    lb, lv, _ = ticket(run, pl.col("prize_cents") == 0)
    assert claim(run, lb, lv).output.startswith(f"{lb}: not a winner (high-tier prizes are validated only")
    assert claim(run, b, lv).output == f"{b}: wrong validation number\n"
    unknown = "358" + "9999999" + "000"
    unknown += f"{98 - int(unknown + '00') % 97:02d}"
    assert claim(run, unknown, v).output == f"{unknown}: unknown ticket (not in run ws)\n"
    bad = b[:-1] + str((int(b[-1]) + 1) % 10)
    assert claim(run, bad, v).exit_code == 1 and "check digits fail" in claim(run, bad, v).output
    hb, hv, hp = ticket(run, pl.col("prize_cents") >= 60000)
    assert claim(run, hb, hv).output.startswith(f"{hb}: not a winner")  # the low key never pays it
    both = claim(run, hb, hv, "--high-validation-key", run["root"] / "high.key")
    assert both.exit_code == 0 and both.output == f"{hb}: prize ${hp // 100:,}.{hp % 100:02d} (high tier)\n"


def test_two_concurrent_claims_of_one_ticket_pay_once(run, tmp_path):
    b, v, _ = ticket(run, (pl.col("prize_cents") > 0) & (pl.col("prize_cents") < 60000))
    ledger = tmp_path / "claims.sqlite"
    cmd = [
        sys.executable,
        "-m",
        "poolgen",
        "validate",
        str(run["folder"]),
        b,
        v,
        "--validation-key",
        str(run["root"] / "low.key"),
        "--ledger",
        str(ledger),
    ]
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)
    ]
    results = [(p.wait(timeout=300), p.stdout.read()) for p in procs]
    assert sorted(code for code, _ in results) == [0, 1, 1, 1]
    assert sum("paid, recorded in the ledger" in out for _, out in results) == 1
    assert sum("already paid; refusing a second claim" in out for _, out in results) == 3
    assert ledger.stat().st_mode & 0o777 == 0o600


def test_hpke_round_trip_and_a_wrong_private_key_fails(run, tmp_path):
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    assert invoke("keys", "recipient", tmp_path / "other").exit_code == 0
    src = run["folder"] / "imaging-p1.parquet"
    sealed = tmp_path / "imaging-p1.sealed"
    assert (
        invoke("seal", src, "--to", tmp_path / "printer" / "recipient-key.pub.pem", "--out", sealed).exit_code
        == 0
    )
    assert src.read_bytes() not in sealed.read_bytes()
    opened = invoke(
        "unseal", sealed, "--key", tmp_path / "printer" / "recipient-key.pem", "--out", tmp_path / "o"
    )
    assert opened.exit_code == 0 and (tmp_path / "o").read_bytes() == src.read_bytes()
    wrong = invoke(
        "unseal", sealed, "--key", tmp_path / "other" / "recipient-key.pem", "--out", tmp_path / "w"
    )
    assert wrong.exit_code == 2 and not (tmp_path / "w").exists()
    assert "imaging-p1.parquet: cannot be opened with this key" in wrong.output
    data = bytearray(sealed.read_bytes())
    data[-1] ^= 1
    (tmp_path / "changed").write_bytes(bytes(data))
    changed = invoke(
        "unseal",
        tmp_path / "changed",
        "--key",
        tmp_path / "printer" / "recipient-key.pem",
        "--out",
        tmp_path / "c",
    )
    assert changed.exit_code == 2 and not (tmp_path / "c").exists()


def test_generate_says_who_may_receive_each_file(tmp_path):
    (tmp_path / "s").write_text(SEED_A.hex() + "\n")
    (tmp_path / "s").chmod(0o600)  # a seed file others may read is refused
    for t in ("low", "high"):
        assert invoke("keys", "validation", "new", tmp_path / f"{t}.key").exit_code == 0
    result = invoke(
        "generate",
        spec_path("wild_side"),
        "--pool",
        "p2",
        "--out",
        tmp_path / "runs",
        "--run-id",
        "r",
        "--seed-file",
        tmp_path / "s",
        "--unsigned",
        "--validation-key",
        tmp_path / "low.key",
        "--high-validation-key",
        tmp_path / "high.key",
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "may leave the building" in line]
    assert [line.split(":")[0] for line in lines] == [
        "pool-*.parquet",
        "imaging-*.parquet",
        "validation-low.bin",
        "validation-high.bin",
        "packs.csv",
        "manifest.json, manifest.sig",
    ]
    one = invoke(
        "generate",
        spec_path("wild_side"),
        "--pool",
        "p2",
        "--out",
        tmp_path / "runs",
        "--run-id",
        "r2",
        "--seed-file",
        tmp_path / "s",
        "--unsigned",
        "--validation-key",
        tmp_path / "low.key",
    )
    assert one.exit_code == 2
    assert "give both --validation-key and --high-validation-key, or neither" in one.output
