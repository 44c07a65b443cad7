"""Step 9, "deliverables", re-implemented from docs/validation.md alone (audit never imports poolgen):

    (2) every file the manifest's `deliverables` lists exists with its size and SHA-256 (pool files are
        checked with their pools), and such files are not "unlisted";
    (9) printed runs: every imaging file matches its pool row for row (barcode number recomputed from
        book and ticket number by ISO/IEC 7064 MOD 97-10, validation numbers of the stated length,
        every layout column's code shown as one symbol, text and caption, and with --spec one of the
        spec's symbols); the pack list holds each book once with its ticket range and nothing else;
        and, given the validation key(s), every ticket's record re-derived from its barcode number,
        validation number, prize and tier (a free ticket's: the manifest's print.free_ticket_tiers) is
        in the validation file, which holds nothing else; each file marks the other tier's winners
        as such, without their amount (format 2).

Without a key the validation files are not opened: that part is skipped with its reason.
"""

from __future__ import annotations

import hmac
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from audit.checklist import Step
from audit.errors import UnusableInput, VerificationError
from audit.read.limits import read_input
from audit.read.manifest import Manifest, PoolEntry
from audit.read.runfiles import (
    deliverable_limit,
    hash_run_file,
    read_imaging,
    read_pool,
    read_run_bytes,
    run_tickets,
)
from audit.read.specs import SpecExpectation

COMMON = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")
IDENTITY = ("barcode", "virn", "book", "ticket_no")
_RECORD = b"poolgen/validation/v1/record\x00"
_TAG = b"poolgen/validation/v1/tag"
_KNOWN = b"poolgen/validation/v1/ticket\x00"
_CHECK = b"poolgen/validation/v1/key-check"
PACK_COLUMNS = ["game", "book", "first_ticket", "last_ticket", "tickets"]


def read_key(path: Path) -> bytes:
    text = read_input(path, "validation key").strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != 32:
        raise UnusableInput(f"{path}: a validation key file holds 64 hex digits")
    return key


def deliverables(manifest: Manifest) -> list[dict[str, Any]]:
    files = manifest.doc.get("deliverables", [])
    if not isinstance(files, list) or not all(isinstance(f, dict) and isinstance(f.get("name"), str)
                                              and "/" not in f["name"] for f in files):
        raise VerificationError(Step.FILES, "the manifest's deliverables are not a list of files")
    return files


def listed_names(manifest: Manifest) -> set[str]:
    try:
        return {f["name"] for f in deliverables(manifest)}
    except VerificationError:
        return set()


WITHHELD = ("a reveal after close publishes no printer's or validation file (their validation numbers "
            "would let anyone who knows a barcode claim its prize): docs/publish-and-reveal.md")


def check_deliverable_files(folder: Path, manifest: Manifest, reveal: bool = False) -> str:
    """(2) every deliverable but the pool files (checked per pool) is present with its size and hash;
    in a `reveal`, one that is absent is not published, and said so."""
    problems, n, absent = [], 0, []
    for f in deliverables(manifest):
        if f.get("role") == "pool":
            continue
        path = folder / f["name"]
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

def barcode_numbers(game: int, book: np.ndarray, ticket_no: np.ndarray) -> list[str]:
    data = [f"{game:03d}{b:07d}{t:03d}" for b, t in zip(book.tolist(), ticket_no.tolist(), strict=True)]
    return [d + f"{98 - int(d + '00') % 97:02d}" for d in data]


