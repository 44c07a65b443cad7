"""What a reader of the proofs and reports sees: no text drawn over other text, and no type shrunk
past reading. Read back with pdfium's glyph boxes (tests.support.pdf.overlapping_glyphs)."""

from __future__ import annotations

from tests.support import spec_path
from tests.support.cli import invoke
from tests.support.pdf import overlapping_glyphs, pages


def test_prize_table_wraps_long_tier_names_instead_of_overprinting_the_prize(runs, tmp_path):
    # Wild Side's t30 is "$5 (5X) + $5 (5X) + ... + $15 | $50 + $50 + $50": once ran over its prize
    out = tmp_path / "report.pdf"
    result = invoke("report", runs("wild_side"), "--out", out, "--spec", spec_path("wild_side"))
    assert result.exit_code == 0, result.output
    texts = pages(out)
    table = next(i for i, t in enumerate(texts) if "Pool p1: prize structure" in t)
    assert "(t30) $500.00 6 25,000.00 $3,000.00 0.60%" in texts[table]
    assert overlapping_glyphs(out, table) == []
