"""The verifier's checklist: a run folder proven from its files, a public key, and nothing else.

    (1) the Ed25519 signature over manifest.json's exact bytes, with the given public key;
    (2) every listed file exists with the stated size and SHA-256; no unlisted file is present;
    (3) every pool is complete: positions 0..N-1 in order, every ticket identity the one its
        position gives (docs/pool-files.md; printed: its book and ticket number, each book's tickets
        contiguous and numbered 0..per_book-1, audit/books.py), no ticket id in two pools (printed:
        no book number in two),
        every Merkle salt 32 hex digits and a sample of them distinct (that they are random bits
        from the seed only step 7 can prove);
    (4) every ticket's layout evaluates, with audit.rules (or, for a game of play styles, with
        audit.styles from the manifest's `play` entry), to the prize stored with it;
    (5) recounted tier counts, winners, prize cost, odds and payout equal the manifest (and, with
        a spec, the spec; the spec's SHA-256 must be the manifest's);
    (6) every pool's Merkle root recomputes;
    (7) with a seed file: the seed matches the commitment, and regenerating reproduces every pool
        file byte for byte (audit/reproduce.py; the generator is passed in, never imported); with a
        ceremony file instead, the seed is first derived from its reveals, each checked against the
        manifest's commitments (audit/ceremony.py);
    (8) every pool's statistics pass at 99% confidence for the run: positions, winners per book or
        block, runs, and the layout no-information tests of the game's contract (audit/stats.py);
    (9) printed runs: imaging files, pack list and, given the validation keys, the validation files
        re-derived ticket by ticket (audit/deliverables.py, docs/validation.md).

Each step is a function that returns what it checked or raises VerificationError(step, reason).
`verify_run` runs them all: a failure never stops the others; a step that cannot run without an
earlier one is reported "skip" with the step it needs. Steps 2 to 6 run per pool, optionally in
several processes.
"""

from __future__ import annotations

import hashlib
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from audit.books import book_problems, check_book_numbers, leading_books
from audit.ceremony import ceremony_seed, read_ceremony
from audit.deliverables import check_deliverable_files, check_deliverables, listed_names, read_key
from audit.errors import UnusableInput, VerificationError
from audit.limits import MAX_SIGNATURE_BYTES, read_bounded, read_manifest_bytes
from audit.manifest import (
    MANIFEST,
    SIGNATURE,
    Manifest,
    ManifestError,
    PoolEntry,
    canonical,
    fingerprint,
    load_public_key,
    signature_problem,
)
from audit.merkle import ALGORITHM as MERKLE_ALGORITHM
from audit.merkle import MerkleError, table_root
from audit.reproduce import Regenerate, check_commitment, check_reproduction, read_seed
from audit.rules import rules_module
from audit.spec import SpecFigures, compare_pool, read_spec
from audit.spec_styles import StyledFigures, check_styled_against_spec
from audit.stats import check_statistics
from audit.styles import evaluate as evaluate_styles

TITLES = {1: "signature", 2: "files", 3: "completeness", 4: "layouts", 5: "figures",
          6: "merkle roots", 7: "reproduction", 8: "statistics", 9: "deliverables"}
SHOWN = 3  # examples quoted in a failure reason

__all__ = ["Report", "StepResult", "verify_run"]

Outcome = tuple[str, str]  # (status, message): ("pass", what was checked) / ("fail" | "skip", why)


@dataclass
class StepResult:
    step: int
    title: str
    status: str = "pass"
    reasons: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    required: bool = True  # a step not asked for (step 7 without a seed file) may be skipped

    def add(self, status: str, message: str, where: str | None = None) -> None:
        text = f"{where}: {message}" if where else message
        if status == "pass":
            self.details.append(text)
            return
        self.reasons.append(text)
        if status == "fail" or self.status == "pass":
            self.status = status

    def to_json(self) -> dict:
        return {"step": self.step, "title": self.title, "status": self.status, "reasons": self.reasons,
                "details": self.details}


