"""Reports from the ledgers (docs/back-office.md, section 6): prizes paid and remaining in the form
lotteries publish, the reconciliation of claims ledgers against the vouched validation files and the
signed manifest, and the closing report, of a printed game (an eInstant's are
poolgen/backoffice/share_reports.py's).

A printed game's figures are per prize level (an amount, a free ticket apart), for the whole order:
the desk never knows a ticket's pool (book numbers are a secret permutation), and a published figure
must not say where the remaining prizes are. An order made in several runs (cuts) is reported over
all of them (an `Order`, poolgen/backoffice/orders.py): its levels summed over every run's pools, its
payments those recorded under any of its run ids.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from poolgen.backoffice.claims import ClaimsLedger, Payment, Row, chain_problems
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.orders import Order, prizes_add_up
from poolgen.backoffice.vouched import Run, read_validation
from poolgen.deliverables.identity import barcode_fields, game_text
from poolgen.deliverables.validation import CENTS, FREE, OTHER_TIER, ValidationFile
from poolgen.money import USD, Currency, fmt_cents, round_half_up


@dataclass(frozen=True)
class Level:
    """One prize level: how many the game holds (`total`) and how many were paid."""

    cents: int
    free: bool
    total: int
    paid: int
    pool: str | None = None  # an eInstant's pool; None for a printed order's level
    counted: str = "paid"  # what `paid` counts: prizes paid, or (an eInstant's) prizes in shares sold
    returned: int | None = None  # with a books ledger: prizes not paid in books returned (section 8)
    stolen: int | None = None  # ... and in books reported stolen; None without a books ledger
    currency: Currency = USD  # the game's (the manifest's `game.currency`): `label` is written in it

    @property
    def label(self) -> str:
        shown = fmt_cents(self.cents, self.currency)
        return f"free ticket ({shown})" if self.free else shown

    @property
    def remaining(self) -> int:
        """Prizes still to be claimed by the public: not paid, and not in a returned or stolen book."""
        return self.total - self.paid - (self.returned or 0) - (self.stolen or 0)

    def to_json(self) -> dict[str, Any]:
        books = {} if self.returned is None else {"returned": self.returned, "stolen": self.stolen}
        return {**({"pool": self.pool} if self.pool else {}), "prize": self.label, "prize_cents": self.cents,
                "free_ticket": self.free, "total": self.total, self.counted: self.paid, **books,
                "remaining": self.remaining}


def runs_of(what: Run | Order) -> tuple[Run, ...]:
    """The runs a report covers: one run, or every run of an order."""
    return what.runs if isinstance(what, Order) else (what,)


def currency_of(what: Run | Order) -> Currency:
    """The game's currency (its manifest's `game.currency`, one order one game): every amount a report
    shows is written in it."""
    return runs_of(what)[0].folder.currency


def designed_levels(what: Run | Order) -> Counter[tuple[int, bool]]:
    """A printed order's prizes by (cents, free ticket), summed over its pools (every run's), losers
    left out."""
    out: Counter[tuple[int, bool]] = Counter()
    for run in runs_of(what):
        for p in run.folder.parsed.pools:
            for t in p.tiers:
                if t.prize_cents > 0 and t.count > 0:
                    out[(t.prize_cents, t.id in run.free_tiers)] += t.count
    return out


Attempts = list[Row]


def read_ledgers(ledgers: list[Path]) -> list[tuple[Path, Attempts, list[Payment]]]:
    """Each ledger's attempts and payments (every run's), each ledger read in one transaction; a ledger
    given twice (by another name, a hard link) is refused: its payments would be counted twice, as
    claimed prizes and as tickets paid twice."""
    out = []
    seen: dict[tuple[int, int], Path] = {}
    for path in ledgers:
        book = ClaimsLedger(path, create=False, read_only=True)
        try:
            st = os.stat(path)
            if (st.st_dev, st.st_ino) in seen:
                raise BackOfficeError(f"{path}: the same claims ledger as {seen[st.st_dev, st.st_ino]}; give "
                                      "each ledger once")
            seen[st.st_dev, st.st_ino] = path
            out.append((path, *book.snapshot()))
        finally:
            book.close()
    return out


def load_payments(what: Run | Order, ledgers: list[Path]) -> list[tuple[Path, Payment]]:
    """Every payment of the run (or of any run of the order) in the ledgers (`read_ledgers`)."""
    ids = {r.run_id for r in runs_of(what)}
    return [(path, p) for path, _, every in read_ledgers(ledgers) for p in every if p.run_id in ids]


Withdrawn = dict[tuple[int, bool], tuple[int, int]]  # level -> (prizes in returned, in stolen books)


def printed_levels(what: Run | Order, payments: list[Payment],
                   withdrawn: Withdrawn | None = None) -> list[Level]:
    """Per level, the prizes the order holds and the tickets paid: a ticket paid in two ledgers (two
    desks, each with its own) is one prize gone, counted at its first payment (`first_payments`); the
    second payment is the reconciliation's problem, not a second prize claimed. Given `withdrawn`
    (book_reports.py), the prizes not paid in returned and stolen books, apart."""
    designed = designed_levels(what)
    tickets = first_payments(payments)
    paid = Counter((p.prize_cents, p.free) for p in tickets.values())
    out = (designed | paid).keys() | (withdrawn or {}).keys()
    cur = currency_of(what)
    if withdrawn is None:
        return [Level(c, f, designed[(c, f)], paid[(c, f)], currency=cur)
                for c, f in sorted(out, reverse=True)]
    return [Level(c, f, designed[(c, f)], paid[(c, f)], returned=withdrawn.get((c, f), (0, 0))[0],
                  stolen=withdrawn.get((c, f), (0, 0))[1], currency=cur)
            for c, f in sorted(out, reverse=True)]


def first_payments(payments: list[Payment]) -> dict[str, Payment]:
    """Each ticket's first payment: the earliest by its time (ISO 8601 text, compared as text), of two at
    one time the one listed first (`payments` in the order the ledgers were given, each in claim order).
    Kept in the order the ledgers were given, a report's figures changed with the order of `--ledger`
    when one of a ticket's payments was forged (docs/back-office.md, section 6)."""
    first: dict[str, Payment] = {}
    for p in sorted(payments, key=lambda x: x.at):  # stable: ties keep the ledgers' order
        first.setdefault(p.barcode, p)
    return first


