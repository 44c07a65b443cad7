"""The books ledger (docs/back-office.md, section 8): each printed book's life, as moves in an SQLite file
the tool owns (owned.py), hash-chained as the claims ledger's attempts are (chain.py).

A book is named `GGG-BBBBBBB` (game and book number, as ticket ids name it; `GGGG-BBBBBBB` for a game
numbered 1000..9999). With no move recorded it
is `printed`; the moves are the table `MOVES`; its state is the `state` of its last move. A command's
moves are one BEGIN IMMEDIATE transaction that reads each book's state and refuses the whole command
if any move is not in the table, so concurrent clerks are serialised and nothing is half recorded. A
ticket is claimable only when its book is `activated` or `settled`.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from poolgen.backoffice import owned
from poolgen.backoffice.chain import GENESIS, head_text, link, problems
from poolgen.backoffice.errors import BackOfficeError, shown
from poolgen.backoffice.reports import missing
from poolgen.backoffice.sales import now_text
from poolgen.backoffice.vouched import Run, checked_pool_file, signed
from poolgen.deliverables.identity import GAME_PATTERN, barcode_fields
from poolgen.errors import RunError
from poolgen.files.read import read_input
from poolgen.interrupts import pause_point

BOOKS = owned.Kind("books ledger", 1, (
    "CREATE TABLE moves (move_no INTEGER PRIMARY KEY NOT NULL, at TEXT NOT NULL, run_id TEXT NOT NULL, "
    "book TEXT NOT NULL, was TEXT NOT NULL, state TEXT NOT NULL, clerk TEXT NOT NULL, ref TEXT NOT NULL, "
    "chain TEXT NOT NULL)",
    "CREATE INDEX moves_by_book ON moves (book, move_no)",
))

PRINTED = "printed"
CLAIMABLE = frozenset({"activated", "settled"})
# command -> (the states it moves from, the state it moves to)
MOVES: dict[str, tuple[tuple[str, ...], str]] = {
    "activate": ((PRINTED,), "activated"),
    "settle": (("activated",), "settled"),
    "return": ((PRINTED, "activated"), "returned"),
    "stolen": ((PRINTED, "activated", "settled", "returned"), "stolen"),
}
STATES = (PRINTED, "activated", "settled", "returned", "stolen")
LEGAL = frozenset((was, to) for froms, to in MOVES.values() for was in froms)
_COLUMNS = "move_no, at, run_id, book, was, state, clerk, ref, chain"
_BOOK = re.compile(rf"({GAME_PATTERN})-([0-9]{{7}})", re.ASCII)
_BARE = re.compile(r"[0-9]{1,7}", re.ASCII)
_ID = re.compile(r"[!-~]{1,64}", re.ASCII)
_PACK = re.compile(rb"(%s),(0|[1-9][0-9]{0,6}),0,[0-9]{1,5},([1-9][0-9]{0,5})" % GAME_PATTERN.encode())

Row = tuple[int, str, str, str, str, str, str, str, str]  # a move as stored, its chain last
_EDITED = "its chain is not the one its rows give (a row edited, inserted or removed by hand)"


@dataclass(frozen=True)
class Move:
    """A move recorded (or the last move of a book, for its state)."""

    move_no: int
    at: str
    book: str
    was: str
    state: str
    clerk: str
    ref: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def book_of_barcode(barcode: str) -> str:
    """The book a barcode number's ticket is in: `GGG-BBBBBBB` (`GGGG-BBBBBBB`, 16 digits)."""
    return "-".join(barcode_fields(barcode)[:2])


