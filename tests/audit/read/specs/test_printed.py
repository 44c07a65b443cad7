"""What a format-2 spec says a run's `play` entry holds (audit/read/specs/printed.py), against a real
re-signed run of a small Happy Holidays (tests/support/reseal.py `resign`): with --spec, step 5
refuses a manifest whose rules of play are not the spec's, `max_wins` included (step 4 judges every
layout by the manifest's, so a raised one would publish, and pass, tickets the game forbids)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from audit.checklist import Step
from audit.errors import UnusableInput
from audit.read.specs import read_spec
from audit.verify import VerifyRequest, verify_run
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke
from tests.support.reseal import resign, signed_small_run
from tests.support.spec_docs import base_doc, dumps, kn_doc, write


@pytest.fixture
def signed(tmp_path) -> dict:
    return signed_small_run(tmp_path)


def test_a_resigned_play_entry_that_raises_max_wins_fails_step_5_with_the_spec(signed):
    run = signed["run"]
    resign(run, lambda doc: doc["play"].update(max_wins=2), signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.step(Step.SIGNATURE).status == "pass"
    assert report.step(Step.LAYOUTS).status == "pass"  # no layout of this run has two wins
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == ["play.max_wins 2, spec 1"]


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda doc: doc["play"].update(top_prizes=[17, 2031]), "play holds ['top_prizes']: not the spec's"),
    (lambda doc: doc["play"]["areas"][0].update(books=[7]),
     "area play: books is neither the spec's nor its style's"),
    (lambda doc: doc["play"]["areas"][0]["prizes"][5].update(books=[7]),
     "area play: prizes '100' holds ['books']"),
])
def test_a_resigned_play_entry_carrying_what_the_spec_does_not_state_fails_step_5(signed, edit, reason):
    """`play` is published with the manifest and is one subtree of docs/manifest.md's list: with --spec,
    anything in it that is neither the spec's nor a default of its style's entry could tell where prizes
    are (positions, books), and is refused."""
    run = signed["run"]
    resign(run, edit, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [Step.FIGURES]
    assert reason in report.step(Step.FIGURES).reasons  # and, spec or not, the field (test_figures_fields)


def test_a_spec_writing_a_key_number_areas_default_distinct_numbers_false_verifies(tmp_path):
    """`distinct_numbers = false` is the default the manifest leaves out (docs/styles/key_number_match.md,
    section 3): step 5 with --spec compared the spec's false with the entry's absent key and failed a
    run generated from that very spec (`area play: distinct_numbers None, spec False`)."""
    doc = kn_doc()
    doc["areas"][0]["distinct_numbers"] = False
    doc["printed"] |= {"order_tickets": 1000, "pool_tickets": 1000}
    spec = write(tmp_path, doc)
    assert invoke("keys", "new", tmp_path / "keys").exit_code == 0
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--run-id", "r", "--seed-file", seed, "--key",
                  tmp_path / "keys" / "signing-key.pem", "--workers", "1")
    assert made.exit_code == 0, made.output
    report = verify_run(VerifyRequest(run=tmp_path / "runs" / "r",
                                      public_key=tmp_path / "keys" / "signing-key.pub.pem", spec=spec))
    assert report.step(Step.FIGURES).status == "pass", report.step(Step.FIGURES).reasons


def test_a_free_ticket_among_a_win_all_areas_prizes_is_refused_by_audits_spec_reader_as_by_the_loader(
        tmp_path):
    """docs/styles/key_number_match.md section 2: an area with a win-all symbol has cash prize symbols
    only (a free ticket is not summed). The loader refused such a spec; audit's reader took it, so a
    signed entry made to match it passed step 5 with --spec. Both refuse it now, in the same words."""
    text = (ROOT / "specs" / "examples" / "money_bag_match.toml").read_text()
    assert 'caption = "TWO$"\nvalue = "2.00"' in text
    spec = tmp_path / "m.toml"
    spec.write_text(text.replace('caption = "TWO$"\nvalue = "2.00"', 'caption = "TWO$"\nfree = true', 1))
    line = ("areas[0].prizes: a free ticket cannot be part of a win-all symbol's sum: an area with one has "
            "cash prize symbols only")
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value) == f"{spec}: {line}"


def test_a_book_numbered_from_001_is_refused_by_audits_spec_reader_as_by_the_loader(tmp_path):
    """A regulation's (d) "ticket numbers start with 001 and end with 050" transcribed as first_ticket 1
    was accepted and printed 000 .. 049 (docs/pool-files.md numbers a book's tickets from 0): both readers
    refuse it, in the same words."""
    doc = kn_doc()
    doc["printed"] |= {"first_ticket": 1, "last_ticket": 50}
    spec = write(tmp_path, doc)
    line = ("printed.first_ticket: 1; every book's tickets are numbered from 000 (docs/pool-files.md: "
            "ticket_no is position % tickets per book), so a game whose tickets start at 001 cannot be "
            "printed as its regulation says")
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value) == f"{spec}: {line}"


def _box_doc(on_losers: object) -> dict:
    """A reveal area and a BONUS box (docs/styles/ticket_multiplier.md), the box's
    `multipliers_on_losers` as given (None: left out)."""
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in ("A", "B", "C")]
    prizes = [{"group": "pz", "code": "1", "symbol": "$1", "value": "1.00"}]
    mults = [{"group": "mul", "code": "2X", "symbol": "2X", "by": 2},
             {"group": "dec", "code": "P", "symbol": "P"}, {"group": "dec", "code": "Q", "symbol": "Q"}]
    box = {"id": "x", "style": "ticket_multiplier", "spots": 2, "multipliers": "mul", "pictures": "dec"}
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "b", "prize": "1", "how": "reveal"},
                                               {"area": "x", "prize": "2X", "how": "ticket"}]}]
    return base_doc([{"id": "b", "style": "bonus_reveal", "spots": 3, "prizes": "pz", "pictures": "pic"},
                     box | ({} if on_losers is None else {"multipliers_on_losers": on_losers})],
                    pictures + prizes + mults, tiers, pool_tickets=100)


@pytest.mark.parametrize("on_losers", [None, False, True])
def test_step_5_holds_a_runs_multipliers_on_losers_to_the_spec(tmp_path, on_losers):
    """docs/styles/ticket_multiplier.md section 3: the entry writes `"multipliers_on_losers": true` only
    when the spec says so; a spec writing the default false verifies, and a re-signed entry that drops
    the field (or adds it) is not the spec's."""
    (tmp_path / "g.toml").write_text(dumps(_box_doc(on_losers)))
    pair = new_key_pair(tmp_path / "keys", None)
    signer = Signer.from_file(pair.private)
    request = GenerateRequest(load_spec(tmp_path / "g.toml"), SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC),
                              out=tmp_path, run_id="r", signature=signer.manifest_entry())
    run = generate(request, finish=signer.sign_run).folder
    check = VerifyRequest(run=run, public_key=pair.public, spec=tmp_path / "g.toml")
    assert verify_run(check).step(Step.FIGURES).status == "pass"
    assert ("multipliers_on_losers" in json.loads((run / "manifest.json").read_text())["play"]["areas"][1]) \
        is (on_losers is True)
    resign(run, lambda doc: doc["play"]["areas"][1].update(multipliers_on_losers=on_losers is not True),
           signer)
    step = verify_run(check).step(Step.FIGURES)
    assert step.status == "fail"
    said = f"area x: multipliers_on_losers {on_losers is not True}, spec {on_losers is True}"
    assert said + (" (left out)" if on_losers is None else "") in " ".join(step.reasons), step.reasons