def published_levels(what: Run | Order, payments: list[Payment],
                     withdrawn: Withdrawn | None = None) -> list[Level]:
    """`printed_levels` for a table that is published (prizes remaining, the closing report): refused
    when a level holds more payments than the game has prizes of it (an amount it has none of, say), as
    its figures would not add up (a negative number remaining), or more payments and prizes in returned
    and stolen books than it holds, or when the levels' prizes are not exactly the manifests'
    `totals.prize_cost_cents` summed over the runs."""
    levels = printed_levels(what, payments, withdrawn)
    prizes_add_up(sum(lv.total * lv.cents for lv in levels), runs_of(what))
    for lv in levels:
        if lv.paid > lv.total:
            said = (f"{lv.paid:,} payment{'s' if lv.paid != 1 else ''} of {lv.label}, "
                    + ("a prize the game does not hold" if lv.total == 0 else f"more than the {lv.total:,} "
                       "the game holds"))
            raise BackOfficeError(f"the ledgers hold {said}; the figures would not add up (`poolgen claims "
                                  "reconcile` names each payment)")
        if lv.remaining < 0:
            out = (lv.returned or 0) + (lv.stolen or 0)
            raise BackOfficeError(f"{lv.label}: {lv.paid:,} paid and {out:,} in returned or stolen books, "
                                  f"more than the {lv.total:,} the game holds; the figures would not add up "
                                  "(`poolgen claims reconcile` names each payment)")
    return levels


@dataclass
class Reconciliation:
    """What the reconciliation found; `problems` empty means the ledgers reconcile."""

    checked: int = 0
    paid_cents: int = 0
    problems: list[str] = field(default_factory=list)
    levels: list[Level] | None = None  # a printed run's prizes remaining; an eInstant's have none (section 6)
    heads: dict[str, str] = field(default_factory=dict)  # each claims ledger's head, recomputed
    currency: Currency = USD  # the game's: the amounts' sign

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        levels = {} if self.levels is None else {"levels": [lv.to_json() for lv in self.levels]}
        return {"ok": self.ok, "payments_checked": self.checked, "paid_cents": self.paid_cents,
                "paid": fmt_cents(self.paid_cents, self.currency), "problems": self.problems,
                **levels, "heads": self.heads}


