"""What a reader of the proofs and reports sees: no text drawn over other text, and no type shrunk
past reading. Read back with pdfium's glyph boxes (tests.support.pdf.overlapping_glyphs)."""

from __future__ import annotations

import re

from tests.support import ROOT, SEED_A, spec_path
from tests.support.cli import invoke
from tests.support.pdf import overlapping_glyphs, pages, type_sizes


def small_pattern_bingo() -> str:
    """specs/examples/pattern_bingo.toml on a pool of 3,000 tickets, its tier counts a twentieth."""
    text = (ROOT / "specs" / "examples" / "pattern_bingo.toml").read_text()
    text = text.replace("order_tickets = 60000", "order_tickets = 3000").replace(
        "pool_tickets = 60000", "pool_tickets = 3000")
    return re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m[1]) // 20)}", text, flags=re.M)


def test_prize_table_wraps_long_tier_names_instead_of_overprinting_the_prize(runs, tmp_path):
    # Wild Side's t30 is "$5 (5X) + $5 (5X) + ... + $15 | $50 + $50 + $50": once ran over its prize
    out = tmp_path / "report.pdf"
    result = invoke("report", runs("wild_side"), "--out", out, "--spec", spec_path("wild_side"))
    assert result.exit_code == 0, result.output
    texts = pages(out)
    table = next(i for i, t in enumerate(texts) if "Pool p1: prize structure" in t)
    assert "(t30) $500.00 6 25,000.00 $3,000.00 0.60%" in texts[table]
    assert overlapping_glyphs(out, table) == []


def test_bingo_card_titles_and_a_legend_under_wide_calls_are_drawn_at_a_readable_size(tmp_path):
    # a 5-cell card's title took its note along at 5.7 points; a legend of 6 spots under calls drawn 15
    # a row had 15-a-row spots, where POSTAGE STAMP was shrunk to 4 points
    spec = tmp_path / "pattern_bingo.toml"
    spec.write_text(small_pattern_bingo())
    seed = tmp_path / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = invoke("generate", spec, "--out", tmp_path, "--seed-file", seed, "--run-id", "pb",
                  "--workers", "1", "--unsigned")
    assert made.exit_code == 0, made.output
    out = tmp_path / "proof.pdf"
    assert invoke("proof", tmp_path / "pb", "--spec", spec, "--out", out).exit_code == 0
    for page in range(2, 10):  # the 8 specimens, after the cover and the index
        for words in ("B I N G O CARD 1 (area bingo", "B I N G O CARD 2 (area bingo", "POSTAGE STAMP"):
            sizes = type_sizes(out, page, words)
            assert len(sizes) == len(words.replace(" ", "")) and min(sizes) >= 7, (words, sizes)
        assert overlapping_glyphs(out, page) == []


def test_a_short_statement_leaves_its_room_to_the_ticket_face(runs, tmp_path):
    # the statement's box was 98 points whatever it said: under it Wild Side's spot prizes were 5.3 points
    out = tmp_path / "proof.pdf"
    assert invoke("proof", runs("wild_side"), "--out", out).exit_code == 0
    texts = pages(out)
    page = next(i for i, t in enumerate(texts) if "Pool p1, tier t34: a specimen" in t)
    # the spot is the specimen's (from the manifest, whose creation time differs run to run)
    assert re.search(r" SPECIMEN THIS LAYOUT PAYS \$25,000\.00 Specimen of tier t34, prize \$25,000\.00 "
                     r"- agrees numbers, spot \d+: YOUR NUMBER \d\d matches a WINNING NUMBER: wins \$25000 "
                     r"\(25-THOU\) = \$25,000\.00\. Winning spots are outlined in green \(a proof mark, not "
                     r"printed on the ticket\)\.$", texts[page])
    assert type_sizes(out, page, "$25000 25-THOU") == [7.2] * 6 + [6.0] * 7  # the spot's prize, its caption
    assert overlapping_glyphs(out, page) == []
