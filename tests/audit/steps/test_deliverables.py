"""Print-run deliverables (docs/validation.md): barcode check digits, secret book numbers, file modes,
validation files of a full pool of every printed game, and verify's step 9 against tampering.

One signed run of one full pool per printed game is generated once (module fixture), with two real
validation keys; tamper cases work on copies."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from audit.checklist import Step
from audit.read.manifest import Manifest
from audit.steps.deliverables import barcode_numbers, check_deliverables
from audit.verify import VerifyRequest, verify_run
from poolgen.deliverables.identity import barcode, barcodes, book_numbers, is_valid
from poolgen.deliverables.validation import TIERS, ValidationFile, new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import ROOT, SEED_A, SEED_B, spec_path

PRINTED = {
    "happy_holidays": spec_path("happy_holidays"),
    "wild_side": spec_path("wild_side"),
    "hit_50": ROOT / "specs/examples/hit_50.toml",
    "cash_explosion": ROOT / "specs/examples/cash_explosion.toml",
    "double_take": ROOT / "specs/examples/double_take.toml",
}
NOW = datetime(2026, 12, 1, tzinfo=UTC)


# ---- barcode check digits ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 999), st.integers(0, 9_999_999), st.integers(0, 999))
def test_check_digits_catch_every_single_digit_error_and_adjacent_transposition(game, book, ticket):
    number = barcode(game, book, ticket)
    assert len(number) == 15 and is_valid(number)
    assert barcode_numbers(game, np.array([book]), np.array([ticket])) == [number]  # audit's own
    for i in range(15):  # every position, check digits included
        for d in "0123456789":
            if d != number[i]:
                assert not is_valid(number[:i] + d + number[i + 1 :])
    for i in range(14):
        if number[i] != number[i + 1]:
            assert not is_valid(number[:i] + number[i + 1] + number[i] + number[i + 2 :])


def test_vectorised_barcodes_are_the_scalar_ones():
    book, ticket = np.array([0, 1234, 9_999_999]), np.array([0, 17, 999])
    assert barcodes(465, book, ticket).astype(str).tolist() == [
        barcode(465, b, t) for b, t in zip(book.tolist(), ticket.tolist(), strict=True)
    ]
    assert barcode(465, 1234, 17) == "465000123401782"


# ---- book numbers reveal nothing about pools --------------------------------------------------------


@pytest.mark.parametrize("seed", [SEED_A, SEED_B])
def test_book_numbers_carry_no_information_about_their_pool(seed):
    spec = load_spec(spec_path("happy_holidays"))  # 6 pools of 1,000 books
    numbers = book_numbers(seed, spec.id, 6000)
    assert sorted(numbers.tolist()) == list(range(6000))
    pool_of_slot = np.repeat(np.arange(6), 1000)
    decile = numbers // 600
    table = np.zeros((10, 6), dtype=int)
    np.add.at(table, (decile, pool_of_slot), 1)
    assert table.sum(axis=1).tolist() == [600] * 10
    assert chi2_contingency(table).pvalue > 0.001  # uniform: every decile holds books of every pool alike
    # the old numbering (slot = book) would fail the same test completely
    assert (
        chi2_contingency(np.eye(6, dtype=int).repeat(100, 0)[:600].reshape(10, 60, 6).sum(1) + 1).pvalue
        < 1e-6
    )


# ---- one full pool per printed game -----------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("deliver")
    files = new_key_pair(root / "keys", None)
    signer = Signer.from_file(files.private)
    new_validation_key(root / "vk" / "low.key")
    new_validation_key(root / "vk" / "high.key")
    keys = (read_validation_key(root / "vk" / "low.key"), read_validation_key(root / "vk" / "high.key"))
    old = os.umask(0)  # the modes must not depend on the umask
    try:
        out = {}
        for name, path in PRINTED.items():
            spec = load_spec(path)
            pool = spec.pools[-1].id  # a full pool (for a partial last pool, the smaller one)
            out[name] = generate(GenerateRequest(spec, SEED_A, now=NOW, out=root / "runs", run_id=name,
                                                 pool_ids=[pool], signature=signer.manifest_entry(),
                                                 validation_keys=keys), finish=signer.sign_run).folder
    finally:
        os.umask(old)
    return {"root": root, "runs": out, "public": files.public, "signer": signer, "keys": keys}


def test_outcome_files_are_0600_in_a_0700_folder_whatever_the_umask(runs):
    folder = runs["runs"]["wild_side"]
    modes = {p.name: p.stat().st_mode & 0o777 for p in folder.iterdir()}
    assert folder.stat().st_mode & 0o777 == 0o700
    secret = {n: m for n, m in modes.items() if n.endswith((".parquet", ".bin"))}
    assert set(secret) == {"pool-p5.parquet", "imaging-p5.parquet", *TIERS.values()}
    assert set(secret.values()) == {0o600}
    roles = {
        f["name"]: f["role"] for f in json.loads((folder / "manifest.json").read_bytes())["deliverables"]
    }
    assert roles == {
        "pool-p5.parquet": "pool",
        "imaging-p5.parquet": "imaging",
        "packs.csv": "packs",
        "validation-low.bin": "validation",
        "validation-high.bin": "validation-high",
    }


def _tickets(folder: Path) -> pl.DataFrame:
    im = next(folder.glob("imaging-*.parquet"))
    pool = next(folder.glob("pool-*.parquet"))
    return pl.concat(
        [pl.read_parquet(im, columns=["barcode", "virn"]), pl.read_parquet(pool, columns=["prize_cents"])],
        how="horizontal",
    )


@pytest.mark.parametrize("game", list(PRINTED))
def test_every_ticket_validates_to_its_prize_and_nothing_else(runs, game):
    folder = runs["runs"][game]
    low_key, high_key = runs["keys"]
    low, high = (ValidationFile.read(folder / TIERS[t]) for t in ("low", "high"))
    threshold = low.head["high_tier_cents"]
    assert threshold == 60000
    rows = _tickets(folder)
    barcodes_, virns, prizes = (
        rows["barcode"].to_list(),
        rows["virn"].to_list(),
        rows["prize_cents"].to_list(),
    )
    other = virns[1:] + virns[:1]  # each ticket claimed with the next ticket's validation number
    for b, v, p, w in zip(barcodes_, virns, prizes, other, strict=True):
        got_low, got_high = low.lookup(low_key, game, b, v), high.lookup(high_key, game, b, v)
        assert (got_low, got_high) == ((0, p) if p >= threshold else (p, 0))
        assert low.lookup(low_key, game, b, w) is None and high.lookup(high_key, game, b, w) is None
    for b, v in zip(barcodes_[:2000], virns[:2000], strict=True):  # the other key, a changed VIRN
        assert low.lookup(high_key, game, b, v) is None and high.lookup(low_key, game, b, v) is None
        changed = f"{(int(v) + 1) % 10 ** len(v):0{len(v)}d}"
        assert low.lookup(low_key, game, b, changed) is None
    if game == "wild_side":
        assert sum(p >= threshold for p in prizes) > 0  # Wild Side has high-tier prizes: they were tested


def test_verify_passes_step_9_with_both_keys(runs):
    folder = runs["runs"]["wild_side"]
    vk = runs["root"] / "vk"
    report = verify_run(VerifyRequest(
        run=folder,
        public_key=runs["public"],
        spec=PRINTED["wild_side"],
        validation_key=vk / "low.key",
        high_validation_key=vk / "high.key",
    ))
    assert report.ok, report.to_json()
    assert report.step(Step.DELIVERABLES).details == [
        "imaging-p5.parquet: 150,000 rows match pool p5 spot for spot (56 spots, barcodes recomputed)",
        "packs.csv: 2,500 books, sorted, each with its ticket range; no outcome, no pool",
        "validation-low.bin: every one of 150,000 tickets validates to exactly its prize (prizes below the "
        "threshold only, high-tier tickets as losers)",
        "validation-high.bin: every one of 150,000 tickets validates to exactly its prize (high-tier prizes "
        "only)",
    ]
    skipped = verify_run(VerifyRequest(run=folder, public_key=runs["public"]))
    assert skipped.ok and skipped.step(Step.DELIVERABLES).status == "skip"
    assert skipped.step(Step.DELIVERABLES).reasons == [
        "validation-low.bin: not opened (give --validation-key)",
        "validation-high.bin: not opened (give --high-validation-key)",
    ]


def _step9(folder: Path, keys) -> list[tuple[str, str]]:
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    return [
        r
        for r in check_deliverables(folder, manifest, {"low": keys[0], "high": keys[1]}, None)
        if r[0] != "pass"
    ]


@pytest.fixture
def copy(runs, tmp_path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(runs["runs"]["happy_holidays"], dst)
    return dst


def _edit_records(path: Path, edit) -> None:
    data = path.read_bytes()
    end = data.find(b"\n") + 1
    path.write_bytes(data[:end] + edit(bytearray(data[end:])))


def test_a_changed_record_fails_step_9(runs, copy):
    def flip(body: bytearray) -> bytes:
        body[32 * 1000 + 20] ^= 1
        return bytes(body)

    _edit_records(copy / "validation-low.bin", flip)
    assert _step9(copy, runs["keys"]) == [
        (
            "fail",
            "validation-low.bin: 1 ticket(s) without their record (missing, changed or reordered records)",
        )
    ]


def test_a_missing_record_fails_step_9(runs, copy):
    _edit_records(copy / "validation-high.bin", lambda body: bytes(body[32:]))
    assert _step9(copy, runs["keys"]) == [
        (
            "fail",
            "validation-high.bin: 300000 records in 14,399,968 bytes for 300,000 tickets (threshold "
            "60000); 1 ticket(s) without their record (missing, changed or reordered records); the "
            "known-ticket values are not every ticket's",
        )
    ]


def test_a_swapped_imaging_row_fails_step_9(runs, copy):
    path = copy / "imaging-p6.parquet"
    table = pl.read_parquet(path)
    order = np.arange(table.height)
    order[[10, 11]] = [11, 10]
    table[order.tolist()].write_parquet(path)
    found = _step9(copy, runs["keys"])
    assert found[0] == (
        "fail",
        "imaging-p6.parquet: 2 barcode number(s) not those of the pool's book and "
        "ticket at their position, first at position 10; 2 ticket_no value(s) differ "
        "from the pool's, first at position 10; column play_spot_0: a stored code is not "
        "shown as one symbol (or two as one)",
    )


def test_the_wrong_key_fails_step_9(runs, copy):
    low, high = runs["keys"]
    assert [why for _, why in _step9(copy, (high, low))] == [
        f"validation-low.bin: the given low-tier key is not the file's key (key check "
        f"{ValidationFile.read(copy / 'validation-low.bin').head['key_check']})",
        f"validation-high.bin: the given high-tier key is not the file's key (key check "
        f"{ValidationFile.read(copy / 'validation-high.bin').head['key_check']})",
    ]


def test_an_unlisted_file_still_fails_step_2(runs, copy):
    (copy / "validation-extra.bin").write_bytes(b"x")
    report = verify_run(VerifyRequest(run=copy, public_key=runs["public"]))
    assert report.step(Step.FILES).status == "fail"
    assert report.step(Step.FILES).reasons == ["unlisted file(s) in the run folder: validation-extra.bin"]
