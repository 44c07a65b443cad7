"""`poolgen claims`: what the claims ledgers of a printed run add up to (docs/back-office.md, section 6):
prizes paid and remaining in the form lotteries publish, the reconciliation against the validation
files and the signed manifest, and the closing report."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from poolgen.backoffice.errors import BackOfficeError
from poolgen.cli.common import Force, echo, refuse_output, reports_errors, say, write_output
from poolgen.files.read import READABLE_SECRET_FLAG
from poolgen.money import fmt_cents

if TYPE_CHECKING:  # types only; the modules (polars, numpy) load when a command runs (docs/scaling.md)
    from poolgen.backoffice.orders import Order
    from poolgen.backoffice.reports import Level
    from poolgen.backoffice.vouched import Run

app = typer.Typer(help="Reports from claims ledgers: report (prizes remaining), reconcile, close.",
                  no_args_is_help=True, add_completion=False)

RunArg = Annotated[Path, typer.Argument(metavar="RUN", help="The run folder.")]
Runs = Annotated[list[Path] | None, typer.Argument(
    metavar="RUN", show_default=False,
    help="The run folder, or every run of the order made in several runs (docs/back-office.md, section 6).")]
MoreRuns = Annotated[list[Path] | None, typer.Option(
    "--run", metavar="RUN", show_default=False, help="A run of the order (repeatable), as RUN.")]
Ledgers = Annotated[list[Path], typer.Option("--ledger", metavar="FILE.sqlite",
                                              help="A claims ledger (repeat for every desk's).")]
PublicKey = Annotated[Path | None, typer.Option(
    "--public-key", metavar="FILE", help="Verify the manifest's signature with this key first.")]
Json = Annotated[bool, typer.Option(
    "--json", help="Print the answer as one JSON document (docs/back-office.md, section 6).")]
Pdf = Annotated[Path | None, typer.Option("--pdf", metavar="OUT.pdf",
                                          help="Also draw the table as a PDF page.")]
Books = Annotated[Path | None, typer.Option(
    "--books", metavar="BOOKS.sqlite",
    help="The books ledger: prizes in returned and stolen books counted apart (reads the pool files).")]


def _printed(run: Path, public_key: Path | None) -> Run:
    from poolgen.backoffice.vouched import open_vouched  # lazy: start-up time (docs/scaling.md)

    vouched = open_vouched(run, public_key)
    if vouched.kind != "printed":
        raise BackOfficeError(f"{run}: an eInstant run; its reports are `poolgen sales report`")
    return vouched


def printed_order(runs: list[Path] | None, more: list[Path] | None, public_key: Path | None) -> Order:
    """The runs given as RUN and --run, held to one printed order (docs/back-office.md, section 6)."""
    from poolgen.backoffice.orders import open_order  # lazy: start-up time (docs/scaling.md)

    order = open_order([*(runs or []), *(more or [])], public_key)
    if order.first.kind != "printed":
        raise BackOfficeError(f"{order.first.path}: an eInstant run; its reports are `poolgen sales report`")
    return order


def game_title(run: Run) -> str:
    game = run.folder.manifest["game"]
    number = game.get("number")
    return f"{game['name']} ({number})" if number is not None else str(game["name"])


def _rows(levels: list[Level]) -> tuple[list[str], list[list[str]]]:
    """The prizes remaining table: its header and rows (with a books ledger, returned and stolen)."""
    if levels and levels[0].returned is not None:
        return (["Prize", "Total prizes", "Claimed", "Returned", "Stolen", "Remaining"],
                [[lv.label, f"{lv.total:,}", f"{lv.paid:,}", f"{lv.returned:,}", f"{lv.stolen or 0:,}",
                  f"{lv.remaining:,}"] for lv in levels])
    return (["Prize", "Total prizes", "Claimed", "Remaining"],
            [[lv.label, f"{lv.total:,}", f"{lv.paid:,}", f"{lv.remaining:,}"] for lv in levels])


def print_table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        echo("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:],
                                                                                   strict=True)]))


@app.command("report")
@reports_errors
def report_cmd(ledger: Ledgers, run: Runs = None, more: MoreRuns = None, public_key: PublicKey = None,
               as_json: Json = False, pdf: Pdf = None, force: Force = False, books: Books = None) -> None:
    """Prizes claimed and remaining per prize level, as lotteries publish them (no pool, no pack), from
    ledgers that show no hand edit (refused otherwise); over every run of the order given."""
    if pdf is not None:
        refuse_output(pdf, force, "PDF")
    order = printed_order(run, more, public_key)
    levels = _published(order, ledger, books)
    header, rows = _rows(levels)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    title = game_title(order.first)
    if as_json:
        typer.echo(json.dumps({"game": title, **order.to_json(), "at": when,
                               "levels": [lv.to_json() for lv in levels], "totals": totals(levels)},
                              indent=2))
    else:
        echo(f"{title}: prizes remaining at {when} ({order.named})")
        print_table(header, rows)
    if pdf is not None:
        from poolgen.pdf.remaining import table_page  # lazy: reportlab's start-up time, PDFs only

        page = table_page(f"{title}: prizes remaining", [f"As of {when}; {order.named}."], header, rows)
        write_pdf(pdf, page, force)


@app.command("reconcile")
@reports_errors
def reconcile_cmd(
    run: RunArg, ledger: Ledgers, public_key: PublicKey = None,
    validation_key: Annotated[Path | None, typer.Option("--validation-key", metavar="FILE",
                                                        help="Low-tier validation key.")] = None,
    high_validation_key: Annotated[Path | None, typer.Option("--high-validation-key", metavar="FILE",
                                                             help="High-tier validation key.")] = None,
    as_json: Json = False,
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a validation key even if its group or others may read it (refused "
                                   "otherwise).")] = False,
    head: Annotated[list[str] | None, typer.Option(
        "--head", metavar="[LEDGER=]N:HEX",
        help="A head recorded earlier (by the desk or a reconciliation): the ledger must extend it.")]
        = None,
    books: Annotated[Path | None, typer.Option(
        "--books", metavar="BOOKS.sqlite",
        help="The books ledger: a payment made while its ticket's book was not activated or settled is a "
             "problem.")] = None,
) -> None:
    """Check every payment against the validation files and the manifest, and each ledger's hash chain
    against the heads recorded. Exit 0: they reconcile; 1: a problem (each named); 2: unusable input."""
    from poolgen.backoffice.chain import head_text, heads_for  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.reports import reconcile  # lazy: start-up time
    from poolgen.deliverables.validation import read_validation_key  # lazy: start-up time

    heads = heads_for(ledger, head or [])
    keys = {t: read_validation_key(k, allow_readable_secret)
            for t, k in (("low", validation_key), ("high", high_validation_key)) if k is not None}
    vouched = _printed(run, public_key)
    rec = reconcile(vouched, ledger, keys, heads)
    if books is not None:  # section 8: what a desk without --books paid
        from poolgen.backoffice.book_reports import paid_out_of_play  # lazy: start-up time (polars)
        from poolgen.backoffice.reports import load_payments  # lazy: start-up time

        rec.problems += paid_out_of_play(books, load_payments(vouched, ledger))
    signed = ", its signature verified" if public_key is not None else \
        ", whose signature was NOT checked (give --public-key)"  # a clerk must not read it as checked
    if as_json:
        typer.echo(json.dumps({**rec.to_json(), "signature_checked": public_key is not None}, indent=2))
    else:
        for problem in rec.problems:
            echo(f"problem: {problem}")
        for path, now in rec.heads.items():
            echo(f"ledger {path}: head {now}")
        if rec.ok:  # said, so that a clerk who gave --head knows it was checked (a break is a problem above)
            for given, (claim_no, chain) in heads.items():
                echo(f"ledger {given}: extends the head given, {head_text(claim_no, chain)}")
        echo(f"{rec.checked:,} payment(s), {fmt_cents(rec.paid_cents, rec.currency)}: "
                   + (f"they reconcile with the validation files and the manifest{signed}" if rec.ok
                      else f"{len(rec.problems):,} problem(s); the ledgers do not reconcile"))
    raise typer.Exit(0 if rec.ok else 1)


@app.command("close")
@reports_errors
def close_cmd(ledger: Ledgers, run: Runs = None, more: MoreRuns = None, public_key: PublicKey = None,
              as_json: Json = False, pdf: Pdf = None, force: Force = False, books: Books = None) -> None:
    """The closing report: unclaimed prizes per level, designed against actual payout (every ticket of
    the order's runs taken as sold), from ledgers that show no hand edit (refused otherwise)."""
    from poolgen.backoffice.reports import closing  # lazy: start-up time

    if pdf is not None:
        refuse_output(pdf, force, "PDF")
    order = printed_order(run, more, public_key)
    report = closing(order, _published(order, ledger, books))
    show_closing(order, report, as_json, pdf, force)


def totals(levels: list[Level]) -> dict[str, int]:
    """A prizes-remaining table's totals: prizes, those paid (or sold) and remaining, counts and cents
    (with a books ledger, those in returned and stolen books too)."""
    counted = levels[0].counted if levels else "paid"
    books = {} if not levels or levels[0].returned is None else {
        "returned": sum(lv.returned or 0 for lv in levels), "stolen": sum(lv.stolen or 0 for lv in levels),
        "returned_cents": sum((lv.returned or 0) * lv.cents for lv in levels),
        "stolen_cents": sum((lv.stolen or 0) * lv.cents for lv in levels)}
    return {"total": sum(lv.total for lv in levels), counted: sum(lv.paid for lv in levels),
            "remaining": sum(lv.remaining for lv in levels),
            "total_cents": sum(lv.total * lv.cents for lv in levels),
            f"{counted}_cents": sum(lv.paid * lv.cents for lv in levels),
            "remaining_cents": sum(lv.remaining * lv.cents for lv in levels), **books}


def _published(order: Order, ledgers: list[Path], books: Path | None) -> list[Level]:
    """The levels a published table shows (prizes remaining, the closing report), from ledgers that pass
    the reconciliation's checks that need no key (`ledger_problems`): a payment removed by hand or
    moved to another run id would be shown as a prize still to be won. Given a books ledger (one that
    passes its checks), prizes in returned and stolen books apart (docs/back-office.md, section 8)."""
    from poolgen.backoffice.reports import (  # lazy: start-up time (docs/scaling.md)
        ledger_problems,
        published_levels,
        read_ledgers,
        runs_left_out,
    )

    read = read_ledgers(ledgers)
    problems = ledger_problems(order, read)
    if problems:
        raise BackOfficeError(f"{problems[0]}; the ledgers do not reconcile, so the figures would not add up "
                              "(`poolgen claims reconcile` names each problem)")
    left_out = runs_left_out(order, read)
    if left_out:
        raise BackOfficeError(left_out)
    payments = [p for _, _, every in read for p in every if p.run_id in order.run_ids]
    if books is None:
        return published_levels(order, payments)
    from poolgen.backoffice.book_reports import withdrawn  # lazy: start-up time (polars)

    return published_levels(order, payments, withdrawn(order, books, payments))


def show_closing(order: Order, report: dict[str, Any], as_json: bool, pdf: Path | None, force: bool) -> None:
    cur = order.first.folder.currency  # the game's: every amount shown
    rows = [[(f"{lv['pool']} " if "pool" in lv else "") + lv["prize"], f"{lv['total']:,}", f"{lv['paid']:,}",
             f"{lv['unclaimed']:,}", fmt_cents(lv["unclaimed_cents"], cur)]
            + ([f"{lv['voided']:,}", fmt_cents(lv["voided_cents"], cur), f"{lv['never_sold']:,}",
                fmt_cents(lv["never_sold_cents"], cur)] if "never_sold" in lv else [])
            + ([f"{lv['returned']:,}", f"{lv['stolen']:,}"] if "returned" in lv else [])
            for lv in report["levels"]]
    header = ["Prize", "Total prizes", "Paid", "Unclaimed", "Unclaimed amount"] \
        + (["Voided", "Voided amount", "Never sold", "Never sold amount"]
           if report["levels"] and "never_sold" in report["levels"][0] else []) \
        + (["Returned", "Stolen"] if "returned_cents" in report else [])
    books = (f", in returned books {fmt_cents(report['returned_cents'], cur)}, in stolen books "
             f"{fmt_cents(report['stolen_cents'], cur)}") if "returned_cents" in report else ""
    shares = (f", in voided shares {fmt_cents(report['voided_cents'], cur)}, never sold "
              f"{fmt_cents(report['never_sold_cents'], cur)}") if "never_sold_cents" in report else ""
    lines = [f"sales {report['sales']}; prizes designed {fmt_cents(report['designed_prizes_cents'], cur)} "
             f"({report['designed_payout_pct']}%), paid {fmt_cents(report['paid_cents'], cur)} "
             f"({report['actual_payout_pct']}%), unclaimed "
             f"{fmt_cents(report['unclaimed_cents'], cur)}{books}{shares}"]
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        echo(f"{game_title(order.first)}: closing report ({order.named})")
        echo(lines[0])
        print_table(header, rows)
    if pdf is not None:
        from poolgen.pdf.remaining import table_page  # lazy: reportlab's start-up time, PDFs only

        named = order.named
        write_pdf(pdf, table_page(f"{game_title(order.first)}: closing report",
                                  [f"{named[0].upper()}{named[1:]}.", *lines], header, rows), force)


def write_pdf(pdf: Path, page: bytes, force: bool) -> None:
    """A report's `--pdf` page, written as every output file is, and named on stderr (stdout is the
    report, text or JSON)."""
    write_output(pdf, page, force, "PDF")
    say(f"wrote PDF {pdf} (mode 0600)")
