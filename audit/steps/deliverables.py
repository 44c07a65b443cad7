"""Step 9, "deliverables", re-implemented from docs/validation.md alone (audit never imports poolgen):

    (2) every file the manifest's `deliverables` lists exists with its size and SHA-256 (pool files are
        checked with their pools), and such files are not "unlisted";
    (9) printed runs: every imaging file matches its pool row for row (barcode number recomputed from
        book and ticket number by ISO/IEC 7064 MOD 97-10, validation numbers of the stated length,
        every layout column's code shown as one symbol, text and caption, the code the play entry
        gives its stored value (audit/styles/spots.py), and with --spec one of the symbols of the spec's
        groups that spot's lists name);
        the pack list holds each book once with its ticket range and nothing else;
        and, given the validation key(s), every ticket's record re-derived from its barcode number,
        validation number, prize and tier (a free ticket's: the manifest's print.free_ticket_tiers) is
        in the validation file, which holds nothing else; each file marks the other tier's winners
        as such, without their amount (format 2).

Without a key a validation file's header and size are checked, its records not: that part is skipped with its
reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from audit.checklist import Step
from audit.errors import UnusableInput, VerificationError
from audit.read.game_number import barcode_digits, barcode_numbers
from audit.read.limits import read_secret
from audit.read.manifest import Manifest, PoolEntry
from audit.read.runfiles import (
    hash_run_file,
    imaging_file,
    pack_list_tickets,
    read_columns,
    read_pool,
    split_order_tickets,
)
from audit.read.specs import SpecExpectation
from audit.read.specs.money import foreign_amount
from audit.steps.listing import deliverables, listing_problems
from audit.steps.pack_list import check_packs
from audit.steps.validation import Tickets, check_header, check_validation
from audit.styles.spots import spot_codes, spot_lists

COMMON = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")
IDENTITY = ("barcode", "virn", "book", "ticket_no")
SpotSymbols = tuple[set[tuple[str, str, str]] | None, str]  # the symbols a spot may show, and what they are


def read_key(path: Path, allow_readable: bool = False) -> bytes:
    """A validation (or book) key file: 64 hex digits; a secret, refused if its group or others may read
    it, unless `allow_readable` (--allow-readable-secret)."""
    text = read_secret(path, "validation key", 1 << 16, allow_readable).strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != 32:
        raise UnusableInput(f"{path}: a validation key file holds 64 hex digits")
    return key


def listed_names(manifest: Manifest) -> set[str]:
    try:
        return {f["name"] for f in deliverables(manifest)}
    except VerificationError:
        return set()


WITHHELD = ("a reveal once claims close publishes no printer's or validation file (their validation numbers "
            "would let anyone who knows a barcode claim its prize): docs/publish-and-reveal.md")


def check_deliverable_files(folder: Path, manifest: Manifest, reveal: bool = False) -> str:
    """(2) the deliverables list is well formed (`listing_problems`), and every deliverable but the
    pool files (checked per pool) is present with its size and hash; a `reveal` holds none of them
    (docs/publish-and-reveal.md: the manifest, its signature and the pool files, nothing else): each
    absent is said so, each present fails the step."""
    problems, n, absent = listing_problems(manifest), 0, []
    for f in deliverables(manifest):
        if f.get("role") == "pool":
            continue
        path = folder / f["name"]
        if reveal and (path.exists() or path.is_symlink()):
            problems.append(f"{f['name']} ({f.get('role')}) is in a reveal, which holds the manifest, its "
                            f"signature and the pool files, nothing else ({WITHHELD})")
            continue
        if not path.is_file():
            if reveal:
                absent.append(f"{f['name']} ({f.get('role')})")
            else:
                problems.append(f"{f['name']} ({f.get('role')}) is missing")
            continue
        n += 1
        size, digest = hash_run_file(folder, f["name"], "deliverable")
        if size != f.get("bytes") or digest != f.get("sha256"):
            problems.append(f"{f['name']} ({f.get('role')}) is {size:,} bytes with SHA-256 {digest}, the "
                            f"manifest says {f.get('bytes')} bytes, {f.get('sha256')}")
    if problems:
        raise VerificationError(Step.FILES, "; ".join(problems))
    also = f"; not in this reveal: {', '.join(absent)} ({WITHHELD})" if absent else ""
    return f"{n} deliverable file(s) besides the pool files: sizes and SHA-256 match{also}"


# ---- imaging and packs --------------------------------------------------------------------------

@dataclass(frozen=True)
class PoolTickets:
    """What step 9 keeps of a pool once its imaging file matched: its tickets and its books."""

    tickets: Tickets
    books: list[int]


def check_imaging(folder: Path, pool: PoolEntry, entry: dict[str, Any], game: int, virn_digits: int,
                  symbols: set[tuple[str, str, str]] | None, table: pl.DataFrame | None = None,
                  free_tiers: tuple[str, ...] = (), play: object = None,
                  spot_symbols: dict[str, SpotSymbols] | None = None, sign: str = "$") \
        -> tuple[str, PoolTickets]:
    """(9) one imaging file against its pool (`table`: the pool file, if it was read already;
    `free_tiers`: the manifest's print.free_ticket_tiers; `play`: its play entry, which gives the code
    each stored value shows, audit/styles/spots.py; `sign`: the game's currency's); returns (message,
    the pool's tickets and books)."""
    if table is None:
        table = read_pool(folder, pool.file)
    path, columns = imaging_file(folder, entry["name"])
    layout = [c for c in table.columns if c not in COMMON]
    want = [*IDENTITY, *(c + s for c in layout for s in ("", "_text", "_caption"))]
    problems = []
    if columns != want:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: columns {columns[:6]}... are not the pool's layout "
                                f"columns with text and caption")
    im = read_columns(path, list(IDENTITY))  # then a spot at a time: the text columns are most of it
    if im.height != table.height:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: {im.height:,} rows for {table.height:,} tickets")
    codes = barcode_numbers(game, table["book"].to_numpy(), table["ticket_no"].to_numpy())
    shown = im["barcode"].cast(pl.String)
    digits = barcode_digits(game)  # 15, or 16 for a game numbered 1000..9999
    shaped = shown.str.contains(rf"^[0-9]{{{digits}}}$").fill_null(False).to_numpy()
    read = shown.str.to_integer(strict=False).fill_null(-1).to_numpy()
    bad = np.flatnonzero(~shaped | (read != codes))  # its digits and the number: the same string
    if bad.size:
        problems.append(f"{bad.size:,} barcode number(s) not those of the pool's book and ticket at their "
                        f"position, first at position {int(bad[0]):,}")
    for c in ("book", "ticket_no"):
        off = np.flatnonzero(im[c].to_numpy() != table[c].to_numpy())
        if off.size:
            problems.append(f"{off.size:,} {c} value(s) differ from the pool's, first at position "
                            f"{int(off[0]):,}")
    virn = im["virn"].cast(pl.String)
    if not virn.str.contains(rf"^[0-9]{{{virn_digits}}}$").fill_null(False).all():
        problems.append(f"a validation number is not {virn_digits} digits")
    shows = spot_codes(play, layout)
    if shows is None:
        problems.append("a layout column has no symbol rule in docs/validation.md, section 4 (no imaging "
                        "file can show it)")
    for c in layout:
        allowed = (spot_symbols or {}).get(c, (symbols, "a symbol of the spec"))
        spot = read_columns(path, [c, c + "_text", c + "_caption"])
        problem = _not_text(spot) or _shown_once(table[c], spot, *allowed, sign=sign)
        if not problem and shows is not None:
            problem = _codes_shown(table[c], spot[c], shows[c])
        if problem:
            problems.append(f"column {c}: {problem}")
    if problems:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: " + "; ".join(problems[:3]))
    tickets = Tickets(codes, virn.str.to_integer().to_numpy(), virn_digits,
                      table["prize_cents"].to_numpy(), table["tier"].is_in(list(free_tiers)).to_numpy())
    return (f"{entry['name']}: {im.height:,} rows match pool {pool.id} spot for spot ({len(layout)} spots, "
            "barcodes recomputed)", PoolTickets(tickets, table["book"].unique().to_list()))