def check_imaging(folder: Path, pool: PoolEntry, entry: dict[str, Any], game: int, virn_digits: int,
                  symbols: set[tuple[str, str, str]] | None) -> tuple[str, list[str], list[str]]:
    """(9) one imaging file against its pool; returns (message, barcodes, virns)."""
    table = read_pool(folder, pool.file)
    im = read_imaging(folder, entry["name"])
    layout = [c for c in table.columns if c not in COMMON]
    want = [*IDENTITY, *(c + s for c in layout for s in ("", "_text", "_caption"))]
    problems = []
    if im.columns != want:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: columns {im.columns[:6]}... are not the pool's layout "
                                f"columns with text and caption")
    if im.height != table.height:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: {im.height:,} rows for {table.height:,} tickets")
    codes = barcode_numbers(game, table["book"].to_numpy(), table["ticket_no"].to_numpy())
    bad = np.flatnonzero(np.array(im["barcode"].to_list()) != np.array(codes))
    if bad.size:
        problems.append(f"{bad.size:,} barcode number(s) not those of the pool's book and ticket at their "
                        f"position, first at position {int(bad[0]):,}")
    for c in ("book", "ticket_no"):
        off = np.flatnonzero(im[c].to_numpy() != table[c].to_numpy())
        if off.size:
            problems.append(f"{off.size:,} {c} value(s) differ from the pool's, first at position "
                            f"{int(off[0]):,}")
    virn = im["virn"]
    if not virn.str.contains(rf"^[0-9]{{{virn_digits}}}$").all():
        problems.append(f"a validation number is not {virn_digits} digits")
    for c in layout:
        pairs = pl.DataFrame({"v": table[c], "k": im[c], "t": im[c + "_text"],
                              "p": im[c + "_caption"]}).unique()
        shown = pairs.select("k", "t", "p").unique().height
        if pairs["v"].n_unique() != pairs.height or shown != pairs.height:
            problems.append(f"column {c}: a stored code is not shown as one symbol (or two as one)")
        elif symbols is not None:
            strange = [r for r in pairs.select("k", "t", "p").iter_rows() if tuple(r) not in symbols]
            if strange:
                problems.append(f"column {c}: {strange[0]} is not a symbol of the spec")
    if problems:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: " + "; ".join(problems[:3]))
    return (f"{entry['name']}: {im.height:,} rows match pool {pool.id} spot for spot ({len(layout)} spots, "
            "barcodes recomputed)", im["barcode"].to_list(), virn.to_list())


def check_packs(folder: Path, entry: dict[str, Any], books: list[int], per_book: int, game: int,
                tickets: int) -> str:
    data = read_run_bytes(folder, entry["name"], "pack list", deliverable_limit("packs", tickets))
    try:
        packs = pl.read_csv(io.BytesIO(data), infer_schema=False)
    except (pl.exceptions.PolarsError, ValueError) as exc:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: not a CSV pack list: "
                                f"{' '.join(str(exc).split())[:80]}") from None
    if packs.columns != PACK_COLUMNS:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: columns {packs.columns} are not {PACK_COLUMNS}")
    want = [[f"{game:03d}", str(b), "0", str(per_book - 1), str(per_book)] for b in sorted(books)]
    if [list(r) for r in packs.iter_rows()] != want:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: not every book once, sorted, with tickets "
                                f"0..{per_book - 1}")
    return f"{entry['name']}: {len(want):,} books, sorted, each with its ticket range; no outcome, no pool"


# ---- validation files ---------------------------------------------------------------------------

OTHER_TIER, FREE = 1 << 63, 1 << 62  # docs/validation.md, section 3 (format 2)


def _value(high: bool, threshold: int, prize: int, free: bool) -> int:
    """What a record holds: 0 for a loser, the other tier's prize as OTHER_TIER alone, else the cents
    (with FREE for a free ticket)."""
    if prize == 0:
        return 0
    if (prize >= threshold) != high:
        return OTHER_TIER
    return prize | (FREE if free else 0)


def _record(key: bytes, run_id: str, barcode: str, virn: str, prize: int) -> bytes:
    d = hmac.digest(key, _RECORD + f"{run_id}\x00{barcode}\x00{virn}".encode("ascii"), "sha256")
    ct = (prize ^ int.from_bytes(d[16:24], "big")).to_bytes(8, "big")
    return d[:16] + ct + hmac.digest(key, _TAG + d[:16] + ct, "sha256")[:8]


