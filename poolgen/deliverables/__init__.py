"""What a printed run delivers beyond its pool files: ticket identities on paper (barcode numbers,
validation numbers, book numbers), imaging and pack files for the printer, and validation files for
the central system (docs/validation.md). Every file that holds an outcome is a secret until the game
closes: created mode 0600 in a 0700 run folder.
"""

from __future__ import annotations

import os
from pathlib import Path

# role -> (files, holds outcomes, who may receive it). `generate` prints one line per role it wrote,
# and the manifest lists every file with its role (docs/validation.md, section 1).
ROLES: dict[str, tuple[str, bool, str]] = {
    "pool": ("pool-*.parquet", True,
             "operations and auditors only, until the game closes"),
    "imaging": ("imaging-*.parquet", True,
                "the printer only (seal it to the printer's key with `poolgen seal`)"),
    "validation": ("validation-low.bin", True,
                   "the central validation system only (opened with the low-tier validation key)"),
    "validation-high": ("validation-high.bin", True,
                        "the claim centre only (opened with the high-tier validation key)"),
    "packs": ("packs.csv", False,
              "the warehouse and retailers' distribution: no outcome, no pool"),
    "manifest": ("manifest.json, manifest.sig", False, "anyone"),
}


def who_gets_what(roles: set[str]) -> list[str]:
    """One line per file class of a run: what it holds and who may receive it."""
    lines = []
    for role, (files, secret, whom) in ROLES.items():
        if role in roles or role == "manifest":
            held = "holds outcomes, mode 0600" if secret else "holds no outcome"
            lines.append(f"{files}: {held}; may leave the building to {whom}")
    return lines


def create_secret_file(path: Path):
    """A new file of mode 0600 whatever the umask, opened for binary writing; never replaces a file."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)  # the umask can only narrow the mode; this says it exactly
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def write_secret_bytes(path: Path, data: bytes) -> None:
    """Write a new outcome-holding file (mode 0600) and make it durable."""
    with create_secret_file(path) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
