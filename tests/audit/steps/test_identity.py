"""Step 3 of the audit checklist (audit/steps/identity.py, books.py) recomputes every ticket's identity
from its book and position (docs/pool-files.md) and checks that no ticket id is in two pools: a ticket id
changed, or two pools claiming the same books, is caught by step 3 even when the whole run is resealed
with the real signing key.

One signed Happy Holidays run of two pools (p1: book slots 0..999, p2: 1000..1999, numbered by the
order's secret book permutation) is generated once, and the same two pools cut to 3,000 tickets (10 books
each), signed with the same key: every tampered case works on a copy of the small one (step 3 recomputes
an identity alike in a pool of any size). The eInstant formula is
checked on small tables built here. Then step 3 called directly, message by message, on the small runs of
tests/audit/steps/conftest.py and tests/audit/conftest.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from audit.errors import VerificationError
from audit.read.manifest import Manifest, PoolEntry
from audit.steps import identity
from audit.steps.identity import check_complete, check_run_identities, expected_identities
from poolgen.cli.main import app
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer
from tests.support import SEED_A, small_happy_holidays, spec_path
from tests.support.cli import invoke
from tests.support.steps import fails_at as _fails_at

PER_BOOK = 300
IDENTITY = ["position", "ticket", "book", "ticket_no"]


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("ids")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)  # a seed file others may read is refused
    assert invoke("keys", "new", root / "keys").exit_code == 0
    key = root / "keys" / "signing-key.pem"
    result = invoke("generate", spec_path("happy_holidays"), "--out", root / "runs", "--seed-file",
                    root / "run.seed", "--pool", "p1", "--pool", "p2", "--run-id", "r", "--workers", "2",
                    "--key", key)
    assert result.exit_code == 0, result.output
    return {"run": root / "runs" / "r", "public": root / "keys" / "signing-key.pub.pem",
            "signer": Signer.from_file(key), "root": root}


@pytest.fixture(scope="module")
def small(base) -> Path:
    """Happy Holidays cut to pools p1 and p2 of 3,000 tickets (tests/support `small_happy_holidays`),
    generated as base's run is, with its seed and key."""
    root = base["root"]
    spec = small_happy_holidays(root, 6000)
    result = invoke("generate", spec, "--out", root / "small", "--seed-file", root / "run.seed",
                    "--pool", "p1", "--pool", "p2", "--run-id", "r", "--workers", "2",
                    "--key", root / "keys" / "signing-key.pem")
    assert result.exit_code == 0, result.output
    return root / "small" / "r"


@pytest.fixture
def run(small, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(small, copy)
    return copy


def verify(base, run: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["public"]), "--json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def reasons(report: dict, step: int) -> list[str]:
    return report["steps"][step - 1]["reasons"]


def rewrite(run: Path, pool: str, change) -> None:
    path = run / f"pool-{pool}.parquet"
    change(pl.read_parquet(path)).write_parquet(path, compression="zstd", statistics=True)


def reseal(base, run: Path, edit=None) -> None:
    """What an insider with the signing key would do: restate every pool file's size, hash and Merkle
    root, optionally edit the manifest, and sign it again."""
    doc = json.loads((run / "manifest.json").read_bytes())
    for entry in doc["pools"]:
        path = run / entry["file"]["name"]
        entry["file"] = file_entry(path)
        entry["merkle"]["root"] = merkle_root(pl.read_parquet(path)).hex()
    if edit:
        edit(doc)
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)


def set_ticket(table: pl.DataFrame, position: int, ticket: str) -> pl.DataFrame:
    return table.with_columns(pl.when(pl.col("position") == position).then(pl.lit(ticket))
                              .otherwise(pl.col("ticket")).alias("ticket"))


# ---- an honest run ---------------------------------------------------------------------------------

def books_of(run: Path, pool: str) -> list[int]:
    """The pool's book numbers in print order (a secret permutation of the order's book slots)."""
    return pl.read_parquet(run / f"pool-{pool}.parquet", columns=["book"])["book"][::PER_BOOK].to_list()


