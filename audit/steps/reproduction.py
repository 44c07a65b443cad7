"""Step 7: the seed matches the manifest's commitment, and regenerating reproduces every pool file.

Reproduction checks that a run follows from its seed, not that it is correct, so it must run the
generator that made it. audit never imports that generator: the caller passes it in as
`regenerate` (`poolgen verify` passes poolgen's, see poolgen/run/reproduce.py). Without one, as under
`python -m audit verify`, step 7 checks the seed commitment and a printed run's validation numbers
(audit/steps/numbers.py: they need no generator, only the DRBG), and says the pools were not regenerated.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from audit.checklist import Step
from audit.errors import UnusableInput, VerificationError
from audit.provenance import code_comparison
from audit.read.fields import COMMITMENT
from audit.read.limits import MAX_SEED_FILE_BYTES, read_secret
from audit.read.manifest import Manifest
from audit.read.runfiles import hash_run_file
from audit.read.specs import SpecExpectation
from audit.steps.numbers import check_books, check_virns
from audit.steps.order import check_order_and_salts
from audit.steps.split import check_split_seed

COMMITMENT_LABEL = b"poolgen/seed-commitment/v1"
COMMITMENT_ALGORITHM = COMMITMENT  # step 5 holds every manifest to it (audit/read/fields.py)
SEED_BYTES = 32

Regenerate = Callable[[Path, list[str], bytes, Path, "bytes | None", bool], dict[str, Any]]
"""regenerate(spec_path, pool_ids, seed, folder, book_key, without_neighbours) writes each pool's file into
`folder` and returns {"generator": "<name version>", "versions": {<as the manifest's "tool">}, "pools":
{id: <the pool's manifest entry>}} and, from a generator that gives it, "play": <the manifest's play
entry it writes>. `without_neighbours`: the run is an eInstant's whose manifest has no
`blocks`, made before eInstants had the neighbour rule by default (2026-12-02): regenerate it without
the rule, as it was made (docs/manifest.md, `blocks`)."""


def read_seed(path: Path, allow_readable: bool = False) -> bytes:
    """A seed file: 64 hex digits and an optional newline; refused if others may read it, unless
    `allow_readable`."""
    text = read_secret(path, "seed", MAX_SEED_FILE_BYTES, allow_readable).strip()
    try:
        seed = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        seed = b""
    if len(seed) != SEED_BYTES:
        raise UnusableInput(f"{path}: a seed file holds {2 * SEED_BYTES} hex digits")
    if len(set(seed)) == 1:  # docs/randomness.md, section 1: never a seed poolgen accepts; never shown
        raise UnusableInput(f"{path}: its 32 bytes are all the same value: a typed or zeroed file, not a "
                            "secret seed; refusing it")
    return seed


def commitment(seed: bytes) -> str:
    return hashlib.sha256(COMMITMENT_LABEL + seed).hexdigest()


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def check_commitment(manifest: Manifest, seed: bytes) -> str:
    """(7, first half) the seed is the one the manifest commits to."""
    stated = manifest.doc["seed_commitment"]
    if stated.get("algorithm") != COMMITMENT_ALGORITHM:
        raise VerificationError(Step.REPRODUCTION, f"unknown seed commitment {stated.get('algorithm')!r}")
    if commitment(seed) != stated.get("value"):
        raise VerificationError(Step.REPRODUCTION,
                                "the seed does not match the manifest's seed commitment (wrong seed file)")
    return "seed matches the commitment"


def check_seed(folder: Path, manifest: Manifest, seed: bytes, spec: SpecExpectation | None = None,
               book_key: bytes | None = None) -> str:
    """(7) without a generator: the seed is the committed one, and every pool's salts and (unless pack or
    block parameters draw it) tier order (audit/steps/order.py), every validation number of a printed
    run, a split order's counts per pool (audit/steps/split.py), and with the spec every book number,
    are the seed's (audit/steps/numbers.py; the layouts need the generator); book numbers under a book
    key need the key (checked in step 3)."""
    done = check_commitment(manifest, seed)
    virns = check_virns(folder, manifest, seed)
    keyed = manifest.kind == "printed" and "book_key_check" in manifest.doc.get("print", {})  # not the seed's
    try:
        books = check_books(folder, manifest, seed, spec, book_key)
    except VerificationError as exc:
        if not keyed:  # the seed's numbers, wrong: the message says so whole
            raise
        said = f"{done}; {virns} re-derived from the seed" if virns else done
        raise VerificationError(Step.REPRODUCTION, f"{said}; {exc.reason}") from None
    remark = keyed or books.startswith("book numbers not re-derived")  # a statement, not numbers checked
    split = check_split_seed(manifest, seed)
    ordered, unordered = check_order_and_salts(folder, manifest, seed)  # last: the counts' message first
    found = [x for x in (ordered, virns, "" if remark else books, split) if x]
    listed = " and ".join([", ".join(found[:-1]), found[-1]] if len(found) > 1 else found)
    said = f"{done}; {listed} re-derived from the seed" if found else done
    remarks = [x for x in (unordered, books if remark else "") if x]
    return "; ".join([said, *remarks])


def exactly(a: object, b: object) -> bool:
    """Equal and of one JSON type at every level: a manifest's `true` is not the generator's 1 (Python's
    True == 1 would let a re-signed entry change one into the other), a list and a tuple are one array."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(exactly(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(exactly(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def play_difference(stated: object, made: dict[str, Any]) -> str:
    """Where a manifest's `play` entry differs from the regenerating generator's: each area by id with
    the keys that differ, then the entry's other keys."""
    said = stated if isinstance(stated, dict) else {}
    areas = {a.get("id"): a for a in said.get("areas", []) if isinstance(a, dict)} \
        if isinstance(said.get("areas"), list) else {}
    out = []
    for area in made.get("areas", []):
        got = areas.get(area["id"], {})
        keys = sorted(k for k in area.keys() | got.keys() if not exactly(area.get(k), got.get(k)))
        if keys:
            out.append(f"area {area['id']}: {', '.join(keys)}")
    out += [k for k in sorted(made.keys() | said.keys())
            if k != "areas" and not exactly(made.get(k), said.get(k))]
    if len(areas) != len(made.get("areas", [])):
        out.append("areas")
    return "; ".join(out) or "areas"


def check_reproduction(folder: Path, manifest: Manifest, seed: bytes, spec_path: Path,
                       regenerate: Regenerate, book_key: bytes | None = None) -> str:
    """(7) seed against commitment, a split order's counts drawn with audit's own DRBG (regeneration
    alone would compare the generator with itself: docs/randomness.md 4b), then every pool regenerated
    and compared byte for byte (with the book key, for a run whose book numbers are under one:
    docs/validation.md)."""
    check_commitment(manifest, seed)
    if "book_key_check" in manifest.doc.get("print", {}) and book_key is None:
        raise VerificationError(Step.REPRODUCTION, "seed matches the commitment; the run's book numbers are "
                                "under a book key: give --book-key to regenerate the pools")
    if _digest(spec_path) != manifest.doc["spec"].get("sha256"):
        raise VerificationError(Step.REPRODUCTION,
                                "the spec is not the one the run was made from (SHA-256 differs); "
                                "cannot regenerate")
    split = check_split_seed(manifest, seed)
    problems = []
    with tempfile.TemporaryDirectory(prefix="audit-reproduce-") as tmp:
        older = manifest.kind != "printed" and "blocks" not in manifest.doc  # made without the rule
        made_by = regenerate(spec_path, [p.id for p in manifest.pools], seed, Path(tmp), book_key, older)
        for pool in manifest.pools:
            entry = made_by["pools"][pool.id]
            made = Path(tmp) / entry["file"]["name"]
            digest = _digest(made)
            on_disk = folder / pool.file
            if entry["file"]["name"] != pool.file or digest != pool.file_sha256:
                problems.append(f"pool {pool.id}: regenerated {entry['file']['name']} has SHA-256 {digest}, "
                                f"the manifest says {pool.file_sha256}")
            elif not on_disk.is_file() or hash_run_file(folder, pool.file, "pool")[1] != digest:
                problems.append(f"pool {pool.id}: {pool.file} in the run folder differs from the "
                                "regenerated file")
            elif not exactly(entry, pool.raw):
                diff = sorted(k for k in entry.keys() | pool.raw.keys()
                              if not exactly(entry.get(k), pool.raw.get(k)))
                problems.append(f"pool {pool.id}: regenerated figures differ in {', '.join(diff)}")
        if "play" in made_by and not exactly(made_by["play"], manifest.doc.get("play")):
            problems.append("the manifest's play entry is not the one the generator writes from the spec: "
                            + play_difference(manifest.doc.get("play"), made_by["play"]))
        imaging = [f for f in manifest.doc.get("deliverables", []) if f.get("role") == "imaging"]
        for f in imaging:  # barcodes and VIRNs follow from the seed too (docs/validation.md)
            made = Path(tmp) / f["name"]
            if not made.is_file() or _digest(made) != f.get("sha256"):
                problems.append(f"{f['name']}: the regenerated imaging file differs from the manifest's")
    made_with, now = manifest.doc.get("tool", {}), made_by["versions"]
    code = code_comparison(made_with, now)
    if problems:
        changed = [f"{k} {made_with.get(k)} -> {now.get(k)}"
                   for k in ("version", "numpy", "polars", "cryptography") if made_with.get(k) != now.get(k)]
        if changed:  # Parquet bytes embed the writer's version: report what differs
            problems.append("(regenerated with other versions: " + ", ".join(changed) + ")")
        raise VerificationError(Step.REPRODUCTION, "; ".join(problems) + f"; {code}")
    also = f" and {len(imaging)} imaging file(s)" if imaging else ""
    drawn = f"{split} re-derived from the seed; " if split else ""
    return (f"seed matches the commitment; {drawn}{len(manifest.pools)} pool file(s){also} regenerated byte "
            f"for byte with {made_by['generator']}; {code}")