def _codes_shown(stored: pl.Series, shown: pl.Series, codes: list[str | None]) -> str:
    """"" if every spot shows the code its stored value indexes in the play entry's symbol lists (the
    symbol step 4 evaluated), else how many do not and the first (compared by polars: no Python string)."""
    values = stored.cast(pl.Int64).to_numpy()
    at = np.arange(len(codes) + 1)[np.where((values >= 0) & (values < len(codes)), values, len(codes))]
    want = pl.Series([*codes, None], dtype=pl.String).gather(at)  # a code, or null where none is shown
    off = np.flatnonzero(want.ne_missing(shown.cast(pl.String)).to_numpy())
    if not off.size:
        return ""
    p = int(off[0])
    return (f"{off.size:,} spot(s) show another code than the pool's, first at position {p:,}: stored "
            f"{int(values[p])} is {want[p]!r} in the play entry, the imaging file shows {shown[p]!r}")


def _not_text(spot: pl.DataFrame) -> str:
    """"" if a spot's code, text and caption are text on every row (section 4), else the first not."""
    for col in spot.iter_columns():
        if col.dtype != pl.String:
            return f"{col.name} is of type {col.dtype}, not text"
        if col.null_count():
            return (f"{col.name} is null in {col.null_count():,} row(s), first at position "
                    f"{int(col.is_null().arg_max() or 0):,} (docs/validation.md section 4: never a null)")
    return ""


