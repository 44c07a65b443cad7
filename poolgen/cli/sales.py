"""`poolgen sales`: the reference eInstant sales ledger (docs/back-office.md, section 5), for acceptance
tests and small operators: sell a pool's next share, void a sale, close a pool, answer a share's claim,
report prizes remaining and the closing figures, and convert a ledger of version 3 or 4 into version 5."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from poolgen.backoffice.errors import BackOfficeError, shown
from poolgen.cli.claims import MoreRuns, Runs, game_title, print_table, show_closing, totals, write_pdf
from poolgen.cli.common import Force, echo, refuse_output, reports_errors, say
from poolgen.money import fmt_cents

if TYPE_CHECKING:  # types only; the modules (polars, numpy) load when a command runs (docs/scaling.md)
    from poolgen.backoffice.sales import Refused, SalesLedger

app = typer.Typer(help="The eInstant sales ledger: sell, void, close, claim, report, reconcile; upgrade a "
                       "ledger of version 3 or 4.",
                  no_args_is_help=True, add_completion=False)

RunArg = Annotated[Path, typer.Argument(metavar="RUN", help="The eInstant run folder.")]
Ledger = Annotated[Path, typer.Option("--ledger", metavar="FILE.sqlite", help="The sales ledger.")]
PoolOpt = Annotated[str, typer.Option("--pool", metavar="POOL", help="The pool (denomination) id.")]
ShareArg = Annotated[str, typer.Argument(metavar="SHARE", help="The share: its ticket id POOL-NNNNNNN.")]
PublicKey = Annotated[Path | None, typer.Option(
    "--public-key", metavar="FILE", help="Verify the manifest's signature with this key first.")]
SignedBy = Annotated[Path | None, typer.Option(
    "--public-key", metavar="FILE",
    help="The run's public key: the manifest's signature is verified first (required).")]
Json = Annotated[bool, typer.Option(
    "--json", help="Print the answer as one JSON document (docs/back-office.md, section 5).")]


def _ledger(run: Path, ledger: Path, public_key: Path | None, *, create: bool = False,
            records: str | None = None) -> SalesLedger:
    """The sales ledger of the run; a command that records (`records` names it) needs the run's
    signature verified (docs/back-office.md, section 2)."""
    # here, not at module level: polars and numpy would load with every poolgen command (start-up time)
    from poolgen.backoffice.sales import SalesLedger  # lazy: start-up time
    from poolgen.backoffice.vouched import open_signed, open_vouched  # lazy: start-up time

    vouched = open_vouched(run, public_key) if records is None else open_signed(run, public_key, records)
    return SalesLedger(ledger, vouched, create=create, read_only=records is None)  # section 4


def _share(text: str) -> tuple[str, int]:
    m = re.fullmatch(r"([A-Za-z0-9_.]{1,64})-([0-9]{7,10})", text, re.ASCII)
    if not m:
        raise BackOfficeError(f"share {shown(text)}: not a share's ticket id POOL-NNNNNNN (ASCII digits)")
    return m.group(1), int(m.group(2))


def _answer(as_json: bool, text: str, data: dict[str, Any], code: int, after: str = "") -> NoReturn:
    """The answer (JSON or text), then, in text, `after` on stderr (a head to keep)."""
    if as_json:
        typer.echo(json.dumps({**data, "text": text}, sort_keys=True))
    else:
        echo(text)
        if after:
            say(after)
    raise typer.Exit(code)


def _refused(as_json: bool, exc: Refused) -> NoReturn:
    _answer(as_json, f"refused: {exc}", {"outcome": "refused", "reason": str(exc)}, 1)


@app.command("sell")
@reports_errors
def sell_cmd(run: RunArg, ledger: Ledger, pool: PoolOpt,
             channel: Annotated[str, typer.Option("--channel", metavar="ID", help="Where it was sold.")],
             player: Annotated[str, typer.Option("--player", metavar="REF", help="The player's reference.")],
             public_key: SignedBy = None, as_json: Json = False) -> None:
    """Sell the pool's next share, in serial order. Exit 1: closed or sold out."""
    from poolgen.backoffice.sales import Refused  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.tickets import parse_id  # lazy: start-up time

    channel, player = parse_id(channel, "--channel"), parse_id(player, "--player")
    book = _ledger(run, ledger, public_key, create=True, records="sales sell")
    try:
        sale = book.sell(pool, channel, player)
    except Refused as exc:
        _refused(as_json, exc)
    finally:
        book.close()
    _answer(as_json, f"sold {sale.ticket}: sale no. {sale.sale_no} at {sale.at} ({sale.channel}, "
                     f"{sale.player})",
            {"outcome": "sold", **sale.to_json(), "head": book.heads["sales"]}, 0,
            f"ledger {ledger}: sales head {book.heads['sales']}")  # the anchor kept (back-office.md, 5)