def test_a_resigned_play_entry_writing_true_for_a_specs_1_fails_step_5(tmp_path):
    """Step 5 holds the play entry to the spec in one JSON type at every level (audit/read/specs/model.py
    `same`): Wild Side's decoy weight 1 re-signed as `true`, which no engine reads (a decoy's weight is
    the generator's) and which Python's == takes for 1, passed every step."""
    from tests.support import small_wild_side  # noqa: PLC0415
    from tests.support.layout_tamper import signed_run  # noqa: PLC0415

    spec_file = small_wild_side(tmp_path)
    spec = load_spec(spec_file)
    made = signed_run(tmp_path, spec, spec.pools[0])
    weights = json.loads((made["run"] / "manifest.json").read_bytes())["play"]["areas"][0]["decoy_weights"]
    assert weights["25000"] == 1
    resign(made["run"], lambda doc: doc["play"]["areas"][0]["decoy_weights"].update({"25000": True}),
           made["signer"])
    report = verify_run(VerifyRequest(run=made["run"], public_key=made["keys"].public, spec=spec_file))
    assert report.failed == [Step.FIGURES]
    spec_order = {"FREE": 10, "2": 12, "5": 14, "10": 12, "15": 10, "25": 10, "50": 8, "100": 6, "500": 4,
                  "1000": 3, "25000": 1}  # specs/wild_side.toml's, as its reader keeps them
    assert report.step(Step.FIGURES).reasons == [
        f"area numbers: decoy_weights {weights | {'25000': True}!r}, spec {spec_order!r}"]


