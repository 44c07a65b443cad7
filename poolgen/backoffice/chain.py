"""The ledgers' hash chains and heads (docs/back-office.md, section 4, "The chain and the head"; the
sales ledger's sales, voids and payments, section 5).

Every attempt row holds `chain`, the hex SHA-256 of the previous row's chain and the row's own fields
(a paid attempt's with its payment's), so the ledger's last row names everything before it. Its
**head**, `N:HEX` (the last claim number and that row's chain), printed by every desk that records and
by every reconciliation, is the anchor kept outside the ledger: rows removed from the end leave a
ledger whose own chain still holds, and only a head recorded before shows them missing.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from poolgen.backoffice.errors import BackOfficeError

GENESIS = bytes(32)  # the chain before claim no. 1
EMPTY_HEAD = f"0:{GENESIS.hex()}"
_HEAD = re.compile(r"(0|[1-9][0-9]{0,17}):([0-9a-f]{64})", re.ASCII)


def _field(value: str | int) -> bytes:
    data = str(value).encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def link(previous: bytes, fields: Sequence[str | int]) -> bytes:
    """The chain of a row: SHA-256 of the previous row's chain and each field, length-prefixed (4 bytes,
    big-endian, then its UTF-8; an integer as decimal digits)."""
    return hashlib.sha256(previous + b"".join(_field(f) for f in fields)).digest()


def head_text(claim_no: int, chain: bytes) -> str:
    return f"{claim_no}:{chain.hex()}"


def parse_head(text: str, what: str = "--head", entry: str = "claim", given: str = "") -> tuple[int, bytes]:
    """(number, chain) of a head `N:HEX` (64 lower-case hex digits); `entry` names the ledger's numbered
    rows in a refusal: "claim" (claims), "payment" (eInstant sales), "move" (books); `given`, the
    argument as given where the head is part of it (`sales=N:HEX`)."""
    m = _HEAD.fullmatch(text)
    if not m:
        raise BackOfficeError(f"{what} {(given or text)!r}: not a ledger head N:HEX (a {entry} number, a "
                              "colon and 64 lower-case hex digits)")
    return int(m.group(1)), bytes.fromhex(m.group(2))


def _file(path: Path) -> tuple[int, int] | None:
    """The file `path` reaches (device and inode, links followed), or None if it reaches none."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # missing, a name too long, a NUL: the ledger's own open names it
        return None
    return st.st_dev, st.st_ino


def heads_for(ledgers: list[Path], heads: list[str]) -> dict[Path, tuple[int, bytes]]:
    """Each `--head` given: `N:HEX` when one ledger is given, else `LEDGER=N:HEX` naming one of them, by
    the file it reaches, not the path as typed (docs/back-office.md, section 4): `claims.sqlite`,
    `./claims.sqlite`, its absolute path, a path through a linked folder, a symbolic link or a hard link
    to it all name the ledger given as any of them; keyed by the ledger's path as given."""
    out: dict[Path, tuple[int, bytes]] = {}
    files = {p: _file(p) for p in ledgers}
    for text in heads:
        name, sep, head = text.rpartition("=")
        if not sep:
            if len(ledgers) != 1:
                raise BackOfficeError(f"--head {text!r}: name its ledger (LEDGER=N:HEX) when several are "
                                      "given")
            path = ledgers[0]
        else:
            named = _file(Path(name))
            found = next((p for p in ledgers if p == Path(name) or (named is not None and files[p] == named)),
                         None)
            if found is None:
                raise BackOfficeError(f"--head {text!r}: {name} is not one of the --ledger files given")
            path = found
        if path in out:
            raise BackOfficeError(f"--head {text!r}: a second head for {path}")
        out[path] = parse_head(head, "--head")
    return out


_PAID = "a removed payment can be paid again"
# what a row removed from the end of the books ledger undoes (docs/back-office.md, section 8)
# and of the sales ledger's sales, voids, closings and conversions (section 5)
_REMOVED = {"move": "a stolen or returned book whose move was removed is claimable again",
            "sale": "a removed sale's share can be sold again, or claimed by anyone",
            "void": "a voided share whose void was removed can be paid",
            "closing": "a pool whose closing was removed sells again, and a sale after it passes",
            "conversion": "a converted ledger whose conversion was removed reads as chained as written"}


def problems(path: Path, rows: Iterable[tuple[int, Sequence[str | int], str]],
             head: tuple[int, bytes] | None, what: str = "claim",
             head_name: str = "head") -> tuple[str, list[str]]:
    """The ledger's head, recomputed from its rows (claim number, hashed fields, stored chain) in claim
    order, and what is wrong: the first row whose stored chain is not the recomputed one, and a recorded
    `head` the ledger no longer extends (its claim no. N missing, or not the row the head named); `what`
    names the numbered rows ("claim", "payment", "move", "sale", "void"), `head_name` the head in a
    refusal ("head"; the sales ledger's "sales head", "voids head")."""
    out: list[str] = []
    chain, last = GENESIS, 0
    chains: dict[int, bytes] = {0: GENESIS}
    broken = False
    for no, fields, stored in rows:
        chain = link(chain, fields)
        chains[no] = chain
        last = no
        if not broken and stored != chain.hex():
            broken = True
            out.append(f"{path}: {what} no. {no}: its chain is not the one its rows give (a row edited, "
                       "inserted or removed by hand)")
    if head is not None:
        n, want = head
        if n > last:
            gone = n - last
            which = f"{what} no. {n:,} is" if gone == 1 else f"{what}s {last + 1:,} to {n:,} are"
            count = f"{gone:,} row{'s' if gone > 1 else ''}"
            undone = _REMOVED.get(what, _PAID)
            out.append(f"{path}: {which} missing ({count} removed from its end): "
                       f"the ledger no longer extends its {head_name} {head_text(n, want)}; {undone}")
        elif chains.get(n) != want:
            out.append(f"{path}: its {what} no. {n:,} is not the row its {head_name} {head_text(n, want)} "
                       f"named (rows removed from its end and {what}s recorded since, or rows edited): "
                       "the ledger no longer extends that head")
    return head_text(last, chain), out
