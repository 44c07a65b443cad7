"""A third back office, written from docs/back-office.md (sections 4 to 6), docs/pool-files.md and
docs/manifest.md alone, as a lottery's own back office or an auditor would: given a run's files and its
ledgers (read with the sqlite3 module, read-only, the schema as the doc states it), every figure
`claims report|close|reconcile` and `sales report [--closing]|reconcile` show. It imports neither
poolgen nor audit: test_back_office.py holds poolgen's `--json` to it on real runs."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter
from pathlib import Path

import polars as pl

ZERO = "0" * 64


def open_ro(ledger: Path) -> sqlite3.Connection:
    """A ledger read as an auditor reads it: read-only, never written."""
    return sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)


def _f(value: object) -> bytes:
    """section 4's F(x): the 4-byte big-endian length of x's UTF-8 bytes, then those bytes (an integer as
    its decimal digits)."""
    data = str(value).encode()
    return len(data).to_bytes(4, "big") + data


def link(before: str, fields: tuple) -> str:
    """h_n = SHA-256(h_(n-1) || F(f_1) || ... || F(f_k)), as 64 lower-case hex digits."""
    return hashlib.sha256(bytes.fromhex(before) + b"".join(_f(v) for v in fields)).hexdigest()


def chain_head(rows: list[tuple]) -> tuple[str, int | None]:
    """(the head N:HEX recomputed over rows (number, fields..., stored chain) in number order, the
    first number whose stored chain is not the recomputed one, or None)."""
    h, first_bad, last = ZERO, None, 0
    for row in rows:
        h = link(h, row[:-1])
        if row[-1] != h and first_bad is None:
            first_bad = row[0]
        last = row[0]
    return f"{last}:{h}", first_bad


def percent(numerator: int, denominator: int) -> str:
    """numerator / denominator in percent, to 4 places rounded half up (integers only)."""
    scaled = (2 * numerator * 1_000_000 + denominator) // (2 * denominator)
    return f"{scaled // 10000}.{scaled % 10000:04d}"


def manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


# ---- the claims ledger (schema version 2) ----

def claims_head(ledger: Path) -> tuple[str, int | None]:
    """The head of a claims ledger from its rows, and the first claim number whose chain breaks: an
    attempt's fields, then its `paid` row's virn, tier, prize_cents and free when its outcome is paid."""
    with open_ro(ledger) as db:
        paid = {r[0]: r[1:] for r in db.execute("SELECT claim_no, virn, tier, prize_cents, free FROM paid")}
        rows = []
        for row in db.execute("SELECT claim_no, at, run_id, barcode, desk, clerk, outcome, reason, chain "
                              "FROM attempts ORDER BY claim_no"):
            extra = paid[row[0]] if row[6] == "paid" else ()
            rows.append((*row[:-1], *extra, row[-1]))
    return chain_head(rows)


def _levels(runs: list[Path]) -> dict[tuple[int, bool], int]:
    """(prize_cents, free ticket) -> prizes of the order: every run's pools' tiers summed, the free-ticket
    tiers (print.free_ticket_tiers) a level of their own, the tier `lose` none."""
    levels: Counter[tuple[int, bool]] = Counter()
    for run in runs:
        m = manifest(run)
        free = set(m["print"].get("free_ticket_tiers", []))
        for pool in m["pools"]:
            for tier in pool["tiers"]:
                if tier["id"] != "lose":
                    levels[(tier["prize_cents"], tier["id"] in free)] += tier["count"]
    return levels


def _payments(runs: list[Path], ledgers: list[Path]) -> dict[str, tuple[str, int, bool]]:
    """barcode -> (time, prize_cents, free) of its first payment (the earliest by time, of two at one time
    the one in the ledger given first) under the order's run ids: a ticket paid in two ledgers (or
    twice) is one prize claimed, whatever order the ledgers are given in."""
    ids = {manifest(run)["run_id"] for run in runs}
    first: dict[str, tuple[str, int, bool]] = {}
    for ledger in ledgers:
        with open_ro(ledger) as db:
            for run_id, barcode, at, cents, free in db.execute(
                    "SELECT run_id, barcode, at, prize_cents, free FROM paid"):
                if run_id in ids and (barcode not in first or at < first[barcode][0]):
                    first[barcode] = (at, cents, bool(free))
    return first


def _claimed(runs: list[Path], ledgers: list[Path]) -> Counter[tuple[int, bool]]:
    """(prize_cents, free) -> tickets paid under the order's run ids, each once."""
    return Counter((cents, free) for _, cents, free in _payments(runs, ledgers).values())


def book_states(books: Path) -> dict[str, str]:
    """Each book's state in the books ledger (section 8): the `state` of its highest-numbered move."""
    with open_ro(books) as db:
        return dict(db.execute("SELECT book, state FROM moves m WHERE move_no = "
                               "(SELECT max(move_no) FROM moves WHERE book = m.book)"))


