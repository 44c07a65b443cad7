"""Reports from an eInstant sales ledger (docs/back-office.md, sections 5 and 6): per pool (a
denomination the player chooses) and prize, the prizes in the pool, in shares sold and remaining; the
reconciliation of the ledger against the run (the served sequence, every payment its share's prize
in the vouched pool file, the payments' chain); and the closing report, which is drawn only from a
ledger whose payments reconcile (poolgen/backoffice/reports.py has the printed game's). An order made in
several runs has one sales ledger, read under each run id (a SalesLedger per run), and its reports
are the runs' own summed (`order_closing`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.orders import Order, prizes_add_up
from poolgen.backoffice.reports import Level, Reconciliation, missing, payout_pct
from poolgen.backoffice.sales import Sale, SalesLedger, share_id
from poolgen.backoffice.sales_schema import UNCHAINED
from poolgen.backoffice.vouched import Run, checked_pool_file
from poolgen.money import fmt_cents


def einstant_levels(run: Run, sales: SalesLedger) -> list[Level]:
    """Per pool and prize: prizes in the pool (`total`) and prizes in shares sold (`paid`: no longer
    available to players); `remaining` the prizes among shares not yet sold."""
    served = _served(run, sales, sales.sales())[0]
    if served:  # the figures count shares sold from the pools rows: one edited by hand would move them
        raise BackOfficeError(f"{sales.path}: {served[0]}; the ledger does not reconcile, so the figures "
                              "would not add up (`poolgen sales reconcile` names each problem)")
    out = []
    pools = sales.pools()
    for entry in run.folder.parsed.pools:
        sold_shares = pools.get(entry.id, (entry.tickets, 1, None))[1] - 1
        if sold_shares:
            checked_pool_file(run, entry.id)
        prizes = run.folder.read(entry.id, ["prize_cents"])["prize_cents"] if sold_shares else None
        total: Counter[int] = Counter()
        for t in entry.tiers:
            if t.prize_cents > 0:
                total[t.prize_cents] += t.count
        gone: Counter[int] = Counter()
        if prizes is not None:
            sold = prizes.head(sold_shares)
            gone = Counter(sold.filter(sold > 0).to_list())
        out += [Level(c, False, total[c], gone[c], entry.id, "sold", currency=run.folder.currency)
                for c in sorted(total, reverse=True)]
    return out


def _payment_rows(run: Run, sales: SalesLedger, sold: list[Sale]) -> list[str]:
    """Each claimed sale against the payment rows: one each, none for a sale not claimed, numbers with
    no gap (a claim cleared by hand and paid again is a share paid twice)."""
    cur = run.folder.currency

    def differ(x: Sale, r: tuple[Any, ...]) -> str | None:
        return None if (r[4], r[5]) == (x.claimed_at, x.prize_cents) else (
            f"its sale records {fmt_cents(x.prize_cents or 0, cur)} paid at {x.claimed_at}, its payment no. "
            f"{r[0]} {fmt_cents(r[5], cur)} at {r[4]}")

    return _event_rows(run, sales, sold, sales.payments(), ("payment", "paid", "claim", "claimed"),
                       lambda x: x.claimed_at, differ)


def _void_rows(run: Run, sales: SalesLedger, sold: list[Sale]) -> list[str]:
    """Each voided sale against the void rows (version 4): one each, at the same time and for the same
    reason, none for a sale not voided (a void cleared from the sale by hand), none of a share never sold,
    void numbers with no gap (a void removed, its sale's cleared and the chain computed again)."""

    def differ(x: Sale, r: tuple[Any, ...]) -> str | None:
        return None if (r[4], r[5]) == (x.voided_at, r[6]) else (
            f"its sale records a void at {x.voided_at} for {r[6]}, its void no. {r[0]} at {r[4]} for {r[5]}")

    return [] if not sales.chained else _event_rows(run, sales, sold, sales.voids(),
                                                    ("void", "voided", "void", "voided"),
                                                    lambda x: x.voided_at, differ)


def _event_rows(run: Run, sales: SalesLedger, sold: list[Sale], rows: Sequence[tuple[Any, ...]],
                words: tuple[str, str, str, str], marked: Callable[[Sale], str | None],
                differ: Callable[[Sale, tuple[Any, ...]], str | None]) -> list[str]:
    """Each sale of the run against the rows (number, run id, pool, serial, ...) recording an event of it
    (a payment, a void), every run's: their numbers with no gap, one row for each sale `marked` with it
    and none for another, that row as the sale records it (`differ`: what does not match), none of a
    share never sold. `words`: the row ("payment"), done ("paid"), the sale's mark ("claim"), marked
    ("claimed")."""
    row, done, mark, marked_as = words
    gaps = missing([r[0] for r in rows], row)
    out = [f"{sales.path}: {gaps} (rows removed by hand)"] if gaps else []
    by_share: dict[tuple[str, int], list[tuple[Any, ...]]] = {}
    for r in rows:
        if r[1] == run.run_id:
            by_share.setdefault((r[2], r[3]), []).append(r)
    for x in sold:
        mine = by_share.pop((x.pool, x.serial), [])
        wrong = differ(x, mine[0]) if len(mine) == 1 and marked(x) is not None else None
        if len(mine) > 1:
            nos = ", ".join(str(r[0]) for r in mine)
            out.append(f"{x.ticket}: {done} {len(mine)} times ({row} nos. {nos})")
        elif mine and marked(x) is None:
            out.append(f"{x.ticket}: {row} no. {mine[0][0]} is recorded, but its sale shows no {mark} "
                       "(cleared by hand)")
        elif wrong:
            out.append(f"{x.ticket}: {wrong}")
        elif not mine and marked(x) is not None:
            out.append(f"{x.ticket}: {marked_as}, but no {row} row records it (removed by hand)")
    out += [f"{share_id(pool, serial)}: {row} no. {r[0][0]} of a share never sold"
            for (pool, serial), r in sorted(by_share.items())]
    return out


def _closings(run: Run, sales: SalesLedger, out: list[str]) -> dict[str, dict[int, str]]:
    """Each pool's closing rows (version 5), every run's numbered with no gap, against its `pools` row:
    one row for a pool its `pools` row says closed, at the same time, none for another (a closing cleared
    by hand) and none of a pool never registered; problems appended to `out`. The run's pools' closing
    rows by number (a sale later than any of them is after the pool's closing)."""
    rows = sales.closings()
    gaps = missing([r[0] for r in rows], "closing")
    out += [f"{sales.path}: {gaps} (rows removed by hand)"] if gaps else []
    mine: dict[str, dict[int, str]] = {}
    for no, run_id, pool, at in rows:
        if run_id == run.run_id:
            mine.setdefault(pool, {})[no] = at
    pools = sales.pools()
    for pool, got in sorted(mine.items()):
        closed = pools[pool][2] if pool in pools else None
        nos = ", ".join(str(n) for n in got)
        if pool not in pools:
            out.append(f"pool {pool}: closing no. {nos} of a pool the ledger never registered")
        elif len(got) > 1:
            out.append(f"pool {pool}: closed {len(got)} times (closing nos. {nos})")
        elif closed is None:
            out.append(f"pool {pool}: closing no. {nos} is recorded, but its pools row shows no closing "
                       "(cleared by hand)")
        elif closed != got[int(nos)]:
            out.append(f"pool {pool}: its pools row records a closing at {closed}, its closing no. {nos} at "
                       f"{got[int(nos)]}")
    if sales.closings_chained:
        out += [f"pool {pool}: closed at {p[2]}, but no closing row records it (removed by hand)"
                for pool, p in sorted(pools.items()) if p[2] is not None and pool not in mine]
    return mine


def _paid_amounts(run: Run, pool: str, paid: list[Sale]) -> list[str]:
    """The paid sales of `pool` whose amount is not their share's prize in the vouched pool file, or
    whose sale was voided."""
    if not paid:
        return []
    checked_pool_file(run, pool)
    prizes = run.folder.read(pool, ["prize_cents"])["prize_cents"]
    out = []
    cur = run.folder.currency
    for x in paid:
        real = int(prizes[x.serial - 1]) if 1 <= x.serial <= len(prizes) else None
        if x.voided_at is not None:
            out.append(f"{x.ticket}: paid on a voided sale")
        if real != x.prize_cents:
            out.append(f"{x.ticket}: paid {fmt_cents(x.prize_cents or 0, cur)}, but its prize is "
                       f"{'none' if real is None else fmt_cents(real, cur)}")
    return out


def _served(run: Run, sales: SalesLedger, every: list[Sale]) -> tuple[list[str], dict[str, list[Sale]]]:
    """The served sequence's problems, and the run's sales by pool (by serial): each `pools` row a pool of
    the run with the manifest's shares and price, under no other run id; each closing its one row; per
    pool registered or sold, the shares sold exactly serials 1 to `next_serial` - 1 (a pool with no sale
    included: a `next_serial` raised by hand counts shares never sold as sold), sale numbers rising with
    serials, no sale later than the pool's closing."""
    out: list[str] = []
    pools = sales.pools()
    entries = {p.id: p for p in run.folder.parsed.pools}
    for pool, (shares, price) in sorted(sales.prices().items()):
        entry = entries.get(pool)
        if entry is None:
            out.append(f"pool {pool}: not a pool of run {run.run_id}")
        elif (shares, price) != (entry.tickets, entry.price_cents):
            cur = run.folder.currency
            out.append(f"pool {pool}: the ledger records {shares:,} shares at {fmt_cents(price, cur)}; the "
                       f"run's pool has {entry.tickets:,} at {fmt_cents(entry.price_cents, cur)}")
        out += [f"pool {pool}: also sold in this ledger under run {other}, which holds the same shares (each "
                "share sold twice)" for other in sales.also_under(pool)]
    closings = _closings(run, sales, out)
    by_pool: dict[str, list[Sale]] = {}
    for sale in every:
        by_pool.setdefault(sale.pool, []).append(sale)
    for pool in sorted(set(by_pool) | set(pools)):
        sold = sorted(by_pool.get(pool, []), key=lambda x: x.serial)
        by_pool[pool] = sold
        shares, next_serial, closed = pools.get(pool, (0, 1, None))
        if [x.serial for x in sold] != list(range(1, next_serial)):
            out.append(f"pool {pool}: the shares sold are not serials 1 to {next_serial - 1:,} in the pool's "
                       "order")
        numbers = [x.sale_no for x in sold]
        if numbers != sorted(numbers):
            out.append(f"pool {pool}: sale numbers do not rise with serials (a share sold out of serial "
                       "order)")
        for at in sorted({*([closed] if closed else []), *closings.get(pool, {}).values()}):
            if any(x.at > at for x in sold):
                out.append(f"pool {pool}: a sale after the pool was closed at {at}")
    return out, by_pool


def reconcile_sales(run: Run, sales: SalesLedger,
                    heads: dict[str, tuple[int, bytes]] | None = None) -> Reconciliation:
    """An eInstant sales ledger against the run: the served sequence (`_served`), every paid share's
    amount its row's prize in the vouched pool file, on a sale not voided, every void its one void row and
    every claim its one payment row; each chain whole and extending its head recorded before (`heads`:
    "sales", "voids", "closings", "payments", "conversions")."""
    rec = Reconciliation(currency=run.folder.currency)
    every = sales.sales()
    rec.problems, by_pool = _served(run, sales, every)
    for pool, sold in sorted(by_pool.items()):
        paid = [x for x in sold if x.claimed_at is not None]
        rec.checked += len(paid)
        rec.paid_cents += sum(x.prize_cents or 0 for x in paid)
        rec.problems += _paid_amounts(run, pool, paid)
    rec.problems += _void_rows(run, sales, every)
    rec.problems += _payment_rows(run, sales, every)
    now, broken = sales.chains(heads or {})  # the others' heads: sales.heads
    rec.heads[str(sales.path)] = now["payments"]
    rec.problems += broken
    return rec


def unchained_note(sales: SalesLedger) -> str | None:
    """What a reader of a ledger of version 3 or 4 is told: what of it is in no chain; None for version 5."""
    if sales.version not in UNCHAINED:
        return None
    only = "; only its payments are chained" if not sales.chained else ""
    return (f"note: {sales.path}: a sales ledger of version {sales.version}: its {UNCHAINED[sales.version]} "
            f"carry no chain (a hand edit of one is not shown){only}")


def chain_refusal(sales: SalesLedger) -> None:
    """Refuse, in one line naming the ledger and the first row whose chain breaks, a ledger a report would
    be drawn from (sales, voids, payments: a row edited by hand, such as a sale's player or time)."""
    broken = sales.chains({})[1]
    if broken:
        raise BackOfficeError(f"{broken[0]}; the back office reports from no ledger whose chain breaks "
                              "(`poolgen sales reconcile` names each problem)")


def einstant_closing(run: Run, levels: list[Level], sales: SalesLedger) -> dict[str, Any]:
    """An eInstant's closing report: per pool and prize, prizes sold, paid, sold but unclaimed, in voided
    sales (retired, never claimable: not unclaimed) and never sold; the designed payout (every share
    sold) against the actual (paid over sales not voided). Drawn only from a ledger whose payments
    reconcile (each paid share its one payment row, at its share's prize): counted from the sales rows
    alone, a claim cleared by hand was shown unclaimed and left out of the amount paid, and an amount
    edited to one the pool lacks was in the amount paid and in no level's row."""
    every = sales.sales()
    claimed: dict[str, list[Sale]] = {}
    for s in every:
        if s.claimed_at is not None:
            claimed.setdefault(s.pool, []).append(s)
    problems = _void_rows(run, sales, every) + _payment_rows(run, sales, every) + [
        p for pool, paid in sorted(claimed.items()) for p in _paid_amounts(run, pool, paid)]
    if problems:  # one line naming the ledger and the row
        first = problems[0].removeprefix(f"{sales.path}: ")
        raise BackOfficeError(f"{sales.path}: {first}; the ledger does not reconcile, so the figures would "
                              "not add up (`poolgen sales reconcile` names each problem)")
    paid: Counter[tuple[str, int]] = Counter()
    voided: Counter[tuple[str, int]] = Counter()  # prizes in voided sales: never claimable, owed to no one
    prizes: dict[str, Any] = {}  # pool -> its prize_cents column, read once
    for s in every:
        if s.claimed_at is not None and s.prize_cents:
            paid[(s.pool, s.prize_cents)] += 1
        elif s.voided_at is not None:
            if s.pool not in prizes:
                checked_pool_file(run, s.pool)
                prizes[s.pool] = run.folder.read(s.pool, ["prize_cents"])["prize_cents"]
            if not 1 <= s.serial <= len(prizes[s.pool]):  # a row edited by hand: reconcile names it
                raise BackOfficeError(f"{sales.path}: {s.ticket}: a voided sale of serial {s.serial:,}, "
                                      f"which pool {s.pool} does not have; the figures would not add up "
                                      "(`poolgen sales reconcile` names each problem)")
            cents = int(prizes[s.pool][s.serial - 1])
            if cents:
                voided[(s.pool, cents)] += 1
    designed_sales = int(run.folder.manifest["totals"]["sales_cents"])
    sold = sold_cents(sales)
    designed = sum(lv.total * lv.cents for lv in levels)
    paid_cents = sum(n * c for (_, c), n in paid.items())
    rows = []
    for lv in levels:
        n, v = paid[(lv.pool or "", lv.cents)], voided[(lv.pool or "", lv.cents)]
        rows.append({**lv.to_json(), "paid": n, "unclaimed": lv.paid - n - v,
                     "unclaimed_cents": (lv.paid - n - v) * lv.cents, "voided": v,
                     "voided_cents": v * lv.cents,
                     "never_sold": lv.remaining, "never_sold_cents": lv.remaining * lv.cents})
    return {"run_id": run.run_id, "sales_cents": sold, "sales": fmt_cents(sold, run.folder.currency),
            "designed_sales_cents": designed_sales, "designed_prizes_cents": designed,
            "paid_cents": paid_cents, "unclaimed_cents": sum(r["unclaimed_cents"] for r in rows),
            "voided_cents": sum(r["voided_cents"] for r in rows),
            "never_sold_cents": sum(r["never_sold_cents"] for r in rows),
            "designed_payout_pct": payout_pct(designed, designed_sales),
            "actual_payout_pct": payout_pct(paid_cents, sold),
            "levels": rows}


def sold_cents(sales: SalesLedger) -> int:
    """An eInstant's sales: every share sold and not voided, at its pool's price."""
    prices = {p.id: p.price_cents for p in sales.run.folder.parsed.pools}
    return sum(prices[s.pool] for s in sales.sales() if s.voided_at is None)


def sales_left_out(order: Order, sales: SalesLedger) -> str | None:
    """The ledger's sales under run ids not given, as a refusal, or None. A sales ledger holds one order
    (docs/back-office.md, section 6), so each is a share of a run of the order left out (another cut),
    as a printed order's payments under a run not given are (reports.runs_left_out)."""
    out = {run_id: n for run_id, n in sales.sold_under().items() if run_id not in order.run_ids}
    if not out:
        return None
    runs = ", ".join(sorted(out))
    return (f"{sales.path}: {sum(out.values()):,} sale(s) under run(s) {runs}, not given: a sales ledger "
            "holds one order, so the order's tables need every run of it (RUN ... or --run RUN)")


def order_closing(order: Order, parts: list[tuple[SalesLedger, list[Level]]]) -> dict[str, Any]:
    """The closing report of an order's runs from its one sales ledger (`parts`: each run's SalesLedger
    and levels, in the order's order): each run's `einstant_closing` (each refused as it is), its levels
    side by side (pool ids are disjoint) and its amounts summed; both payouts computed again from the
    sums, and refused if the designed prizes are not the manifests' `totals.prize_cost_cents` summed."""
    reports = [einstant_closing(book.run, levels, book) for book, levels in parts]

    def total(key: str) -> int:
        return sum(int(r[key]) for r in reports)

    sold, designed_sales, designed = total("sales_cents"), total("designed_sales_cents"), \
        total("designed_prizes_cents")
    prizes_add_up(designed, order.runs)
    return {**order.to_json(), "sales_cents": sold, "sales": fmt_cents(sold, order.first.folder.currency),
            "designed_sales_cents": designed_sales, "designed_prizes_cents": designed,
            "paid_cents": total("paid_cents"), "unclaimed_cents": total("unclaimed_cents"),
            "voided_cents": total("voided_cents"), "never_sold_cents": total("never_sold_cents"),
            "designed_payout_pct": payout_pct(designed, designed_sales),
            "actual_payout_pct": payout_pct(total("paid_cents"), sold),
            "levels": [lv for r in reports for lv in r["levels"]]}