def run_books(run: Run) -> dict[str, int]:
    """The run's books (`GGG-BBBBBBB` -> tickets), from its pack list read only as the manifest's `packs`
    entry vouches for it (a regular file of the run folder, its size and SHA-256 the listed ones)."""
    files = run.folder.manifest.get("deliverables")  # an unsigned manifest (status) may hold anything here
    entries = [f for f in (files if isinstance(files, list) else []) if isinstance(f, dict)
               and f.get("role") == "packs"]
    if len(entries) != 1 or not isinstance(entries[0].get("name"), str) \
            or not isinstance(entries[0].get("bytes"), int) or not isinstance(entries[0].get("sha256"), str):
        raise BackOfficeError(f"{run.path}: the manifest lists no usable pack list; its books are unknown")
    entry = entries[0]
    if entry["name"] != "packs.csv":  # docs/validation.md, section 1: the one name it has
        raise BackOfficeError(f"{run.path}: the manifest's pack list is named {shown(entry['name'])}, not "
                              "packs.csv; refusing it")
    path = run.path / entry["name"]
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise BackOfficeError(f"{path}: missing from the run folder") from None
    if not stat.S_ISREG(st.st_mode) or st.st_size != entry["bytes"]:
        raise BackOfficeError(f"{path}: not the regular file of {entry['bytes']:,} bytes the manifest "
                              "vouches for; refusing it")
    data = read_input(path, "pack list", BackOfficeError, limit=entry["bytes"])
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise BackOfficeError(f"{path}: its SHA-256 is not the one the manifest vouches for; refusing it")
    out: dict[str, int] = {}
    lines = data.split(b"\n")
    if lines[0] != b"game,book,first_ticket,last_ticket,tickets":
        raise BackOfficeError(f"{path}: its first line is not the pack list's header; refusing it")
    for n, line in enumerate(lines[1:], start=2):
        m = _PACK.fullmatch(line)
        if m is None:  # an unsigned run's manifest may vouch for anything (the desk's runs are signed)
            if not line and n == len(lines):
                continue
            raise BackOfficeError(f"{path}: line {n}: not a pack list row GGG,BOOK,0,LAST,PER (docs/"
                                  "validation.md, section 4); refusing it")
        out[f"{int(m.group(1)):03d}-{int(m.group(2)):07d}"] = int(m.group(3))
    return out


def own_books(run: Run, listed: dict[str, int]) -> dict[str, int]:
    """The books of the run's own pools, of its pack list's `listed`. A split order's pack list names
    every book of the order whatever pools the run holds (docs/validation.md, section 4), so a run of
    some of its pools (a cut) holds only some of them: those its pool files name (each file checked
    against the manifest's SHA-256 first). Any other run's pack list names its own books."""
    printed = run.folder.manifest.get("print", {})  # an unsigned manifest (status) may hold anything here
    if not isinstance(printed, dict):
        raise BackOfficeError(f"{run.path}: the manifest's print entry is not an object; its books are "
                              "unknown")
    split = printed.get("split")
    if split is None:
        return listed
    order = split.get("order_tickets") if isinstance(split, dict) else None
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:  # a cut read as the whole order
        raise BackOfficeError(f"{run.path}: the manifest's print.split is not an order's split "
                              "{order_tickets, ...}; its books are unknown")
    if sum(p.tickets for p in run.folder.parsed.pools) >= order:
        return listed
    numbers: set[int] = set()
    for entry in run.folder.parsed.pools:
        try:
            checked_pool_file(run, entry.id)
            found = run.folder.collect(entry.id, lambda lf: lf.select("book").unique())
        except (RunError, BackOfficeError) as exc:
            raise BackOfficeError(f"{exc} (a run of some pools of a split order knows its books from its "
                                  "pool files)") from None
        numbers.update(int(b) for b in found["book"])
    return {name: n for name, n in listed.items() if int(name[-7:]) in numbers}


def parse_book(text: str, run: Run, books: dict[str, int], own: dict[str, int] | None = None) -> str:
    """A book named `GGG-BBBBBBB` or by its bare number (the run's game), as a book of the run: one of
    its pack list's `books` and, given `own` (`own_books`), one of its own pools' books."""
    m = _BOOK.fullmatch(text)
    if m:
        name = text
    elif _BARE.fullmatch(text) and run.game is not None:
        name = f"{run.game:03d}-{int(text):07d}"
    else:
        raise BackOfficeError(f"book {shown(text)}: not a book GGG-BBBBBBB nor a book number (ASCII digits)")
    if name not in books:
        raise BackOfficeError(f"book {shown(text)}: not a book of run {run.run_id} (not in its pack list)")
    if own is not None and name not in own:  # a split order's pack list names the order's books
        pools = ", ".join(p.id for p in run.folder.parsed.pools)
        raise BackOfficeError(f"book {shown(text)}: a book of another run of the order, not of run "
                              f"{run.run_id} (its pools {pools} do not hold it); name it under the run "
                              "that holds it")
    return name


def _move(row: Sequence[Any]) -> Move:
    r = owned.typed(row[:7], "move_no, at, book, was, state, clerk, ref", "itttttt")
    return Move(r[0], r[1], r[2], r[3], r[4], r[5], r[6])


