"""Step 8 against an insider (issue 23): biased pools re-signed with a real key, and honest pools.

    python bench/stats_power.py                 # 20 pools per biased case, 1,000 small honest pools
    python bench/stats_power.py --pools 5 --honest 200
    python bench/stats_power.py --pools 0 --honest 200 --small-biased 100   # small pools only
    python bench/stats_power.py --pools 0 --honest 0 --ticket-numbers 20    # full Happy Holidays p1

Each biased pool is a real signed one-pool run (Wild Side p1: 150,000 tickets; Happy Holidays p1:
300,000), rewritten as an insider holding the signing key would (rows swapped, identity columns
recomputed from the new order, the printer's files removed, file hash and Merkle root restated,
the manifest signed again), then verified by `audit.verify.verify_run` with the public key:

  first-20%   all 32 Wild Side prizes of $500+ kept out of the first 20% of print order (each swapped
              with a loser at a uniformly chosen place in the other 80%);
  book-end    the same 32 parked in the last 10% of each book's ticket numbers (54..59 of 0..59);
  spot-3      Happy Holidays, every loser showing its highest amount in play_spot_3 (swapped with the
              spot that held it: the same multiset, so the same prize).

"refused" means verify fails with step 8 the only failed step; the table names the two tests that
refused most often. The insider's choices come from numpy's generator seeded by the case number:
they are the attacker's, not the pool's. Honest: `--honest` small Happy Holidays pools (3,000
tickets, books of 30, tests/audit/stats/test_false_failure_rate.py's variant), each a one-pool run judged by
audit.stats.step (pool and run-level tests), and every full pool generated here before it is biased.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.stats.step import pool_statistics, run_statistics  # noqa: E402
from audit.verify import VerifyRequest, verify_run  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate  # noqa: E402
from poolgen.run.signing import Signer, new_key_pair  # noqa: E402
from tests.audit.stats.test_false_failure_rate import Entry, small_spec  # noqa: E402
from tests.support.book_number_biases import (  # noqa: E402
    top_books_ending_in,
    top_books_numbered_low,
    top_prizes_at_book_ends,
    top_prizes_at_ticket_digit,
)
from tests.support.reseal import reseal_insider_pool  # noqa: E402
from tests.support.stats import judge as judge_table  # noqa: E402
from tests.support.ticket_number_biases import (  # noqa: E402
    level_at_ticket_numbers,
    winners_to_even_ticket_numbers,
)

GAME = {"first-20%": "wild_side", "book-end": "wild_side", "spot-3": "happy_holidays"}


def seed_of(i: int) -> bytes:
    return hashlib.sha256(b"poolgen/bench/stats-power/%d" % i).digest()


def swap(order: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    order[a], order[b] = b, a.copy()


def first_20(t: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    prize = t["prize_cents"].to_numpy()
    cut = t.height // 5
    early = np.flatnonzero(prize[:cut] >= 50_000)
    losers = np.flatnonzero(prize[cut:] == 0) + cut
    order = np.arange(t.height)
    swap(order, early, rng.choice(losers, len(early), replace=False))
    return t[order]


def book_end(t: pl.DataFrame, rng: np.random.Generator, per_book: int = 60) -> pl.DataFrame:
    prize = t["prize_cents"].to_numpy()
    number = np.arange(t.height) % per_book
    top = np.flatnonzero((prize >= 50_000) & (number < per_book * 9 // 10))
    losers = np.flatnonzero((prize == 0) & (number >= per_book * 9 // 10))
    order = np.arange(t.height)
    swap(order, top, rng.choice(losers, len(top), replace=False))
    return t[order]


def spot_3(t: pl.DataFrame, play: dict) -> pl.DataFrame:
    area = next(a for a in play["areas"] if a["id"] == "play")
    cents = np.array([p["cents"] for p in area["prizes"]])
    spots = np.stack([t[f"play_spot_{j}"].to_numpy() for j in range(area["spots"])], axis=1).astype(np.int64)
    value = cents[spots] * 64 + spots  # the highest amount; equal amounts: the higher code
    best = value.argmax(axis=1)
    rows = np.flatnonzero(t["prize_cents"].to_numpy() == 0)
    held = spots[rows, best[rows]]
    spots[rows, best[rows]] = spots[rows, 3]
    spots[rows, 3] = held
    return t.with_columns(*(pl.Series(f"play_spot_{j}", spots[:, j], dtype=t[f"play_spot_{j}"].dtype)
                            for j in range(area["spots"])))


def short(name: str) -> str:
    """A test's name without its method and figures."""
    found = re.match(r"(.*?) \((exact|chi-square|Kruskal|index|logistic|Wald)", name)
    return found.group(1) if found else name