@dataclass
class Report:
    run: Path
    key_fingerprint: str | None
    steps: list[StepResult]

    @property
    def failed(self) -> list[int]:
        """Steps that failed, or were skipped although asked for."""
        return [s.step for s in self.steps if s.status == "fail" or (s.status == "skip" and s.required)]

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def step(self, number: int) -> StepResult:
        return self.steps[number - 1]

    def to_json(self) -> dict:
        return {"run": str(self.run), "public_key_fingerprint": self.key_fingerprint, "ok": self.ok,
                "failed_steps": self.failed, "steps": [s.to_json() for s in self.steps]}


# ---- step 1 -------------------------------------------------------------------------------------

def check_signature(folder: Path, data: bytes, manifest: Manifest | None, key) -> str:
    """(1) manifest.sig is a valid signature of manifest.json by the trusted key."""
    declared = manifest.doc["signature"] if manifest else {}
    sig_path = folder / SIGNATURE
    if not sig_path.is_file():
        if declared.get("signed") is False:
            raise VerificationError(1, "the run is unsigned: the manifest says \"signed\": false and there "
                                       "is no manifest.sig")
        raise VerificationError(1, "manifest.sig is missing")
    problem = signature_problem(data, read_bounded(sig_path, "signature", MAX_SIGNATURE_BYTES), key)
    named = declared.get("key_fingerprint")
    mine = fingerprint(key)
    if problem:
        if named and named != mine:
            problem += f"; the manifest names signer key {named}"
        raise VerificationError(1, problem)
    if manifest is None:
        return f"Ed25519 signature over manifest.json verifies with key {mine}"
    if declared.get("signed") is not True:
        raise VerificationError(1, "the signature verifies, but the manifest says the run is unsigned")
    if named != mine:
        raise VerificationError(1, f"the signature verifies with the given key {mine}, but the manifest "
                                   f"names signer key {named}")
    if canonical(manifest.doc) != data:
        raise VerificationError(1, "manifest.json is signed but not in canonical form")
    return f"Ed25519 signature over manifest.json ({len(data):,} bytes, canonical) verifies with key {mine}"


# ---- step 2 -------------------------------------------------------------------------------------

def check_listing(folder: Path, manifest: Manifest) -> str:
    """(2) nothing in the run folder that the manifest does not list."""
    listed = {p.file for p in manifest.pools} | {MANIFEST, SIGNATURE} | listed_names(manifest)
    extra = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir() if p.name not in listed)
    if extra:
        raise VerificationError(2, f"unlisted file(s) in the run folder: {', '.join(extra)}")
    return f"{len(manifest.pools)} pool file(s) listed, no unlisted file"


def check_file(folder: Path, pool: PoolEntry) -> str:
    """(2) a pool file exists with the stated size and SHA-256."""
    path = folder / pool.file
    if not path.is_file():
        raise VerificationError(2, f"{pool.file} is missing")
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    problems = []
    if size != pool.file_bytes:
        problems.append(f"{pool.file} is {size:,} bytes, the manifest says {pool.file_bytes:,}")
    if h.hexdigest() != pool.file_sha256:
        problems.append(f"{pool.file} has SHA-256 {h.hexdigest()}, the manifest says {pool.file_sha256}")
    if problems:
        raise VerificationError(2, "; ".join(problems))
    return f"{pool.file}: {size:,} bytes, SHA-256 matches"


# ---- step 3 -------------------------------------------------------------------------------------

def _first(rows: np.ndarray) -> str:
    return ", ".join(str(int(r)) for r in rows[:SHOWN])


def _differs(got: pl.Series, want: pl.Series) -> np.ndarray:
    """Rows where `got` is not `want` (a null is never what is wanted)."""
    return (got != want).fill_null(True).to_numpy().astype(bool)


