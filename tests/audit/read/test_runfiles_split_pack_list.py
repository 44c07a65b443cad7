"""The boundary every run file passes before any step (audit/read/runfiles.py) bounds a pack list by
the tickets it can name. A split order's pack list names every book of the ORDER whatever pools the
run holds (docs/validation.md section 4), so a run of one pool of a large order holds a pack list far
longer than that pool's tickets allow: found by a held-out spec (Minnesota's 50X The Money, 1,219,925
tickets in books of 25, a run of its last pool of 19,925), whose `generate --pool` run both verifiers
refused before step 1 (`packs.csv: 867,279 bytes, larger than 641,696; not a pack list file`, exit 2).
Here the order is tests/support/split_run.py's in books of 2: 6,000 books, a pack list of about 90 kB,
against 4,096 + 32 x 2,000 bytes for one pool's tickets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read import runfiles
from audit.read.manifest import Manifest
from audit.verify import VerifyRequest, verify_run
from poolgen.run.signing import Signer
from tests.support.reseal import resign
from tests.support.split_run import SplitRun, split_run


@pytest.fixture(scope="module")
def one_pool(tmp_path_factory) -> SplitRun:
    return split_run(tmp_path_factory.mktemp("split_pack_list"), {"first_ticket": 0, "last_ticket": 1},
                     ["p2"], "one-pool")


def manifest_of(run: Path) -> Manifest:
    return Manifest.parse((run / "manifest.json").read_bytes())


def test_a_split_orders_pack_list_is_longer_than_one_pools_tickets_allow(one_pool):
    size = (one_pool.folder / "packs.csv").stat().st_size
    lines = (one_pool.folder / "packs.csv").read_text().splitlines()
    assert len(lines) == 1 + 6_000  # every book of the order, not the pool's 1,000
    assert size > 4_096 + 32 * 2_000


def test_the_pack_list_bound_of_a_split_run_counts_the_orders_tickets(one_pool):
    assert runfiles.pack_list_tickets(manifest_of(one_pool.folder)) == 12_000


def test_the_boundary_check_passes_a_split_runs_pack_list_of_the_whole_order(one_pool):
    runfiles.check_run_folder(one_pool.folder, manifest_of(one_pool.folder))  # no UnusableInput


def test_a_run_of_one_pool_of_a_split_order_verifies_its_pack_list(one_pool):
    request = VerifyRequest(run=one_pool.folder, public_key=one_pool.public, validation_key=one_pool.low,
                            high_validation_key=one_pool.high)
    steps = verify_run(request).to_json()["steps"]
    nine = next(s for s in steps if s["step"] == 9)
    assert nine["status"] == "pass", nine
    assert "packs.csv: 6,000 books of the order, sorted" in " ".join(nine["details"])
    assert all(s["status"] in ("pass", "skip") for s in steps), steps


def test_a_pack_list_beyond_the_orders_bound_is_still_refused(one_pool, tmp_path):
    """The bound moves to the order's tickets, no further: a longer file is not read."""
    run = tmp_path / "run"
    shutil.copytree(one_pool.folder, run)
    (run / "packs.csv").chmod(0o600)
    (run / "packs.csv").write_bytes(b"x" * (4_096 + 32 * 12_000 + 1))
    refusal = r"packs\.csv: 388,097 bytes, larger than 388,096; not a pack list file"
    with pytest.raises(UnusableInput, match=refusal):
        runfiles.check_run_folder(run, manifest_of(run))
    assert json.loads((run / "manifest.json").read_bytes())["print"]["split"]["order_tickets"] == 12_000


def test_a_print_split_order_tickets_of_true_is_no_order_to_step_9_either(tmp_path):
    """`print.split.order_tickets = true` is no whole number: the boundary (pack_list_tickets) read it as
    no order, while step 9 read it as an order of 1 ticket and held the pack list to its books (none),
    failing a pack list that names every book of the run. Both now refuse a boolean: step 9 checks the
    list against the run's own books, and step 5 fails the field's form."""
    made = split_run(tmp_path)
    signer = Signer.from_file(made.private)
    resign(made.folder, lambda doc: doc["print"]["split"].update(order_tickets=True), signer)
    manifest = manifest_of(made.folder)
    assert (runfiles.split_order_tickets(manifest), runfiles.pack_list_tickets(manifest)) == (0, 12_000)
    request = VerifyRequest(run=made.folder, public_key=made.public, validation_key=made.low,
                            high_validation_key=made.high)
    steps = {s["step"]: s for s in verify_run(request).to_json()["steps"]}
    books = len((made.folder / "packs.csv").read_text().splitlines()) - 1
    assert f"packs.csv: {books:,} books, sorted, each with its ticket range; no outcome, no pool" \
        in steps[9]["details"], steps[9]
    assert steps[9]["status"] == "pass", steps[9]
    assert steps[5]["status"] == "fail" and (
        "print.split.order_tickets: must be a whole number, whole pools of pool_tickets and a rest, at most "
        "64 pools (docs/manifest.md)") in steps[5]["reasons"], steps[5]