def judge(run: Path, public: Path) -> tuple[bool, bool, list[str]]:
    """(refused by step 8 alone, any other step failed, the failing tests' names)."""
    report = verify_run(VerifyRequest(run=run, public_key=public))
    failed = [s.step for s in report.steps if s.status == "fail"]
    stats = next(s for s in report.steps if s.title == "statistics")
    names = [short(reason.split(": ", 1)[1]) for reason in stats.reasons]
    others = [s for s in failed if s != stats.step]
    return stats.status == "fail" and not others, bool(others), names


def full_cases(n: int, tmp: Path) -> None:
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    tally: dict[str, list] = {case: [0, Counter(), 0] for case in GAME}
    honest = [0, 0]
    for game in ("wild_side", "happy_holidays"):
        spec = load_spec(ROOT / "specs" / f"{game}.toml")
        for i in range(n):
            seed = seed_of(i)
            run = generate(GenerateRequest(spec, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp / "runs",
                                           run_id=f"{game}-{i}", pool_ids=["p1"],
                                           signature=signer.manifest_entry()), finish=signer.sign_run).folder
            ok, other, _ = judge(run, keys.public)
            honest[0] += 1
            honest[1] += ok or other
            play = spec.play.document()
            for case in (c for c, g in GAME.items() if g == game):
                biased = tmp / f"{case}-{i}"
                shutil.copytree(run, biased)
                rng = np.random.default_rng(i)  # the insider's choices
                change = {"first-20%": lambda t, rng=rng: first_20(t, rng),
                          "book-end": lambda t, rng=rng: book_end(t, rng),
                          "spot-3": lambda t, play=play: spot_3(t, play)}[case]
                reseal_insider_pool(biased, spec, "p1", seed, signer, change)
                refused, other, names = judge(biased, keys.public)
                tally[case][0] += refused
                tally[case][2] += other
                tally[case][1].update(names)
                shutil.rmtree(biased)
            shutil.rmtree(run)
            print(f"  {game} {i + 1}/{n}", file=sys.stderr, flush=True)
    print("| case | refused by step 8 | other steps failed | tests that refused most often |")
    print("|---|---|---|---|")
    for case, (refused, names, other) in tally.items():
        common = names.most_common(2)
        top = "; ".join(f"{name} ({k}/{n})" for name, k in common) or "-"
        print(f"| {case} | {refused}/{n} | {other} | {top} |")
    print(f"| honest full pools (before biasing) | {honest[1]}/{honest[0]} | | |")


def honest_small(n: int, tmp: Path) -> None:
    spec = small_spec(tmp)
    pool, play = spec.pools[0], spec.play.document()
    refused = Counter()
    failed_runs = 0
    for i in range(n):
        seed = hashlib.sha256(b"poolgen/bench/stats-honest/%d" % i).digest()
        table = build_pool(spec, pool, seed)
        s = pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind,
                            per_book=spec.tickets_per_book, pools=1, play=play)
        r = run_statistics([s.top] if s.top else [], 1)
        failed_runs += bool(s.failed or r.failed)
        refused.update(short(j.finding.name) for j in s.failed + r.failed)
    print(f"| honest small Happy Holidays pools (3,000 tickets) | {failed_runs}/{n} = "
          f"{100 * failed_runs / n:.2f}% | | {dict(refused)} |")