@app.command("void")
@reports_errors
def void_cmd(run: RunArg, share: ShareArg, ledger: Ledger,
             reason: Annotated[str, typer.Option("--reason", metavar="ID", help="Why (an id or code).")],
             public_key: SignedBy = None, as_json: Json = False) -> None:
    """Void a sale; its share is retired, never sold again. Exit 1: never sold, voided or paid."""
    from poolgen.backoffice.sales import Refused  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.tickets import parse_id  # lazy: start-up time

    pool, serial = _share(share)
    reason = parse_id(reason, "--reason")
    book = _ledger(run, ledger, public_key, records="sales void")
    try:
        sale = book.void(pool, serial, reason)
    except Refused as exc:
        _refused(as_json, exc)
    finally:
        book.close()
    _answer(as_json, f"voided {sale.ticket}: sale no. {sale.sale_no} at {sale.voided_at}",
            {"outcome": "voided", **sale.to_json(), "head": book.heads["voids"]}, 0,
            f"ledger {ledger}: voids head {book.heads['voids']}")  # the anchor kept (back-office.md, 5)


@app.command("close")
@reports_errors
def close_cmd(run: RunArg, ledger: Ledger, pool: PoolOpt, public_key: SignedBy = None,
              as_json: Json = False) -> None:
    """Close a pool: no sale after this. Exit 1: already closed."""
    from poolgen.backoffice.sales import Refused  # lazy: start-up time (docs/scaling.md)

    book = _ledger(run, ledger, public_key, create=True, records="sales close")
    try:
        at, sold, unsold = book.close_pool(pool)
    except Refused as exc:
        _refused(as_json, exc)
    finally:
        book.close()
    _answer(as_json, f"closed pool {pool} at {at}: {sold:,} share(s) sold, {unsold:,} never sold",
            {"outcome": "closed", "pool": pool, "at": at, "sold": sold, "unsold": unsold,
             "head": book.heads["closings"]}, 0,
            f"ledger {ledger}: closings head {book.heads['closings']}")  # the anchor kept (back-office.md, 5)


@app.command("claim")
@reports_errors
def claim_cmd(run: RunArg, share: ShareArg, ledger: Ledger, public_key: SignedBy = None,
              as_json: Json = False,
              player: Annotated[str | None, typer.Option(
                  "--player", metavar="REF", help="Pay only if this player bought the share.")]
              = None) -> None:
    """Answer a share's claim from the ledger and pay it once, to its buyer. Exit 0: paid; 1: refused
    or no prize."""
    from poolgen.backoffice.sales import Refused, share_id  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.tickets import parse_id  # lazy: start-up time

    pool, serial = _share(share)
    player = None if player is None else parse_id(player, "--player")
    book = _ledger(run, ledger, public_key, records="sales claim")
    try:
        sale, prize = book.claim(pool, serial, player=player)
    except Refused as exc:
        _refused(as_json, exc)
    finally:
        book.close()
    if prize == 0:
        _answer(as_json, f"{share_id(pool, serial)}: not a winner", {"outcome": "not a winner",
                                                                      **sale.to_json()}, 1)
    if not as_json:  # the anchor the back office keeps (docs/back-office.md, section 5)
        say(f"ledger {ledger}: head {book.head}")
    paid = fmt_cents(prize, book.run.folder.currency)
    _answer(as_json, f"{sale.ticket}: prize {paid} to player {sale.player} - paid at {sale.claimed_at}",
            {"outcome": "paid", **sale.to_json(), "head": book.head}, 0)


