"""The third back office's eInstant half (see back_office.py), from docs/back-office.md sections 5 and 6
and docs/pool-files.md alone: prizes remaining and the closing report of an eInstant order, and the
sales ledger's five chains' heads, from the run's manifest and pool files and the sales ledger (schema
version 5) read with sqlite3."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl

from tests.third_engines.back_office import chain_head, manifest, missing, money, open_ro, percent

# chain -> its rows: the number, the fields in order, the stored chain, docs/back-office.md section 5's table
CHAINS = {
    "sales": "SELECT sale_no, run_id, pool, serial, at, channel, player, chain FROM sales ORDER BY sale_no",
    "voids": "SELECT void_no, run_id, pool, serial, at, reason, chain FROM voids ORDER BY void_no",
    "closings": "SELECT close_no, run_id, pool, at, chain FROM closings ORDER BY close_no",
    "payments": "SELECT pay_no, run_id, pool, serial, at, prize_cents, chain FROM payments ORDER BY pay_no",
    "conversions": "SELECT conv_no, at, from_version, from_sha256, last_sale_no, last_void_no, "
                   "last_close_no, last_pay_no, chain FROM conversions ORDER BY conv_no",
}


def heads(ledger: Path) -> dict[str, str]:
    """Each chain's head N:HEX recomputed from its rows."""
    with open_ro(ledger) as db:
        return {name: chain_head(list(db.execute(sql)))[0] for name, sql in CHAINS.items()}


def _shares(runs: list[Path], ledger: Path) -> list[dict]:
    """Every pool of the order, in the manifests' order: its id, price, tiers' prizes and counts, each
    share's prize (the pool file's row at serial - 1), and the ledger's sales, voids and payments of it."""
    pools = []
    with open_ro(ledger) as db:
        for run in runs:
            m = manifest(run)
            for pool in m["pools"]:
                prizes = pl.read_parquet(run / pool["file"]["name"], columns=["prize_cents"])["prize_cents"]
                key = (m["run_id"], pool["id"])
                sold = [r[0] for r in db.execute(
                    "SELECT serial FROM sales WHERE run_id = ? AND pool = ?", key)]
                voided = [r[0] for r in db.execute(
                    "SELECT serial FROM voids WHERE run_id = ? AND pool = ?", key)]
                paid = list(db.execute(
                    "SELECT serial, prize_cents FROM payments WHERE run_id = ? AND pool = ?", key))
                levels: Counter[int] = Counter()
                for tier in pool["tiers"]:
                    if tier["prize_cents"]:
                        levels[tier["prize_cents"]] += tier["count"]
                pools.append({"pool": pool["id"], "price": pool["price_cents"], "levels": levels,
                              "sold": Counter(prizes[s - 1] for s in sold),
                              "voided": Counter(prizes[s - 1] for s in voided),
                              "paid": Counter(prizes[s - 1] for s, _ in paid),
                              "paid_cents": sum(c for _, c in paid),
                              "sales_cents": (len(sold) - len(voided)) * pool["price_cents"]})
    return pools


def prizes_remaining(runs: list[Path], ledger: Path) -> dict:
    """`sales report --json`: per pool and prize, the prizes in the pool, in shares sold (voided shares
    included) and remaining in unsold shares; the totals; the sales not voided."""
    rows, sold_n, sold_c = [], 0, 0
    pools = _shares(runs, ledger)
    for p in pools:
        for cents in sorted(p["levels"], reverse=True):
            total, sold = p["levels"][cents], p["sold"][cents]
            rows.append({"pool": p["pool"], "prize": money(cents, runs[0]), "prize_cents": cents,
                         "free_ticket": False, "total": total, "sold": sold, "remaining": total - sold})
            sold_n, sold_c = sold_n + sold, sold_c + sold * cents
    total = sum(r["total"] for r in rows)
    total_cents = sum(r["total"] * r["prize_cents"] for r in rows)
    return {"sales_cents": sum(p["sales_cents"] for p in pools), "levels": rows,
            "totals": {"total": total, "sold": sold_n, "remaining": total - sold_n,
                       "total_cents": total_cents, "sold_cents": sold_c,
                       "remaining_cents": total_cents - sold_c}}


