"""Step 5 holds a run's names to the ones docs/pool-files.md derives from its pool entries
(audit/steps/names.py): pool files `pool-<POOL_ID>.parquet`, printed pool ids `p<k>` at their book
slots, eInstant pool ids `d<dollars>.<cents>[x<k>]`, an eInstant's price denomination x play areas and
its tier ids `m<multiplier>`, from the manifest alone (no spec). Each was unchecked: an insider
re-signing a run with its $1 pool renamed `d7.77x1` (every ticket id `d7.77x1-...`), its pool file
renamed, or the 2x tier renamed `m6000` passed every step, even with the spec; a third engine written
from the contract refuses all three. Real
signed runs re-signed by an insider (tests/support/reseal.py's way), only the names changed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from audit.checklist import Step
from audit.read.manifest import Manifest
from audit.read.names import COMMON, multiplier_text, name_problems
from audit.verify import VerifyRequest, verify_run
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_einstant
from tests.support.reseal import resign, signed_small_run

FIXED = "manifest field(s) not the value the contract gives them: "


@pytest.fixture(scope="module")
def einstant(tmp_path_factory) -> dict[str, Any]:
    """A signed run of Primetime Payout's pools d1.00x1 and d2.00x1, cut to 1,000 shares."""
    root = tmp_path_factory.mktemp("names")
    keys = new_key_pair(root / "keys")
    signer = Signer.from_file(keys.private)
    spec = small_einstant(root, "primetime_payout", 1000)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=root / "runs", run_id="r", pool_ids=["d1.00x1", "d2.00x1"],
                                   signature=signer.manifest_entry()), finish=signer.sign_run).folder
    return {"run": run, "public": keys.public, "signer": signer, "spec": spec}


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[str, Any]:
    return signed_small_run(tmp_path_factory.mktemp("names-printed"))


Edit = Callable[[dict[str, Any], pl.DataFrame], pl.DataFrame]