@app.command("report")
@reports_errors
def report_cmd(ledger: Ledger, run: Runs = None, more: MoreRuns = None, public_key: PublicKey = None,
               as_json: Json = False,
               closing_report: Annotated[bool, typer.Option("--closing", help="The closing report.")] = False,
               pdf: Annotated[Path | None, typer.Option("--pdf", metavar="OUT.pdf", help="Also a PDF page.")]
               = None, force: Force = False) -> None:
    """Per pool and prize: prizes in the pool, in shares sold, and remaining in unsold shares; over every
    run of the order given, from its one sales ledger."""
    from poolgen.backoffice.orders import open_order, prizes_add_up  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.sales import SalesLedger  # lazy: start-up time
    from poolgen.backoffice.share_reports import (  # lazy: start-up time
        chain_refusal,
        einstant_levels,
        order_closing,
        sales_left_out,
        sold_cents,
        unchained_note,
    )
    from poolgen.backoffice.upgrade import conversion  # lazy: start-up time

    if pdf is not None:
        refuse_output(pdf, force, "PDF")
    order = open_order([*(run or []), *(more or [])], public_key)
    if order.first.kind != "einstant":
        raise BackOfficeError(f"{order.first.path}: a printed run; its reports are `poolgen claims report`")
    books = []
    try:
        for one in order.runs:
            books.append(SalesLedger(ledger, one, create=False, read_only=True))
        left_out = sales_left_out(order, books[0])
        if left_out:
            raise BackOfficeError(left_out)
        chain_refusal(books[0])  # one ledger, read under each run id: its chains once
        unchained = unchained_note(books[0])
        converted = conversion(books[0])  # a ledger converted from version 3 (section 5)
        parts = [(book, einstant_levels(book.run, book)) for book in books]
        sales = sum(sold_cents(book) for book in books)
        report = order_closing(order, parts) if closing_report else {}
    finally:
        for book in books:
            book.close()
    for note in (unchained, converted):
        if note:
            say(note)  # on stderr, JSON or not (a report's JSON also has `sales_chained`)
    if closing_report:  # its JSON says, as the prizes remaining's, whether the ledger's sales are chained
        show_closing(order, {**report, "sales_chained": books[0].chained}, as_json, pdf, force)
        return
    levels = [lv for _, part in parts for lv in part]
    prizes_add_up(sum(lv.total * lv.cents for lv in levels), order.runs)  # as the closing report (section 6)
    rows = [[f"{lv.pool} {lv.label}", f"{lv.total:,}", f"{lv.paid:,}", f"{lv.remaining:,}"] for lv in levels]
    header = ["Pool and prize", "Total prizes", "Sold", "Remaining"]
    title = game_title(order.first)
    if as_json:
        typer.echo(json.dumps({**order.to_json(), "sales_cents": sales, "sales_chained": books[0].chained,
                               "levels": [lv.to_json() for lv in levels], "totals": totals(levels)},
                              indent=2))
    else:
        shown = fmt_cents(sales, order.first.folder.currency)
        echo(f"{title}: prizes remaining in unsold shares ({order.named}); sales {shown}")
        print_table(header, rows)
    if pdf is not None:
        from poolgen.pdf.remaining import table_page  # lazy: reportlab's start-up time, PDFs only

        named = order.named
        write_pdf(pdf, table_page(f"{title}: prizes remaining", [f"{named[0].upper()}{named[1:]}."],
                                  header, rows), force)