def _mismatch(what: str, got: pl.Series, want: pl.Series) -> str | None:
    """None if every row of `got` is `want`'s, else how many differ and the first, by position."""
    bad = np.flatnonzero(_differs(got, want))
    if not bad.size:
        return None
    r = int(bad[0])
    return (f"{bad.size:,} {what} not as recomputed from the position, first at position {r:,}: "
            f"{got[r]!r} where {want[r]!r} is expected")


def expected_identities(n: int, pool: PoolEntry, kind: str, per_book: int | None,
                        number: int | None, book: pl.Series | None = None) -> dict[str, pl.Series]:
    """The identity columns of rows 0..n-1 as docs/pool-files.md defines them: printed games book
    `first_book + position // tickets_per_book`, ticket_no `position % tickets_per_book`, ticket
    `f"{number:03d}-{book:07d}-{ticket_no:03d}"`; eInstants serial `position + 1`, ticket
    `f"{pool_id}-{serial:07d}"`."""
    position = pl.int_range(0, n, dtype=pl.Int64, eager=True)
    if kind == "printed":  # `book`: the table's own book numbers (audit/books.py); step 7 proves them
        assert per_book is not None and number is not None
        book = book if book is not None else pool.raw["first_book"] + position // per_book
        ticket_no = position % per_book
        ticket = pl.select(pl.format("{}-{}-{}", pl.lit(f"{number:03d}"), book.cast(pl.String).str.zfill(7),
                                     ticket_no.cast(pl.String).str.zfill(3))).to_series()
        return {"book": book, "ticket_no": ticket_no, "ticket": ticket}
    serial = position + 1
    ticket = pl.select(pl.format("{}-{}", pl.lit(pool.id), serial.cast(pl.String).str.zfill(7))).to_series()
    return {"serial": serial, "ticket": ticket}


def check_complete(table: pl.DataFrame, pool: PoolEntry, kind: str, per_book: int | None,
                   number: object = None) -> str:
    """(3) positions 0..N-1 in order; every ticket identity the one its position gives (docs/pool-files.md)
    and unique. `number` is the manifest's game.number (printed games' ticket ids start with it)."""
    n = table.height
    ids = ["book", "ticket_no"] if kind == "printed" else ["serial"]
    required = ("position", "ticket", "tier", "prize_cents", "salt", *ids)
    missing = [c for c in required if c not in table.columns]
    if missing:
        raise VerificationError(3, f"column(s) missing: {', '.join(missing)}")
    problems = []
    if tuple(table.columns) != pool.columns:
        problems.append(f"columns {list(table.columns)} are not the manifest's {list(pool.columns)}")
    if n != pool.tickets:
        problems.append(f"{n:,} rows, the manifest says {pool.tickets:,} tickets")
    nulls = [c for c in table.columns if table[c].null_count()]
    if nulls:
        problems.append(f"null values in {', '.join(nulls)}")
    for c in ("position", *ids):
        if not table.schema[c].is_integer():
            raise VerificationError(3, f"column {c} is {table.schema[c]}, not integers")
    position = table["position"].cast(pl.Int64).to_numpy()
    off = np.flatnonzero(position != np.arange(n))
    if off.size:
        problems.append(f"{off.size:,} row(s) not at their position (rows {_first(off)})")
    tickets = table["ticket"]
    text = tickets.dtype == pl.String
    if not text:
        problems.append(f"column ticket is {tickets.dtype}, not text")
    repeats_at = len(problems)  # where a repeat is reported, if the ids are not all as recomputed
    look_for_repeats = text
    problems.extend(_salt_problems(table["salt"]))
    computable = True
    if kind == "printed":
        first, books = pool.raw["first_book"], pool.raw["books"]
        if books * per_book != pool.tickets:
            problems.append(f"{books} books of {per_book} are not {pool.tickets:,} tickets")
        if first < 0:
            problems.append(f"first_book {first} is negative")
            computable = False
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            problems.append(f"game.number {number!r} is not a game number: ticket ids cannot be recomputed")
            computable = False
        ident = f"{books} books (slots {first}..{first + books - 1}) x tickets 0..{per_book - 1}"
    else:
        ident = f"serials 1..{n:,}"
    if computable:
        book = leading_books(table["book"], per_book) if kind == "printed" else None  # type: ignore[arg-type]
        if book is not None:
            problems.extend(book_problems(table["book"], per_book))  # type: ignore[arg-type]
        want = expected_identities(n, pool, kind, per_book, number, book)  # type: ignore[arg-type]
        names = {"ticket_no": "ticket number(s)", "serial": "serial(s)"}
        for c in (c for c in ids if c != "book"):
            why = _mismatch(names[c], table[c].cast(pl.Int64), want[c])
            if why:
                problems.append(why)
        if text:
            why = _mismatch("ticket id(s)", tickets, want["ticket"])
            if why:
                problems.append(why)
            else:  # every id is the one its position gives: distinct positions, distinct ids
                look_for_repeats = False
    if look_for_repeats and tickets.n_unique() != n:
        dup = tickets.filter(tickets.is_duplicated()).unique(maintain_order=True).head(SHOWN).to_list()
        problems.insert(repeats_at, f"ticket identities repeat: {', '.join(map(str, dup))}")
    if problems:
        raise VerificationError(3, "; ".join(problems))
    gives = "its book and ticket number give" if kind == "printed" else "its position gives"
    return (f"{n:,} tickets at positions 0..{n - 1:,}; every ticket id is the one {gives} "
            f"({ident}, each once); every salt is 32 hex digits (that they are the seed's is step 7's "
            "to prove)")


