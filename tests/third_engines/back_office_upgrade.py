"""The third back office's reading of `sales upgrade` (docs/back-office.md section 5, 'Converting a
ledger of version 3 or 4', alone): from a version 3 sales ledger's bytes, the rows a version 5 ledger
converted from it must hold, chains included, so NEW's rows are checked against OLD, not only against
their own chains."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.third_engines.back_office import ZERO, link, open_ro


def _chained(rows: list[tuple]) -> list[tuple]:
    """Each row (number, fields...) with its chain appended, linked in order from h_0."""
    out, h = [], ZERO
    for row in rows:
        h = link(h, row)
        out.append((*row, h))
    return out


def from_version_3(old: Path, at: str) -> dict[str, list[tuple]]:
    """table -> the rows NEW holds, in number order: the sales chained by the sales rule in sale_no order;
    one void per voided sale (numbered in the order of voided_at, then sale_no; at its voided_at, reason
    its void_reason); one closing per pool closed (in the order of closed_at, run_id, pool; at its
    closed_at); the payments as they were; the conversion's row (`at` the conversion's time, from
    version 3, OLD's SHA-256, the largest numbers in NEW's tables)."""
    with open_ro(old) as db:
        sales = list(db.execute("SELECT sale_no, run_id, pool, serial, at, channel, player FROM sales "
                                "ORDER BY sale_no"))
        voided = list(db.execute("SELECT run_id, pool, serial, voided_at, void_reason FROM sales "
                                 "WHERE voided_at IS NOT NULL ORDER BY voided_at, sale_no"))
        closed = list(db.execute("SELECT run_id, pool, closed_at FROM pools WHERE closed_at IS NOT NULL "
                                 "ORDER BY closed_at, run_id, pool"))
        payments = list(db.execute(f"SELECT {SELECTS['payments']}"))
    voids = _chained([(n, *row) for n, row in enumerate(voided, start=1)])
    closings = _chained([(n, *row) for n, row in enumerate(closed, start=1)])
    last = [max((r[0] for r in rows), default=0) for rows in (sales, voids, closings, payments)]
    conversion = (1, at, 3, hashlib.sha256(old.read_bytes()).hexdigest(), *last)
    return {"sales": _chained(sales), "voids": voids, "closings": closings, "payments": payments,
            "conversions": _chained([conversion])}


SELECTS = {
    "sales": "sale_no, run_id, pool, serial, at, channel, player, chain FROM sales ORDER BY sale_no",
    "voids": "void_no, run_id, pool, serial, at, reason, chain FROM voids ORDER BY void_no",
    "closings": "close_no, run_id, pool, at, chain FROM closings ORDER BY close_no",
    "payments": "pay_no, run_id, pool, serial, at, prize_cents, chain FROM payments ORDER BY pay_no",
    "conversions": "conv_no, at, from_version, from_sha256, last_sale_no, last_void_no, last_close_no, "
                   "last_pay_no, chain FROM conversions ORDER BY conv_no",
}


def held(new: Path) -> dict[str, list[tuple]]:
    """The same tables as NEW holds them."""
    with open_ro(new) as db:
        return {table: list(db.execute(f"SELECT {columns}")) for table, columns in SELECTS.items()}