def closing(runs: list[Path], ledger: Path) -> dict:
    """`sales report --closing --json`: per level paid, unclaimed (sold, not voided, not paid), voided and
    never sold, each also in cents, and those amounts in total; the sales not voided; the designed payout
    (the manifests' prize cost over their sales) against the actual (paid over the sales not voided)."""
    pools = _shares(runs, ledger)
    rows = []
    for p in pools:
        for cents in sorted(p["levels"], reverse=True):
            total, sold, paid, voided = (p["levels"][cents], p["sold"][cents], p["paid"][cents],
                                         p["voided"][cents])
            rows.append({"pool": p["pool"], "prize": money(cents, runs[0]), "prize_cents": cents,
                         "free_ticket": False, "total": total, "sold": sold, "remaining": total - sold,
                         "paid": paid,
                         "unclaimed": sold - paid - voided, "unclaimed_cents": (sold - paid - voided) * cents,
                         "voided": voided, "voided_cents": voided * cents, "never_sold": total - sold,
                         "never_sold_cents": (total - sold) * cents})
    sales = sum(p["sales_cents"] for p in pools)
    designed_sales = sum(manifest(run)["totals"]["sales_cents"] for run in runs)
    designed = sum(manifest(run)["totals"]["prize_cost_cents"] for run in runs)
    paid = sum(p["paid_cents"] for p in pools)
    return {"sales_cents": sales, "designed_sales_cents": designed_sales, "designed_prizes_cents": designed,
            "paid_cents": paid, "unclaimed_cents": sum(r["unclaimed_cents"] for r in rows),
            "voided_cents": sum(r["voided_cents"] for r in rows),
            "never_sold_cents": sum(r["never_sold_cents"] for r in rows),
            "designed_payout_pct": percent(designed, designed_sales),
            "actual_payout_pct": percent(paid, sales) if sales else None, "levels": rows}


def reconcile(run: Path, ledger: Path) -> dict:
    """`sales reconcile --json`'s figures: the run's payments and their amount, and the five heads."""
    run_id = manifest(run)["run_id"]
    with open_ro(ledger) as db:
        count, cents = db.execute("SELECT count(*), coalesce(sum(prize_cents), 0) FROM payments "
                                  "WHERE run_id = ?", (run_id,)).fetchone()
    five = heads(ledger)
    return {"payments_checked": count, "paid_cents": cents, "paid": money(cents, run),
            "heads": {str(ledger): five.pop("payments")}, "sales_heads": five}


def payment_problems(run: Path, ledger: Path) -> set[str]:
    """`sales reconcile`'s problems of the run's payments, in section 5's words (a share's named by its
    id B alone, the ledger's by L): payment numbers missing; per sale, its claim and its `payments` rows
    (none for a claim, one for none, two or more, one at another time or amount); an amount not the
    share's prize in the pool file; the first payment whose chain breaks."""
    m = manifest(run)
    prizes = {p["id"]: pl.read_parquet(run / p["file"]["name"], columns=["prize_cents"])["prize_cents"]
              for p in m["pools"]}
    with open_ro(ledger) as db:
        numbers = {r[0] for r in db.execute("SELECT pay_no FROM payments")}
        sales = list(db.execute("SELECT pool, serial, claimed_at, prize_cents FROM sales WHERE run_id = ?",
                                (m["run_id"],)))
        paid: dict[tuple[str, int], list[tuple]] = {}
        for no, pool, serial, at, cents in db.execute(
                "SELECT pay_no, pool, serial, at, prize_cents FROM payments WHERE run_id = ? ORDER BY pay_no",
                (m["run_id"],)):
            paid.setdefault((pool, serial), []).append((no, at, cents))
    problems = set()
    gaps = missing(numbers, "payment")
    if gaps:
        problems.add(f"{ledger}: {gaps} (rows removed by hand)")
    for pool, serial, claimed_at, claimed in sales:
        share, rows = f"{pool}-{serial:07d}", paid.get((pool, serial), [])
        if claimed_at is not None and not rows:
            problems.add(f"{share}: claimed, but no payment row records it (removed by hand)")
        elif rows and claimed_at is None:
            problems.add(f"{share}: payment no. {rows[0][0]} is recorded, but its sale shows no claim "
                         "(cleared by hand)")
        elif len(rows) > 1:
            nos = ", ".join(str(r[0]) for r in rows)
            problems.add(f"{share}: paid {len(rows)} times (payment nos. {nos})")
        elif rows and (rows[0][1], rows[0][2]) != (claimed_at, claimed):
            problems.add(f"{share}: its sale records {money(claimed, run)} paid at {claimed_at}, its payment "
                         f"no. {rows[0][0]} {money(rows[0][2], run)} at {rows[0][1]}")
        for _, _, cents in rows:
            if cents != prizes[pool][serial - 1]:
                problems.add(f"{share}: paid {money(cents, run)}, but its prize is "
                             f"{money(prizes[pool][serial - 1], run)}")
    with open_ro(ledger) as db:
        bad = chain_head(list(db.execute(CHAINS["payments"])))[1]
    if bad is not None:
        problems.add(f"{ledger}: payment no. {bad}: its chain is not the one its rows give (a row edited, "
                     "inserted or removed by hand)")
    return problems