SALT_SAMPLE = 1 << 16


def _salt_problems(salt: pl.Series) -> list[str]:
    """Every Merkle salt is 32 lower-case hex digits (128 bits, docs/pool-files.md), and the first
    SALT_SAMPLE are distinct: a cheap guard against a constant or short-cycle salt, which would let a
    proof's neighbouring leaves be guessed. That the salts are the seed's is step 7's to prove."""
    if salt.dtype != pl.String:
        return [f"column salt is {salt.dtype}, not text"]
    bad = np.flatnonzero(~salt.str.contains(r"^[0-9a-f]{32}$").fill_null(False).to_numpy())
    if bad.size:  # the position only: a salt is not to be quoted in reports
        return [f"{bad.size:,} salt(s) are not 32 lower-case hex digits, first at position {int(bad[0]):,}"]
    sample = salt.head(SALT_SAMPLE)
    if sample.n_unique() != sample.len():
        return [f"salts repeat among the first {sample.len():,} ({sample.len() - sample.n_unique():,} "
                "duplicate(s)): they were not drawn at random"]
    return []


def check_run_identities(manifest: Manifest) -> str:
    """(3) no ticket id in two pools. Printed pools: their book slots [first_book, first_book + books)
    are pairwise disjoint (the book numbers themselves, a secret permutation of the slots, are checked
    distinct across the run's files by audit.books.check_book_numbers); an eInstant id is its pool's
    id, "-" and digits, and pool ids are distinct (manifest), so no id can be in two eInstant pools."""
    pools = manifest.pools
    if manifest.kind != "printed":
        return f"ticket ids of the {len(pools)} pool(s) are distinct: each is its own pool's id and a serial"
    spans = sorted((p.raw["first_book"], p.raw["first_book"] + p.raw["books"], p.id) for p in pools
                   if p.raw["books"] > 0)
    clashes = []
    for i, (lo, hi, pid) in enumerate(spans):
        for lo2, hi2, pid2 in spans[i + 1:]:  # sorted by first book: lo <= lo2
            if lo2 >= hi:
                break
            clashes.append(f"pools {pid} and {pid2} claim overlapping book slots ({pid}: {lo}..{hi - 1}, "
                           f"{pid2}: {lo2}..{hi2 - 1})")
    if clashes:
        raise VerificationError(3, "; ".join(clashes[:SHOWN]) + (
            f"; {len(clashes) - SHOWN} more overlapping pair(s)" if len(clashes) > SHOWN else ""))
    shown = ", ".join(f"{pid} {lo}..{hi - 1}" for lo, hi, pid in spans[:SHOWN])
    more = ", ..." if len(spans) > SHOWN else ""
    return f"book slots of the {len(pools)} pool(s) do not overlap ({shown}{more})"


