"""The public report's checklist names no place (docs/proofs.md, "The report's editions"): a failed
step's reasons in `verify`'s words name tickets, books, positions and rows ("book 23 holds 2" of a
capped $100 tier; "465-0000007-002 (row 2) pays 10000 cents, stores 0"), so the public edition keeps
what failed and withholds where; the internal edition shows every reason whole. Checked on verify's own
messages and on the report of a real re-signed run whose top prize an insider moved."""

from __future__ import annotations

import re

import polars as pl
import pypdfium2
import pytest

from audit.checklist import Step, StepResult
from audit.steps.books import book_problems
from poolgen.pdf.report.statistics import checklist_lines
from tests.support.cli import invoke
from tests.support.reseal import reseal_pool, signed_small_run

WHERE = "where: withheld (internal edition)"


def _step(step: Step, title: str, *reasons: str) -> StepResult:
    result = StepResult(step, title)
    for reason in reasons:
        result.add("fail", reason)
    return result


@pytest.mark.parametrize(("step", "title", "reason", "public"), [
    (Step.FIGURES, "figures",
     "pool p1: 1 pack(s) break packs.min_prize_value (15000 cents): book 69 pays 10600 cents; 1 pack(s) "
     "break packs.caps[0] (at most 1): book 23 holds 2",
     f"pool p1: 1 pack(s) break packs.min_prize_value (15000 cents): {WHERE}; 1 pack(s) break "
     f"packs.caps[0] (at most 1): {WHERE}"),
    (Step.LAYOUTS, "layouts",
     "pool p1: 2 layout(s) do not pay the stored prize: 465-0000007-000 (row 0) pays 10000 cents, stores 0, "
     "465-0000003-134 (row 1634) pays 0 cents, stores 10000",
     f"pool p1: 2 layout(s) do not pay the stored prize: {WHERE}"),
    (Step.REPRODUCTION, "reproduction",
     "seed matches the commitment; pool-p1.parquet: 14,144 ticket(s) not in the seed's tier order, first at "
     "position 0 (docs/randomness.md, section 4)",
     f"seed matches the commitment; pool-p1.parquet: 14,144 ticket(s) not in the seed's tier order, {WHERE}"),
    (Step.LAYOUTS, "layouts",
     "pool d1.00: 1 layout(s) win without paying or pay without a win: row 17: 1 win(s), 0 cents",
     f"pool d1.00: 1 layout(s) win without paying or pay without a win: {WHERE}"),
    (Step.FIGURES, "figures", "print.free_ticket_tiers ['free', '1'], spec ['free']",
     "print.free_ticket_tiers ['free', '1'], spec ['free']"),
])
def test_a_failed_steps_reason_keeps_what_failed_and_withholds_where(step, title, reason, public):
    result = _step(step, title, reason)
    assert checklist_lines(result, internal=False) == (public,)
    assert checklist_lines(result, internal=True) == (reason,)


def test_what_a_passed_step_checked_is_shown_whole_in_both_editions():
    """A pass line says what was checked over ranges the manifest states (positions 0..N-1, book slots),
    never where a prize is: both editions show it as `verify` words it."""
    result = StepResult(Step.COMPLETENESS, "completeness")
    line = ("pool p1: 3,000 tickets at positions 0..2,999; every ticket id is the one its book and ticket "
            "number give (10 books (slots 0..9) x tickets 0..299, each once)")
    result.add("pass", line)
    assert checklist_lines(result, internal=False) == checklist_lines(result, internal=True) == (line,)


def _text(pdf) -> str:
    doc = pypdfium2.PdfDocument(pdf)
    return " ".join(" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc)))


def test_the_public_report_of_a_run_whose_top_prize_was_moved_does_not_say_where_it_is(tmp_path):
    """An insider swaps a $100 ticket's layout with a loser's (prizes left), restates the file and
    Merkle root and signs again: step 4 fails naming both tickets with their prizes. The public report
    says step 4 fails and how many layouts, never which tickets; the internal edition names them."""
    made = signed_small_run(tmp_path, 3000)
    run = made["run"]
    table = pl.read_parquet(run / "pool-p1.parquet")
    tiers = table["tier"].to_list()
    loser, top = tiers.index("lose"), tiers.index("100")
    spots = [c for c in table.columns if c.startswith("play_spot_")]
    order = list(range(table.height))
    order[loser], order[top] = top, loser
    table = pl.concat([table.select(pl.exclude(spots)), table.select(spots)[order]],
                      how="horizontal").select(table.columns)
    reseal_pool(run, "pool-p1.parquet", table, made["signer"])
    ids = [table["ticket"][loser], table["ticket"][top]]
    texts = {}
    for edition, extra in (("public", []), ("internal", ["--internal"])):
        out = tmp_path / f"{edition}.pdf"
        result = invoke("report", run, "--out", out, "--public-key", made["public"], *extra)
        assert result.exit_code == 1, result.output
        texts[edition] = _text(out)
    assert "2 layout(s) do not pay the stored prize: where: withheld (internal edition)" in texts["public"]
    assert [i for i in ids if i in texts["public"]] == []
    assert re.search(r"\(row \d+\)", texts["public"]) is None
    assert all(i in texts["internal"] for i in ids)


@pytest.mark.parametrize(("reason", "public"), [
    # no ": " or ", " before the place: the whole finding is withheld, the pool's prefix kept
    ("pool p1: book slot 3 is printed as book 7, the book key gives 9", f"pool p1: {WHERE}"),
    ("book slot 3 is printed as book 7", WHERE),
    # a share id: a hyphen and 7 digits ending a word; each "; "-separated finding on its own
    ("pool d1.00: shares repeat: d1.00-0000017; tier '5' has 3",
     f"pool d1.00: shares repeat: {WHERE}; tier '5' has 3"),
    # not a place: a number before the word, a word run into another, 7 digits followed by a digit or letter
    ("pool p1: 3 rows, the manifest says 3,000 tickets", "pool p1: 3 rows, the manifest says 3,000 tickets"),
    ("print.tickets_per_book 300, spec 250", "print.tickets_per_book 300, spec 250"),
    ("code -12345678 and -1234567x", "code -12345678 and -1234567x"),
])
def test_a_finding_is_cut_at_the_last_separator_before_its_first_place_as_docs_proofs_says(reason, public):
    """docs/proofs.md, "The report's editions", states the rule whole, for an auditor to re-implement."""
    assert checklist_lines(_step(Step.COMPLETENESS, "completeness", reason), internal=False) == (public,)


def test_step_3s_findings_on_a_pools_book_numbers_name_no_book_in_the_public_edition():
    """audit/steps/books.py's findings as step 3 joins them: a row carrying another book's number, a
    number past seven digits and a number two books share each name the book; the public edition keeps
    what failed and withholds which book (each a place by the rule of docs/proofs.md)."""
    book = pl.Series([3] * 3 + [3] * 3 + [12_000_000] * 3 + [5, 5, 6], dtype=pl.Int64)
    reason = "pool p1: " + "; ".join(book_problems(book, 3))
    public = checklist_lines(_step(Step.COMPLETENESS, "completeness", reason), internal=False)
    assert public == (f"pool p1: 1 row(s) carry another book number than their book's first ticket, {WHERE}; "
                      f"1 book number(s) outside 0..9,999,999, {WHERE}; "
                      f"1 book number(s) used by two books of the pool: {WHERE}",)
