"""The back office's speed: claims per second at the validation desk and sales per second on the
eInstant sales ledger, single and concurrent (docs/back-office.md, section 7).

    python bench/desk.py                      # a small Happy Holidays order, a 2,000-share eInstant
    python bench/desk.py --run RUN --keys DIR --public-key P   # a signed run you have (DIR holds low.key
                                              # and high.key; P its public key)
    python bench/desk.py --run RUN --keys DIR --public-key P --month 30
                                              # then a simulated month of claims and the
                                              # prizes-remaining report it leaves

Claims: the desk's index is built once (timed apart), then each claim is one Desk.claim (index lookups and,
with a ledger, one SQLite transaction; with a books ledger, its book's moves checked); concurrent: P
processes, each its own Desk, one shared ledger.
Sales: SalesLedger.sell, one transaction each; concurrent: P processes on one ledger. Machines are noisy;
nothing here is asserted.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import re
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from poolgen.backoffice.books import BooksLedger, run_books  # noqa: E402
from poolgen.backoffice.desk import Desk  # noqa: E402
from poolgen.backoffice.reports import load_payments, printed_levels  # noqa: E402
from poolgen.backoffice.sales import SalesLedger  # noqa: E402
from poolgen.backoffice.tickets import Ticket  # noqa: E402
from poolgen.backoffice.vouched import open_signed, open_vouched  # noqa: E402
from poolgen.deliverables.validation import new_validation_key, read_validation_key  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate  # noqa: E402
from poolgen.run.signing import Signer, new_key_pair  # noqa: E402

SEED = bytes(range(32))
NOW = datetime(2026, 12, 1, tzinfo=UTC)


def small_runs(tmp: Path) -> tuple[Path, Path, Path, Path]:
    """A small Happy Holidays order with validation files ($20 and up high-tier) and a 2,000-share eInstant
    pool, both signed with a throwaway key (the desk and the sales ledger pay only from a signed run):
    (printed run, keys folder, eInstant run, public key)."""
    pair = new_key_pair(tmp / "signing", None)
    signer = Signer.from_file(pair.private)
    for tier in ("low", "high"):
        new_validation_key(tmp / f"{tier}.key")
    keys = (read_validation_key(tmp / "low.key"), read_validation_key(tmp / "high.key"))
    text = (ROOT / "specs/happy_holidays.toml").read_text()
    text = text.replace("order_tickets = 1800000", "order_tickets = 18000")
    text = text.replace("pool_tickets = 300000", "pool_tickets = 3000").replace('counts_per = "order"',
                                                                                'counts_per = "pool"')
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {int(m.group(1)) // 600}", text, flags=re.M)
    (tmp / "hh.toml").write_text(text)
    printed = generate(GenerateRequest(load_spec(tmp / "hh.toml"), SEED, now=NOW, out=tmp / "runs",
                                       run_id="hh", validation_keys=keys, high_tier_cents=2000,
                                       signature=signer.manifest_entry()), finish=signer.sign_run).folder
    text = (ROOT / "specs/hand_to_hand_tactics.toml").read_text()
    text = text.replace("pool_shares = 1000000", "pool_shares = 2000")
    text = text.replace("order_shares = 6000000", "order_shares = 12000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 500)}", text, flags=re.M)
    (tmp / "eh.toml").write_text(text)
    einstant = generate(GenerateRequest(load_spec(tmp / "eh.toml"), SEED, now=NOW, out=tmp / "runs",
                                        run_id="eh", pool_ids=["d1.00"], signature=signer.manifest_entry()),
                        finish=signer.sign_run).folder
    return printed, tmp, einstant, pair.public


def tickets(run: Path) -> pl.DataFrame:
    frames = []
    for im in sorted(run.glob("imaging-*.parquet")):
        pool = run / im.name.replace("imaging-", "pool-")
        frames.append(pl.concat([pl.read_parquet(im, columns=["barcode", "virn"]),
                                 pl.read_parquet(pool, columns=["tier", "prize_cents"])], how="horizontal"))
    return pl.concat(frames)


def open_desk(run: Path, public: Path, keys: Path, index: Path, ledger: Path | None,
              desk: str = "bench", books: Path | None = None) -> Desk:
    vouched = open_signed(run, public, "bench/desk.py")
    k = {t: read_validation_key(keys / f"{t}.key") for t in ("low", "high")}
    return Desk(vouched, k, index_dir=index, ledger=ledger, desk=desk, books=books)


def activated_books(run: Path, public: Path, path: Path) -> Path:
    """A books ledger in which every book of the run was activated, then settled (two moves a book)."""
    vouched = open_signed(run, public, "bench/desk.py")
    names = sorted(run_books(vouched))
    ledger = BooksLedger(path)
    try:
        t0 = time.perf_counter()
        ledger.move(vouched, "activate", names, "bench", "")
        ledger.move(vouched, "settle", names, "bench", "")
        print(f"books ledger: {len(names):,} books activated and settled ({2 * len(names):,} moves, two "
              f"transactions) in {time.perf_counter() - t0:.2f} s")
    finally:
        ledger.close()
    return path


def _claimer(args: tuple[str, str, str, str, str, list[tuple[str, str]]]) -> int:
    run, public, keys, index, ledger, claims = args
    desk = open_desk(Path(run), Path(public), Path(keys), Path(index), Path(ledger),
                     desk=f"p{mp.current_process().pid}")
    try:
        return sum(desk.claim(Ticket(b), v).pays for b, v in claims)
    finally:
        desk.close()


def _seller(args: tuple[str, str, str, str, int]) -> list[int]:
    run, public, ledger, pool, n = args
    book = SalesLedger(Path(ledger), open_signed(Path(run), Path(public), "bench/desk.py"))
    try:
        return [book.sell(pool, "bench", "p").serial for _ in range(n)]
    finally:
        book.close()


def bench_claims(run: Path, public: Path, keys: Path, tmp: Path, n: int, procs: int) -> None:
    rows = tickets(run)
    index = tmp / "index"
    t0 = time.perf_counter()
    open_desk(run, public, keys, index, None).close()
    print(f"desk index built for {rows.height:,} tickets (both tiers): {time.perf_counter() - t0:.2f} s")
    winners = rows.filter(pl.col("prize_cents") > 0)
    pick = winners.head(n)
    claims = list(zip(pick["barcode"].to_list(), pick["virn"].to_list(), strict=True))
    desk = open_desk(run, public, keys, index, None)
    t0 = time.perf_counter()
    for b, v in claims:
        desk.claim(Ticket(b), v)
    dt = time.perf_counter() - t0
    desk.close()
    print(f"claims answered, no ledger, 1 process: {len(claims):,} in {dt:.2f} s = {len(claims) / dt:,.0f}/s")
    books = activated_books(run, public, tmp / "books.sqlite")
    t0 = time.perf_counter()
    desk = open_desk(run, public, keys, index, None, books=books)
    opened = time.perf_counter() - t0
    t0 = time.perf_counter()
    for b, v in claims:
        desk.claim(Ticket(b), v)
    dt = time.perf_counter() - t0
    desk.close()
    print(f"claims answered, a books ledger (every book activated, then settled), no claims ledger, 1 "
          f"process: {len(claims):,} in {dt:.2f} s = {len(claims) / dt:,.0f}/s (the desk opened in "
          f"{opened * 1000:.0f} ms)")
    desk = open_desk(run, public, keys, index, tmp / "claims-1.sqlite")
    t0 = time.perf_counter()
    paid = sum(desk.claim(Ticket(b), v).pays for b, v in claims)
    dt = time.perf_counter() - t0
    desk.close()
    print(f"claims paid into a ledger, 1 process: {paid:,} in {dt:.2f} s = {paid / dt:,.0f}/s")
    chunks = [claims[i::procs] for i in range(procs)]
    ctx = mp.get_context("spawn")
    with ctx.Pool(procs) as pool:
        pool.map(_noop, range(procs))  # workers started and imported before the clock
        t0 = time.perf_counter()
        paid = sum(pool.map(_claimer, [(str(run), str(public), str(keys), str(index),
                                        str(tmp / "claims-p.sqlite"), c) for c in chunks]))
        dt = time.perf_counter() - t0
    print(f"claims paid into one ledger, {procs} processes: {paid:,} in {dt:.2f} s = {paid / dt:,.0f}/s "
          "(each process opens its desk inside the timing)")


def _noop(_: int) -> None:
    return None


def bench_sales(run: Path, public: Path, tmp: Path, n: int, procs: int) -> None:
    pool = open_vouched(run).folder.parsed.pools[0]
    n = min(n, pool.tickets // 2)
    book = SalesLedger(tmp / "sales-1.sqlite", open_signed(run, public, "bench/desk.py"))
    t0 = time.perf_counter()
    for _ in range(n):
        book.sell(pool.id, "bench", "p")
    dt = time.perf_counter() - t0
    book.close()
    print(f"shares sold, 1 process: {n:,} in {dt:.2f} s = {n / dt:,.0f}/s")
    ctx = mp.get_context("spawn")
    with ctx.Pool(procs) as workers:
        workers.map(_noop, range(procs))
        t0 = time.perf_counter()
        got = workers.map(_seller, [(str(run), str(public), str(tmp / "sales-p.sqlite"), pool.id,
                                     n // procs)] * procs)
        dt = time.perf_counter() - t0
    total = sum(len(g) for g in got)
    assert sorted(x for g in got for x in g) == list(range(1, total + 1))
    print(f"shares sold into one ledger, {procs} processes: {total:,} in {dt:.2f} s = {total / dt:,.0f}/s")


def month(run: Path, public: Path, keys: Path, tmp: Path, days: int, sold: float, claimed: float) -> None:
    """`days` of claims: a fraction `sold` of the tickets (a simulation, so numpy's generator, not the
    project's DRBG, picks which) and of their winners a fraction `claimed`, spread over the days; then the
    prizes-remaining report."""
    rng = np.random.default_rng(2026)
    rows = tickets(run).with_row_index("i")
    chosen = rows.filter((pl.col("prize_cents") > 0) & pl.Series(rng.random(rows.height) < sold * claimed))
    chosen = chosen.with_columns(pl.Series("day", rng.integers(0, days, chosen.height))).sort("day")
    ledger = tmp / "month.sqlite"
    desk = open_desk(run, public, keys, tmp / "index", ledger, desk="centre")
    t0 = time.perf_counter()
    for b, v, day in zip(chosen["barcode"], chosen["virn"], chosen["day"], strict=True):
        desk.claim(Ticket(b), v, now=NOW + timedelta(days=int(day), hours=9))
    desk.close()
    print(f"a simulated month: {chosen.height:,} claims over {days} days in {time.perf_counter() - t0:.1f} s")
    vouched = open_vouched(run)
    levels = printed_levels(vouched, [p for _, p in load_payments(vouched, [ledger])])
    game = vouched.folder.manifest["game"]
    print(f"\n{game['name']} ({game['number']}): prizes remaining after {days} days (run {vouched.run_id})")
    print(f"{'Prize':<22}{'Total prizes':>14}{'Claimed':>10}{'Remaining':>12}")
    for lv in levels:
        print(f"{lv.label:<22}{lv.total:>14,}{lv.paid:>10,}{lv.remaining:>12,}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", type=Path, help="a printed run with validation files (default: a small one)")
    ap.add_argument("--keys", type=Path, help="the folder holding low.key and high.key of --run")
    ap.add_argument("--einstant", type=Path, help="an eInstant run (default: a small one)")
    ap.add_argument("--public-key", type=Path, help="the public key of --run and --einstant (both signed)")
    ap.add_argument("--claims", type=int, default=2000)
    ap.add_argument("--sales", type=int, default=1000)
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--month", type=int, default=0, help="then simulate this many days of claims")
    ap.add_argument("--sold", type=float, default=0.4, help="the month: share of tickets sold")
    ap.add_argument("--claimed", type=float, default=0.6, help="the month: share of sold winners claimed")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        small = small_runs(tmp) if not (a.run and a.einstant) else None
        if (a.run or a.einstant) and a.public_key is None:
            ap.error("--run and --einstant are signed runs: give --public-key")
        run, keys, public = (a.run, a.keys, a.public_key) if small is None or a.run else \
            (small[0], small[1], small[3])
        einstant, sold_by = (a.einstant, a.public_key) if small is None or a.einstant else \
            (small[2], small[3])
        bench_claims(run, public, keys, tmp, a.claims, a.procs)
        bench_sales(einstant, sold_by, tmp, a.sales, a.procs)
        if a.month:
            month(run, public, keys, tmp, a.month, a.sold, a.claimed)


if __name__ == "__main__":
    main()