@app.command("reconcile")
@reports_errors
def reconcile_cmd(run: RunArg, ledger: Ledger, public_key: PublicKey = None, as_json: Json = False,
                  head: Annotated[list[str] | None, typer.Option(
                      "--head", metavar="[sales=|voids=|closings=|payments=|conversions=]N:HEX",
                      help="A head recorded earlier (bare: the payments'): the ledger must extend it. "
                           "Repeatable, one per chain.")]
                  = None) -> None:
    """Check the ledger against the run: shares sold in the pool's order, none after closing, every
    payment its share's prize, every void and closing its row, every chain whole and extending each
    --head. Exit 0: it reconciles; 1: a problem (each named)."""
    from poolgen.backoffice.chain import head_text, parse_head  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.sales_schema import CHAINED, CHAINS_OF, ROW  # lazy: start-up time
    from poolgen.backoffice.share_reports import reconcile_sales, unchained_note  # lazy: start-up time
    from poolgen.backoffice.upgrade import conversion  # lazy: start-up time

    recorded: dict[str, tuple[int, bytes]] = {}
    for text in head or []:
        table, sep, value = text.rpartition("=")
        table = table if sep else "payments"
        if table not in CHAINED or table in recorded:
            raise BackOfficeError(f"--head {text!r}: " + ("a second head of the " + table if table in recorded
                                  else f"not {'=N:HEX, '.join(CHAINED)}=N:HEX or N:HEX"))
        recorded[table] = parse_head(value, entry=ROW[table], given=text)
    book = _ledger(run, ledger, public_key)
    try:
        lacking = sorted(set(recorded) - set(CHAINS_OF[book.version]))
        if lacking:
            raise BackOfficeError(f"--head: {ledger} is a sales ledger of version {book.version}; its "
                                  f"{' and '.join(lacking)} carry no chain, so no head of theirs (a head "
                                  "recorded for them was of a later version: a ledger turned back by hand, "
                                  "its tables dropped and its version set back, reads as this one)")
        rec = reconcile_sales(book.run, book, recorded)
        unchained = unchained_note(book)
        converted = conversion(book)  # a ledger converted from version 3 (section 5)
        chains = {t: h for t, h in book.heads.items() if t != "payments"}  # the others (version 4 or 5)
    finally:
        book.close()
    signed = ", its manifest's signature verified" if public_key is not None else \
        ", whose manifest's signature was NOT checked (give --public-key)"  # never read as checked
    if as_json:
        typer.echo(json.dumps({**rec.to_json(), "signature_checked": public_key is not None,
                               "sales_chained": book.chained, "sales_heads": chains,
                               "converted": converted}, indent=2))
    else:
        for note in (unchained, converted):
            if note:
                echo(note)
        for problem in rec.problems:
            echo(f"problem: {problem}")
        for path, now in rec.heads.items():
            echo(f"ledger {path}: head {now}")
        for table, now in chains.items():
            echo(f"ledger {ledger}: {table} head {now}")
        if rec.ok:  # said, so that a clerk who gave --head knows it was checked (a break is a problem above)
            for table, (number, chain) in recorded.items():
                echo(f"ledger {ledger}: extends the {table} head given, {head_text(number, chain)}")
        echo(f"{rec.checked:,} paid share(s), {fmt_cents(rec.paid_cents, rec.currency)}: "
                   + (f"the ledger reconciles with the run{signed}" if rec.ok
                      else f"{len(rec.problems):,} problem(s); the ledger does not reconcile"))
    raise typer.Exit(0 if rec.ok else 1)


@app.command("upgrade")
@reports_errors
def upgrade_cmd(old: Annotated[Path, typer.Argument(metavar="OLD",
                                                    help="The sales ledger of version 3 or 4.")],
                new: Annotated[Path, typer.Argument(metavar="NEW", help="The new ledger (no file there).")],
                run: Annotated[Path, typer.Option("--run", metavar="RUN", help="The eInstant run folder.")],
                public_key: SignedBy = None, as_json: Json = False) -> None:
    """Convert a sales ledger of version 3 or 4 that reconciles with the run into a NEW ledger of version
    5: the same rows, what it did not chain chained at the conversion, which it records; OLD is left as it
    is."""
    from poolgen.backoffice.sales import SalesLedger  # lazy: start-up time
    from poolgen.backoffice.upgrade import chained_then, upgrade  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.vouched import open_signed  # lazy: start-up time

    book = SalesLedger(old, open_signed(run, public_key, "sales upgrade"), create=False, read_only=True)
    try:
        done = upgrade(old, new, book)
    finally:
        book.close()
    heads = done.heads
    chained = chained_then(done.version, done.sales, done.voids, done.closings)
    text = (f"converted {old} (version {done.version}, SHA-256 {done.sha256}) into {new} (version 5) at "
            f"{done.at}: {done.sales:,} sale(s), {done.voids:,} void(s), {done.closings:,} closing(s), "
            f"{done.payments:,} payment(s); {chained}")
    if as_json:
        typer.echo(json.dumps({"outcome": "converted", "from": str(old), "to": str(new), "from_sha256":
                               done.sha256, "from_version": done.version, "at": done.at, "sales": done.sales,
                               "voids": done.voids, "closings": done.closings, "payments": done.payments,
                               "heads": heads, "text": text}, sort_keys=True))
        return
    echo(text)
    echo(f"ledger {new}: head {heads['payments']}")
    for table, now in heads.items():
        if table != "payments":
            echo(f"ledger {new}: {table} head {now}")