def withdrawn(runs: list[Path], ledgers: list[Path], books: Path) -> dict[str, Counter[tuple[int, bool]]]:
    """`returned` and `stolen` -> (prize_cents, free) -> the prizes of tickets not paid whose book (the
    ticket id's GGG-BBBBBBB, from the pool files) is in that state; a ticket paid is paid whatever its
    book's state. A barcode names its ticket id: GGG(G) BBBBBBB TTT and two check digits."""
    states = book_states(books)
    paid = {f"{b[:-12]}-{b[-12:-5]}-{b[-5:-2]}" for b in _payments(runs, ledgers)}
    out: dict[str, Counter[tuple[int, bool]]] = {"returned": Counter(), "stolen": Counter()}
    for run in runs:
        m = manifest(run)
        free = set(m["print"].get("free_ticket_tiers", []))
        for pool in m["pools"]:
            rows = pl.read_parquet(run / pool["file"]["name"], columns=["ticket", "tier", "prize_cents"])
            for ticket, tier, cents in rows.filter(pl.col("prize_cents") > 0).iter_rows():
                state = states.get(ticket[:-4], "printed")
                if state in out and ticket not in paid:
                    out[state][(cents, tier in free)] += 1
    return out


SIGNS = {"USD": "$", "CAD": "$", "GBP": "\u00a3", "EUR": "\u20ac"}  # docs/new-game.md section 1


def money(cents: int, run: Path | None = None) -> str:
    """An amount as every report writes it: the game's sign (the manifest's `game.currency`, USD when
    absent), whole units grouped by commas in threes, a point and two decimals."""
    sign = SIGNS[manifest(run)["game"].get("currency", "USD")] if run else "$"
    return f"{sign}{cents // 100:,}.{cents % 100:02d}"


def _level_order(key: tuple[int, bool]) -> tuple[int, int]:
    """Levels from the largest amount down; at one amount the free ticket before the cash prize."""
    return (-key[0], 0 if key[1] else 1)


def prizes_remaining(runs: list[Path], ledgers: list[Path], books: Path | None = None) -> dict:
    """`claims report --json`'s levels and totals; given a books ledger, the prizes not paid in returned
    and stolen books apart (total = paid + returned + stolen + remaining)."""
    levels, claimed = _levels(runs), _claimed(runs, ledgers)
    apart = withdrawn(runs, ledgers, books) if books else None
    rows = []
    for key in sorted(levels, key=_level_order):
        cents, free = key
        prize = f"free ticket ({money(cents, runs[0])})" if free else money(cents, runs[0])
        row = {"prize": prize, "prize_cents": cents, "free_ticket": free, "total": levels[key],
               "paid": claimed[key], "remaining": levels[key] - claimed[key]}
        if apart:
            row |= {"returned": apart["returned"][key], "stolen": apart["stolen"][key]}
            row["remaining"] -= row["returned"] + row["stolen"]
        rows.append(row)
    total = sum(levels.values())
    total_cents = sum(c * n for (c, _), n in levels.items())
    paid, paid_cents = sum(claimed.values()), sum(c * n for (c, _), n in claimed.items())
    totals = {"total": total, "paid": paid, "remaining": total - paid, "total_cents": total_cents,
              "paid_cents": paid_cents, "remaining_cents": total_cents - paid_cents}
    if apart:
        for state, counts in apart.items():
            totals[state] = sum(counts.values())
            totals[f"{state}_cents"] = sum(c * n for (c, _), n in counts.items())
            totals["remaining"] -= totals[state]
            totals["remaining_cents"] -= totals[f"{state}_cents"]
    return {"levels": rows, "totals": totals}


def closing(runs: list[Path], ledgers: list[Path], books: Path | None = None) -> dict:
    """`claims close --json`'s figures: every ticket taken as sold, the designed payout the manifests'
    prize cost over their sales, the actual the prizes paid (a free ticket at its worth) over the same;
    given a books ledger, the prizes in returned and stolen books apart, never unclaimed."""
    remaining = prizes_remaining(runs, ledgers, books)
    sales = sum(manifest(run)["totals"]["sales_cents"] for run in runs)
    designed = sum(manifest(run)["totals"]["prize_cost_cents"] for run in runs)
    levels = []
    for row in remaining["levels"]:
        row = {**row, "unclaimed": row["remaining"], "unclaimed_cents": row["remaining"] * row["prize_cents"]}
        if books:
            row |= {"returned_cents": row["returned"] * row["prize_cents"],
                    "stolen_cents": row["stolen"] * row["prize_cents"]}
        levels.append(row)
    totals = remaining["totals"]
    out = {"sales_cents": sales, "designed_prizes_cents": designed, "paid_cents": totals["paid_cents"],
           "unclaimed_cents": totals["remaining_cents"], "designed_payout_pct": percent(designed, sales),
           "actual_payout_pct": percent(totals["paid_cents"], sales), "levels": levels}
    if books:
        out |= {"returned_cents": totals["returned_cents"], "stolen_cents": totals["stolen_cents"]}
    return out