# ---- step 4 -------------------------------------------------------------------------------------

def check_layouts(table: pl.DataFrame, pool: PoolEntry, rules: str, play: dict | None = None) -> str:
    """(4) every layout, evaluated by the audit's own rules engine, pays the stored prize.
    A style-based run (its manifest has `play`) is evaluated by audit.styles from that entry."""
    if play is not None:
        result = evaluate_styles(table, pool.raw, play)
        engine_name = "audit.styles (" + ", ".join(sorted({a["style"] for a in play["areas"]})) + ")"
    else:
        try:
            engine = rules_module(rules)
        except LookupError as exc:
            raise VerificationError(4, str(exc)) from None
        result = engine.evaluate(table, pool.raw)
        engine_name = f"audit.rules.{rules}"
    n = table.height
    prize = np.asarray(result.prize_cents, dtype=np.int64)
    wins = np.asarray(result.wins, dtype=np.int64)
    if prize.shape != (n,) or wins.shape != (n,):
        raise VerificationError(4, f"the rules engine returned {prize.shape} prizes and {wins.shape} wins "
                                   f"for {n:,} rows")
    stored = table["prize_cents"].cast(pl.Int64).to_numpy()
    ticket = table["ticket"]
    problems = []
    wrong = np.flatnonzero(prize != stored)
    if wrong.size:
        shown = ", ".join(f"{ticket[int(r)]} (row {r}) pays {prize[r]} cents, stores {stored[r]}"
                          for r in wrong[:SHOWN])
        problems.append(f"{wrong.size:,} layout(s) do not pay the stored prize: {shown}")
    odd = np.flatnonzero((prize > 0) != (wins > 0))
    if odd.size:
        shown = ", ".join(f"row {r}: {wins[r]} win(s), {prize[r]} cents" for r in odd[:SHOWN])
        problems.append(f"{odd.size:,} layout(s) win without paying or pay without a win: {shown}")
    if result.illegal:
        shown = "; ".join(f"{ticket[int(r)]} (row {r}): {why}" for r, why in result.illegal[:SHOWN])
        problems.append(f"{len(result.illegal):,} illegal layout(s): {shown}")
    if problems:
        raise VerificationError(4, "; ".join(problems))
    return (f"{n:,} layouts evaluated by {engine_name}: each pays its stored prize "
            f"({int((prize > 0).sum()):,} winners), none illegal")


# ---- step 5 -------------------------------------------------------------------------------------

def decimal_text(num: int, den: int, places: int = 4) -> str:
    """num/den rounded half-up to `places` decimals, as the manifest writes it ("3.4130")."""
    scale = 10**places
    q, r = divmod(num * scale, den)
    if 2 * r >= den:
        q += 1
    return f"{q // scale}.{q % scale:0{places}d}"


