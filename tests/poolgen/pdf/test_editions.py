"""What the default proof and report may circulate (issue 26): specimens, not tickets of the pool; a
report of distributions; both mode 0600, never written over an existing file; and the barcode on a
printed proof face, decoded by a real reader. The runs are tests/poolgen/pdf/conftest.py's `runs`."""

from __future__ import annotations

import os
import re
from pathlib import Path

import polars as pl
import pypdfium2
import pytest
import zxingcpp

from poolgen.deliverables.identity import barcode, is_valid
from poolgen.loader import load_spec
from poolgen.pdf.evaluation import evaluate
from poolgen.pdf.specimens import specimen_barcode
from tests.support import spec_path
from tests.support.cli import invoke
from tests.support.pdf import GAMES, manifest, pages

TOP_AMOUNTS = 3  # the pool's highest prize amounts whose tickets must not be named


def top_tickets(run: Path, pool_id: str) -> pl.DataFrame:
    table = pl.read_parquet(run / f"pool-{pool_id}.parquet")
    top = sorted(set(table["prize_cents"].to_list()))[-TOP_AMOUNTS:]
    return table.filter(pl.col("prize_cents").is_in(top))


def identities(row: dict) -> list[str]:
    """Every way a PDF could name where this ticket is."""
    out = [row["ticket"], f"position {row['position']:,}", f"position(s) {row['position']:,}"]
    if "book" in row:
        out += [f"{row['book']:07d}", f"book {row['book']:,}", f"{row['book']:,} ("]
    if "serial" in row:
        out += [f"{row['serial']:07d}", f"serial {row['serial']:,}"]
    return out


def written(result, out: Path) -> str:
    """The PDF's text, every page, whitespace runs made one space (PDFium's reader: pypdf's, which the
    other tests use, gives the same text some twenty times slower on a 60-page proof)."""
    assert result.exit_code == 0, result.output
    assert out.stat().st_mode & 0o777 == 0o600
    pdf = pypdfium2.PdfDocument(out)
    return " ".join(" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf)))


@pytest.mark.parametrize("rules", ["wild_side", "primetime_payout"])
def test_default_proof_and_report_name_no_top_prize(runs, rules, tmp_path):
    run, pool_id = runs(rules), GAMES[rules]
    old = os.umask(0o022)  # a permissive umask: the files are 0600 all the same
    try:
        proof = written(invoke("proof", run, "--out", tmp_path / "proof.pdf"), tmp_path / "proof.pdf")
        report = written(invoke("report", run, "--out", tmp_path / "report.pdf"), tmp_path / "report.pdf")
    finally:
        os.umask(old)
    top = top_tickets(run, pool_id)
    assert top.height > 0
    for row in top.iter_rows(named=True):
        for needle in identities(row):
            assert needle not in proof, needle
            assert needle not in report, needle
    tiers = [t for t in manifest(run)["pools"][0]["tiers"] if t["count"]]
    assert proof.count(" - agrees") == len(tiers) and "DOES NOT AGREE" not in proof
    assert proof.count("SPECIMEN") >= len(tiers) and "Pool record" not in proof
    assert "Who may receive anyone: specimens" in proof
    assert "Edition public; who may receive it: anyone" in report
    assert "Where they are is in the internal edition only" in report
    # the printed numbers' tests (statistics 1c) name a top prize's book or its numbers' last digits
    for figure in (" is book ", " end in ", "are a book's first or last ticket"):
        assert figure not in report, figure


def test_the_internal_edition_says_where_the_top_prizes_are(runs, tmp_path):
    run = runs("happy_holidays")
    out = tmp_path / "internal.pdf"
    internal = written(invoke("report", run, "--internal", "--out", out), out)
    assert "INTERNAL EDITION: tells where prizes are" in internal and "Edition INTERNAL" in internal
    top = top_tickets(run, "p1").sort("prize_cents", descending=True).row(0, named=True)
    assert f"{top['position']:,}" in internal  # the top prize's position, in the rug plot's notes


def test_no_file_is_overwritten_unless_forced(runs, tmp_path):
    run = runs("wild_side")
    out = tmp_path / "proof.pdf"
    out.write_bytes(b"mine")
    out.chmod(0o644)
    for command in ("proof", "report"):
        result = invoke(command, run, "--out", out)
        assert result.exit_code == 2
        assert result.stderr == (f"poolgen: error: {out}: already exists; not overwriting it "
                                 f"(--force replaces it)\n")
        assert out.read_bytes() == b"mine"
    assert invoke("proof", run, "--out", out, "--force").exit_code == 0
    assert out.read_bytes().startswith(b"%PDF") and out.stat().st_mode & 0o777 == 0o600


def decoded(pdf: Path, page: int) -> list[tuple[str, str]]:
    """The barcodes a real reader (ZXing) finds on a page rendered at 144 dpi (PDFium)."""
    image = pypdfium2.PdfDocument(pdf)[page].render(scale=2).to_pil()
    return [(r.format.name, r.text) for r in zxingcpp.read_barcodes(image)]


def test_barcode_on_the_face_decodes_to_the_ticket(runs, tmp_path):
    run = runs("happy_holidays")
    ticket = pl.read_parquet(run / "pool-p1.parquet", columns=["ticket", "book", "ticket_no"]).row(5)
    real = tmp_path / "real.pdf"
    assert invoke("proof", run, "--tickets", ticket[0], "--out", real).exit_code == 0
    number = barcode(465, ticket[1], ticket[2])
    assert decoded(real, 2) == [("Code128", number)] and is_valid(number)
    assert f"{number[:3]} {number[3:10]} {number[10:13]} {number[13:]}" in pages(real)[2]
    specimens = tmp_path / "specimens.pdf"
    assert invoke("proof", run, "--out", specimens).exit_code == 0
    first = specimen_barcode(465, 1)
    assert decoded(specimens, 2) == [("Code128", first)]
    # valid check digits of 4650000000001 are 98 - (465000000000100 mod 97) = 98 - 70 = 28; a
    # specimen's are one above, so it reads 2 mod 97 and no validation system accepts it
    assert first == "465000000000129" and int(first) % 97 == 2 and not is_valid(first)


def test_a_ticket_with_more_wins_than_room_says_how_many_are_not_shown(runs, tmp_path):
    """Wild Side's tier t30 ($500) pays by many matches: the statement box holds some, in two columns,
    and says how many more lines there are, never cutting a line or dropping the rest silently."""
    run = runs("wild_side")
    ticket = pl.read_parquet(run / "pool-p1.parquet", columns=["ticket", "tier"]).filter(
        pl.col("tier") == "t30")["ticket"][0]
    out = tmp_path / "t30.pdf"
    assert invoke("proof", run, "--tickets", ticket, "--out", out).exit_code == 0
    page = pages(out)[2]
    more = re.search(r"\.\.\. and (\d+) more line\(s\) not shown for room; the prize above is the whole "
                     r"layout's", page)
    assert more is not None and int(more.group(1)) >= 1
    row = pl.read_parquet(run / "pool-p1.parquet").filter(pl.col("ticket") == ticket).row(0, named=True)
    lines = evaluate(load_spec(spec_path("wild_side")), manifest(run)["pools"][0], row).lines
    assert len(re.findall(r"(numbers|wild|bonus), spot \d+:", page)) + int(more.group(1)) == len(lines)
    assert "THIS LAYOUT PAYS $500.00" in page
