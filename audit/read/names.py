"""The names docs/pool-files.md derives from a pool entry, held by step 5 (audit/steps/figures.py) from
the manifest alone. A pool file is `pool-<POOL_ID>.parquet`; a printed pool's id is `p<k>`, pool k
starting at book slot (k - 1) x the books of the order's whole pools (only the order's last pool may be
smaller); an eInstant pool's id is `d`, its denomination as dollars and two digits of cents, and `x<k>`
(its play areas) for every pool or for none, its price the denomination x its play areas, and its tiers
`lose` (paying nothing, the only one) and `m` followed by the multiplier (prize / price) as its
shortest plain decimal. A run named otherwise verifies nowhere a third engine written from the
contract would: a share `d1.00-0000005` that is a $2 share, a tier `m6000` that pays 2 x the price,
mislead every desk that reads the id.
"""

from __future__ import annotations

import re
from typing import Any

from audit.read.game_number import is_game_number
from audit.read.manifest import Manifest, PoolEntry

__all__ = ["COMMON", "einstant_pool_id", "multiplier_text", "name_problems"]

_PRINTED_ID = re.compile(r"p([1-9][0-9]{0,5})")
MAX_PLACES = 30  # a multiplier has at most 15 places (README, Limits); a price of cents adds fewer


def einstant_pool_id(denomination_cents: int, play_areas: int, suffix: bool) -> str:
    """`d1.00`, or with `suffix` (the spec lists more than one number of play areas) `d1.00x3`."""
    base = f"d{denomination_cents // 100}.{denomination_cents % 100:02d}"
    return base + (f"x{play_areas}" if suffix else "")


def multiplier_text(prize_cents: int, price_cents: int) -> str | None:
    """prize / price as its shortest plain decimal (`5000`, `4.5`, `0.5`), None if it has no finite
    decimal of at most MAX_PLACES places or is not positive."""
    if prize_cents <= 0 or price_cents <= 0:
        return None
    for places in range(MAX_PLACES + 1):
        q, r = divmod(prize_cents * 10**places, price_cents)
        if not r:
            whole, frac = divmod(q, 10**places)
            return f"{whole}.{frac:0{places}d}" if places else str(whole)
    return None


def _file_names(pools: tuple[PoolEntry, ...]) -> list[str]:
    return [f"pools[{i}].file.name {p.file!r}, not {f'pool-{p.id}.parquet'!r}"
            for i, p in enumerate(pools) if p.file != f"pool-{p.id}.parquet"]


