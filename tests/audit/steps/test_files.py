"""The verify checklist where the tamper tests do not look: step 5 against a spec, message by message,
and step 4 of a game of play styles, called directly on a small real run."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest, canonical, fingerprint
from audit.read.spec import read_spec
from audit.steps.figures import check_against_spec, check_totals
from audit.steps.files import check_listing, check_signature
from audit.steps.identity import check_complete, check_run_identities, expected_identities
from audit.steps.layouts import check_layouts
from audit.verify import VerifyRequest, verify_run
from audit.verify import attempt as _attempt
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, SPECS, spec_path

SHA = "d7e98309510630d10d9383489f5d4ada6f9b9cae6374c65690d5661ddd24330d"  # specs/happy_holidays.toml


@pytest.fixture(scope="module")
def two_pools(tmp_path_factory) -> dict:
    """The manifest of an unsigned run of Happy Holidays' pools p1 and p2, as JSON."""
    spec = load_spec(spec_path("happy_holidays"))
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path_factory.mktemp("v5"), run_id="r", pool_ids=["p1",
                                   "p2"])).folder
    return json.loads((run / "manifest.json").read_bytes())


def _step5(doc: dict) -> str:
    spec = read_spec(spec_path("happy_holidays"))
    return check_against_spec(Manifest.parse(json.dumps(doc).encode()), spec)


def _step5_fails(doc: dict) -> str:
    with pytest.raises(VerificationError) as info:
        _step5(doc)
    assert info.value.step == 5
    return info.value.reason


def test_step5_passes_a_run_of_the_spec(two_pools):
    assert two_pools["spec"]["sha256"] == SHA
    assert _step5(two_pools) == (f"spec happy_holidays.toml (SHA-256 {SHA[:16]}...) matches the manifest; "
                                 "every pool, area and tier is as it says")


@pytest.mark.parametrize(("key", "value"), [("name", "Happy Days"), ("number", 466),
                                            ("regulation", "K.A.R. 111-4-9999"), ("rules", "wild_side")])
def test_step5_names_a_game_field_that_is_not_the_specs(two_pools, key, value):
    doc = json.loads(json.dumps(two_pools))
    was = doc["game"][key]
    doc["game"][key] = value
    assert _step5_fails(doc).startswith(f"game.{key}: manifest {value!r}, spec {was!r}")


def test_step5_names_every_problem_at_once(two_pools):
    doc = json.loads(json.dumps(two_pools))
    doc["spec"]["sha256"] = "0" * 64
    doc["game"]["regulation"] = "K.A.R. 111-999"
    doc["pools"][1]["first_book"] = 7
    assert _step5_fails(doc) == (
        f"spec happy_holidays.toml has SHA-256 {SHA}, the manifest says {'0' * 64} "
        "(file happy_holidays.toml); "
        "game.regulation: manifest 'K.A.R. 111-999', spec 'K.A.R. 111-4-3836'; "
        "pool p2: books 7.. do not start a pool of the order")


@pytest.mark.parametrize(("first", "books", "why"), [
    (7, 1000, "pool p2: books 7.. do not start a pool of the order"),
    (6000, 1000, "pool p2: books 6000.. do not start a pool of the order"),
    (0, 1000, "two pools hold the same books")])
def test_step5_places_every_pool_on_the_orders_books(two_pools, first, books, why):
    doc = json.loads(json.dumps(two_pools))
    doc["pools"][1]["first_book"] = first
    doc["pools"][1]["books"] = books
    assert _step5_fails(doc) == why


@pytest.fixture(scope="module")
def small_printed(tmp_path_factory):
    """A real run of one 9-ticket book of Hit $50 (a styled printed game): its folder and manifest."""
    spec = load_spec(SPECS / "examples" / "hit_50.toml")
    pool = spec.pool("p1")
    tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, [6, 2, 1], strict=False))
    small = replace(pool, tiers=tiers, tickets=9, books=1)
    run = generate(GenerateRequest(replace(spec, pools=(small,)), SEED_A,
                                   now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path_factory.mktemp("small"),
                                   run_id="s")).folder
    return run, Manifest.parse((run / "manifest.json").read_bytes())


def test_step4_of_a_styled_game_is_evaluated_by_audit_styles(small_printed):
    run, manifest = small_printed
    play = manifest.doc["play"]
    styles = ", ".join(sorted({a["style"] for a in play["areas"]}))
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert check_layouts(table, manifest.pools[0], manifest.rules, play) == (
        f"9 layouts evaluated by audit.styles ({styles}): each pays its stored prize (3 winners), "
        "none illegal")
    assert styles


def test_the_identities_of_printed_rows(two_pools):
    """docs/pool-files.md: book first_book + position // tickets_per_book, ticket_no the rest, ticket
    NNN-BBBBBBB-TTT."""
    pool = Manifest.parse(json.dumps(two_pools).encode()).pools[1]
    first = pool.raw["first_book"]
    want = expected_identities(3, pool, "printed", 2, 466)
    assert {k: v.to_list() for k, v in want.items()} == {
        "book": [first, first, first + 1], "ticket_no": [0, 1, 0],
        "ticket": [f"466-{first:07d}-000", f"466-{first:07d}-001", f"466-{first + 1:07d}-000"]}