def check_figures(table: pl.DataFrame, pool: PoolEntry) -> str:
    """(5) counts, winners, prize cost, odds and payout recounted from the table equal the manifest's."""
    problems = []
    stated = {t.id: t for t in pool.tiers}
    if len(stated) != len(pool.tiers):
        problems.append("a tier id appears twice in the manifest")
    found = table.group_by("tier").agg(pl.len().alias("n"), pl.col("prize_cents").min().alias("lo"),
                                       pl.col("prize_cents").max().alias("hi"))
    seen = {}
    for tier, n, lo, hi in found.iter_rows():
        t = stated.get(tier)
        if t is None:
            problems.append(f"{n:,} ticket(s) of tier {tier!r}, which the manifest does not list")
            continue
        seen[tier] = n
        if lo != t.prize_cents or hi != t.prize_cents:
            problems.append(f"tier {tier!r} pays {t.prize_cents} cents, but its tickets store {lo}..{hi}")
    for t in pool.tiers:
        if seen.get(t.id, 0) != t.count:
            problems.append(f"tier {t.id!r}: {seen.get(t.id, 0):,} tickets, the manifest says {t.count:,}")
    prizes = table["prize_cents"].cast(pl.Int64)
    tickets = table.height
    winners = int((prizes > 0).sum())
    cost = int(prizes.sum())
    odds = decimal_text(tickets, winners) if winners else None
    payout = decimal_text(100 * cost, tickets * pool.price_cents) if tickets and pool.price_cents else None
    for name, got, says in (("tickets", tickets, pool.tickets), ("winners", winners, pool.winners),
                            ("prize cost (cents)", cost, pool.prize_cost_cents),
                            ("odds 1 in", odds, pool.odds_1_in), ("payout %", payout, pool.payout_pct)):
        if got != says:
            problems.append(f"{name}: recounted {got}, the manifest says {says}")
    if sum(t.count for t in pool.tiers) != pool.tickets:
        problems.append("the manifest's tier counts do not add up to its tickets")
    if problems:
        raise VerificationError(5, "; ".join(problems))
    return (f"{len(pool.tiers)} tiers, {tickets:,} tickets, {winners:,} winners, prize cost {cost:,} cents, "
            f"odds 1 in {odds}, payout {payout}% as stated")


def check_totals(manifest: Manifest) -> str:
    """(5) the run's totals are the sums of its pools."""
    pools = [p.raw for p in manifest.pools]
    tickets = sum(p["tickets"] for p in pools)
    winners = sum(p["winners"] for p in pools)
    cost = sum(p["prize_cost_cents"] for p in pools)
    sales = sum(p["tickets"] * p["price_cents"] for p in pools)
    want = {"pools": len(pools), "tickets": tickets, "winners": winners, "prize_cost_cents": cost,
            "sales_cents": sales, "odds_1_in": decimal_text(tickets, winners) if winners else None,
            "payout_pct": decimal_text(100 * cost, sales) if sales else None}
    said = manifest.doc["totals"]
    wrong = [f"{k}: recounted {v}, the manifest says {said.get(k)}"
             for k, v in want.items() if said.get(k) != v]
    if wrong:
        raise VerificationError(5, "totals: " + "; ".join(wrong))
    return f"totals over {len(pools)} pool(s) add up"


def check_against_spec(manifest: Manifest, spec: SpecFigures) -> str:
    """(5) the run is the spec's: same file hash, same game, every pool as the spec says."""
    if isinstance(spec, StyledFigures):
        return check_styled_against_spec(manifest, spec)
    stated = manifest.doc["spec"]
    problems = []
    if stated.get("sha256") != spec.sha256:
        problems.append(f"spec {spec.file} has SHA-256 {spec.sha256}, the manifest says "
                        f"{stated.get('sha256')} (file {stated.get('file')})")
    game = manifest.doc["game"]
    for key in ("name", "number", "regulation", "rules", "kind"):
        if game.get(key) != spec.game.get(key):
            problems.append(f"game.{key}: manifest {game.get(key)!r}, spec {spec.game.get(key)!r}")
    if manifest.kind == "printed" and spec.game.get("kind") == "printed":
        books = spec.pools[0].tickets // manifest.tickets_per_book
        starts = []
        for p in manifest.pools:
            first = p.raw["first_book"]
            if p.raw["books"] != books or first % books or not 0 <= first // books < spec.pools_per_order:
                problems.append(f"pool {p.id}: books {first}.. are not one of the order's "
                                f"{spec.pools_per_order} pools of {books} books")
            starts.append(first)
        if len(set(starts)) != len(starts):
            problems.append("two pools hold the same books")
    for p in manifest.pools:
        problems += [f"pool {p.id}: {why}" for why in compare_pool(spec, manifest.kind, p.raw)]
    if problems:
        raise VerificationError(5, "; ".join(problems))
    return f"spec {spec.file} (SHA-256 {spec.sha256[:16]}...) matches the manifest; every pool is as it says"