def reconcile(run: Run, ledgers: list[Path], keys: dict[str, bytes],
              heads: dict[Path, tuple[int, bytes]] | None = None) -> Reconciliation:
    """Every payment in the ledgers checked against the validation files the manifest vouches for (read
    whole, not through an index): a ticket of the run, a real prize of the tier and amount paid, paid
    once across all the ledgers; each ledger's payments matched by its attempts, its hash chain whole
    and extending the head recorded for it (`heads`); totals per level within the game's."""
    if not keys:
        raise BackOfficeError("give --validation-key and/or --high-validation-key: reconciling opens the "
                              "validation files")
    files = {t: read_validation(run, t, k)[0] for t, k in keys.items()}
    rec = Reconciliation(currency=run.folder.currency)
    books = read_ledgers(ledgers)
    payments = [(path, p) for path, _, every in books for p in every if p.run_id == run.run_id]
    for path, attempts, every in books:
        rec.problems += _differ(path, run, attempts, every) + _unbound(path, attempts, every)
        rec.problems += _gaps(path, attempts)
        rec.problems += _moved(path, run, every, files, keys)
        rec.heads[str(path)], broken = chain_problems(path, attempts, every, (heads or {}).get(path))
        rec.problems += broken
    firsts = first_payments([p for _, p in payments])  # the earliest payment of each ticket is its first
    where_paid = {id(p): path for path, p in payments}
    for path, p in payments:
        rec.checked += 1
        rec.paid_cents += p.prize_cents
        where = f"{path}: claim no. {p.claim_no} ({p.barcode})"
        first = firsts[p.barcode]
        if first is not p:
            rec.problems.append(f"{where}: paid twice (also {where_paid[id(first)]}: claim no. "
                                f"{first.claim_no} at {first.at})")
            continue
        if p.tier not in files:
            rec.problems.append(f"{where}: a {p.tier}-tier payment, not checked (give that tier's key)")
            continue
        vf, key = files[p.tier], keys[p.tier]
        if not vf.is_known(key, run.run_id, p.barcode):
            rec.problems.append(f"{where}: not a ticket of run {run.run_id}")
            continue
        value = vf.lookup(key, run.run_id, p.barcode, p.virn)
        if value is None or value in (0, OTHER_TIER):
            rec.problems.append(f"{where}: not a {p.tier}-tier prize (its validation number opens "
                                f"{'no record' if value is None else 'no prize of that tier'})")
            continue
        real = (value & CENTS, bool(value & FREE))
        if real != (p.prize_cents, p.free):
            rec.problems.append(f"{where}: paid {_what(p.prize_cents, p.free, rec.currency)}, but its prize "
                                f"is {_what(*real, rec.currency)}")
    rec.levels = printed_levels(run, [p for _, p in payments])
    for lv in rec.levels:
        if lv.paid > lv.total:
            rec.problems.append(f"{lv.label}: {lv.paid:,} paid, but the game holds {lv.total:,}")
    return rec


def ledger_problems(what: Run | Order, books: list[tuple[Path, Attempts, list[Payment]]]) -> list[str]:
    """What the ledgers (`read_ledgers`) show of a hand edit without a key: payments and attempts marked
    paid that differ, claim numbers missing, a chain broken. The closing report is drawn only from
    ledgers without one (a payment removed or moved to another run id would be shown unclaimed);
    `reconcile` adds what the validation files show."""
    out = []
    for path, attempts, every in books:
        out += [x for run in runs_of(what) for x in _differ(path, run, attempts, every)]
        out += _unbound(path, attempts, every)
        out += _gaps(path, attempts)
        out += chain_problems(path, attempts, every, None)[1]
    return out


def runs_left_out(order: Order, books: list[tuple[Path, Attempts, list[Payment]]]) -> str | None:
    """The first ledger's payments of the order's game number recorded under run ids not given, as a
    refusal, or None. A ledger holds the tickets of one order per game number (docs/back-office.md,
    section 4), so each is a ticket of a run of the order left out (another cut), and a table of the
    runs given would show its prize still to be won."""
    game = order.first.game
    if game is None:
        return None
    for path, _, every in books:
        out = [p for p in every
               if p.run_id not in order.run_ids and barcode_fields(p.barcode)[0] == game_text(game)]
        if out:
            ids = ", ".join(sorted({p.run_id for p in out}))
            return (f"{path}: {len(out):,} payment(s) of game {game} under run(s) {ids}, not given: a ledger "
                    "holds one order per game number, so the order's tables need every run of it (RUN ... or "
                    "--run RUN)")
    return None


def _differ(path: Path, run: Run, attempts: Attempts, every: list[Payment]) -> list[str]:
    paid_attempts = {a[0]: a[3] for a in attempts if a[6] == "paid" and a[2] == run.run_id}
    mine = {p.claim_no: p.barcode for p in every if p.run_id == run.run_id}
    if paid_attempts == mine:
        return []
    return [f"{path}: its payments and its attempts marked paid differ ({len(mine):,} payments, "
            f"{len(paid_attempts):,} such attempts)"]


# a payment row's fields that copy its attempt's (attempt row index): the chain covers the attempt's only
_COPIED = (("run_id", 2), ("barcode", 3), ("at", 1), ("desk", 4), ("clerk", 5))


