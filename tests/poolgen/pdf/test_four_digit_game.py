"""A game numbered 1000..9999 on paper (docs/validation.md section 2, docs/proofs.md): the proof face's
Code 128 holds the 16-digit barcode number, read back by a real reader (ZXing on a PDFium rendering), with
the human-readable line `GGGG BBBBBBB TTT CC` under the bars; a specimen is `GGGG-SPECIMEN-NNN` with a
16-digit number one above its valid check digits."""

from __future__ import annotations

import polars as pl
import pypdfium2
import zxingcpp

from poolgen.deliverables.identity import barcode, is_valid
from poolgen.pdf.specimens import specimen_barcode
from tests.support.cli import invoke
from tests.support.pdf import pages
from tests.support.printed_runs import make


def _decoded(pdf, page: int) -> list[tuple[str, str]]:
    image = pypdfium2.PdfDocument(pdf)[page].render(scale=2).to_pil()
    return [(r.format.name, r.text) for r in zxingcpp.read_barcodes(image)]


def test_a_game_2029_proof_face_carries_its_sixteen_digit_barcode_and_specimens_say_2029(tmp_path):
    made = make(tmp_path, "game_2029")
    ticket, book, number = pl.read_parquet(made.run / "pool-p1.parquet",
                                           columns=["ticket", "book", "ticket_no"]).row(5)
    assert ticket == f"2029-{book:07d}-{number:03d}"
    real = tmp_path / "real.pdf"
    result = invoke("proof", made.run, "--spec", made.spec, "--real", "--tickets", ticket, "--out", real)
    assert result.exit_code == 0, result.output
    code = barcode(2029, book, number)
    assert len(code) == 16 and is_valid(code)
    assert _decoded(real, 2) == [("Code128", code)]
    assert f"2029 {book:07d} {number:03d} {code[14:]}" in pages(real)[2]
    specimens = tmp_path / "specimens.pdf"
    result = invoke("proof", made.run, "--spec", made.spec, "--out", specimens)
    assert result.exit_code == 0, result.output
    first = specimen_barcode(2029, 1)
    assert first == "2029000000000111" and int(first) % 97 == 2  # valid: 2029000000000110, one above
    assert _decoded(specimens, 2) == [("Code128", first)]
    assert "2029-SPECIMEN-001" in pages(specimens)[2]