def test_honest_run_passes_step_3_with_what_it_checked(base):
    code, report = verify(base, base["run"])
    assert code == 0 and report["steps"][2]["status"] == "pass"
    assert report["steps"][2]["details"] == [
        "pool p1: 300,000 tickets at positions 0..299,999; every ticket id is the one its book and ticket "
        "number give (1000 books (slots 0..999) x tickets 0..299, each once); every salt is 32 hex digits "
        "(that they are the seed's is step 7's to prove)",
        "pool p2: 300,000 tickets at positions 0..299,999; every ticket id is the one its book and ticket "
        "number give (1000 books (slots 1000..1999) x tickets 0..299, each once); every salt is 32 hex "
        "digits (that they are the seed's is step 7's to prove)",
        "book slots of the 2 pool(s) do not overlap (p1 0..999, p2 1000..1999)",
        "2,000 book numbers of 2 pool file(s) are distinct across the run",
    ]
    books = books_of(base["run"], "p1") + books_of(base["run"], "p2")
    assert len(set(books)) == 2000 and max(books) < 6000  # numbers from all 6,000 slots of the order
    assert books[:1000] != list(range(1000))


def test_a_ticket_id_changed_and_the_run_resealed(base, run):
    book = books_of(run, "p1")[1234 // PER_BOOK]
    rewrite(run, "p1", lambda t: set_ticket(t, 1234, f"465-{book:07d}-999"))  # still unique in the pool
    reseal(base, run)
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [3]
    assert reasons(report, 3) == [
        "pool p1: 1 ticket id(s) not as recomputed from the position, first at position 1,234: "
        f"'465-{book:07d}-999' where '465-{book:07d}-034' is expected"]


def test_two_ticket_ids_swapped_and_the_run_resealed(base, run):
    book = books_of(run, "p2")[0]
    rewrite(run, "p2", lambda t: set_ticket(set_ticket(t, 5, f"465-{book:07d}-200"), 200,
                                            f"465-{book:07d}-005"))
    reseal(base, run)
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [3]
    assert reasons(report, 3) == [
        "pool p2: 2 ticket id(s) not as recomputed from the position, first at position 5: "
        f"'465-{book:07d}-200' where '465-{book:07d}-005' is expected"]


def test_a_ticket_moved_to_another_pools_book_and_the_run_resealed(base, run):
    mine, theirs = books_of(run, "p1")[0], books_of(run, "p2")[0]

    def move(t: pl.DataFrame) -> pl.DataFrame:
        second = pl.col("position") == 1
        return set_ticket(t, 1, f"465-{theirs:07d}-001").with_columns(
            pl.when(second).then(theirs).otherwise(pl.col("book")).cast(pl.UInt32).alias("book"))

    rewrite(run, "p1", move)
    reseal(base, run)
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [3, 9]  # the printer's file still has the old book
    assert reasons(report, 9)[0].startswith("imaging-p1.parquet: 1 barcode number(s) not those of the pool's")
    assert reasons(report, 3) == [
        f"pool p1: 1 row(s) carry another book number than their book's first ticket, first at position 1: "
        f"{theirs} in book {mine}; 1 ticket id(s) not as recomputed from the position, first at position 1: "
        f"'465-{theirs:07d}-001' where '465-{mine:07d}-001' is expected",
        f"1 book number(s) in two pools, so their ticket ids repeat: book {theirs} is in pools p1 and p2"]


# ---- two pools claiming the same books ---------------------------------------------------------------

def test_two_pools_claiming_the_same_book_numbers(base, run):
    p1 = pl.read_parquet(run / "pool-p1.parquet", columns=["ticket", "book"])
    rewrite(run, "p2", lambda t: t.with_columns(p1["ticket"], p1["book"]))
    reseal(base, run)
    code, report = verify(base, run)
    assert code == 1 and report["failed_steps"] == [3, 9]  # and p2's imaging file has its real books
    first = books_of(run, "p1")
    assert reasons(report, 3) == [
        "10 book number(s) in two pools, so their ticket ids repeat: "
        + "; ".join(f"book {b} is in pools p1 and p2" for b in sorted(first)[:3])]
    # each pool on its own is consistent: only the run-wide check can tell
    assert report["steps"][2]["details"][1].startswith(
        "pool p2: 3,000 tickets at positions 0..2,999; every ticket id is the one its book and ticket ")


def test_overlap_check_on_the_manifest_alone(base):
    doc = json.loads((base["run"] / "manifest.json").read_bytes())
    assert "do not overlap" in check_run_identities(Manifest.parse(canonical_bytes(doc)))
    doc["pools"][1]["first_book"] = 999
    with pytest.raises(VerificationError) as caught:
        check_run_identities(Manifest.parse(canonical_bytes(doc)))
    assert caught.value.step == 3
    assert caught.value.reason == "pools p1 and p2 claim overlapping book slots (p1: 0..999, p2: 999..1998)"
    doc["pools"][1]["first_book"] = 1000  # adjacent, not overlapping
    doc["pools"][0]["books"] = 0
    assert check_run_identities(Manifest.parse(canonical_bytes(doc))).startswith(
        "book slots of the 2 pool(s) do not overlap (p2 1000..1999)")


# ---- the eInstant formula, on small tables -----------------------------------------------------------

EINSTANT_COLUMNS = ("position", "ticket", "serial", "tier", "prize_cents", "salt")


def einstant_pool(pool_id: str, n: int) -> tuple[pl.DataFrame, PoolEntry]:
    serial = pl.Series("serial", range(1, n + 1), dtype=pl.UInt32)
    table = pl.DataFrame({
        "position": pl.Series(range(n), dtype=pl.UInt32),
        "ticket": [f"{pool_id}-{s:07d}" for s in range(1, n + 1)],
        "serial": serial,
        "tier": ["lose"] * n,
        "prize_cents": pl.Series([0] * n, dtype=pl.Int64),
        "salt": [f"{s:032x}" for s in range(n)],
    })
    entry = PoolEntry(id=pool_id, price_cents=100, tickets=n, tiers=(), winners=0, prize_cost_cents=0,
                      odds_1_in=None, payout_pct="0.0000", file=f"pool-{pool_id}.parquet", file_bytes=0,
                      file_sha256="0" * 64, columns=EINSTANT_COLUMNS, merkle_algorithm="poolgen-merkle/v2",
                      merkle_root="0" * 64, raw={"id": pool_id, "denomination_cents": 100, "play_areas": 1})
    return table, entry


def step3_reason(table: pl.DataFrame, entry: PoolEntry, kind: str = "einstant", per_book=None,
                 number=None) -> str:
    with pytest.raises(VerificationError) as caught:
        check_complete(table, entry, kind, per_book, number)
    assert caught.value.step == 3
    return caught.value.reason


def test_einstant_ids_recomputed():
    table, entry = einstant_pool("d1.00x2", 40)
    assert check_complete(table, entry, "einstant", None) == (
        "40 shares at positions 0..39; every ticket id is the one its position gives (serials 1..40, "
        "each once); every salt is 32 hex digits (that they are the seed's is step 7's to prove)")
    assert step3_reason(set_ticket(table, 7, "d1.00x2-0000099"), entry) == (
        "1 ticket id(s) not as recomputed from the position, first at position 7: 'd1.00x2-0000099' "
        "where 'd1.00x2-0000008' is expected")
    other, _ = einstant_pool("d1.00x1", 40)  # another pool's ids: unique, but not this pool's
    assert step3_reason(other, entry) == (
        "40 ticket id(s) not as recomputed from the position, first at position 0: 'd1.00x1-0000001' "
        "where 'd1.00x2-0000001' is expected")
    shifted = table.with_columns((pl.col("serial") + 1).alias("serial"))
    assert step3_reason(shifted, entry) == (
        "40 serial(s) not as recomputed from the position, first at position 0: 2 where 1 is expected")


def test_printed_ids_need_the_game_number(base):
    manifest = Manifest.parse((base["run"] / "manifest.json").read_bytes())
    table = pl.read_parquet(base["run"] / "pool-p1.parquet", columns=list(manifest.pools[0].columns))
    assert check_complete(table, manifest.pools[0], "printed", PER_BOOK, 465).startswith("300,000 tickets")
    assert step3_reason(table, manifest.pools[0], "printed", PER_BOOK, None) == (
        "game.number None is not a game number: ticket ids cannot be recomputed")
    book = f"{table['book'][0]:07d}"
    assert step3_reason(table, manifest.pools[0], "printed", PER_BOOK, 358) == (
        f"300,000 ticket id(s) not as recomputed from the position, first at position 0: '465-{book}-000' "
        f"where '358-{book}-000' is expected")


def _set_salt(table: pl.DataFrame, position: int, salt: str) -> pl.DataFrame:
    return table.with_columns(pl.when(pl.col("position") == position).then(pl.lit(salt))
                              .otherwise(pl.col("salt")).alias("salt"))


def test_salts_are_128_bit_hex_and_never_repeat():
    table, entry = einstant_pool("d1.00x2", 40)
    assert step3_reason(_set_salt(table, 5, "A" * 32), entry) == (
        "1 salt(s) are not 32 lower-case hex digits, first at position 5")
    assert step3_reason(_set_salt(_set_salt(table, 9, "abc"), 30, "0" * 33), entry) == (
        "2 salt(s) are not 32 lower-case hex digits, first at position 9")
    assert step3_reason(_set_salt(table, 4, table["salt"][3]), entry) == (
        "salts repeat among the first 40 (1 duplicate(s)): they were not drawn at random")
    assert step3_reason(table.drop("salt"), entry) == "column(s) missing: salt"


def test_a_null_salt_is_reported_not_crashed_on():
    table, entry = einstant_pool("d1.00x2", 40)
    nulled = table.with_columns(pl.when(pl.col("position") == 7).then(None).otherwise(pl.col("salt"))
                                .alias("salt"))
    assert step3_reason(nulled, entry) == (
        "null values in salt; 1 salt(s) are not 32 lower-case hex digits, first at position 7")


# ---- step 3 called directly, message by message ---------------------------------------------------
def test_the_identities_of_printed_rows(two_pools):
    """docs/pool-files.md: book first_book + position // tickets_per_book, ticket_no the rest, ticket
    NNN-BBBBBBB-TTT."""
    pool = Manifest.parse(json.dumps(two_pools).encode()).pools[1]
    first = pool.raw["first_book"]
    want = expected_identities(3, pool, "printed", 2, 466)
    assert {k: v.to_list() for k, v in want.items()} == {
        "book": [first, first, first + 1], "ticket_no": [0, 1, 0],
        "ticket": [f"466-{first:07d}-000", f"466-{first:07d}-001", f"466-{first + 1:07d}-000"]}


def _step3(small_printed, edit=lambda table: table) -> str:
    run, manifest = small_printed
    pool = manifest.pools[0]
    table = edit(pl.read_parquet(run / pool.file))
    return check_complete(table, pool, "printed", 9, manifest.doc["game"]["number"])  # its book is 9 tickets


def test_step3_of_a_printed_pool_names_its_books_and_ticket_numbers(small_printed):
    first = small_printed[1].pools[0].raw["first_book"]
    assert _step3(small_printed) == (
        f"9 tickets at positions 0..8; every ticket id is the one its book and ticket number give (1 books "
        f"(slots {first}..{first}) x tickets 0..8, each once); every salt is 32 hex digits (that they are "
        "the seed's is step 7's to prove)")


def _step3_fails(small_printed, edit) -> str:
    with pytest.raises(VerificationError) as info:
        _step3(small_printed, edit)
    assert info.value.step == 3
    return info.value.reason


def test_step3_names_a_wrong_ticket_number(small_printed):
    row = pl.int_range(pl.len()) == 4

    def edit(t):
        number = pl.when(row).then(7).otherwise("ticket_no")
        return t.with_columns(ticket_no=number.cast(t["ticket_no"].dtype))
    assert _step3_fails(small_printed, edit) == (
        "1 ticket number(s) not as recomputed from the position, first at position 4: 7 where 4 is expected")


def test_step3_names_a_repeated_ticket_id_first(small_printed):
    row = pl.int_range(pl.len()) == 1
    edit = lambda t: t.with_columns(ticket=pl.when(row).then(pl.lit(t["ticket"][0])).otherwise("ticket"))  # noqa: E731
    assert _step3_fails(small_printed, edit) == (
        "ticket identities repeat: 230-0000000-000; 1 ticket id(s) not as recomputed from the position, "
        "first at position 1: '230-0000000-000' where '230-0000000-001' is expected")


def _pools(two_pools, *spans: tuple[int, int]) -> Manifest:
    """The run's manifest with one pool per (first_book, books), ids p1, p2, ..."""
    doc = json.loads(json.dumps(two_pools))
    base = doc["pools"][0]
    doc["pools"] = [dict(base, id=f"p{i + 1}", file=dict(base["file"], name=f"pool-p{i + 1}.parquet"),
                         first_book=first, books=books) for i, (first, books) in enumerate(spans)]
    return Manifest.parse(json.dumps(doc).encode())


def test_step3_finds_two_pools_of_one_book_in_the_same_slot(two_pools):
    assert _fails_at(3, check_run_identities, _pools(two_pools, (5, 1), (5, 1))) == (
        "pools p1 and p2 claim overlapping book slots (p1: 5..5, p2: 5..5)")


def test_step3_counts_the_overlaps_it_does_not_show(two_pools):
    assert _fails_at(3, check_run_identities, _pools(two_pools, *[(0, 10)] * 4)) == (
        "pools p1 and p2 claim overlapping book slots (p1: 0..9, p2: 0..9); pools p1 and p3 claim "
        "overlapping book slots (p1: 0..9, p3: 0..9); pools p1 and p4 claim overlapping book slots "
        "(p1: 0..9, p4: 0..9); 3 more overlapping pair(s)")


def test_step3_names_columns_out_of_the_manifests_order(pp_folder):
    pool = Manifest.parse((pp_folder / "manifest.json").read_bytes()).pools[0]
    table = pl.read_parquet(pp_folder / pool.file)
    swapped = table.select(["ticket", "position", *table.columns[2:]])
    with pytest.raises(VerificationError) as info:
        check_complete(swapped, pool, "einstant", None)
    assert (info.value.step, info.value.reason) == (
        3, f"columns {swapped.columns} are not the manifest's {list(pool.columns)}")


# ---- the byte-matrix comparison step 3 makes before comparing ids string by string ----------------

@pytest.mark.parametrize("width", [1, 3, 4, 7])
def test_digits_are_the_zero_padded_decimal_text(width):
    values = np.array(sorted({0, 1, 9, 10, 999, 1000, 4567, 10**width - 1} & set(range(10**width))))
    assert [bytes(r).decode() for r in identity._digits(values, width)] == [f"{v:0{width}d}" for v in values]
    assert identity._digits(np.array([0, 10**width]), width) is None  # one digit more than the width
    assert identity._digits(np.array([-1, 5]), width) is None


@pytest.mark.parametrize(("first", "n"), [(1, 0), (1, 1), (1, 2500), (0, 1001), (999, 3), (9_997_990, 2_010)])
def test_counting_digits_are_each_number_zero_padded(first, n):
    out = identity._counting(first, n, 7)
    assert [bytes(r).decode() for r in out] == [f"{v:07d}" for v in range(first, first + n)]
    assert identity._counting(9_999_000, 1_001, 7) is None  # 10,000,000 has eight digits


def test_ids_are_as_given_only_when_every_byte_is():
    table, entry = einstant_pool("d5.00x3", 2_500)
    numbers = identity._expected_numbers(2_500, entry, "einstant", None, None)
    tickets = table["ticket"]

    def same(ids: list[str | None]) -> bool:
        return identity._ids_as_given(pl.Series("ticket", ids), entry, "einstant", None, None, numbers)

    assert same(tickets.to_list())
    for at, text in ((0, "d5.00x3-0000000"), (1_999, "d5.00x3_0002000"), (2_499, "d5.00x3-00025001"),
                     (5, "d5.00x3-000006"), (1_000, None), (7, "e5.00x3-0000008")):
        ids = tickets.to_list()
        ids[at] = text
        assert not same(ids)


def test_printed_ids_are_as_given_only_when_every_byte_is():
    per_book, books = 50, 40
    n = per_book * books
    book = pl.Series("book", np.repeat(np.arange(books) * 7 + 3, per_book))
    entry = einstant_pool("p1", n)[1]
    numbers = identity._expected_numbers(n, entry, "printed", per_book, book)
    want = identity._expected_tickets(entry, "printed", 465, numbers)
    assert want[51] == "465-0000010-001"

    def same(ids: pl.Series, number: int = 465, per: int = per_book) -> bool:
        return identity._ids_as_given(ids, entry, "printed", per, number, numbers)

    assert same(want)
    assert not same(want.scatter(1_234, "465-0000171-035"))
    assert not same(want, number=466) and not same(want, number=1_000)
    assert not same(want, per=1_001)  # ticket numbers of four digits: compared string by string
    split = identity._expected_numbers(n, entry, "printed", per_book, book.scatter(60, 11))
    assert not identity._ids_as_given(want, entry, "printed", per_book, 465, split)


def test_salts_are_hex_only_when_every_byte_is():
    salts = [f"{s:032x}" for s in range(300)]
    assert identity._hex_salts(pl.Series(salts))
    for bad in ("A" * 32, "g" * 32, "0" * 31, "0" * 33, "\x00" * 32, "/" * 32, ":" * 32, "`" * 32):
        assert not identity._hex_salts(pl.Series([*salts[:100], bad, *salts[101:]]))
    assert not identity._hex_salts(pl.Series([*salts, None]))
    assert not identity._hex_salts(pl.Series([], dtype=pl.String))


def test_salts_are_checked_in_every_block_the_last_partial_one_too():
    """_hex_salts reads the column HEX_BLOCK bytes at a time: a bad byte in any block, the first byte
    of the second or the last byte of a last, partial one, is found."""
    n = 2 * identity.HEX_BLOCK // 32 + 5  # two whole blocks and 160 bytes
    salts = [f"{s:032x}" for s in range(n)]
    assert identity._hex_salts(pl.Series(salts))
    second = identity.HEX_BLOCK // 32  # the salt whose first byte opens the second block
    for at, bad in ((second, "G" + salts[second][1:]), (n - 1, salts[-1][:31] + "g"),
                    (second - 1, salts[second - 1][:31] + "/")):
        assert not identity._hex_salts(pl.Series([*salts[:at], bad, *salts[at + 1:]]))