@pytest.mark.parametrize("rules", ["wild_side", "_shared", "styles.match_n", ""])
def test_step4_refuses_a_run_without_a_play_entry_in_one_line(small_printed, tmp_path, rules):
    """A run whose manifest has no `play` entry names rules of its own (the old format-1 printed
    games): no engine evaluates them, so step 4 fails for every pool, in one line, and nothing crashes."""
    run = Path(shutil.copytree(small_printed[0], tmp_path / "s"))
    doc = json.loads((run / "manifest.json").read_bytes())
    del doc["play"]
    doc["game"]["rules"] = rules
    (run / "manifest.json").write_text(json.dumps(doc))
    manifest = Manifest.parse((run / "manifest.json").read_bytes())
    table = pl.read_parquet(run / "pool-p1.parquet")
    with pytest.raises(VerificationError) as info:
        check_layouts(table, manifest.pools[0], manifest.rules, None)
    assert (info.value.step, info.value.reason) == (4, f"no audit rules for game rules {rules!r}")
    report = verify_run(VerifyRequest(run=run))
    step4 = report.step(Step.LAYOUTS)
    assert (step4.status, step4.reasons) == ("fail", [f"pool p1: no audit rules for game rules {rules!r}"])
    assert 4 in report.failed


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


# ---- each failure carries its own step's number, whoever reads it ------------------------------

def _fails_at(step: int, check, *args) -> str:
    with pytest.raises(VerificationError) as info:
        check(*args)
    assert info.value.step == step
    return info.value.reason


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


def test_step5_totals_fail_as_step_5(two_pools):
    doc = json.loads(json.dumps(two_pools))
    doc["totals"]["winners"] += 1
    reason = _fails_at(5, check_totals, Manifest.parse(json.dumps(doc).encode()))
    assert reason.startswith(f"totals: winners: recounted {doc['totals']['winners'] - 1}, the manifest says ")


def test_step2_names_an_unlisted_file_as_step_2(small_printed, tmp_path):
    run, manifest = small_printed
    folder = tmp_path / "run"
    shutil.copytree(run, folder)
    (folder / "notes.txt").write_text("x")
    assert _fails_at(2, check_listing, folder, manifest) == "unlisted file(s) in the run folder: notes.txt"


def test_a_check_that_crashes_is_reported_with_its_exception():
    assert _attempt(4, int, "x") == ("fail", "could not be checked: ValueError: invalid literal for int() "
                                             "with base 10: 'x'")


# ---- step 1, message by message, with a real Ed25519 key ------------------------------------------

def _signed(small_printed, tmp_path, edit=lambda signature, key: None, data=None):
    """The small run's manifest as a signed one: (folder, bytes, manifest, public key)."""
    _, manifest = small_printed
    private = Ed25519PrivateKey.generate()
    key = private.public_key()
    doc = json.loads(json.dumps(manifest.doc))
    doc["signature"] = {"signed": True, "key_fingerprint": fingerprint(key)}
    edit(doc["signature"], key)
    data = canonical(doc) if data is None else data(doc)
    (tmp_path / "manifest.sig").write_bytes(private.sign(data))
    return tmp_path, data, Manifest.parse(data), key


def test_step1_passes_a_canonical_manifest_signed_by_the_key(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path)
    assert check_signature(folder, data, manifest, key) == (
        f"Ed25519 signature over manifest.json ({len(data):,} bytes, canonical) verifies with key "
        f"{fingerprint(key)}")


def test_step1_names_a_missing_signature(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path)
    (folder / "manifest.sig").unlink()
    assert _fails_at(1, check_signature, folder, data, manifest, key) == "manifest.sig is missing"


def test_step1_names_a_signed_manifest_that_says_unsigned(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path, lambda s, k: s.update(signed=False))
    assert _fails_at(1, check_signature, folder, data, manifest, key) == (
        "the signature verifies, but the manifest says the run is unsigned")


def test_step1_names_a_manifest_naming_another_signer(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path,
                                          lambda s, k: s.update(key_fingerprint="0000:0000:0000:0000"))
    assert _fails_at(1, check_signature, folder, data, manifest, key) == (
        f"the signature verifies with the given key {fingerprint(key)}, but the manifest names signer key "
        "0000:0000:0000:0000")


def test_step1_names_a_signed_manifest_not_in_canonical_form(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path, data=lambda doc: json.dumps(doc).encode())
    assert _fails_at(1, check_signature, folder, data, manifest, key) == (
        "manifest.json is signed but not in canonical form")


def test_step1_without_a_public_key_is_skipped_not_failed(small_printed):
    report = verify_run(VerifyRequest(run=small_printed[0]))
    step1 = report.step(Step.SIGNATURE)
    assert (step1.status, step1.reasons, step1.required) == ("skip", ["no public key given"], False)
