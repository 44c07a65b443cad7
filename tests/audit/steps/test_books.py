"""Step 3's book numbers (audit/steps/books.py) against an insider who renumbers a book: with the spec,
which gives the order's book slots S (docs/validation.md, section 2), every printed book number is one
of 0 .. S-1 even without the seed; without it, a number past the order's last slot passes (a run may
hold only some of the order's pools), as two books trading numbers passes without the seed. A Happy
Holidays order of 10 books of 300 (tests/support/reseal.py `signed_small_run`), book slot 0 printed
as book 12, its ids, barcodes, pack list and validation files restated and the run signed again."""

from __future__ import annotations

import json

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from tests.support.reseal import rebuild_validation, reseal_pool, resign, signed_small_run, with_seed_file


def _barcode(book: int, ticket: int) -> str:
    n = int(f"465{book:07d}{ticket:03d}")
    return f"465{book:07d}{ticket:03d}{98 - (n * 100) % 97:02d}"


def _renumbered(made: dict, old: int, new: int, pool_id: str = "p1") -> None:
    run = made["run"]
    pool = pl.read_parquet(run / f"pool-{pool_id}.parquet")
    book = pl.when(pl.col("book") == old).then(new).otherwise(pl.col("book")).cast(pl.UInt32).alias("book")
    ticket = pl.format("465-{}-{}", pl.col("book").cast(pl.String).str.zfill(7),
                       pl.col("ticket_no").cast(pl.String).str.zfill(3))
    reseal_pool(run, f"pool-{pool_id}.parquet", pool.with_columns(book).with_columns(ticket.alias("ticket")),
                made["signer"])
    imaging = pl.read_parquet(run / f"imaging-{pool_id}.parquet").with_columns(book)
    pairs = zip(imaging["book"], imaging["ticket_no"], strict=True)
    imaging = imaging.with_columns(pl.Series("barcode", [_barcode(b, t) for b, t in pairs]))
    imaging.write_parquet(run / f"imaging-{pool_id}.parquet")
    (run / f"imaging-{pool_id}.parquet").chmod(0o600)
    rows = (run / "packs.csv").read_text().splitlines()
    body = sorted((r if r.split(",")[1] != str(old) else r.replace(f"465,{old},", f"465,{new},", 1)
                   for r in rows[1:]), key=lambda r: int(r.split(",")[1]))
    (run / "packs.csv").write_text("\n".join([rows[0], *body]) + "\n")
    rebuild_validation(run, made["root"])
    resign(run, lambda doc: None, made["signer"])


def test_a_book_renumbered_past_the_orders_slots_fails_step_3_with_the_spec(tmp_path):
    made = with_seed_file(signed_small_run(tmp_path, 3000, validation_keys=True))
    keys = {"validation_key": tmp_path / "low.key", "high_validation_key": tmp_path / "high.key"}
    honest = verify_run(VerifyRequest(run=made["run"], public_key=made["public"], spec=made["spec"], **keys))
    assert honest.failed == []
    assert "10 book numbers of 1 pool file(s) are distinct across the run, each one of the order's 10 book " \
           "slots" in honest.step(Step.COMPLETENESS).details
    first = int(pl.read_parquet(made["run"] / "pool-p1.parquet", columns=["book"])["book"][0])
    _renumbered(made, first, 12)
    bare = verify_run(VerifyRequest(run=made["run"], public_key=made["public"], **keys))
    assert bare.failed == []  # without the spec no step knows the order's slots
    given = verify_run(VerifyRequest(run=made["run"], public_key=made["public"], spec=made["spec"], **keys))
    assert given.failed == [Step.COMPLETENESS]
    assert given.step(Step.COMPLETENESS).reasons == [
        "1 book number(s) not one of the order's 10 book slots 0..9 the spec gives (docs/validation.md, "
        "section 2: the numbers are a permutation of them)"]


def test_a_book_key_runs_book_renumbered_past_its_book_slots_fails_step_3_without_spec_or_key(tmp_path):
    """Under a book key the manifest states the order's slots (`print.book_slots`, docs/manifest.md), and
    every book number is one of 0 .. S-1 (audit/steps/books.py `check_book_key`), spec and key or not:
    a run of pool p3 of 30 slots, its first book printed as book 30, every file restated, signed again."""
    from poolgen.run.signing import Signer  # noqa: PLC0415
    from tests.support.printed_runs import make  # noqa: PLC0415

    made = make(tmp_path, "book_key_p3")
    assert made.public is not None
    doc = json.loads((made.run / "manifest.json").read_bytes())
    first = int(pl.read_parquet(made.run / "pool-p3.parquet")["book"][0])
    assert doc["print"]["book_slots"] == 30 and first < 30
    signer = Signer.from_file(made.public.parent / "signing-key.pem")
    _renumbered({"run": made.run, "signer": signer, "root": made.low.parent}, first, 30, "p3")
    report = verify_run(VerifyRequest(run=made.run, public_key=made.public))
    assert report.failed == [Step.COMPLETENESS], report.to_json()
    assert report.step(Step.COMPLETENESS).reasons == ["pool p3: a book number outside the order's 30 slots"]


@pytest.mark.parametrize("slots", [None, 0, True, "30"])
def test_a_book_key_run_whose_book_slots_are_not_a_count_fails_step_3(tmp_path, slots):
    """docs/manifest.md: under a book key `print.book_slots` is the order's count of book slots, which
    step 3 holds every book number below; a manifest re-signed without it, or with 0, true or a text,
    holds the numbers to nothing, and is refused."""
    from poolgen.run.signing import Signer  # noqa: PLC0415
    from tests.support.printed_runs import make  # noqa: PLC0415

    made = make(tmp_path, "book_key_p3")
    assert made.public is not None
    signer = Signer.from_file(made.public.parent / "signing-key.pem")
    resign(made.run, lambda doc: doc["print"].pop("book_slots") if slots is None
           else doc["print"].update(book_slots=slots), signer)
    report = verify_run(VerifyRequest(run=made.run, public_key=made.public))
    assert report.failed == [Step.COMPLETENESS], report.to_json()
    assert report.step(Step.COMPLETENESS).reasons == [
        "print.book_slots: missing or not a count of book slots"]