# ---- step 6 -------------------------------------------------------------------------------------

def check_merkle(table: pl.DataFrame, pool: PoolEntry) -> str:
    """(6) the Merkle root over the table's rows equals the manifest's."""
    if pool.merkle_algorithm != MERKLE_ALGORITHM:
        raise VerificationError(6, f"unknown Merkle algorithm {pool.merkle_algorithm!r}")
    try:
        root = table_root(table).hex()
    except MerkleError as exc:
        raise VerificationError(6, f"{pool.file}: {exc}") from None
    if root != pool.merkle_root:
        raise VerificationError(6, f"recomputed root {root} is not the manifest's {pool.merkle_root}")
    return f"root {root[:16]}... recomputes over {table.height:,} tickets"


# ---- the runner ---------------------------------------------------------------------------------

def _attempt(step: int, check, *args) -> Outcome:
    try:
        return "pass", check(*args)
    except VerificationError as exc:
        return "fail", exc.reason
    except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
        return "fail", f"could not be checked: {type(exc).__name__}: {exc}"


def pool_outcomes(folder: Path, pool: PoolEntry, rules: str, kind: str,
                  per_book: int | None, number: object = None,
                  play: dict | None = None) -> dict[int, Outcome]:
    """Steps 2 to 6 for one pool (reads the pool file once)."""
    out: dict[int, Outcome] = {2: _attempt(2, check_file, folder, pool)}
    if not (folder / pool.file).is_file():
        return out | {s: ("skip", f"needs step 2: {pool.file} is missing") for s in (3, 4, 5, 6)}
    try:
        table = pl.read_parquet(folder / pool.file)
    except Exception as exc:
        out[3] = ("fail", f"{pool.file} cannot be read as Parquet: {type(exc).__name__}: {exc}")
        return out | {s: ("skip", f"needs step 3: {pool.file} cannot be read") for s in (4, 5, 6)}
    out[3] = _attempt(3, check_complete, table, pool, kind, per_book, number)
    out[4] = _attempt(4, check_layouts, table, pool, rules, play)
    out[5] = _attempt(5, check_figures, table, pool)
    out[6] = _attempt(6, check_merkle, table, pool)
    return out


def _pool_job(args) -> dict[int, Outcome]:
    return pool_outcomes(*args)