def renamed(base: dict[str, Any], tmp: Path, edit: Edit) -> Path:
    """The run with its first pool's entry and table changed by `edit` (entry, table) -> table, the
    pool file written under the entry's (new) name, its deliverable entries (and imaging file) named
    for its (new) id, the DRBG streams named after the pool ids, and the manifest signed again: only
    the names differ."""
    run = tmp / "run"
    shutil.copytree(base["run"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    entry = doc["pools"][0]
    old_id, old_file = entry["id"], run / entry["file"]["name"]
    table = edit(entry, pl.read_parquet(old_file))
    old_file.unlink()
    table.write_parquet(run / entry["file"]["name"], compression="zstd", statistics=True)
    (run / entry["file"]["name"]).chmod(0o600)  # as poolgen writes it: step 2 refuses a readable pool file
    entry["file"] = file_entry(run / entry["file"]["name"])
    entry["merkle"]["root"] = merkle_root(table).hex()
    for f in (f for f in doc["deliverables"] if f.get("pool") == old_id and old_id != entry["id"]):
        f["pool"] = entry["id"]
        if f["role"] == "imaging":  # a printed pool's imaging file is named for its pool too
            (run / f["name"]).rename(run / f"imaging-{entry['id']}.parquet")
            f["name"] = f"imaging-{entry['id']}.parquet"
    for f in doc["deliverables"]:
        if f["role"] == "pool" and f["pool"] == entry["id"]:
            f["name"] = entry["file"]["name"]
    rules = doc["game"]["rules"]
    streams = doc["drbg"]["streams"]
    doc["drbg"]["streams"] = [s.replace(f"/{rules}/{old_id}/", f"/{rules}/{entry['id']}/") for s in streams]
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    return run


def figures_reasons(base: dict[str, Any], run: Path, spec: bool) -> list[str]:
    report = verify_run(VerifyRequest(run=run, public_key=base["public"],
                                      spec=base["spec"] if spec else None))
    assert report.step(Step.SIGNATURE).status == "pass"
    assert report.failed == [Step.FIGURES], report.to_json()
    return report.step(Step.FIGURES).reasons


def _new_pool_id(entry: dict[str, Any], table: pl.DataFrame) -> pl.DataFrame:
    entry["id"], entry["file"]["name"] = "d7.77x1", "pool-d7.77x1.parquet"
    return table.with_columns(pl.format("d7.77x1-{}", pl.col("serial").cast(pl.String).str.zfill(7))
                              .alias("ticket"))


def _new_file_name(entry: dict[str, Any], table: pl.DataFrame) -> pl.DataFrame:
    entry["file"]["name"] = "prizes.parquet"
    return table


def _new_tier_id(entry: dict[str, Any], table: pl.DataFrame) -> pl.DataFrame:
    [tier] = [t for t in entry["tiers"] if t["id"] == "m2"]
    tier["id"] = "m6000"
    return table.with_columns(pl.col("tier").replace("m2", "m6000"))


def test_the_untouched_runs_pass_step_5_with_and_without_the_spec(einstant, printed):
    for base in (einstant, printed):
        for spec in (None, base["spec"]):
            report = verify_run(VerifyRequest(run=base["run"], public_key=base["public"], spec=spec))
            assert report.ok, report.to_json()


@pytest.mark.parametrize("spec", [False, True])
@pytest.mark.parametrize(("edit", "problem"), [
    (_new_pool_id, "pools[0].id 'd7.77x1', not 'd1.00' or 'd1.00x1'"),
    (_new_file_name, "pools[0].file.name 'prizes.parquet', not 'pool-d1.00x1.parquet'"),
    (_new_tier_id, "pools[0].tiers[55].id 'm6000', not 'm2' (it pays 200 cents for a share of 100)"),
])
def test_a_resigned_einstant_run_with_a_name_the_contract_does_not_give_fails_step_5(einstant, tmp_path, spec,
                                                                                     edit, problem):
    run = renamed(einstant, tmp_path, edit)
    reasons = figures_reasons(einstant, run, spec)  # with the spec, the spec's claims may add theirs
    assert reasons[0] == FIXED + problem and (spec or len(reasons) == 1)


def test_einstant_pool_ids_that_name_their_play_areas_in_some_pools_only_fail_step_5(einstant, tmp_path):
    """Every id names its play areas (`d1.00x1`) when the spec lists more than one number of them, none
    otherwise; a manifest alone can tell a mix (`d1.00` beside `d2.00x1`), not which of the two is the
    spec's (that is step 5's with --spec, audit/read/specs/einstant.py)."""
    def short_ids(entry: dict[str, Any], table: pl.DataFrame) -> pl.DataFrame:
        entry["id"], entry["file"]["name"] = "d1.00", "pool-d1.00.parquet"
        return table.with_columns(pl.format("d1.00-{}", pl.col("serial").cast(pl.String).str.zfill(7))
                                  .alias("ticket"))
    run = renamed(einstant, tmp_path, short_ids)
    assert figures_reasons(einstant, run, False) == [
        FIXED + "pools[].id: some ids name their play areas and some do not (all do when the spec lists "
        "more than one number of play areas, none otherwise)"]


def test_a_resigned_printed_run_with_its_pool_renamed_fails_step_5(printed, tmp_path):
    def p2(entry: dict[str, Any], table: pl.DataFrame) -> pl.DataFrame:
        entry["id"], entry["file"]["name"] = "p2", "pool-p2.parquet"
        return table
    run = renamed(printed, tmp_path, p2)
    problem = FIXED + ("pools[0].first_book 0: pool p2 (10 books) starts at 1 x the books of the order's "
                       "whole pools, at least 1 x 10")
    assert figures_reasons(printed, run, False) == [problem]
    assert figures_reasons(printed, run, True)[0] == problem  # and the spec's claims theirs


def _printed_manifest(pools: list[tuple[str, int, int]], number: object = 465) -> Manifest:
    doc = {"format": "poolgen-manifest/1", "game": {"rules": "g", "kind": "printed", "tickets_per_book": 10,
                                                    "number": number},
           "spec": {"sha256": "0" * 64}, "seed_commitment": {}, "totals": {}, "signature": {"signed": False},
           "pools": [{"id": pid, "price_cents": 100, "tickets": 10 * books, "winners": 0,
                      "prize_cost_cents": 0, "payout_pct": "0.0000", "first_book": first, "books": books,
                      "columns": list(COMMON["printed"]),
                      "tiers": [{"id": "lose", "prize_cents": 0, "count": 10 * books}],
                      "file": {"name": f"pool-{pid}.parquet", "bytes": 1, "sha256": "0" * 64},
                      "merkle": {"algorithm": "a", "root": "0" * 64}} for pid, first, books in pools]}
    return Manifest.parse(json.dumps(doc).encode())


@pytest.mark.parametrize(("pools", "problems"), [
    ([("p1", 0, 5), ("p2", 5, 5), ("p3", 10, 2)], []),  # a partial last pool
    ([("p3", 10, 2)], []),
    ([("p2", 5, 5), ("p3", 10, 5)], []),
    ([("p1", 0, 5), ("p2", 5, 2), ("p3", 10, 5)],
     ["pools[1].books 2: pool p2 is smaller than the order's pools of 5 books, but is not its last"]),
    ([("p2", 5, 5), ("p3", 12, 5)],
     ["pools' first_book: pools of [5, 6] books; an order's whole pools have one size"]),
    ([("p01", 0, 5)], ["pools[0].id 'p01', not a printed pool's id (p1, p2, ...)"]),
    ([("p1", 5, 5)], ["pools[0].first_book 5: pool p1 starts at book slot 0"]),
])
def test_printed_pool_ids_name_their_book_slots(pools, problems):
    assert name_problems(_printed_manifest(pools)) == problems


@pytest.mark.parametrize("number", [10000, -1, "465", True, None])
def test_a_printed_games_number_is_three_or_four_digits(number):
    """docs/pool-files.md and docs/validation.md: `GGG`, the game number in 3 digits (`GGGG`, 4, from
    1000), starts every ticket id and barcode."""
    assert name_problems(_printed_manifest([("p1", 0, 5)], number)) == [
        f"game.number {number!r}, not a whole number 0 to 9999 (the GGG or GGGG of every ticket id and "
        "barcode)"]


@pytest.mark.parametrize("number", [0, 999, 1000, 2029, 9999])
def test_a_printed_game_numbered_up_to_9999_has_no_name_problem(number):
    assert name_problems(_printed_manifest([("p1", 0, 5)], number)) == []


@pytest.mark.parametrize(("prize", "price", "text"), [
    (500000, 100, "5000"), (100400, 100, "1004"), (450, 100, "4.5"), (50, 100, "0.5"), (1, 300, None),
    (0, 100, None), (7, 4, "1.75"), (1500, 750, "2"),
])
def test_multiplier_text_is_the_shortest_plain_decimal_of_prize_over_price(prize, price, text):
    assert multiplier_text(prize, price) == text


def test_a_resigned_pool_whose_common_columns_are_out_of_order_fails_step_5(einstant, tmp_path):
    """docs/pool-files.md: every pool file starts with the common columns, in its table's order."""
    def salt_first(entry: dict[str, Any], table: pl.DataFrame) -> pl.DataFrame:
        order = ["salt", *(c for c in table.columns if c != "salt")]
        entry["columns"] = order
        return table.select(order)
    run = renamed(einstant, tmp_path, salt_first)
    assert figures_reasons(einstant, run, False) == [
        FIXED + "pools[0].columns start ['salt', 'position', 'ticket', 'serial', 'tier', 'prize_cents'], not "
        "['position', 'ticket', 'serial', 'tier', 'prize_cents', 'salt']"]


@pytest.fixture(scope="module")
def keyed(tmp_path_factory) -> dict[str, Any]:
    return signed_small_run(tmp_path_factory.mktemp("names-keyed"), validation_keys=True)


@pytest.mark.parametrize(("role", "name"), [("imaging", "imaging-p1-book7.parquet"),
                                            ("packs", "packs-b7.csv"),
                                            ("validation", "validation-low-b7.bin"),
                                            ("validation-high", "validation-high-b7.bin")])
def test_a_deliverable_renamed_and_resigned_fails_step_5(keyed, tmp_path, role, name):
    """docs/validation.md, section 1: the files' names are `imaging-<POOL_ID>.parquet`, `packs.csv`,
    `validation-low.bin` and `validation-high.bin`; a name is published with the manifest (free text
    there could tell where a prize is), and every file still matches its size and hash."""
    run = tmp_path / "run"
    shutil.copytree(keyed["run"], run)
    was: list[str] = []

    def rename(doc: dict[str, Any]) -> None:
        [entry] = [f for f in doc["deliverables"] if f["role"] == role]
        was.append(entry["name"])
        (run / entry["name"]).rename(run / name)
        entry["name"] = name
    resign(run, rename, keyed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=keyed["public"]))
    assert report.failed == [Step.FIGURES], report.to_json()
    assert report.step(Step.FIGURES).reasons == [
        f"{FIXED}deliverables[] ({role}) name {name!r}, not {was[0]!r}"]


def test_an_einstant_price_other_than_denomination_times_play_areas_fails(einstant):
    """docs/pool-files.md: a pool of k play areas at denomination D costs D x k (its tiers' ids then
    name prize / (D x k), which the price stated does not change)."""
    manifest = Manifest.parse((einstant["run"] / "manifest.json").read_bytes())
    dearer = replace(manifest, pools=(replace(manifest.pools[0], price_cents=200), *manifest.pools[1:]))
    assert name_problems(dearer) == ["pools[0].price_cents 200, not denomination_cents 100 x play_areas 1"]