def _unbound(path: Path, attempts: Attempts, every: list[Payment]) -> list[str]:
    """Each payment row (of any run) whose run id, barcode, time, desk or clerk is not its paid attempt's.
    The chain covers the attempt's fields and only the payment's own (virn, tier, prize, free), so a
    copy edited by hand broke nothing: a payment backdated to before its book was stolen reconciled with
    --books, and a second claim was told another desk and clerk paid it (docs/back-office.md, section 4)."""
    paid = {a[0]: a for a in attempts if a[6] == "paid"}
    out = []
    for p in every:
        a = paid.get(p.claim_no)
        if a is None:
            continue  # no paid attempt: _differ names it
        fields = [name for name, i in _COPIED if getattr(p, name) != a[i]]
        if fields:
            verb = "is" if len(fields) == 1 else "are"
            out.append(f"{path}: claim no. {p.claim_no} ({p.barcode}): its payment row's {', '.join(fields)} "
                       f"{verb} not its attempt's (the payment row edited by hand)")
    return out


def _gaps(path: Path, attempts: Attempts) -> list[str]:
    """Claim numbers missing from 1 .. the largest (SQLite numbers claims one after another, and the
    tool never deletes a row). Removing the last claims leaves no gap: the head recorded outside the
    ledger shows those (chain.py; docs/back-office.md, section 4)."""
    gaps = missing([a[0] for a in attempts], "claim")
    return [f"{path}: {gaps} (rows removed by hand: a removed payment can be paid again)"] if gaps else []


def _moved(path: Path, run: Run, every: list[Payment], files: dict[str, ValidationFile],
           keys: dict[str, bytes]) -> list[str]:
    """Payments moved to another run id that are tickets of this run (a shared ledger's payments of other
    games are not)."""
    out = []
    for p in every:
        ours = any(vf.is_known(keys[t], run.run_id, p.barcode) for t, vf in files.items())
        if p.run_id != run.run_id and ours:
            out.append(f"{path}: claim no. {p.claim_no} ({p.barcode}): recorded under run {p.run_id}, but it "
                       f"is a ticket of run {run.run_id}")
    return out


def missing(numbers: list[int], what: str) -> str | None:
    """`WHAT numbers 2 to 3, 6 are missing` for the numbers not in `numbers` from 1 to its largest (the
    numbers SQLite gave rows one after another), or None."""
    gaps, last = list[tuple[int, int]](), 0  # from the numbers present, never one by one up to the largest
    for no in sorted({n for n in numbers if n >= 1}):  # (a number edited to 10**18 is one gap, not a hang)
        if no > last + 1:
            gaps.append((last + 1, no - 1))
        last = no
    if not gaps:
        return None
    shown = ", ".join(str(a) if a == b else f"{a} to {b}" for a, b in gaps[:20])
    more = f" and {len(gaps) - 20:,} more runs" if len(gaps) > 20 else ""
    many = len(gaps) > 1 or gaps[0][0] != gaps[0][1]
    return f"{what} number{'s' if many else ''} {shown}{more} {'are' if many else 'is'} missing"


def _what(cents: int, free: bool, currency: Currency) -> str:
    return f"a free ticket ({fmt_cents(cents, currency)})" if free else fmt_cents(cents, currency)


def payout_pct(cents: int, of: int) -> str:
    """100 x cents / of, to 4 places rounded half up, as the manifest writes percentages."""
    return str(round_half_up(Fraction(cents * 100, of), 4)) if of else "n/a"


def closing(order: Order, levels: list[Level]) -> dict[str, Any]:
    """A printed game's closing report: per level, paid and unclaimed; designed against actual payout,
    every ticket of the order's runs taken as sold (the desk does not see sales)."""
    sales = order.totals("sales_cents")
    designed = sum(lv.total * lv.cents for lv in levels)
    paid = sum(lv.paid * lv.cents for lv in levels)
    returned = sum((lv.returned or 0) * lv.cents for lv in levels)
    stolen = sum((lv.stolen or 0) * lv.cents for lv in levels)
    books = any(lv.returned is not None for lv in levels)  # given a books ledger (section 8)
    return {**order.to_json(), "sales_cents": sales, "sales": fmt_cents(sales, currency_of(order)),
            "designed_prizes_cents": designed, "paid_cents": paid,
            "unclaimed_cents": designed - paid - returned - stolen,
            **({"returned_cents": returned, "stolen_cents": stolen} if books else {}),
            "designed_payout_pct": payout_pct(designed, sales), "actual_payout_pct": payout_pct(paid, sales),
            "levels": [{**lv.to_json(), "unclaimed": lv.remaining, "unclaimed_cents": lv.remaining * lv.cents,
                        **({"returned_cents": (lv.returned or 0) * lv.cents,
                            "stolen_cents": (lv.stolen or 0) * lv.cents} if books else {})}
                       for lv in levels]}
