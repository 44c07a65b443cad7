"""Step 7 without a generator (`python -m audit verify --seed-file`): every validation number of a
printed run, and with the spec every book number, re-derived from the seed, written from
docs/randomness.md (sections 2 and 3) and docs/validation.md (section 2) alone.

Without it an insider holding the signing key could choose the validation numbers (say, digits of the
barcode) and pass every step of audit alone, seed given: step 9 checks that a VIRN has its digits and
that the validation files agree with it, not where it came from. A VIRN a retailer can compute from
the barcode lets them ask the central system which unsold tickets win (docs/validation.md, section 3:
finding a record without the VIRN is meant to take 10^virn_digits tries).

    stream(label) = ChaCha20 keystream (RFC 8439, zero nonce, counter from 0) under
                    HKDF-SHA256(ikm = seed, salt = "poolgen/drbg/v1", info = each part's 4-byte
                    big-endian length || its UTF-8), read as little-endian 64-bit words
    VIRN of ticket p of pool P = value p of integers(stream(("poolgen/v1", RULES, P, "virn")), 10^d):
                    one word a slot, masked with the smallest all-ones mask covering 10^d - 1, kept
                    below 10^d; rejected slots refilled in slot order from the next words
    book number of slot s = perm[s], perm = permutation(stream(("poolgen/v1", RULES, "order", "books")),
                    S): S words as keys (all drawn again on a tie), the order sorting them ascending;
                    S the order's book slots (the spec's pools), not the run's
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.runfiles import imaging_file, read_columns, read_pool
from audit.read.specs import SpecExpectation
from audit.steps.books import spec_slots

__all__ = ["Stream", "check_books", "check_virns", "integers", "permutation"]

SALT = b"poolgen/drbg/v1"


class Stream:
    """A label's keystream, read word after word."""

    def __init__(self, seed: bytes, *label: str) -> None:
        info = b"".join(len(p.encode()).to_bytes(4, "big") + p.encode() for p in label)
        key = HKDF(hashes.SHA256(), 32, salt=SALT, info=info).derive(seed)
        self._enc = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()

    def read(self, n: int) -> bytes:
        return self._enc.update(bytes(n))

    def words(self, n: int) -> np.ndarray:
        return np.frombuffer(self._enc.update(bytes(8 * n)), dtype="<u8").astype(np.uint64)


def integers(seed: bytes, label: tuple[str, ...], high: int, count: int) -> np.ndarray:
    """`count` integers in [0, high) from a label's stream, as docs/randomness.md section 3 draws them."""
    stream, mask = Stream(seed, *label), np.uint64((1 << (high - 1).bit_length()) - 1)
    out, todo = np.zeros(count, dtype=np.uint64), np.arange(count)
    while todo.size:  # round after round, the rejected slots in slot order
        words = stream.words(todo.size) & mask
        kept = words < np.uint64(high)
        out[todo[kept]] = words[kept]
        todo = todo[~kept]
    return out


def permutation(seed: bytes, label: tuple[str, ...], n: int) -> np.ndarray:
    """A permutation of range(n) from a label's stream (docs/randomness.md, section 3): n words as keys,
    all drawn again while two are equal; the order that sorts them ascending."""
    stream = Stream(seed, *label)
    while True:
        keys = stream.words(n)
        order = np.argsort(keys, kind="stable")
        if not np.any(keys[order][1:] == keys[order][:-1]):
            return order


def check_books(folder: Path, manifest: Manifest, seed: bytes, spec: SpecExpectation | None,
                book_key: bytes | None = None) -> str:
    """(7) every pool file's book numbers are the seed's permutation of the order's book slots (with the
    spec, which gives the order's slots: a run may hold some of its pools); "" when not checked. A run
    whose manifest says its books are under a book key fails here without the key: the seed does not
    give its numbers, and the claim is the signer's own (a ceremony binds its check value, step 5); with
    the key, step 3 has checked every number against it."""
    printed = manifest.doc.get("print", {})
    if manifest.kind == "printed" and "book_key_check" in printed:
        if book_key is None:
            raise VerificationError(Step.REPRODUCTION, "book numbers not re-derived: the manifest says they "
                                    f"are under a book key (check value {printed['book_key_check']}), which "
                                    "the seed does not give: give --book-key (docs/validation.md, section 2)")
        return "book numbers: the book key's, checked against it in step 3"
    per_book = manifest.tickets_per_book
    if manifest.kind != "printed" or not per_book:
        return ""  # an eInstant: no books
    slots = spec_slots(spec, manifest)  # None without the run's spec (another spec is step 5's)
    if slots is None:  # said, never passed silently: the order's book slots are the spec's
        return "book numbers not re-derived: give --spec (the order's book slots are the spec's)"
    numbers = permutation(seed, ("poolgen/v1", manifest.doc["game"]["rules"], "order", "books"), slots)
    wrong, n = [], 0
    for pool in manifest.pools:
        first = pool.raw.get("first_book")
        if not (folder / pool.file).is_file() or not isinstance(first, int) or first < 0:
            continue
        books = read_pool(folder, pool.file, ["book"])["book"].to_numpy().astype(np.int64)
        at = first + np.arange(len(books)) // per_book
        want = numbers[np.minimum(at, slots - 1)]
        off = np.flatnonzero((at >= slots) | (books != want))
        n += len(books) // per_book
        if off.size:
            wrong.append(f"{pool.file}: book number(s) not the seed's, first at position {int(off[0]):,}")
    if wrong:
        raise VerificationError(Step.REPRODUCTION, "seed matches the commitment; " + "; ".join(wrong)
                                + " (docs/validation.md, section 2: the order's books stream)")
    return f"{n:,} book numbers"


def check_virns(folder: Path, manifest: Manifest, seed: bytes) -> str:
    """(7) every imaging file's validation numbers are the seed's; "" for a run with none to check."""
    files = {f.get("pool"): f.get("name") for f in manifest.doc.get("deliverables", [])
             if isinstance(f, dict) and f.get("role") == "imaging"}
    digits = manifest.doc.get("print", {}).get("virn_digits")
    if manifest.kind != "printed" or not files or type(digits) is not int or not 9 <= digits <= 18:
        return ""  # outside 9..18 (docs/validation.md) step 5 fails it; 10^(10^9) would never end
    rules, wrong, n = manifest.doc["game"]["rules"], [], 0
    for pool in manifest.pools:
        name = files.get(pool.id)
        if not isinstance(name, str) or not (folder / name).is_file():  # absent: step 2's (or a reveal's)
            continue
        shown = read_columns(imaging_file(folder, name)[0], ["virn"])["virn"].cast(pl.String)  # not whole
        want = pl.Series(integers(seed, ("poolgen/v1", rules, pool.id, "virn"), 10**digits, pool.tickets)) \
            .cast(pl.String).str.zfill(digits)
        common = min(len(shown), len(want))  # a row more or fewer is said below; the rows there compared
        off = np.flatnonzero((shown.head(common) != want.head(common)).fill_null(True).to_numpy())
        n += len(want)
        if off.size:
            wrong.append(f"{name}: {off.size:,} validation number(s) not the seed's, first at position "
                         f"{int(off[0]):,}")
        if len(shown) != len(want):
            wrong.append(f"{name}: {len(shown):,} validation numbers for the pool's {len(want):,} tickets")
    if wrong:
        raise VerificationError(Step.REPRODUCTION, "seed matches the commitment; " + "; ".join(wrong)
                                + " (docs/validation.md, section 2: each from the pool's virn stream)")
    return f"{n:,} validation numbers"
