"""A third engine for a printed run's press deliverables, as a printer's engineer would compute them from
docs/validation.md sections 2 and 4, docs/pool-files.md and docs/manifest.md alone: every ticket's
barcode number, its VIRN and its book's number (these two given the seed, with split.py's stream of
docs/randomness.md), the imaging file's columns from the pool file, the manifest's `play` entry and
the spec's `[[symbols]]`, and the pack list's exact bytes.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it)."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import polars as pl

from tests.third_engines.split import Stream
from tests.third_engines.validation_desk import barcode, game_digits

# docs/validation.md section 4: a layout column's prefix (after `<area id>_`) and the lists of the
# area's play entry its stored value indexes, in order, for the styles of the games held here.
SPOT_LISTS: dict[str, list[tuple[str, list[str]]]] = {
    "match_n": [("spot", ["prizes", "multipliers"])],
    "key_number_match": [("win", ["numbers"]), ("your", ["numbers", "specials"]), ("prize", ["prizes"])],
    "bonus_reveal": [("spot", ["pictures", "prizes"])],
}


def virns(seed: bytes, rules: str, pool: str, tickets: int, digits: int) -> list[str]:
    """Ticket p's VIRN: value p of integers(stream, 10^digits) of ("poolgen/v1", RULES, P, "virn")."""
    values = Stream(seed, ("poolgen/v1", rules, pool, "virn")).integers(10 ** digits, tickets)
    return [f"{v:0{digits}d}" for v in values]


def book_numbers(seed: bytes, rules: str, slots: int) -> list[int]:
    """perm[s], the printed number of book slot s: permutation(stream, S) of the order's books stream."""
    return Stream(seed, ("poolgen/v1", rules, "order", "books")).permutation(slots)


def keyed_book_numbers(key: bytes, rules: str, slots: int) -> list[int]:
    """Under a book key: slot s is the rank of HMAC-SHA256(key, "poolgen/books/v1" || lp(RULES) || u64(s))
    among the S slots' tags, ascending (tags compared as unsigned bytes; equal tags by slot)."""
    name = rules.encode("utf-8")
    tags = [hmac.new(key, b"poolgen/books/v1" + len(name).to_bytes(8, "big") + name + s.to_bytes(8, "big"),
                     hashlib.sha256).digest() for s in range(slots)]
    ranks = [0] * slots
    for rank, s in enumerate(sorted(range(slots), key=lambda s: (tags[s], s))):
        ranks[s] = rank
    return ranks


def _code(item: object) -> str:
    return str(item["code"]) if isinstance(item, dict) else str(item)


def _symbols(spec: dict) -> dict[tuple[str, str], dict]:
    return {(s["group"], str(s["code"])): s for s in spec.get("symbols", [])}


def spot_symbols(play: dict, spec: dict) -> dict[str, list[tuple[str, str, str]]]:
    """For each area's column prefix (`<id>_<prefix>_`), the (code, text, caption) each stored value
    shows: the area's lists of the play entry in the rule's order, each item the spec's symbol of the
    group the spec's area names for that list."""
    table = _symbols(spec)
    spec_areas = {a["id"]: a for a in spec.get("areas", [])}
    out = {}
    for area in play["areas"]:
        for prefix, lists in SPOT_LISTS[area["style"]]:
            shown = []
            for name in lists:
                group = spec_areas[area["id"]].get(name)
                for item in area.get(name, []):
                    symbol = table[(group, _code(item))]
                    shown.append((str(symbol["code"]), symbol["symbol"], symbol.get("caption", "")))
            out[f"{area['id']}_{prefix}_"] = shown
    return out


def _prefix(column: str, prefixes: dict) -> str:
    match = re.fullmatch(r"(.*_)\d+", column)
    assert match and match[1] in prefixes, f"{column}: no imaging rule covers it"
    return match[1]


def imaging(pool: pl.DataFrame, virn_of: list[str], game: int, play: dict, spec: dict,
            common: list[str]) -> pl.DataFrame:
    """The imaging file's rows for a pool table: barcode, virn, book, ticket_no, then C, C_text,
    C_caption for every layout column C in the pool's order."""
    spots = spot_symbols(play, spec)
    books, numbers = pool["book"].to_list(), pool["ticket_no"].to_list()
    columns: dict[str, pl.Series] = {
        "barcode": pl.Series([barcode(game, b, t) for b, t in zip(books, numbers, strict=True)],
                             dtype=pl.String),
        "virn": pl.Series(virn_of, dtype=pl.String),
        "book": pool["book"].cast(pl.UInt32), "ticket_no": pool["ticket_no"].cast(pl.UInt16)}
    for column in (c for c in pool.columns if c not in common):
        shown = spots[_prefix(column, spots)]
        values = pool[column].to_list()
        for k, suffix in enumerate(("", "_text", "_caption")):
            columns[column + suffix] = pl.Series([shown[v][k] for v in values], dtype=pl.String)
    return pl.DataFrame(columns)


def pack_list(game: int, books: list[int], per_book: int) -> bytes:
    """packs.csv: the header, then `GGG,BOOK,0,LAST,PER` a book (GGGG for a game numbered 1000 to 9999),
    sorted by book number, LF-ended."""
    lines = ["game,book,first_ticket,last_ticket,tickets"]
    lines += [f"{game_digits(game)},{b},0,{per_book - 1},{per_book}" for b in sorted(books)]
    return "".join(line + "\n" for line in lines).encode("ascii")


def order_slots(spec: dict) -> int:
    """S, the order's book slots: the largest first_book + books of the order's pools, every pool of the
    order whatever the run holds: the spec's order_tickets / tickets per book (whole books)."""
    printed = spec["printed"]
    per_book = printed["last_ticket"] - printed["first_ticket"] + 1
    assert printed["order_tickets"] % per_book == 0, "an order of whole books"
    return printed["order_tickets"] // per_book


COMMON = ["position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt"]


def pool_tables(run: Path, manifest: dict) -> dict[str, pl.DataFrame]:
    return {p["id"]: pl.read_parquet(run / p["file"]["name"]) for p in manifest["pools"]}


def slot_numbers(manifest: dict, spec: dict, seed: bytes, book_key: bytes | None) -> list[int]:
    """Every book slot's printed number: under the book key when the manifest says one numbers them,
    else from the seed's books stream."""
    rules, slots = manifest["game"]["rules"], order_slots(spec)
    if "book_key_check" in manifest["print"]:
        assert book_key is not None, "the manifest says a book key numbers the books"
        return keyed_book_numbers(book_key, rules, slots)
    return book_numbers(seed, rules, slots)