def check_validation(folder: Path, entry: dict[str, Any], key: bytes, run_id: str,
                     tickets: list[tuple[str, str, int, bool]],
                     threshold: int) -> str:
    data = read_run_bytes(folder, entry["name"], "validation", deliverable_limit("validation", len(tickets)))
    end = data.find(b"\n")
    try:
        head = json.loads(data[:end]) if end >= 0 else None
    except (ValueError, RecursionError):
        head = None
    if not isinstance(head, dict):
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: no header line")
    tier = entry.get("tier")
    if head.get("key_check") != hmac.digest(key, _CHECK, "sha256")[:8].hex():
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: the given {tier}-tier key is not the file's key "
                                f"(key check {head.get('key_check')})")
    high = tier == "high"
    want = sorted(_record(key, run_id, b, v, _value(high, threshold, p, f)) for b, v, p, f in tickets)
    known = sorted(hmac.digest(key, _KNOWN + f"{run_id}\x00{b}".encode("ascii"), "sha256")[:16]
                   for b, _, _, _ in tickets)
    n = len(tickets)
    body = data[end + 1:]
    got = [body[32 * i:32 * i + 32] for i in range(min(n, len(body) // 32))]
    problems = []
    if head.get("records") != n or len(body) != 48 * n or head.get("high_tier_cents") != threshold:
        problems.append(f"{head.get('records')} records in {len(body):,} bytes for {n:,} tickets "
                        f"(threshold {head.get('high_tier_cents')})")
    missing = len(set(want) - set(got))
    if missing or got != want:
        problems.append(f"{missing:,} ticket(s) without their record (missing, changed or reordered records)")
    if body[32 * n:] != b"".join(known):
        problems.append("the known-ticket values are not every ticket's")
    if problems:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: " + "; ".join(problems))
    held = ("high-tier prizes only, low-tier winners marked as such" if high
            else "prizes below the threshold only, high-tier winners marked as such without their amount")
    return f"{entry['name']}: every one of {n:,} tickets validates to exactly its prize ({held})"


def check_deliverables(folder: Path, manifest: Manifest, keys: dict[str, bytes | None],
                       spec: SpecExpectation | None, reveal: bool = False) -> Iterator[tuple[str, str]]:
    """(9) yields (status, message) for each deliverable checked; in a `reveal`, the step does not
    apply when no deliverable was published."""
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
    symbols = spec.symbols() if spec is not None else None  # with --spec: the spec's symbols
    tickets: list[tuple[str, str, int, bool]] = []
    free_tiers = pr.get("free_ticket_tiers", [])
    books: list[int] = []
    matched = 0  # pools whose imaging file matched: the run's tickets are all known when all have
    by_pool = {f.get("pool"): f for f in files if f.get("role") == "imaging"}
    for pool in manifest.pools:
        entry = by_pool.get(pool.id)
        if not (folder / pool.file).is_file():
            yield "skip", f"pool {pool.id}: needs step 2: {pool.file} is missing"
            continue
        if entry is None:
            yield "fail", f"pool {pool.id}: no imaging file listed"
            continue
        if not (folder / entry["name"]).is_file():
            yield "skip", f"pool {pool.id}: needs step 2: {entry['name']} is missing"
            continue
        try:
            msg, codes, virns = check_imaging(folder, pool, entry, game, pr.get("virn_digits"), symbols)
        except VerificationError as exc:
            yield "fail", exc.reason
            continue
        except Exception as exc:
            yield "fail", f"{entry['name']}: could not be checked: {type(exc).__name__}: {exc}"
            continue
        yield "pass", msg
        matched += 1
        pool_table = read_pool(folder, pool.file, columns=["prize_cents", "book", "tier"])
        free = pool_table["tier"].is_in([t for t in free_tiers if isinstance(t, str)]
                                        if isinstance(free_tiers, list) else []).to_list()
        tickets += list(zip(codes, virns, pool_table["prize_cents"].to_list(), free, strict=True))
        books += pool_table["book"].unique().to_list()
    if matched < len(manifest.pools):
        yield "skip", "pack list and validation files: need every pool's imaging file to match (above)"
        return
    for f in files:
        if f.get("role") == "packs":
            try:
                yield "pass", check_packs(folder, f, books, per_book, game, run_tickets(manifest))
            except VerificationError as exc:
                yield "fail", exc.reason
            except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
                yield "fail", f"{f.get('name')}: could not be checked: {type(exc).__name__}: {exc}"
    tiers = {f.get("tier"): f for f in files if f.get("role") in ("validation", "validation-high")}
    for tier in ("low", "high"):
        entry, key = tiers.get(tier), keys.get(tier)
        option = "--validation-key" if tier == "low" else "--high-validation-key"
        if entry is None:
            yield "pass", f"no {tier}-tier validation file in the run (generated without validation keys)"
        elif key is None:
            yield "skip", f"{entry['name']}: not opened (give {option})"
        else:
            try:
                yield "pass", check_validation(folder, entry, key, manifest.doc["run_id"], tickets,
                                               pr.get("high_tier_cents"))
            except VerificationError as exc:
                yield "fail", exc.reason
            except Exception as exc:  # as above
                yield "fail", f"{entry.get('name')}: could not be checked: {type(exc).__name__}: {exc}"