def test_a_resigned_play_entry_listing_the_specs_areas_in_another_order_fails_step_5(tmp_path):
    """docs/styles/play.md: a row's reasons follow the order of `areas`, and docs/manifest.md's
    `print.art` the areas' order; the entry states the spec's areas in the spec's order. Diamond Life's
    two areas swapped, and re-signed, passed (they were compared by id)."""
    from tests.support import small_example  # noqa: PLC0415
    from tests.support.layout_tamper import signed_run  # noqa: PLC0415

    spec_file = small_example(tmp_path, "diamond_life", 2400)
    spec = load_spec(spec_file)
    made = signed_run(tmp_path, spec, spec.pools[0])
    resign(made["run"], lambda doc: doc["play"]["areas"].reverse(), made["signer"])
    report = verify_run(VerifyRequest(run=made["run"], public_key=made["keys"].public, spec=spec_file))
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [
        "play.areas in the order ['bonus', 'play'], spec ['play', 'bonus']"]


@pytest.mark.parametrize(("game", "tickets", "by"), [("money_bag_match", 3000, 2),
                                                    ("big_cash_riches", 2400, True),
                                                    ("big_cash_riches", 2400, None)])
def test_a_resigned_automatic_or_win_all_symbol_by_other_than_1_fails_step_5(tmp_path, game, tickets, by):
    """docs/styles/key_number_match.md section 3: an automatic or win-all symbol's `by` is written 1 (no
    engine reads it, so a published `by: 2` would tell a reader the symbol doubles). The spec states no
    `by` for it: step 5 compared none, and a re-signed 2, true or no `by` passed."""
    from tests.support import small_example  # noqa: PLC0415
    from tests.support.layout_tamper import signed_run  # noqa: PLC0415

    spec_file = small_example(tmp_path, game, tickets)
    spec = load_spec(spec_file)
    made = signed_run(tmp_path, spec, spec.pools[0])
    area = json.loads((made["run"] / "manifest.json").read_bytes())["play"]["areas"][0]
    special = next(s for s in area["specials"] if s["how"] in ("automatic", "all"))
    assert special["by"] == 1

    def edit(doc: dict) -> None:
        for s in doc["play"]["areas"][0]["specials"]:
            if s["code"] == special["code"]:
                s.pop("by") if by is None else s.update(by=by)
    resign(made["run"], edit, made["signer"])
    report = verify_run(VerifyRequest(run=made["run"], public_key=made["keys"].public, spec=spec_file))
    assert report.failed == [Step.FIGURES]
    assert report.step(Step.FIGURES).reasons == [
        f"area {area['id']}: specials {special['code']}: by {by!r}, spec 1"]
