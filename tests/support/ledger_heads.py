"""A claims ledger's hash chain as docs/back-office.md (section 4) states it, written from the doc with
hashlib alone (not poolgen's chain.py): what a third party re-implements. And the `ledger L: head N:HEX`
lines a reconciliation prints, split from the rest of its output."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path

# a sales ledger's (version 5) other heads: `ledger L: sales head N:HEX`, split as "L sales"
HEAD_LINE = re.compile(r"ledger (.+?): ((?:sales|voids|closings|conversions) )?head "
                       r"((?:0|[1-9][0-9]*):[0-9a-f]{64})")


def link(previous_hex: str, fields: list[object]) -> str:
    """The next row's chain: SHA-256 of the previous chain's 32 bytes and each field as a 4-byte
    big-endian length and its UTF-8 bytes (integers as decimal digits)."""
    data = bytes.fromhex(previous_hex)
    for f in fields:
        text = str(f).encode("utf-8")
        data += len(text).to_bytes(4, "big") + text
    return hashlib.sha256(data).hexdigest()


def ledger_head(path: Path) -> str:
    """`N:HEX` recomputed from the ledger's rows: every attempt in claim order, a paid one with its
    payment's virn, tier, prize_cents and free."""
    db = sqlite3.connect(path)
    try:
        paid = {r[0]: r[1:] for r in db.execute("SELECT claim_no, virn, tier, prize_cents, free FROM paid")}
        chain, last = "00" * 32, 0
        for row in db.execute("SELECT claim_no, at, run_id, barcode, desk, clerk, outcome, reason FROM "
                              "attempts ORDER BY claim_no"):
            chain, last = link(chain, [*row, *(paid[row[0]] if row[6] == "paid" else ())]), row[0]
    finally:
        db.close()
    return f"{last}:{chain}"


def chained_row(path: Path, row: tuple[object, ...], payment: tuple[object, ...] = ()) -> str:
    """The chain value a tool would store for `row` (an attempt's 8 fields), appended to the ledger."""
    head = ledger_head(path)
    return link(head.split(":")[1], [*row, *payment])


def split_heads(output: str) -> tuple[str, dict[str, str]]:
    """A reconciliation's output without its head lines, and those heads by ledger."""
    heads: dict[str, str] = {}
    rest = []
    for line in output.splitlines(keepends=True):
        m = HEAD_LINE.fullmatch(line.rstrip("\n"))
        if m:
            heads[m.group(1) + (f" {m.group(2).strip()}" if m.group(2) else "")] = m.group(3)
        else:
            rest.append(line)
    return "".join(rest), heads


def payments_head(path: Path) -> str:
    """A sales ledger's payments' head `N:HEX`, recomputed: every payment row in number order, its
    pay_no, run_id, pool, serial, at and prize_cents."""
    db = sqlite3.connect(path)
    try:
        chain, last = "00" * 32, 0
        for row in db.execute("SELECT pay_no, run_id, pool, serial, at, prize_cents FROM payments "
                              "ORDER BY pay_no"):
            chain, last = link(chain, list(row)), row[0]
    finally:
        db.close()
    return f"{last}:{chain}"


# a sales ledger's chains (docs/back-office.md, section 5): table, the column numbering its rows, the fields
SALES_CHAINS = (("sales", "sale_no", "sale_no, run_id, pool, serial, at, channel, player"),
                ("voids", "void_no", "void_no, run_id, pool, serial, at, reason"),
                ("closings", "close_no", "close_no, run_id, pool, at"),
                ("conversions", "conv_no", "conv_no, at, from_version, from_sha256, last_sale_no, "
                                           "last_void_no, last_close_no, last_pay_no"),
                ("payments", "pay_no", "pay_no, run_id, pool, serial, at, prize_cents"))


def sales_heads(path: Path) -> dict[str, str]:
    """A sales ledger's (version 5) heads `N:HEX`, recomputed per chain from docs/back-office.md section 5:
    sales (sale_no, run_id, pool, serial, at, channel, player) in sale order, voids (void_no, run_id,
    pool, serial, at, reason) in void order, closings (close_no, run_id, pool, at), conversions (conv_no,
    at, from_version, from_sha256, last_sale_no, last_void_no, last_close_no, last_pay_no), and the
    payments (payments_head)."""
    db = sqlite3.connect(path)
    out = {}
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, number, cols in (c for c in SALES_CHAINS[:4] if c[0] in tables):  # version 4: 2 of them
            chain, last = "00" * 32, 0
            for row in db.execute(f"SELECT {cols} FROM {table} ORDER BY {number}"):
                chain, last = link(chain, list(row)), row[0]
            out[table] = f"{last}:{chain}"
    finally:
        db.close()
    return {**out, "payments": payments_head(path)}


def rechain_sales(path: Path) -> None:
    """What anyone able to write a sales ledger (version 5) can do, its chains having no key: every sale's,
    void's, closing's, conversion's and payment's chain computed again from the doc and stored, so its own
    chains are whole."""
    db = sqlite3.connect(path)
    try:
        for table, number, cols in SALES_CHAINS:
            chain = "00" * 32
            for row in db.execute(f"SELECT {cols} FROM {table} ORDER BY {number}").fetchall():
                chain = link(chain, list(row))
                db.execute(f"UPDATE {table} SET chain = ? WHERE {number} = ?", (chain, row[0]))
        db.commit()
    finally:
        db.close()


def printed_heads(path: Path) -> dict[str, str]:
    """The heads `sales reconcile` prints for a sales ledger (version 5), as `split_heads` splits them:
    the payments' under the ledger's name, the others under `L sales`, `L voids`, `L closings` and
    `L conversions`, each recomputed from the doc (sales_heads)."""
    heads = sales_heads(path)
    return {str(path): heads.pop("payments"), **{f"{path} {table}": h for table, h in heads.items()}}
