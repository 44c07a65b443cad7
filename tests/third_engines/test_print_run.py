"""The press's third engine (tests/third_engines/print_run.py, from docs/validation.md sections 2 and 4,
docs/pool-files.md and docs/manifest.md alone) against real small printed runs (tests/support/
printed_runs.py): every ticket's barcode number, VIRN and book number, every imaging file and the pack
list, exactly; and the press's CSV export in the order's print sequence."""

from __future__ import annotations

import json
import tomllib

import polars as pl
import pytest

from tests.support import SEED_A
from tests.support.cli import invoke
from tests.support.printed_runs import NAMES, Made
from tests.third_engines import print_run, validation_desk


def _read(made: Made) -> tuple[dict, dict]:
    return json.loads((made.run / "manifest.json").read_text()), tomllib.loads(made.spec.read_text())


def _book_key(made: Made) -> bytes | None:
    return None if made.book_key is None else bytes.fromhex(made.book_key.read_text().strip())


def test_the_check_digits_are_mod_97_10_and_catch_every_single_error_and_adjacent_swap():
    assert validation_desk.barcode(358, 1307, 0) == "358000130700077"  # README's claim
    assert validation_desk.barcode(465, 0, 0) == "465000000000031"
    code = validation_desk.barcode(465, 9090, 909)
    assert int(code) % 97 == 1
    singles = [code[:i] + d + code[i + 1:] for i in range(15) for d in "0123456789" if d != code[i]]
    swaps = [code[:i] + code[i + 1] + code[i] + code[i + 2:] for i in range(14) if code[i] != code[i + 1]]
    assert len(singles) == 135 and len(swaps) == 12  # 465 0009090 909 18: two adjacent pairs equal
    assert [c for c in singles + swaps if validation_desk.is_barcode(c)] == []


@pytest.mark.parametrize("name", NAMES)
def test_every_barcode_virn_and_book_number_is_the_one_section_2_gives(printed_run, name):
    made = printed_run(name)
    manifest, spec = _read(made)
    slots = print_run.slot_numbers(manifest, spec, SEED_A, _book_key(made))
    per_book, game = manifest["game"]["tickets_per_book"], manifest["game"]["number"]
    for pool in manifest["pools"]:
        image = pl.read_parquet(made.run / f"imaging-{pool['id']}.parquet",
                                columns=["barcode", "virn", "book"])
        books = [slots[pool["first_book"] + p // per_book] for p in range(pool["tickets"])]
        assert image["book"].to_list() == books
        assert image["barcode"].to_list() == [validation_desk.barcode(game, b, p % per_book)
                                              for p, b in enumerate(books)]
        assert image["virn"].to_list() == print_run.virns(SEED_A, manifest["game"]["rules"], pool["id"],
                                                          pool["tickets"], manifest["print"]["virn_digits"])


@pytest.mark.parametrize("name", NAMES)
def test_every_imaging_file_is_its_pool_shown_through_the_play_entry_and_the_specs_symbols(printed_run, name):
    made = printed_run(name)
    manifest, spec = _read(made)
    for pool_id, table in print_run.pool_tables(made.run, manifest).items():
        image = pl.read_parquet(made.run / f"imaging-{pool_id}.parquet")
        mine = print_run.imaging(table, image["virn"].to_list(), manifest["game"]["number"], manifest["play"],
                                 spec, print_run.COMMON)
        assert mine.schema == image.schema
        assert mine.equals(image)


@pytest.mark.parametrize("name", NAMES)
def test_the_pack_list_is_byte_for_byte_every_book_of_the_run_or_of_a_split_order(printed_run, name):
    made = printed_run(name)
    manifest, spec = _read(made)
    slots = print_run.slot_numbers(manifest, spec, SEED_A, _book_key(made))
    if "split" in manifest["print"]:
        books = slots  # every book of the order, whatever pools the run holds
    else:
        books = [slots[p["first_book"] + k] for p in manifest["pools"] for k in range(p["books"])]
    expected = print_run.pack_list(manifest["game"]["number"], books, manifest["game"]["tickets_per_book"])
    assert (made.run / "packs.csv").read_bytes() == expected
    order_books = {"split": 12000 // 50, "split_cut": 12000 // 50}  # a split order's: every book
    assert len(expected.splitlines()) == 1 + order_books.get(name, len(books))


@pytest.mark.parametrize("name, first", [("split_cut", 2001), ("seed_p2", 3001), ("happy_holidays", 1)])
def test_the_csv_export_numbers_tickets_by_their_place_in_the_orders_print_run(printed_run, name, first,
                                                                               tmp_path):
    """docs/validation.md section 4: `sequence` is the order's, not the file's: a run of later pools
    starts at its first ticket's place (first_book x tickets per book + 1), its pools by first_book."""
    made = printed_run(name)
    manifest, _ = _read(made)
    result = invoke("imaging", "export", made.run, "--out", tmp_path / "i.csv", "--public-key", made.public)
    assert result.exit_code == 0, result.output
    export = pl.read_csv(tmp_path / "i.csv", infer_schema=False)
    per_book = manifest["game"]["tickets_per_book"]
    expected = pl.concat([
        pl.read_parquet(made.run / f"imaging-{p['id']}.parquet").with_columns(
            pl.Series("sequence", range(p["first_book"] * per_book + 1,
                                        p["first_book"] * per_book + p["tickets"] + 1)))
        for p in sorted(manifest["pools"], key=lambda p: p["first_book"])])
    expected = expected.select(["sequence", *expected.columns[:-1]]).cast(pl.String).fill_null("")
    assert export["sequence"][0] == str(first)
    assert export.fill_null("").equals(expected)


def test_a_spot_of_symbols_without_captions_gets_empty_captions_and_a_one_character_field(printed_run,
                                                                                          tmp_path):
    """The split order's numbers have no caption: C_caption is "" in the imaging file, written `""` in
    the CSV, and a fixed-width field of width 1 (all spaces), never 0."""
    made = printed_run("split")
    image = pl.read_parquet(made.run / "imaging-p1.parquet")
    assert set(image["play_win_0_caption"].to_list()) == {""}
    result = invoke("imaging", "export", made.run, "--out", tmp_path / "i.csv", "--public-key", made.public)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "i.csv").read_text().splitlines()[1].split(",")[7] == '""'
    result = invoke("imaging", "export", made.run, "--format", "fixed", "--out", tmp_path / "i.txt",
                    "--spec", made.spec, "--public-key", made.public)
    assert result.exit_code == 0, result.output
    layout = (tmp_path / "i.layout.csv").read_text().splitlines()
    assert layout[1:8] == ["sequence,1,5,5,N", "barcode,6,20,15,D", "virn,21,32,12,D", "book,33,35,3,N",
                           "ticket_no,36,37,2,N", "play_win_0,38,38,1,A", "play_win_0_text,39,39,1,A"]
    assert layout[8] == "play_win_0_caption,40,40,1,A"