SHOWN_TWICE = "a stored code is not shown as one symbol (or two as one)"


def _brief(row: tuple[Any, ...]) -> str:
    """A shown (code, text, caption) as a reason quotes it: at most 120 characters."""
    text = repr(tuple(row))
    return text if len(text) <= 120 else text[:117] + "..."


def _shown_once(stored: pl.Series, shown: pl.DataFrame, symbols: set[tuple[str, str, str]] | None,
                what: str = "a symbol of the spec", sign: str = "$") -> str:
    """"" if each stored code is shown as one (code, text, caption) and no two codes as the same one
    (and, with the spec's symbols, each shown triple is one of them); else what is wrong.

    Every row is compared with one row of its stored code (a gather and one frame comparison, no
    hashing of strings); only the few distinct codes' triples are then compared."""
    values = stored.cast(pl.Int64).to_numpy()
    if values.size and values.min() >= 0 and values.max() < 1 << 16:  # codes: small integers
        one = np.full(int(values.max()) + 1, -1, dtype=np.int64)
        one[values] = np.arange(values.size)  # some row of each code (whichever write is kept)
        first = one[one >= 0]
        at_first = one[values]
    else:
        _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        at_first = first[inverse]
    like = shown[pl.Series(at_first.astype(np.uint32))]
    if not like.equals(shown):
        off = np.zeros(values.size, dtype=bool)
        for c in shown.columns:
            off |= like[c].ne_missing(shown[c]).to_numpy()
        p = int(np.flatnonzero(off)[0])
        a, b = sorted((p, int(at_first[p])))
        return (f"{SHOWN_TWICE}: code {int(values[p])} is shown as {_brief(shown.row(a))} at position {a:,} "
                f"and as {_brief(shown.row(b))} at position {b:,}")
    triples = shown[pl.Series(first.astype(np.uint32))]
    if triples.unique().height != triples.height:
        seen: dict[tuple[Any, ...], int] = {}
        for code, row in zip(values[first].tolist(), triples.iter_rows(), strict=True):
            if row in seen:
                a, b = sorted((seen[row], code))
                return f"{SHOWN_TWICE}: codes {a} and {b} are both shown as {_brief(row)}"
            seen[row] = code
    foreign = [r for r in triples.iter_rows() if any(foreign_amount(str(v or ""), sign) for v in r[1:])]
    if foreign:  # docs/validation.md section 4: amounts in the game's currency alone
        return f"{foreign[0]} shows an amount in another currency's sign than the game's {sign!r}"
    if symbols is not None:
        strange = [r for r in triples.iter_rows() if tuple(r) not in symbols]
        if strange:
            return f"{strange[0]} is not {what}"
    return ""


