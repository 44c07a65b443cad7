"""The validation desk (docs/back-office.md, section 3): a claim (a ticket by its barcode number or
printed id, and its validation number) answered from the run's vouched validation files through their
indexes, and, with a claims ledger, paid at most once and every attempt recorded.

Answers (`Answer.outcome`): "prize" (pays; a free ticket says so), "claim elsewhere" (a prize of the
tier this desk has no key for: where to claim it, never its amount), "not a winner", "wrong validation
number", "unknown ticket", "not a barcode number" (its check digits fail), "already paid" (when and
where). Only "prize" pays (exit 0); the others exit 1. Given a books ledger (section 8), a ticket whose
book is not activated or settled is refused before its validation number is looked up: "book not
activated", "book returned", "book stolen".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from poolgen.backoffice.books import PRINTED, BooksLedger, book_of_barcode, open_for_desk
from poolgen.backoffice.claims import Attempt, ClaimsLedger
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.index import Index, open_index
from poolgen.backoffice.tickets import Ticket, default_clerk, default_desk
from poolgen.backoffice.vouched import SignedRun, signed
from poolgen.deliverables.validation import CENTS, FREE, OTHER_TIER
from poolgen.money import CURRENCIES, USD, Currency, fmt_cents

WHERE = {"high": "a high-tier prize: claim at the claim centre",
         "low": "a low-tier prize: claim at a retailer or the low-tier desk"}
# a book's state that refuses its tickets -> (the outcome, what the clerk is told after "book B ")
OUT_OF_PLAY = {PRINTED: ("book not activated", "is not activated: not sold by a retailer; not paid"),
               "returned": ("book returned", "was returned unsold: its tickets are not claimable; not paid"),
               "stolen": ("book stolen", "was reported stolen: keep the ticket and refer the claim to "
                                         "security; not paid")}


@dataclass(frozen=True)
class Answer:
    """A claim's answer; `text` is the one line a clerk reads."""

    ticket: str  # the printed ticket id
    barcode: str
    outcome: str
    text: str
    prize_cents: int | None = None  # only where this desk may know it
    free_ticket: bool = False
    tier: str | None = None
    claim_no: int | None = None
    first: dict[str, Any] | None = field(default=None)  # an "already paid" claim's first payment
    head: str | None = None  # with a ledger: its head after this claim was recorded (section 4)
    book: str | None = None  # the ticket's book GGG-BBBBBBB (with check digits that hold)
    book_state: str | None = None  # its state in the books ledger; None without one (section 8)
    currency: str = "USD"  # the game's (the manifest's `game.currency`): `prize` is written in it

    @property
    def pays(self) -> bool:
        return self.outcome == "prize"

    def to_json(self) -> dict[str, Any]:
        cur = CURRENCIES[self.currency]
        return {**{k: v for k, v in asdict(self).items() if k != "currency"}, "pays": self.pays,
                "prize": None if self.prize_cents is None else fmt_cents(self.prize_cents, cur)}


def prize_text(cents: int, free: bool, currency: Currency = USD) -> str:
    return f"a free ticket (worth {fmt_cents(cents, currency)}): hand over a new ticket, not cash" if free \
        else f"prize {fmt_cents(cents, currency)}"


