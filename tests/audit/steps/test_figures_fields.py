"""Step 5 refuses a signed manifest holding a field docs/manifest.md does not list
(audit/steps/figures.py `check_fields`, audit/read/fields.py): the manifest is published before
sale, so an insider re-signing it with, say, the positions of the top prizes must not pass verify
(it passed every step, even with the spec, the seed and both validation keys). A small signed
Happy Holidays run re-signed by tests/support/reseal.py `resign`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from audit.checklist import Step
from audit.provenance import code_hash
from audit.read.fields import CODE_HASH, CODE_HASH_V1
from audit.verify import VerifyRequest, verify_run
from poolgen.run.provenance import package_folder
from tests.support.reseal import resign, signed_small_run

LEAK = [17, 2031]  # where the $100 tickets of pool p1 would be


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return signed_small_run(tmp_path_factory.mktemp("fields"))


@pytest.fixture
def run(signed, tmp_path) -> Path:
    shutil.copytree(signed["run"], tmp_path / "run")
    return tmp_path / "run"


def test_the_untouched_run_holds_only_listed_fields(signed, run):
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.ok, report.to_json()
    assert "every manifest field is one docs/manifest.md lists" in report.step(Step.FIGURES).details


@pytest.mark.parametrize(("edit", "field"), [
    (lambda doc: doc.update(top_prizes={"p1": LEAK}), "top_prizes.p1[]"),
    (lambda doc: doc["pools"][0]["tiers"][-1].update(positions=LEAK), "pools[].tiers[].positions[]"),
    (lambda doc: doc["print"].update(note="the $100 tickets are in book 7"), "print.note"),
    (lambda doc: doc["deliverables"][0].update(books=[7]), "deliverables[].books[]"),
])
def test_a_resigned_manifest_with_an_unlisted_field_fails_step_5_naming_it(signed, run, edit, field):
    resign(run, edit, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.step(Step.SIGNATURE).status == "pass"
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [
        f"manifest field(s) docs/manifest.md does not list: {field} (the manifest is published; only the "
        "listed fields are known to tell no outcome)"]


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda doc: doc.update(created="2026-12-01T00:00:00Z book 7"),
     "created '2026-12-01T00:00:00Z book 7', not 'a UTC time YYYY-MM-DDTHH:MM:SSZ'"),
    (lambda doc: doc.update(created="2026-13-07T99:17:31Z"),  # book 7, tickets 17 and 31: no time
     "created '2026-13-07T99:17:31Z', not 'a UTC time YYYY-MM-DDTHH:MM:SSZ'"),
    (lambda doc: doc["print"].update(book_numbers="top prizes: books 7 and 12"),
     "print.book_numbers 'top prizes: books 7 and 12', not \"a permutation of the order's book slots from "
     "the stream poolgen/v1/happy_holidays/order/books\""),
    (lambda doc: doc["drbg"]["streams"].append("poolgen/v1/happy_holidays/p1/book-7"),
     "drbg.streams"),
    (lambda doc: doc["signature"].update(algorithm="Ed25519 (top prize in book 7)"),
     "signature.algorithm 'Ed25519 (top prize in book 7)', not 'Ed25519'"),
    (lambda doc: doc["seed_commitment"].update(algorithm="SHA-256 (top prize in book 7)"),
     "seed_commitment.algorithm 'SHA-256 (top prize in book 7)', not "
     "'SHA-256(\"poolgen/seed-commitment/v1\" || seed)'"),
    (lambda doc: doc["seed_commitment"].update(value="p1: 17, 2031"),
     "seed_commitment.value 'p1: 17, 2031', not '64 lower-case hex digits'"),
    (lambda doc: doc["tool"]["code"].update(sha256="top prize in book 7"),
     "tool.code.sha256 'top prize in book 7', not '64 lower-case hex digits'"),
    (lambda doc: doc["tool"]["code"].update(files="book 7"),
     "tool.code.files 'book 7', not 'a whole number of files, at least 1'"),
    (lambda doc: doc["tool"]["code"].update(algorithm=CODE_HASH_V1.replace("*.py file", "file")),
     "tool.code.algorithm 'SHA-256(\"poolgen/code/v1\" || for each file by sorted relative POSIX path: "
     "len(pa', "
     "not 'SHA-256(\"poolgen/code/v2\" || for each file but those in __pycache__ folders by sorted relative "
     "POSIX path: len(path) || path || len(bytes) || bytes), lengths 8-'"),
    (lambda doc: doc["print"].update(high_tier_cents="top prize in book 7"),
     "print.high_tier_cents 'top prize in book 7', not 'a whole number of cents, at least 1'"),
])
def test_a_resigned_manifest_with_free_text_in_a_fixed_field_fails_step_5(signed, run, edit, problem):
    resign(run, edit, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [Step.FIGURES]
    [reason] = report.step(Step.FIGURES).reasons
    assert reason.startswith("manifest field(s) not the value the contract gives them: " + problem)


def test_a_manifest_with_the_v1_code_hash_of_an_older_run_still_passes_step_5(signed, run):
    """Runs made before v2 (docs/provenance.md) keep verifying; `code-hash --v1` reproduces their hash."""
    digest, count = code_hash(package_folder(), 1)
    assert json.loads((run / "manifest.json").read_text())["tool"]["code"]["algorithm"] == CODE_HASH
    older = {"algorithm": CODE_HASH_V1, "sha256": digest, "files": count}
    resign(run, lambda doc: doc["tool"].update(code=older), signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.ok, report.to_json()
    assert "every manifest field is one docs/manifest.md lists" in report.step(Step.FIGURES).details


@pytest.mark.parametrize(("edit", "field"), [
    (lambda doc: doc["play"].update(top_prizes=LEAK), "play.top_prizes"),
    (lambda doc: doc["play"]["areas"][0].update(books=[7]), "play.areas[0].books"),
    (lambda doc: doc["play"]["areas"][0]["prizes"][5].update(books=[7]), "play.areas[0].prizes[].books"),
    (lambda doc: doc["play"]["tiers"][5]["wins"][0].update(books=[7]), "play.tiers[].wins[].books"),
])
def test_a_resigned_play_entry_with_a_key_no_contract_gives_fails_step_5_without_the_spec(signed, run, edit,
                                                                                          field):
    resign(run, edit, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"]))
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [
        f"manifest field(s) docs/manifest.md does not list: {field} (the manifest is published; only the "
        "listed fields are known to tell no outcome)"]


def test_a_resigned_manifest_with_validation_digits_out_of_range_fails_step_5(signed, run):
    """docs/validation.md, section 2: 9 to 18 digits (step 9 then also finds the imaging file's 12)."""
    resign(run, lambda doc: doc["print"].update(virn_digits=4), signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"]))
    assert report.failed == [Step.FIGURES, Step.DELIVERABLES]
    assert report.step(Step.FIGURES).reasons == [
        "manifest field(s) not the value the contract gives them: print.virn_digits '4', not 'a whole "
        "number, 9 to 18'"]


def test_a_resigned_manifest_listing_no_tier_as_a_free_ticket_fails_step_5_without_the_spec(signed, run):
    """print.free_ticket_tiers names tiers of the pools (with --spec, the spec's: test_print_settings.py)."""
    resign(run, lambda doc: doc["print"]["free_ticket_tiers"].append("book 7"), signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"]))
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [
        "manifest field(s) not the value the contract gives them: print.free_ticket_tiers "
        "\"['free', 'book 7']\", not \"ids of prize tiers of the manifest's pools, each once\""]