@dataclass(frozen=True)
class ImagingJob:
    """What checking one pool's imaging file needs beyond the pool file (picklable, for a worker)."""

    entry: dict[str, Any] | None  # the imaging file's entry in the manifest's deliverables
    game: int
    virn_digits: int
    symbols: set[tuple[str, str, str]] | None  # with --spec: the spec's symbols
    free_tiers: tuple[str, ...] = ()  # the manifest's print.free_ticket_tiers
    play: object = None  # the manifest's play entry: the code each stored value shows
    spot_symbols: dict[str, SpotSymbols] | None = None  # with --spec: each spot's symbols (`spot_symbols`)
    sign: str = "$"  # the game's currency sign (the manifest's `game.currency`): no other's is shown


ImagingOutcome = tuple[str, str, "PoolTickets | None"]  # status, message, the pool's tickets if it passed


def imaging_jobs(manifest: Manifest, spec: SpecExpectation | None) -> dict[str, ImagingJob] | None:
    """Each pool's imaging check, or None when step 9 checks no imaging file (not a printed run, no
    deliverables, or a deliverables list check_deliverables will refuse)."""
    if manifest.kind != "printed" or "deliverables" not in manifest.doc:
        return None
    try:
        files = deliverables(manifest)
    except VerificationError:
        return None
    by_pool = {f.get("pool"): f for f in files if f.get("role") == "imaging"}
    symbols = spec.symbols() if spec is not None else None
    free = manifest.doc.get("print", {}).get("free_ticket_tiers", [])
    free_tiers = tuple(t for t in free if isinstance(t, str)) if isinstance(free, list) else ()
    play = manifest.doc.get("play")
    return {p.id: ImagingJob(by_pool.get(p.id), manifest.doc["game"]["number"],
                             manifest.doc.get("print", {}).get("virn_digits"), symbols, free_tiers, play,
                             spot_symbols(spec, play, list(p.columns)) if spec is not None else None,
                             manifest.sign)
            for p in manifest.pools}



def spot_symbols(spec: SpecExpectation, play: object, columns: list[str]) -> dict[str, SpotSymbols]:
    """Each layout column's symbols under --spec: those of the spec's groups its area names for the
    lists the column's values index (audit/styles/spots.py `spot_lists`), so a spot never shows a symbol
    of another group that has its code (the number 10 where the prize $10.00 belongs)."""
    out: dict[str, SpotSymbols] = {}
    for column, (area, lists) in spot_lists(play, columns).items():
        allowed = spec.list_symbols(area, lists)
        if allowed is not None:
            out[column] = (allowed, f"one of the spec's symbols of area {area}'s {' and '.join(lists)}")
    return out


def pool_imaging(folder: Path, pool: PoolEntry, job: ImagingJob, table: pl.DataFrame | None = None) \
        -> ImagingOutcome:
    """(9) one pool's imaging file: (status, message, the pool's tickets and books if it matched)."""
    entry = job.entry
    if not (folder / pool.file).is_file():
        return "skip", f"pool {pool.id}: needs step 2: {pool.file} is missing", None
    if entry is None:
        return "fail", f"pool {pool.id}: no imaging file listed", None
    if not (folder / entry["name"]).is_file():
        return "skip", f"pool {pool.id}: needs step 2: {entry['name']} is missing", None
    try:
        msg, found = check_imaging(folder, pool, entry, job.game, job.virn_digits, job.symbols, table,
                                   job.free_tiers, job.play, job.spot_symbols, job.sign)
    except VerificationError as exc:
        return "fail", exc.reason, None
    except Exception as exc:
        return "fail", f"{entry['name']}: could not be checked: {type(exc).__name__}: {exc}", None
    return "pass", msg, found


