"""The eInstant sales ledger's schema versions and chains (docs/back-office.md, section 5).

Version 5 is written; versions 4 and 3 are read, never written, and converted (`poolgen sales upgrade`,
upgrade.py). Each version chains more of what an insider with write access could otherwise edit
unseen: version 3 its payments, version 4 its sales and voids too, version 5 its pools' closings and
its conversions too.
"""

from __future__ import annotations

from poolgen.backoffice import owned

SALES_3 = owned.Kind("sales ledger", 3, (
    "CREATE TABLE pools (run_id TEXT NOT NULL, pool TEXT NOT NULL, shares INTEGER NOT NULL, "
    "price_cents INTEGER NOT NULL, next_serial INTEGER NOT NULL, closed_at TEXT, "
    "PRIMARY KEY (run_id, pool)) WITHOUT ROWID",
    "CREATE TABLE sales (run_id TEXT NOT NULL, pool TEXT NOT NULL, serial INTEGER NOT NULL, "
    "sale_no INTEGER NOT NULL UNIQUE, at TEXT NOT NULL, channel TEXT NOT NULL, player TEXT NOT NULL, "
    "voided_at TEXT, void_reason TEXT, claimed_at TEXT, prize_cents INTEGER, "
    "PRIMARY KEY (run_id, pool, serial), FOREIGN KEY (run_id, pool) REFERENCES pools (run_id, pool)) "
    "WITHOUT ROWID",
    # every payment, numbered: a claim cleared by hand from `sales` and paid again shows as a share paid
    # twice, a row removed as a missing payment number (version 1 had no record but the sale's row), the
    # last rows removed against a head recorded before (version 2 had no chain)
    "CREATE TABLE payments (pay_no INTEGER PRIMARY KEY NOT NULL, run_id TEXT NOT NULL, pool TEXT NOT NULL, "
    "serial INTEGER NOT NULL, at TEXT NOT NULL, prize_cents INTEGER NOT NULL CHECK (prize_cents > 0), "
    "chain TEXT NOT NULL, "
    "FOREIGN KEY (run_id, pool, serial) REFERENCES sales (run_id, pool, serial))",
))
# version 4: every sale and every void chained too (chain.py), the void its own row (version 3: a hand
# edit of its sales and voids showed nowhere)
_SCHEMA_4 = (
    SALES_3.schema[0],
    "CREATE TABLE sales (run_id TEXT NOT NULL, pool TEXT NOT NULL, serial INTEGER NOT NULL, "
    "sale_no INTEGER NOT NULL UNIQUE, at TEXT NOT NULL, channel TEXT NOT NULL, player TEXT NOT NULL, "
    "voided_at TEXT, void_reason TEXT, claimed_at TEXT, prize_cents INTEGER, chain TEXT NOT NULL, "
    "PRIMARY KEY (run_id, pool, serial), FOREIGN KEY (run_id, pool) REFERENCES pools (run_id, pool)) "
    "WITHOUT ROWID",
    "CREATE TABLE voids (void_no INTEGER PRIMARY KEY NOT NULL, run_id TEXT NOT NULL, pool TEXT NOT NULL, "
    "serial INTEGER NOT NULL, at TEXT NOT NULL, reason TEXT NOT NULL, chain TEXT NOT NULL, "
    "FOREIGN KEY (run_id, pool, serial) REFERENCES sales (run_id, pool, serial))",
    SALES_3.schema[2],
)
SALES_4 = owned.Kind("sales ledger", 4, _SCHEMA_4)
# a version 4 ledger converted from one of version 3: the conversion's one row, in no chain
CONVERTED_4 = owned.Kind("sales ledger", 4, (*_SCHEMA_4, (
    "CREATE TABLE conversions (at TEXT NOT NULL, from_version INTEGER NOT NULL, from_sha256 TEXT NOT NULL, "
    "last_sale_no INTEGER NOT NULL, last_void_no INTEGER NOT NULL, last_pay_no INTEGER NOT NULL)")))
# version 5: a pool's closing its own chained row (version 4: `pools.closed_at` moved by hand after the
# fact showed nowhere), and every conversion a chained row (version 4: its record removed by hand showed
# nowhere); `pools.closed_at` is a copy of the closing row, as a sale's `voided_at` is of its void row
SALES = owned.Kind("sales ledger", 5, (
    *_SCHEMA_4,
    "CREATE TABLE closings (close_no INTEGER PRIMARY KEY NOT NULL, run_id TEXT NOT NULL, "
    "pool TEXT NOT NULL, at TEXT NOT NULL, chain TEXT NOT NULL, "
    "FOREIGN KEY (run_id, pool) REFERENCES pools (run_id, pool))",
    "CREATE TABLE conversions (conv_no INTEGER PRIMARY KEY NOT NULL, at TEXT NOT NULL, "
    "from_version INTEGER NOT NULL, from_sha256 TEXT NOT NULL, last_sale_no INTEGER NOT NULL, "
    "last_void_no INTEGER NOT NULL, last_close_no INTEGER NOT NULL, last_pay_no INTEGER NOT NULL, "
    "chain TEXT NOT NULL)",
), older=(SALES_4, CONVERTED_4, SALES_3))
# the fields each row's chain covers, in order (section 5), and the column that numbers the rows
CHAINED = {"sales": ("sale_no", "sale_no, run_id, pool, serial, at, channel, player"),
           "voids": ("void_no", "void_no, run_id, pool, serial, at, reason"),
           "closings": ("close_no", "close_no, run_id, pool, at"),
           "payments": ("pay_no", "pay_no, run_id, pool, serial, at, prize_cents"),
           "conversions": ("conv_no", "conv_no, at, from_version, from_sha256, last_sale_no, last_void_no, "
                                      "last_close_no, last_pay_no")}
# the chains each version holds
CHAINS_OF = {3: ("payments",), 4: ("sales", "voids", "payments"), 5: tuple(CHAINED)}
# what the chains a version lacks leave unseen, in its refusal to be written
UNCHAINED = {3: "sales, voids and closings", 4: "closings and conversions"}