class Desk:
    """A desk with the keys it holds (tier -> key) and, optionally, a claims ledger and a books ledger
    (without one, a ticket's book is not checked: docs/back-office.md, section 8)."""

    def __init__(self, run: SignedRun, keys: dict[str, bytes], *, index_dir: Path | None = None,
                 ledger: Path | None = None, desk: str | None = None, clerk: str | None = None,
                 books: Path | None = None) -> None:
        run = signed(run, "the desk answers and pays")  # a script's Run of an unverified manifest: refused
        if run.kind != "printed":
            raise BackOfficeError(f"{run.path}: an eInstant run has no validation files; its claims are "
                                  "answered by the sales ledger (`poolgen sales claim`)")
        if not keys:
            raise BackOfficeError("give --validation-key and/or --high-validation-key")
        self.run = run
        self.desk = default_desk() if desk is None else desk  # never "desk desk, clerk clerk"
        self.clerk = default_clerk() if clerk is None else clerk
        self.indexes: dict[str, Index] = {t: open_index(run, t, k, index_dir)
                                          for t, k in sorted(keys.items())}
        self.cleared = [line for ix in self.indexes.values() for line in ix.cleared]
        self.books: BooksLedger | None = None
        self.ledger: ClaimsLedger | None = None
        try:  # a books ledger that fails its checks: the indexes opened are closed again
            self.books = open_for_desk(books) if books is not None else None
            self.ledger = ClaimsLedger(ledger) if ledger is not None else None
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        for ix in self.indexes.values():
            ix.close()
        if self.books is not None:
            self.books.close()
        if self.ledger is not None:
            self.ledger.close()

    def claim(self, ticket: Ticket, virn: str, now: datetime | None = None) -> Answer:
        at = (now or datetime.now(UTC)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        attempt = Attempt(self.run.run_id, ticket.barcode, at, self.desk, self.clerk)
        answer = self._answer(ticket, virn)
        if self.ledger is None:
            return answer
        if answer.outcome != "prize":
            no = self.ledger.refuse(attempt, answer.outcome, answer.text)
            return Answer(**{**asdict(answer), "claim_no": no, "head": self.ledger.head,
                             "text": f"{answer.text} (claim no. {no}, recorded)"})
        assert answer.prize_cents is not None and answer.tier is not None  # a prize has both
        new, pay, no = self.ledger.pay(attempt, virn, answer.tier, answer.prize_cents, answer.free_ticket)
        if new:
            return Answer(**{**asdict(answer), "claim_no": pay.claim_no, "head": self.ledger.head,
                             "text": f"{answer.text} - paid, claim no. {pay.claim_no} in the ledger"})
        first = {"claim_no": pay.claim_no, "at": pay.at, "desk": pay.desk, "clerk": pay.clerk,
                 "run_id": pay.run_id}
        run = f", under run {pay.run_id}" if pay.run_id != self.run.run_id else ""  # another run of its order
        return Answer(ticket.ticket_id, ticket.barcode, "already paid",
                      f"{ticket.barcode} ({ticket.ticket_id}): already paid: claim no. {pay.claim_no} at "
                      f"{pay.at}, desk {pay.desk}, clerk {pay.clerk}{run}; refusing a second claim "
                      f"(claim no. {no}, recorded)", prize_cents=answer.prize_cents,
                      free_ticket=answer.free_ticket, tier=answer.tier, claim_no=no, first=first,
                      head=self.ledger.head, book=answer.book, book_state=answer.book_state,
                      currency=answer.currency)

    def _answer(self, ticket: Ticket, virn: str) -> Answer:
        b, tid = ticket.barcode, ticket.ticket_id
        name = f"{b} ({tid})"

        def say(outcome: str, text: str, **more: Any) -> Answer:
            return Answer(tid, b, outcome, f"{name}: {text}", **more,
                          currency=self.run.folder.currency.code)

        if not ticket.check_digits_hold:
            return say("not a barcode number", "not a barcode number (its check digits fail)")
        if not all(ix.is_known(b) for ix in self.indexes.values()):
            return say("unknown ticket", f"unknown ticket (not in run {self.run.run_id})")
        book = book_of_barcode(b)
        state = self.books.checked_state(book) if self.books is not None else None
        if state is not None and state in OUT_OF_PLAY:  # before the VIRN: a refused ticket learns nothing
            outcome, why = OUT_OF_PLAY[state]
            return say(outcome, f"book {book} {why}", book=book, book_state=state)
        known = {"book": book, "book_state": state}
        values = {}
        for tier, ix in self.indexes.items():
            value = ix.lookup(b, virn)
            if value is None:
                return say("wrong validation number", "wrong validation number", **known)
            values[tier] = value
        mine = {t: v for t, v in values.items() if v not in (0, OTHER_TIER)}
        if len(mine) > 1 or (mine and any(v == 0 for v in values.values())):
            raise BackOfficeError(f"{self.run.path}: the validation files disagree on {b}; refusing to pay")
        if mine:
            tier, value = next(iter(mine.items()))
            cents, free = value & CENTS, bool(value & FREE)
            shown = prize_text(cents, free, self.run.folder.currency)
            return say("prize", f"{shown} ({tier} tier)", prize_cents=cents, free_ticket=free, tier=tier,
                       **known)
        if all(v == OTHER_TIER for v in values.values()):
            if len(values) > 1:
                raise BackOfficeError(f"{self.run.path}: the validation files disagree on {b}; refusing")
            other = "high" if "low" in values else "low"
            return say("claim elsewhere", f"{WHERE[other]} (this desk holds only the "
                                          f"{next(iter(values))}-tier key)", tier=other, **known)
        if any(v == OTHER_TIER for v in values.values()):
            raise BackOfficeError(f"{self.run.path}: the validation files disagree on {b}; refusing")
        return say("not a winner", "not a winner", **known)
