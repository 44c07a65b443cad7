"""Run seeds: 32 secret bytes kept in a 0600 file as 64 hex digits, never printed or logged.

- `fresh_seed(contributions)`: OS entropy, mixed with any ceremony contributions, so that no single
  contributor (the OS included) controls the result.
- `commitment(seed)`: what manifests record instead of the seed.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from poolgen.errors import SeedError
from poolgen.files.read import read_secret
from poolgen.files.write import resolved, write_secret
from poolgen.limits import MAX_SEED_FILE_BYTES

SEED_BYTES = 32
_MIX = b"poolgen/seed-ceremony/v1"
_COMMIT = b"poolgen/seed-commitment/v1"


def mix(contributions: list[bytes]) -> bytes:
    """SHA-256 over the length-prefixed contributions under a domain label.

    The output is unpredictable as long as one contribution is secret and uniformly random, and no
    contributor can choose it without knowing every other contribution in advance.
    """
    h = hashlib.sha256(_MIX)
    for c in contributions:
        h.update(len(c).to_bytes(8, "big"))
        h.update(c)
    return h.digest()


def fresh_seed(contributions: list[bytes] | None = None) -> bytes:
    """256 fresh bits from the OS, mixed with any ceremony contributions."""
    return mix([os.urandom(SEED_BYTES), *(contributions or [])])


def parse_entropy(values: list[str]) -> list[bytes]:
    """`--entropy HEX` values as bytes; each must be at least 16 bytes (32 hex digits)."""
    out = []
    for i, v in enumerate(values):
        try:
            raw = bytes.fromhex(v)
        except ValueError:
            raise SeedError(f"--entropy #{i + 1}: not hexadecimal") from None
        if len(raw) < 16:
            raise SeedError(f"--entropy #{i + 1}: {len(raw)} bytes; give at least 16 (32 hex digits)")
        out.append(raw)
    return out


def commitment(seed: bytes) -> str:
    """SHA-256(label || seed) in hex: binds a run to its seed without revealing it."""
    return hashlib.sha256(_COMMIT + seed).hexdigest()


def write_seed_file(path: Path, seed: bytes, keep_locked: bool = False) -> int | None:
    """Create a new seed file (mode 0600); an existing file is never overwritten. With `keep_locked`,
    return a descriptor holding its lock (a provisional seed, see poolgen.files.leftovers)."""
    if len(seed) != SEED_BYTES:
        raise SeedError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
    folder = resolved(path).parent
    if any(os.path.exists(f / "manifest.json") for f in (folder, *folder.parents)):
        raise SeedError(f"{path}: would put a seed inside a run folder (it holds manifest.json); "
                        "keep seeds outside run folders")
    return write_secret(path, seed.hex().encode() + b"\n", what="seed file", keep_locked=keep_locked)


def read_seed_file(path: Path, allow_readable: bool = False) -> bytes:
    """Read a seed file: 64 hex digits and an optional newline. A file others may read is refused
    unless `allow_readable`."""
    body = read_secret(path, "seed", SeedError, MAX_SEED_FILE_BYTES, allow_readable).strip()
    try:
        seed = bytes.fromhex(body.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise SeedError(f"{path}: seed file must hold {2 * SEED_BYTES} hex digits") from None
    if len(seed) != SEED_BYTES:
        raise SeedError(f"{path}: seed is {len(seed)} bytes; a seed is {SEED_BYTES} bytes "
                        f"({2 * SEED_BYTES} hex digits)")
    if degenerate(seed):
        raise SeedError(f"{path}: {DEGENERATE}")
    return seed


DEGENERATE = ("its 32 bytes are all the same value: a typed or zeroed file, not a secret seed; refusing "
              "it (`poolgen seed new` makes one)")


def degenerate(seed: bytes) -> bool:
    """A seed whose bytes are all one value (32 zero bytes, "ff" typed 32 times): a file typed or zeroed
    by hand, never a seed the OS or a ceremony made (docs/randomness.md, section 1). Its value is never
    shown."""
    return len(set(seed)) == 1
