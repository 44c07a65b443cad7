"""The back-office table page (poolgen/pdf/remaining.py), read back with pypdf: a table longer than a
page goes on, and every page names its report and "page N of M"."""

from __future__ import annotations

from poolgen.pdf.remaining import table_page
from tests.support.pdf import pages


def test_every_page_of_a_long_table_is_footed_with_its_title_and_page_n_of_m():
    """A footer said "page 2" alone: a reader of one page could not tell the table went on, nor a
    missing last page. Now "page N of M"."""
    rows = [[f"d1.00 ${k}.00", f"{k:,}", "0"] for k in range(1, 81)]
    texts = pages(table_page("Hand to Hand Tactics: closing report", ["Run hth."], ["Prize", "Total", "Paid"],
                             rows))
    assert len(texts) == 3
    for n, text in enumerate(texts, 1):  # the footer is drawn last
        assert text.endswith(f" Hand to Hand Tactics: closing report page {n} of 3"), text[-80:]
    assert texts[1].startswith("Prize Total Paid d1.00 $32.00 32 0 ")  # the header row repeats
    assert texts[2].startswith("Prize Total Paid d1.00 $66.00 66 0 ")
    assert sum(t.count(" 0 d1.00 $") for t in texts) + len(texts) == 80