def check_deliverables(folder: Path, manifest: Manifest, keys: dict[str, bytes | None],
                       spec: SpecExpectation | None, reveal: bool = False,
                       imaging: dict[str, ImagingOutcome] | None = None) -> Iterator[tuple[str, str]]:
    """(9) yields (status, message) for each deliverable checked; in a `reveal`, the step does not
    apply when no deliverable was published; `imaging`: pools whose imaging file was checked already
    (by `pool_imaging`, in verify's pool workers, from the pool file they read)."""
    if manifest.kind != "printed":
        yield "pass", "not a printed run: the pool file is the serving order (docs/validation.md, section 6)"
        return
    if "deliverables" not in manifest.doc:
        yield "skip", "the manifest lists no deliverables (a run made before print-run deliverables)"
        return
    files = deliverables(manifest)
    if reveal and not any((folder / f["name"]).is_file() for f in files if f.get("role") != "pool"):
        yield "skip", (f"does not apply to a reveal: {WITHHELD}; the pool files they were made from are "
                       f"steps 2 to 8's, and step 7 regenerates the imaging files and checks their SHA-256 "
                       f"against the signed manifest")
        return
    pr = manifest.doc.get("print", {})
    game, per_book = manifest.doc["game"]["number"], manifest.tickets_per_book
    assert per_book is not None  # a printed manifest states tickets_per_book (Manifest.parse)
    parts: list[Tickets] = []
    books: list[int] = []
    matched = 0  # pools whose imaging file matched: the run's tickets are all known when all have
    jobs = imaging_jobs(manifest, spec) or {}
    for pool in manifest.pools:
        done = (imaging or {}).get(pool.id)
        status, message, found = done if done is not None else pool_imaging(folder, pool, jobs[pool.id])
        yield status, message
        if found is not None:
            matched += 1
            parts.append(found.tickets)
            books += found.books
    if matched < len(manifest.pools):
        yield "skip", "pack list and validation files: need every pool's imaging file to match (above)"
        return
    for f in files:
        if f.get("role") == "packs":
            try:
                whole = split_order_tickets(manifest)  # a split order's: the list holds the order's books
                yield "pass", check_packs(folder, f, range(whole // per_book) if whole else books, per_book,
                                          game, pack_list_tickets(manifest), whole > 0)
            except VerificationError as exc:
                yield "fail", exc.reason
            except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
                yield "fail", f"{f.get('name')}: could not be checked: {type(exc).__name__}: {exc}"
    tickets = Tickets(np.concatenate([t.barcodes for t in parts]), np.concatenate([t.virns for t in parts]),
                      pr.get("virn_digits"), np.concatenate([t.prizes for t in parts]),
                      np.concatenate([t.free for t in parts]))
    tiers = {f.get("tier"): f for f in files if f.get("role") in ("validation", "validation-high")}
    for tier in ("low", "high"):
        entry, key = tiers.get(tier), keys.get(tier)
        unopened = f"records not opened (give --{'' if tier == 'low' else 'high-'}validation-key)"
        if entry is None:
            yield "pass", f"no {tier}-tier validation file in the run (generated without validation keys)"
        elif key is None:  # its header needs no key: nothing in it but section 3's fields
            try:
                check_header(folder, entry, manifest.doc["run_id"], len(tickets.prizes),
                             pr.get("high_tier_cents"), game)
                yield "skip", f"{entry['name']}: header, size and sort order checked; {unopened}"
            except VerificationError as exc:
                yield "fail", exc.reason
            except Exception as exc:  # as below
                yield "fail", f"{entry.get('name')}: could not be checked: {type(exc).__name__}: {exc}"
        else:
            try:
                yield "pass", check_validation(folder, entry, key, manifest.doc["run_id"], tickets,
                                               pr.get("high_tier_cents"), game)
            except VerificationError as exc:
                yield "fail", exc.reason
            except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
                yield "fail", f"{entry.get('name')}: could not be checked: {type(exc).__name__}: {exc}"