class BooksLedger:
    def __init__(self, path: Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open (with `create`, make if absent) a books ledger; `read_only`: to read only, nothing
        written (docs/back-office.md, section 4)."""
        self.path = Path(path)
        self.db = owned.connect(self.path, BOOKS, create=create, read_only=read_only)
        self.head = ""  # the ledger's head after this process's last move ("" before one)

    def close(self) -> None:
        self.db.close()

    @owned.guarded(BOOKS)
    def state(self, book: str) -> tuple[str, Move | None]:
        """A book's state and its last move (None: printed, no move)."""
        row = self.db.execute("SELECT move_no, at, book, was, state, clerk, ref FROM moves WHERE book = ? "
                              "ORDER BY move_no DESC LIMIT 1", (book,)).fetchone()
        if row is None:
            return PRINTED, None
        last = _move(row)
        return last.state, last

    @owned.guarded(BOOKS)
    def checked_state(self, book: str) -> str:
        """The book's state for the desk, its own moves checked first, read by one statement (one
        snapshot): each a move of the table from the state before it (printed first), each row's chain
        the link of the row before it (by move number) and the next row's the link of it. So an edit of
        one of its rows is refused unless every later row was chained again, which only a head shows
        (section 8); the cost is one indexed query (the whole chain is checked once, at open)."""
        rows = {r[0]: r for r in (owned.typed(r, _COLUMNS, "itttttttt") for r in self.db.execute(
            f"SELECT {_COLUMNS} FROM moves WHERE move_no IN (SELECT move_no + d FROM moves, (SELECT -1 AS d "
            "UNION ALL SELECT 0 UNION ALL SELECT 1) WHERE book = ?)", (book,)))}
        state = PRINTED
        for no in sorted(n for n, r in rows.items() if r[3] == book):
            r = rows[no]
            was, to = r[4], r[5]
            if was != state or (was, to) not in LEGAL:
                raise self._broken(f"book {book}: move no. {no} moves it {plain(was)} -> {plain(to)} after "
                                   f"its moves before left it {state}")
            before = GENESIS.hex() if no == 1 else rows[no - 1][8] if no - 1 in rows else None
            if before is None or link(_chain_bytes(before), r[:8]).hex() != r[8]:
                raise self._broken(f"move no. {no} (book {book}): {_EDITED}")
            nxt = rows.get(no + 1)
            if nxt is not None and nxt[3] != book and link(_chain_bytes(r[8]), nxt[:8]).hex() != nxt[8]:
                raise self._broken(f"move no. {no + 1} (after book {book}'s move no. {no}): {_EDITED}")
            state = to
        return state

    def _broken(self, what: str) -> BackOfficeError:
        return BackOfficeError(f"{self.path}: {what}; the back office uses no books ledger that fails its "
                               "checks (`poolgen books status` names each problem)")

    @owned.guarded(BOOKS)
    def move(self, run: Run, command: str, books: list[str], clerk: str, ref: str,
             now: datetime | None = None) -> list[Move]:
        """Move every book named by `command` (one of MOVES), all in one transaction or none: a book named
        twice, one that is not the run's own (`parse_book`: in its pack list and, a cut of a split order,
        in its own pools), or one whose state the command does not move from, refuses the whole command.
        The command line checks the books the same way before it opens the ledger; a script calling this
        is held to it here."""
        run = signed(run, "the books ledger records")
        if command not in MOVES:
            raise BackOfficeError(f"{shown(command)}: not a move of the books ledger ({', '.join(MOVES)})")
        froms, to = MOVES[command]
        if not books:  # the command line needs one; a script may pass none
            raise BackOfficeError(f"{command}: no book named; name each book to move once")
        seen: set[str] = set()
        for book in books:
            if not _BOOK.fullmatch(book):
                raise BackOfficeError(f"book {shown(book)}: not a book GGG-BBBBBBB")
            if book in seen:
                raise BackOfficeError(f"book {book}: named twice; name each book once")
            seen.add(book)
        known = run_books(run)
        own = own_books(run, known)
        for book in books:
            parse_book(book, run, known, own)
        at = now_text(now)
        out: list[Move] = []
        with owned.recorded(self.db, self.path, BOOKS) as note:
            for book in books:
                was, _ = self.state(book)
                if was not in froms:
                    onward = sorted(t for (w, t) in LEGAL if w == was)
                    shown_was = plain(was)  # a state edited by hand is shown escaped
                    raise BackOfficeError(
                        f"book {book}: {shown_was}; a{'n' if was[:1] in tuple('aeiou') else ''} {shown_was} "
                        f"book cannot be {_done(command)} (moves from {shown_was}: "
                        f"{', '.join(onward) if onward else 'none'})")
                out.append(self._insert(run.run_id, Move(0, at, book, was, to, clerk, ref)))
            pause_point("books-written")  # the interrupt tests stop the process here, before COMMIT
            last = out[-1].move_no
            what = f"move no. {last}" if len(out) == 1 else f"moves no. {out[0].move_no} to {last}"
            note.append(f"{what} ({command} {len(out):,} book{'s' if len(out) > 1 else ''}) in the ledger "
                        f"{self.path}")
        return out

    def _insert(self, run_id: str, m: Move) -> Move:
        last = self.db.execute("SELECT move_no, chain FROM moves ORDER BY move_no DESC LIMIT 1").fetchone()
        if last is None:
            no, previous = 1, GENESIS
        else:
            n, stored = owned.typed(last, "move_no, chain", "it")
            no, previous = n + 1, _chain_bytes(stored)
        fields = (no, m.at, run_id, m.book, m.was, m.state, m.clerk, m.ref)
        chain = link(previous, fields)
        self.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*fields, chain.hex()))
        self.head = head_text(no, chain)
        return Move(no, m.at, m.book, m.was, m.state, m.clerk, m.ref)

    @owned.guarded(BOOKS)
    def rows(self) -> list[Row]:
        """Every move, in move order, read in one transaction."""
        self.db.execute("BEGIN")
        try:
            rows = [owned.typed(r, _COLUMNS, "itttttttt") for r in
                    self.db.execute(f"SELECT {_COLUMNS} FROM moves ORDER BY move_no")]
        finally:
            owned.rollback(self.db)  # a read: nothing to commit
        return [tuple(r) for r in rows]