def missing(numbers: set[int], what: str) -> str | None:
    """`claim numbers 2 to 3, 6 are missing` (runs of consecutive numbers as `A to B`), `claim number 2 is
    missing`, or None: the numbers 1 to the largest that are not there."""
    gone = sorted(set(range(1, max(numbers, default=0) + 1)) - numbers)
    if not gone:
        return None
    runs: list[list[int]] = []
    for n in gone:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    named = ", ".join(f"{r[0]} to {r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)
    return f"{what} numbers {named} are missing" if len(gone) > 1 else f"{what} number {named} is missing"


def claims_problems(run: Path, ledger: Path) -> set[str]:
    """The reconciliation's problems that need no key, in section 6's words: claim numbers missing; the
    run's `paid` rows and its attempts marked paid differing (as claim number -> barcode); a payment row
    whose run id, barcode, at, desk or clerk (the fields that differ, in that order) is not its paid
    attempt's; the first claim whose chain is not the one its rows give."""
    run_id = manifest(run)["run_id"]
    with open_ro(ledger) as db:
        attempts = {r[0]: r[1:] for r in db.execute(
            "SELECT claim_no, run_id, barcode, at, desk, clerk, outcome FROM attempts")}
        payments = list(db.execute("SELECT claim_no, run_id, barcode, at, desk, clerk FROM paid"))
    problems = set()
    gaps = missing(set(attempts), "claim")
    if gaps:
        problems.add(f"{ledger}: {gaps} (rows removed by hand: a removed payment can be paid again)")
    marked = {n: a[1] for n, a in attempts.items() if a[5] == "paid" and a[0] == run_id}
    mine = {p[0]: p[2] for p in payments if p[1] == run_id}
    if marked != mine:
        problems.add(f"{ledger}: its payments and its attempts marked paid differ ({len(mine):,} payments, "
                     f"{len(marked):,} such attempts)")
    for no, *copied in payments:
        attempt = attempts.get(no)
        if attempt is None or attempt[5] != "paid":
            continue
        fields = [name for name, mine_, theirs in zip(("run_id", "barcode", "at", "desk", "clerk"), copied,
                                                      attempt[:5], strict=True) if mine_ != theirs]
        if fields:
            problems.add(f"{ledger}: claim no. {no} ({copied[1]}): its payment row's {', '.join(fields)} "
                         f"{'is' if len(fields) == 1 else 'are'} not its attempt's (the payment row "
                         "edited by hand)")
    bad = claims_head(ledger)[1]
    if bad is not None:
        problems.add(f"{ledger}: claim no. {bad}: its chain is not the one its rows give (a row edited, "
                     "inserted or removed by hand)")
    return problems


def reconcile(run: Path, ledgers: list[Path]) -> dict:
    """`claims reconcile --json`'s figures for one run: payments checked (every `paid` row of the run, a
    second payment of a ticket included), their amount, each ledger's head, and the levels."""
    run_id = manifest(run)["run_id"]
    count = cents = 0
    for ledger in ledgers:
        with open_ro(ledger) as db:
            n, c = db.execute("SELECT count(*), coalesce(sum(prize_cents), 0) FROM paid WHERE run_id = ?",
                              (run_id,)).fetchone()
        count, cents = count + n, cents + c
    return {"payments_checked": count, "paid_cents": cents, "paid": money(cents, run),
            "heads": {str(ledger): claims_head(ledger)[0] for ledger in ledgers},
            "levels": prizes_remaining([run], ledgers)["levels"]}


def paid_out_of_play(run: Path, ledger: Path, books: Path) -> list[str]:
    """`claims reconcile --books`'s problem for each payment of the run made while its ticket's book was not
    activated or settled: the book's state after its last move whose time is at or before the payment's
    (`printed` with none), times compared as text (section 8)."""
    run_id = manifest(run)["run_id"]
    with open_ro(books) as db:
        moves = list(db.execute("SELECT move_no, at, book, state FROM moves ORDER BY move_no"))
    with open_ro(ledger) as db:
        paid = list(db.execute("SELECT claim_no, barcode, at FROM paid WHERE run_id = ? ORDER BY claim_no",
                               (run_id,)))
    out = []
    for claim_no, barcode, at in paid:
        book = f"{barcode[:-12]}-{barcode[-12:-5]}"
        before = [m for m in moves if m[2] == book and m[1] <= at]
        state = before[-1][3] if before else "printed"
        if state not in ("activated", "settled"):
            when = f"move no. {before[-1][0]} at {before[-1][1]}" if before else "no move recorded before it"
            out.append(f"{ledger}: claim no. {claim_no} ({barcode}): paid at {at} while its book {book} was "
                       f"{state} ({when}): not a claimable ticket")
    return out