def _printed(pools: tuple[PoolEntry, ...]) -> list[str]:
    out, numbered = [], []
    for i, p in enumerate(pools):
        m = _PRINTED_ID.fullmatch(p.id)
        if m is None:
            out.append(f"pools[{i}].id {p.id!r}, not a printed pool's id (p1, p2, ...)")
        else:
            numbered.append((int(m.group(1)), i, p.raw["first_book"], p.raw["books"]))
    whole = set()  # the books of the order's whole pools, as each pool k > 1 gives them
    for k, i, first, books in numbered:
        if k == 1 and first != 0:
            out.append(f"pools[{i}].first_book {first}: pool p1 starts at book slot 0")
        elif k > 1 and (first % (k - 1) or first // (k - 1) < books):
            out.append(f"pools[{i}].first_book {first}: pool p{k} ({books} books) starts at {k - 1} x "
                       f"the books of the order's whole pools, at least {k - 1} x {books}")
        elif k > 1:
            whole.add(first // (k - 1))
    if len(whole) > 1:
        out.append(f"pools' first_book: pools of {sorted(whole)} books; an order's whole pools have one size")
    elif whole:
        size, last = whole.pop(), max(k for k, *_ in numbered)
        out += [f"pools[{i}].books {books}: pool p{k} is smaller than the order's pools of {size} books, "
                "but is not its last" for k, i, _, books in numbered if books < size and k != last]
    return out


def _tiers(i: int, p: PoolEntry, price: int) -> list[str]:
    out = []
    for j, t in enumerate(p.tiers):
        text = multiplier_text(t.prize_cents, price)
        want = "lose" if t.prize_cents == 0 else None if text is None else f"m{text}"
        if want is None:
            out.append(f"pools[{i}].tiers[{j}] pays {t.prize_cents} cents: not a multiple of the share "
                       f"price {price} cents with a finite decimal")
        elif t.id != want:
            out.append(f"pools[{i}].tiers[{j}].id {t.id!r}, not {want!r} (it pays {t.prize_cents} cents "
                       f"for a share of {price})")
    return out


def _einstant(pools: tuple[PoolEntry, ...]) -> list[str]:
    out, suffixed = [], set()
    for i, p in enumerate(pools):
        d, k = p.raw["denomination_cents"], p.raw["play_areas"]
        if d < 1 or k < 1:
            out.append(f"pools[{i}]: denomination_cents {d} and play_areas {k} are not both at least 1")
            continue
        if p.price_cents != d * k:
            out.append(f"pools[{i}].price_cents {p.price_cents}, not denomination_cents {d} x play_areas {k}")
        if p.id not in (einstant_pool_id(d, k, False), einstant_pool_id(d, k, True)):
            out.append(f"pools[{i}].id {p.id!r}, not {einstant_pool_id(d, k, False)!r} or "
                       f"{einstant_pool_id(d, k, True)!r}")
        else:
            suffixed.add(p.id == einstant_pool_id(d, k, True))
        out += _tiers(i, p, d * k)
    if len(suffixed) > 1:
        out.append("pools[].id: some ids name their play areas and some do not (all do when the spec lists "
                   "more than one number of play areas, none otherwise)")
    elif suffixed == {False} and len({p.raw["play_areas"] for p in pools}) > 1:
        out.append("pools[].id: pools of different play areas without `x<k>` in their ids")
    return out


def _losing(pools: tuple[PoolEntry, ...]) -> list[str]:
    """A printed pool's tier `lose` pays nothing, and no other tier does."""
    return [f"pools[{i}].tiers[{j}] {t.id!r} pays {t.prize_cents} cents: `lose` and only `lose` pays nothing"
            for i, p in enumerate(pools) for j, t in enumerate(p.tiers)
            if (t.id == "lose") != (t.prize_cents == 0)]


COMMON = {"printed": ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt"),
          "einstant": ("position", "ticket", "serial", "tier", "prize_cents", "salt")}


def _columns(pools: tuple[PoolEntry, ...], kind: str) -> list[str]:
    """Every pool file starts with the common columns, in docs/pool-files.md's order (step 3 holds the
    file's columns to the manifest's); the layout columns follow."""
    want = COMMON.get(kind, ())
    return [f"pools[{i}].columns start {list(p.columns[:len(want)])}, not {list(want)}"
            for i, p in enumerate(pools) if p.columns[:len(want)] != want]


def _game_number(number: object) -> list[str]:
    """A printed game's number is the `GGG` (`GGGG` from 1000) of every ticket id and barcode: 0 to 9999."""
    if is_game_number(number):
        return []
    return [f"game.number {number!r}, not a whole number 0 to 9999 (the GGG or GGGG of every ticket id and "
            "barcode)"]


FILE_NAMES = {"packs": "packs.csv", "validation": "validation-low.bin",  # docs/validation.md, section 1
              "validation-high": "validation-high.bin"}


def _deliverable_names(doc: dict[str, Any]) -> list[str]:
    """Every deliverable but a pool file (its pool entry's, above) has the name docs/validation.md
    gives its role: `imaging-<POOL_ID>.parquet`, `packs.csv`, `validation-low.bin`,
    `validation-high.bin`. A list not of that form is step 2's to refuse (audit/steps/listing.py)."""
    files = doc.get("deliverables")
    out = []
    for f in files if isinstance(files, list) else []:
        role = f.get("role") if isinstance(f, dict) else None
        want = f"imaging-{f.get('pool')}.parquet" if role == "imaging" else FILE_NAMES.get(str(role))
        if want is not None and f.get("name") != want:
            out.append(f"deliverables[] ({role}) name {str(f.get('name'))[:80]!r}, not {want!r}")
    return out


def name_problems(manifest: Manifest) -> list[str]:
    """How the manifest's pool ids, pool file names, eInstant prices and tier ids differ from the ones
    docs/pool-files.md derives from its pool entries, its pools' columns from the common columns'
    order, and its deliverables' names from docs/validation.md's (empty: as the contracts give them)."""
    pools = manifest.pools
    out = _file_names(pools) + _columns(pools, manifest.kind)
    out += _printed(pools) + _losing(pools) + _game_number(manifest.doc["game"].get("number")) \
        if manifest.kind == "printed" else _einstant(pools)
    return out + _deliverable_names(manifest.doc)