def plain(text: str) -> str:
    """A value of a row as a line may show it: a state of the table, a book name GGG-BBBBBBB or an id
    (printable ASCII, no space) as is, anything else (a row edited by hand) ASCII-escaped."""
    return text if text in STATES or _BOOK.fullmatch(text) or _ID.fullmatch(text) else shown(text)


def _done(command: str) -> str:
    return {"activate": "activated", "settle": "settled", "return": "returned",
            "stolen": "reported stolen"}[command]


def _chain_bytes(stored: str) -> bytes:
    """A stored chain as the tool writes it, else the genesis value (a row edited by hand: the checks
    name the break)."""
    ok = len(stored) == 64 and all(c in "0123456789abcdef" for c in stored)
    return bytes.fromhex(stored) if ok else GENESIS


def states_of(rows: list[Row]) -> dict[str, Row]:
    """Each book's last move (books with none are printed)."""
    return {r[3]: r for r in rows}


def check(path: Path, rows: list[Row], head: tuple[int, bytes] | None) -> tuple[str, list[str]]:
    """The ledger's head recomputed, and what its rows show of a hand edit (docs/back-office.md, section
    8, "Checks"): move numbers missing, a chain broken, a book's moves not a path of the table, and,
    given `head`, a ledger that no longer extends it."""
    out: list[str] = []
    gaps = missing([r[0] for r in rows], "move")
    if gaps:
        out.append(f"{path}: {gaps} (rows removed by hand: a stolen book removed is claimable again)")
    now, broken = problems(path, [(r[0], r[:8], r[8]) for r in rows], head, "move")
    state: dict[str, str] = {}
    for r in rows:
        no, book, was, to = r[0], r[3], r[4], r[5]
        before = state.get(book, PRINTED)
        if was != before:
            out.append(f"{path}: book {plain(book)}: move no. {no} says it was {plain(was)}, but its moves "
                       f"before left it {before}")
        elif (was, to) not in LEGAL:
            out.append(f"{path}: book {plain(book)}: move no. {no} moves it {plain(was)} -> {plain(to)}, "
                       "not a move of the table")
        state[book] = to
    return now, out + broken


def open_for_desk(path: Path) -> BooksLedger:
    """A books ledger the desk may use: one that passes every check that needs no head, as a report's
    (`open_checked`): a claim's own check (`checked_state`) reads only its book's rows and their
    neighbours, so a row moved off its book by hand (a theft given another book's name) is seen only by
    the whole chain; else a BackOfficeError."""
    return open_checked(path)


def open_checked(path: Path) -> BooksLedger:
    """A books ledger a report may use: one that passes every check that needs no head (else a
    BackOfficeError naming the first problem)."""
    ledger = BooksLedger(path, create=False, read_only=True)
    try:
        _, found = check(ledger.path, ledger.rows(), None)
    except BaseException:
        ledger.close()
        raise
    if found:
        ledger.close()
        raise BackOfficeError(f"{found[0]}; the back office uses no books ledger that fails its checks "
                              "(`poolgen books status` names each problem)")
    return ledger