def biased_small(n: int, tmp: Path) -> None:
    """Small Happy Holidays pools whose books are renumbered as an insider would
    (tests/support/book_number_biases.py): the tickets in honest print order, the books holding the $20
    and $100 prizes given the pool's lowest numbers, or numbers ending in 7; or those prizes moved to
    ticket numbers 7, 17, 27 of their books, or to their first or last ticket. Refused by step 8's
    pool and run-level tests (audit.stats.step, as `honest_small`)."""
    spec = small_spec(tmp)
    pool, play = spec.pools[0], spec.play.document()
    cases = {"top books numbered lowest": lambda t: top_books_numbered_low(t, spec.tickets_per_book, 2000),
             "top books ending in 7": lambda t: top_books_ending_in(t, spec.tickets_per_book, 2000, 7),
             "top prizes at ticket numbers 7, 17, 27": lambda t: top_prizes_at_ticket_digit(
                 t, spec.tickets_per_book, 2000, 7),
             "top prizes at a book's first or last ticket": lambda t: top_prizes_at_book_ends(
                 t, spec.tickets_per_book, 2000),
             "$2 kept to ticket numbers 1, 4, ..., 28": lambda t: level_at_ticket_numbers(
                 t, spec.tickets_per_book, 200, 3, 1, np.random.default_rng(len(t))),
             "winners to even ticket numbers (one pair in five)": lambda t: winners_to_even_ticket_numbers(
                 t, spec.tickets_per_book, 0.2, np.random.default_rng(len(t)))}
    tally = {case: [0, Counter()] for case in cases}
    for i in range(n):
        seed = hashlib.sha256(b"poolgen/bench/stats-book-numbers/%d" % i).digest()
        table = build_pool(spec, pool, seed)
        for case, change in cases.items():
            s = pool_statistics(change(table), Entry(pool, seed), rules=spec.id, kind=spec.kind,
                                per_book=spec.tickets_per_book, pools=1, play=play)
            r = run_statistics([s.top] if s.top else [], 1)
            tally[case][0] += bool(s.failed or r.failed)
            tally[case][1].update(short(j.finding.name) for j in s.failed + r.failed)
    for case, (refused, names) in tally.items():
        top = "; ".join(f"{name} ({k}/{n})" for name, k in names.most_common(2)) or "-"
        print(f"| small pools, {case} | {refused}/{n} | | {top} |")


def ticket_numbers(n: int) -> None:
    """Full Happy Holidays p1 pools (300,000 tickets, books of 300) in memory, each honest and with a
    level or the winners kept to some ticket numbers of their books (tests/support/ticket_number_biases.py:
    tickets exchanged within their book only), judged as a one-pool run by audit.stats.step."""
    spec = load_spec(ROOT / "specs" / "happy_holidays.toml")
    pool, per = spec.pools[0], spec.tickets_per_book
    cases = {"honest": lambda t, rng: t,
             "$20 kept to ticket numbers ending in 7": lambda t, rng: level_at_ticket_numbers(
                 t, per, 2000, 10, 7, rng),
             "$5 kept to ticket numbers ending in 7": lambda t, rng: level_at_ticket_numbers(
                 t, per, 500, 10, 7, rng),
             "winners to even ticket numbers (one pair in ten)": lambda t, rng: (
                 winners_to_even_ticket_numbers(t, per, 0.1, rng))}
    tally = {case: [0, Counter()] for case in cases}
    for i in range(n):
        seed = hashlib.sha256(b"poolgen/bench/stats-ticket-numbers/%d" % i).digest()
        table = build_pool(spec, pool, seed)
        for case, change in cases.items():
            s, r = judge_table(spec, pool, change(table, np.random.default_rng(i)), seed)
            tally[case][0] += bool(s.failed or r.failed)
            tally[case][1].update(short(j.finding.name) for j in s.failed + r.failed)
    for case, (refused, names) in tally.items():
        top = "; ".join(f"{name} ({k}/{n})" for name, k in names.most_common(2)) or "-"
        print(f"| full Happy Holidays, {case} | {refused}/{n} | | {top} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", type=int, default=20, help="biased full pools per case")
    ap.add_argument("--honest", type=int, default=1000, help="small honest pools")
    ap.add_argument("--small-biased", type=int, default=0, help="small pools per book-numbering bias")
    ap.add_argument("--ticket-numbers", type=int, default=0, help="full pools per ticket-number bias")
    args = ap.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        if args.pools:
            full_cases(args.pools, Path(tmp))
        if args.honest:
            honest_small(args.honest, Path(tmp))
        if args.small_biased:
            biased_small(args.small_biased, Path(tmp))
        if args.ticket_numbers:
            ticket_numbers(args.ticket_numbers)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
