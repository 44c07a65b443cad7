"""`poolgen books`: the books ledger of a printed run (docs/back-office.md, section 8): books activated,
settled, returned or reported stolen, and each book's state; the desk (`validate --books`) refuses a
ticket of a book not activated or settled."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from poolgen.backoffice.errors import BackOfficeError
from poolgen.cli.common import echo, reports_errors, say

if TYPE_CHECKING:  # types only; the modules (polars, numpy) load when a command runs (docs/scaling.md)
    from poolgen.backoffice.vouched import Run

app = typer.Typer(help="The books ledger: activate, settle, return, report stolen, status.",
                  no_args_is_help=True, add_completion=False)

RunArg = Annotated[Path, typer.Argument(metavar="RUN", help="The printed run folder.")]
BookArgs = Annotated[list[str], typer.Argument(
    metavar="BOOK", help="Books, as GGG-BBBBBBB or the pack list's book number.", show_default=False)]
Ledger = Annotated[Path, typer.Option("--ledger", metavar="BOOKS.sqlite", help="The books ledger.")]
SignedBy = Annotated[Path | None, typer.Option(
    "--public-key", metavar="FILE",
    help="The run's public key: the manifest's signature is verified first (required).")]
Clerk = Annotated[str | None, typer.Option(
    "--clerk", metavar="ID", show_default=False,
    help="Who records the move (default: the login name running the command).")]
Ref = Annotated[str | None, typer.Option(
    "--ref", metavar="ID", help="A reference: the retailer, a police report.", show_default=False)]
Json = Annotated[bool, typer.Option(
    "--json", help="Print the answer as one JSON document (docs/back-office.md, section 8).")]


def _printed(run: Run) -> Run:
    if run.kind != "printed":
        raise BackOfficeError(f"{run.path}: an eInstant run has no books")
    return run


def _move(command: str, run: Path, books: list[str], ledger: Path, public_key: Path | None, clerk: str | None,
          ref: str | None, as_json: bool) -> None:
    # here, not at module level: polars and numpy would load with every poolgen command (start-up time)
    from poolgen.backoffice.books import BooksLedger, own_books, parse_book, run_books  # lazy: start-up time
    from poolgen.backoffice.tickets import default_clerk, parse_id  # lazy: start-up time
    from poolgen.backoffice.vouched import open_signed  # lazy: start-up time

    clerk = default_clerk() if clerk is None else parse_id(clerk, "--clerk")
    ref = "" if ref is None else parse_id(ref, "--ref")
    vouched = _printed(open_signed(run, public_key, f"books {command}"))
    known = run_books(vouched)
    own = own_books(vouched, known)  # a cut of a split order: its pools' books only
    names = [parse_book(b, vouched, known, own) for b in books]
    book = BooksLedger(ledger)
    try:
        moves = book.move(vouched, command, names, clerk, ref)
    finally:
        book.close()
    if as_json:
        typer.echo(json.dumps({"moves": [{"book": m.book, "was": m.was, "state": m.state,
                                          "move_no": m.move_no, "at": m.at} for m in moves],
                               "head": book.head}, sort_keys=True))
    else:
        for m in moves:
            echo(f"book {m.book}: {m.was} -> {m.state} (move no. {m.move_no})")
        say(f"ledger {ledger}: head {book.head}")  # the anchor kept (section 8, section 4's duty)


@app.command("activate")
@reports_errors
def activate_cmd(run: RunArg, books: BookArgs, ledger: Ledger, public_key: SignedBy = None,
                 clerk: Clerk = None, ref: Ref = None, as_json: Json = False) -> None:
    """Activate printed books (delivered to a retailer, on sale): their tickets become claimable."""
    _move("activate", run, books, ledger, public_key, clerk, ref, as_json)


@app.command("settle")
@reports_errors
def settle_cmd(run: RunArg, books: BookArgs, ledger: Ledger, public_key: SignedBy = None,
               clerk: Clerk = None, ref: Ref = None, as_json: Json = False) -> None:
    """Settle activated books (sold and paid for): still claimable."""
    _move("settle", run, books, ledger, public_key, clerk, ref, as_json)


@app.command("return")
@reports_errors
def return_cmd(run: RunArg, books: BookArgs, ledger: Ledger, public_key: SignedBy = None,
               clerk: Clerk = None, ref: Ref = None, as_json: Json = False) -> None:
    """Return printed or activated books unsold: their tickets are no longer claimable."""
    _move("return", run, books, ledger, public_key, clerk, ref, as_json)


@app.command("stolen")
@reports_errors
def stolen_cmd(run: RunArg, books: BookArgs, ledger: Ledger, public_key: SignedBy = None,
               clerk: Clerk = None, ref: Ref = None, as_json: Json = False) -> None:
    """Report books stolen: their tickets are refused at the desk, for good."""
    _move("stolen", run, books, ledger, public_key, clerk, ref, as_json)


@app.command("status")
@reports_errors
def status_cmd(
    run: RunArg, ledger: Ledger,
    books: Annotated[list[str] | None, typer.Argument(
        metavar="BOOK", help="Books to show (default: the count of the run's books per state).",
        show_default=False)] = None,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE", help="Verify the manifest's signature with this key first.")] = None,
    head: Annotated[str | None, typer.Option(
        "--head", metavar="N:HEX", help="A head recorded earlier: the ledger must extend it.")] = None,
    as_json: Json = False,
) -> None:
    """Each book's state and last move, or the run's books per state; then the ledger's checks and head.
    Exit 0: the checks pass; 1: a problem (each named); 2: unusable input."""
    from poolgen.backoffice import books as ledger_of_books  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.chain import head_text, parse_head  # lazy: start-up time
    from poolgen.backoffice.vouched import open_vouched  # lazy: start-up time

    recorded = parse_head(head, entry="move") if head is not None else None
    vouched = _printed(open_vouched(run, public_key))
    listed = ledger_of_books.run_books(vouched)
    known = ledger_of_books.own_books(vouched, listed)  # a cut of a split order: its pools' books only
    names = [ledger_of_books.parse_book(b, vouched, listed, known) for b in books or []]
    book = ledger_of_books.BooksLedger(ledger, create=False, read_only=True)
    try:
        rows = book.rows()
    finally:
        book.close()
    now, found = ledger_of_books.check(ledger, rows, recorded)
    plain = ledger_of_books.plain
    last = {r[3]: r for r in rows}
    out: dict[str, Any] = {"problems": found, "head": now, "ok": not found}
    if names:
        out["books"] = [{"book": n, "state": last[n][5], "move_no": last[n][0], "at": last[n][1],
                         "clerk": last[n][6], "ref": last[n][7]} if n in last else
                        {"book": n, "state": "printed", "move_no": None, "at": None, "clerk": None,
                         "ref": None} for n in names]
    else:
        counts = Counter(last[n][5] if n in last else "printed" for n in known)
        out["states"] = {s: counts[s] for s in ledger_of_books.STATES}
    if as_json:
        typer.echo(json.dumps(out, sort_keys=True))
    else:
        for b in out.get("books", []):  # values of rows, which a hand edit may have made anything: plain()
            echo(f"book {b['book']}: {plain(b['state'])}" + (
                "" if b["move_no"] is None else f" (move no. {b['move_no']} at {plain(b['at'])}, clerk "
                f"{plain(b['clerk'])}" + (f", ref {plain(b['ref'])}" if b["ref"] else "") + ")"))
        if "states" in out:
            order = f" (its pools'; the pack list names the order's {len(listed):,})" \
                if len(listed) != len(known) else ""
            echo(f"run {vouched.run_id}: {len(known):,} books{order}: " + ", ".join(
                f"{n:,} {s}" for s, n in out["states"].items()))
        for problem in found:
            echo(f"problem: {problem}")
        if recorded is not None and not found:  # so that a clerk who gave --head knows it was checked
            echo(f"ledger {ledger}: extends the head given, {head_text(*recorded)}")
        echo(f"ledger {ledger}: head {now}")
    raise typer.Exit(0 if not found else 1)