def verify_run(run: Path, public_key: Path | None, *, spec: Path | None = None, seed_file: Path | None = None,
               workers: int = 1, regenerate: Regenerate | None = None,
               ceremony: Path | None = None, allow_readable_secret: bool = False,
               validation_key: Path | None = None, high_validation_key: Path | None = None) -> Report:
    """Run the checklist on a run folder. Raises UnusableInput when nothing can be checked.

    `regenerate` is the generator step 7 reproduces the pools with (see audit/reproduce.py);
    without it step 7 checks the seed commitment only."""
    folder = Path(run)
    if not folder.is_dir():
        raise UnusableInput(f"{folder}: run folder not found")
    if not (folder / MANIFEST).exists():
        raise UnusableInput(f"{folder}: no {MANIFEST} in the run folder")
    data = read_manifest_bytes(folder / MANIFEST)
    key = load_public_key(public_key) if public_key is not None else None
    spec_figures = read_spec(spec) if spec is not None else None
    seed = None
    if seed_file is not None and ceremony is not None:
        raise UnusableInput("give --seed-file or --ceremony, not both: the ceremony gives the seed")
    ceremony_doc = read_ceremony(ceremony) if ceremony is not None else None
    if seed_file is not None:
        if spec is None:
            raise UnusableInput("--seed-file needs --spec: regenerating the pools needs the game's spec")
        seed = read_seed(seed_file, allow_readable_secret)

    keys = {"low": read_key(validation_key) if validation_key else None,
            "high": read_key(high_validation_key) if high_validation_key else None}
    steps = [StepResult(n, TITLES[n]) for n in TITLES]
    steps[8].required = False  # its parts without a key are skipped, not failed
    report = Report(folder, fingerprint(key) if key else None, steps)
    try:
        manifest: Manifest | None = Manifest.parse(data)
        unreadable = ""
    except ManifestError as exc:
        manifest, unreadable = None, str(exc)

    if key is None:
        steps[0].add("skip", "no public key given")
        steps[0].required = False
    else:
        steps[0].add(*_attempt(1, check_signature, folder, data, manifest, key))
    if seed is None and ceremony_doc is None:
        steps[6].add("skip", "not requested (give --seed-file and --spec, or --ceremony)")
        steps[6].required = False
    if manifest is None:
        steps[0].add("fail", f"manifest.json is not a valid manifest: {unreadable}")
        for s in steps[1:] if seed is not None or ceremony_doc is not None else steps[1:6] + steps[7:]:
            s.add("skip", "needs a readable manifest.json (step 1)")
        return report

    steps[1].add(*_attempt(2, check_listing, folder, manifest))
    if manifest.doc.get("deliverables"):
        steps[1].add(*_attempt(2, check_deliverable_files, folder, manifest))
    number = manifest.doc["game"].get("number")
    play = manifest.doc.get("play")  # a style-based run (docs/styles/play.md)
    jobs = [(folder, p, manifest.rules, manifest.kind, manifest.tickets_per_book, number, play)
            for p in manifest.pools]
    if workers > 1 and len(jobs) > 1:
        context = mp.get_context("spawn")
        # largest files first, so that no worker starts a big pool while the others are finishing
        order = sorted(range(len(jobs)), key=lambda i: -manifest.pools[i].file_bytes)
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as ex:
            done = dict(zip(order, ex.map(_pool_job, [jobs[i] for i in order]), strict=True))
        outcomes = [done[i] for i in range(len(jobs))]
    else:
        outcomes = [_pool_job(j) for j in jobs]
    for pool, result in zip(manifest.pools, outcomes, strict=True):
        for step, (status, message) in sorted(result.items()):
            steps[step - 1].add(status, message, f"pool {pool.id}")
    steps[2].add(*_attempt(3, check_run_identities, manifest))
    if manifest.kind == "printed":
        steps[2].add(*_attempt(3, check_book_numbers, folder, manifest.pools, manifest.tickets_per_book))

    steps[4].add(*_attempt(5, check_totals, manifest))
    if spec_figures is not None:
        steps[4].add(*_attempt(5, check_against_spec, manifest, spec_figures))
    else:
        steps[4].add("pass", "no --spec given: checked against the manifest only")

    for status, message, where in check_statistics(folder, manifest):
        steps[7].add(status, message, where)
    for status, message in check_deliverables(folder, manifest, keys, spec):  # audit/deliverables.py
        steps[8].add(status, message)

    lead, option = "", "--seed-file"
    if ceremony_doc is not None:  # the seed from the reveals, checked against the manifest's ceremony
        status, found = _attempt(7, ceremony_seed, manifest, ceremony_doc)
        seed, message = found if status == "pass" else (None, found)
        steps[6].add(status, message)
        lead, option = f"{message}; ", "--ceremony"
    if seed is not None and spec is not None and regenerate is not None:
        steps[6].add(*_attempt(7, check_reproduction, folder, manifest, seed, spec, regenerate))
    elif seed is not None:
        steps[6].add(*_attempt(7, check_commitment, manifest, seed))
        if steps[6].status == "pass":
            why = (f"this verifier has no generator (`poolgen verify {option}` regenerates them)"
                   if regenerate is None else "give --spec to regenerate them")
            steps[6].add("skip", f"{lead}seed matches the commitment; pools not regenerated: {why}")
            steps[6].required = False
    return report

