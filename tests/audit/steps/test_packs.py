"""A printed run's pack parameters checked from its files (audit/steps/packs.py): the example game
with every parameter, cut to 100 packs of 300, verifies every step with its spec; a re-signed copy
in which one pack holds a $20 beside a $100 is refused, naming the pack and the rule; and each
rule's check names the pack it finds breaking it."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.errors import VerificationError
from audit.read.codehash import CODE_HASH_V1
from audit.read.specs.packs import PackCap, PackRules, PackSpacing
from audit.steps.packs import check_neighbours, check_pack_rules
from poolgen.cli.main import app
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.packs import rules_for
from poolgen.run.packs.rejected import exactly_rejected
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A
from tests.support.cli import one_line
from tests.support.packs import packs_variant
from tests.support.reseal import reseal_pool

POOL = "pool-p1.parquet"
KEEP = ["position", "ticket", "book", "ticket_no", "salt"]  # what a swap of two tickets' contents keeps


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("packs")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec_file = packs_variant(tmp)
    run = generate(GenerateRequest(load_spec(spec_file), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp / "runs", run_id="r", signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer, "spec": spec_file}


def verify(base, run: Path, *more: str, spec: bool = True) -> dict:
    given = ["--spec", str(base["spec"])] if spec else []
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                      *given, "--json", *more])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_the_example_verifies_every_step_with_its_spec(base, tmp_path):
    report = verify(base, base["run"], "--seed-file", str(_seed(tmp_path)))
    assert report["failed_steps"] == []
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9
    fifth = report["steps"][4]["details"]
    met = "pool p1: every one of 100 packs meets the spec's pack parameters"
    assert any(d.startswith(met) for d in fifth)
    assert "pool p1: no two consecutive tickets of the pool, across packs too show identical play data " \
           "(6 layout columns compared)" in report["steps"][3]["details"]


def _seed(folder: Path) -> Path:
    path = folder / "s.seed"
    path.write_text(SEED_A.hex() + "\n")
    path.chmod(0o600)
    return path


def test_a_resigned_run_with_one_pack_breaking_spacing_is_refused_naming_the_pack(base, tmp_path):
    """A $20 from a rich pack swaps places with a $1 beside a $100 of another: both packs keep their
    winners and at least $150, no cap changes, and only the second pack breaks `spacing` (its $20 and
    $100 back to back). The file hash and Merkle root are restated and the run re-signed."""
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    table = pl.read_parquet(run / POOL)
    tier = table["tier"].to_list()
    value = table["prize_cents"].to_numpy().reshape(-1, 300).sum(axis=1)
    spaced = ("20", "100")
    receiver = next(p + 1 for p in range(table.height - 2) if tier[p] == "100" and tier[p + 1] == "1"
                    and (p + 1) % 300 and (p + 2) % 300 and tier[p + 2] not in spaced)
    donor = next(p for p in range(table.height) if tier[p] == "20" and p // 300 != receiver // 300
                 and value[p // 300] >= 15000 + 1900)
    order = list(range(table.height))
    order[donor], order[receiver] = receiver, donor
    moved = table.select(pl.exclude(KEEP))[order]
    table = pl.concat([table.select(KEEP), moved], how="horizontal").select(table.columns)
    reseal_pool(run, POOL, table, base["signer"])
    book = table["book"][receiver]
    for report in (verify(base, run), verify(base, run, spec=False)):  # the manifest's rules alone too
        assert 5 in report["failed_steps"]
        assert report["steps"][4]["reasons"] == [
            f"pool p1: 1 pack(s) break packs.spacing[0] (at least 2 apart): book {book} has two tickets "
            "apart by 1"]
        assert report["steps"][0]["status"] == "pass" and report["steps"][3]["status"] == "pass"


def test_the_manifest_records_the_packs_and_plain_verify_holds_every_pack_to_them(base):
    """Without --spec the manifest's `print.packs` is the rule: steps 4 and 5 check every pack against
    it and step 8 leaves the unconstrained winners-per-book tests out (they fail a constrained run)."""
    doc = json.loads((base["run"] / "manifest.json").read_bytes())
    assert doc["print"]["packs"] == {
        "neighbours": "across packs", "min_winners": 80, "max_winners": 110, "min_prize_cents": 15000,
        "caps": [{"tiers": ["100"], "at_most": 1}], "spacing": [{"tiers": ["20", "100"], "min_distance": 2}]}
    report = verify(base, base["run"], spec=False)
    assert report["failed_steps"] == []
    assert [s["status"] for s in report["steps"]] == ["pass"] * 6 + ["skip", "pass", "pass"]
    assert any(d.startswith("pool p1: every one of 100 packs meets the manifest's pack parameters")
               for d in report["steps"][4]["details"])
    assert "pool p1: no two consecutive tickets of the pool, across packs too show identical play data " \
           "(6 layout columns compared)" in report["steps"][3]["details"]


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("min_winners", 70, "print.packs.min_winners: the manifest records 70, the spec states 80"),
    ("neighbours", "within packs",
     "print.packs.neighbours: the manifest records within packs, the spec states across packs"),
    ("caps", [{"tiers": ["20"], "at_most": 1}],
     "print.packs.caps[0].tiers: the manifest records 20, the spec states 100"),
    ("caps", [{"tiers": ["100", "100"], "at_most": 1}],  # the prize level's one tier, twice
     "print.packs.caps[0].tiers: the manifest records 100, 100, the spec states 100"),
    ("spacing", [{"tiers": ["100", "20"], "min_distance": 2}],  # docs/manifest.md: in the spec's order
     "print.packs.spacing[0].tiers: the manifest records 100, 20, the spec states 20, 100"),
    ("spacing", None, "print.packs.spacing: the manifest records 0 rule(s), the spec states 1 rule(s)"),
])
def test_a_resigned_manifest_claiming_other_packs_than_the_spec_is_refused_at_step_5(base, tmp_path, field,
                                                                                    value, reason):
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    if value is None:
        del doc["print"]["packs"][field]
    else:
        doc["print"]["packs"][field] = value
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    report = verify(base, run)
    assert report["failed_steps"] == [5]
    assert report["steps"][4]["reasons"] == [reason]


def _table(tiers: list[str], prizes: list[int], spots: list[int], per_pack: int = 4) -> pl.DataFrame:
    n = len(tiers)
    return pl.DataFrame({"position": list(range(n)), "ticket": [f"t{i}" for i in range(n)],
                         "book": [100 + i // per_pack for i in range(n)], "tier": tiers,
                         "prize_cents": prizes, "salt": ["0" * 32] * n, "play_spot_0": spots})


def test_each_rule_names_the_pack_that_breaks_it():
    t = _table(["lose", "a", "b", "lose", "b", "lose", "lose", "b"], [0, 100, 500, 0, 500, 0, 0, 500],
               [1, 2, 3, 4, 5, 6, 7, 8])
    rules = PackRules(min_winners=2, max_winners=2, min_prize_cents=1100,
                      caps=(PackCap("packs.caps[0]", 1, tiers=("b",)),),
                      spacing=(PackSpacing("packs.spacing[0]", 4, prize_cents=500),))
    with pytest.raises(VerificationError) as info:
        check_pack_rules(t, 4, rules)
    assert info.value.reason == (
        "2 pack(s) break packs.min_prize_value (1100 cents): book 100 pays 600 cents, book 101 pays 1000 "
        "cents; 1 pack(s) break packs.caps[0] (at most 1): book 101 holds 2; "
        "1 pack(s) break packs.spacing[0] (at least 4 apart): book 101 has two tickets apart by 3")
    assert check_pack_rules(t, 4, PackRules(min_winners=1)).startswith("every one of 2 packs meets")


def test_identical_neighbours_are_named_by_pack_and_ticket_and_the_boundary_counts_across_packs():
    t = _table(["lose"] * 8, [0] * 8, [1, 2, 3, 4, 4, 5, 6, 6])
    with pytest.raises(VerificationError) as info:
        check_neighbours(t, 4, PackRules())
    assert info.value.reason == ("1 pair(s) of consecutive tickets of a pack with identical play data "
                                 "(packs.neighbours): book 101: t6 and t7")
    with pytest.raises(VerificationError) as info:
        check_neighbours(t, 4, PackRules(across=True))
    assert info.value.reason.startswith("2 pair(s) of consecutive tickets of the pool, across packs too")


def _resigned(base, tmp_path: Path, edit, code: str | None = None) -> Path:
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    edit(doc["print"])
    if code is not None:
        doc["tool"]["code"]["algorithm"] = code
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    return run


def _older(printed: dict) -> None:
    """A printed run made before manifests recorded `print.packs` (and so before the v2 code hash)."""
    printed.pop("packs")


def test_a_manifest_without_packs_keeps_the_default_neighbour_rule_without_spec(base, tmp_path):
    """A printed run made before manifests recorded `print.packs` (its code hash v1): without --spec,
    the default neighbour rule (within packs) and no pack parameters; with --spec, the spec's, and step 5
    says the manifest records none."""
    run = _resigned(base, tmp_path, _older, code=CODE_HASH_V1)
    plain = verify(base, run, spec=False)
    assert "pool p1: no two consecutive tickets of a pack show identical play data (6 layout columns " \
           "compared)" in plain["steps"][3]["details"]
    assert not any("pack parameters" in d for d in plain["steps"][4]["details"])
    given = verify(base, run)
    assert given["failed_steps"] == []
    assert "the manifest records no pack parameters (a run made before manifests did): the spec's apply" \
           in given["steps"][4]["details"]


def test_a_v2_manifest_with_print_packs_deleted_is_refused_in_one_line_with_or_without_spec(base, tmp_path):
    """The generator that writes the v2 code hash records `print.packs` in every printed run: a re-signed
    manifest without it would hold the packs to the default rule alone (docs/manifest.md)."""
    run = _resigned(base, tmp_path, lambda printed: printed.pop("packs"))
    for given in ([], ["--spec", str(base["spec"])]):
        result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                          *given])
        one_line(result, "poolgen", "manifest.json: print.packs: missing (tool.code is poolgen/code/v2: the "
                 "generator that made the run records print.packs)")


def test_a_malformed_print_packs_is_refused_in_one_line(base, tmp_path):
    run = _resigned(base, tmp_path, lambda printed: printed["packs"].update(min_winners=-1))
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public)])
    one_line(result, "poolgen", "manifest.json: print.packs.min_winners: must be a whole number, not -1")


def test_step_8_tests_winners_per_pack_against_the_manifests_bounds_without_spec(base, tmp_path):
    """Under winners bounds alone, plain verify runs the constrained winners-per-pack test with the
    manifest's bounds (not the hypergeometric histogram and dispersion)."""
    spec = packs_variant(tmp_path, packs="min_winners = 80\nmax_winners = 100")
    signer = base["signer"]
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path / "runs", run_id="w", signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    doc = json.loads((run.folder / "manifest.json").read_bytes())
    assert doc["print"]["packs"] == {"neighbours": "within packs", "min_winners": 80, "max_winners": 100}
    report = verify(base, run.folder, spec=False)
    assert report["failed_steps"] == []
    eighth = " ".join(report["steps"][7]["details"])
    assert "winners per book of 300: histogram of 100 books under the pack parameters (80..100)" in eighth
    assert "hypergeometric" not in eighth.split("winners per book")[1]


def _made_and_verified(tmp_path, packs: str) -> dict:
    """A run of the packs variant with `packs`, generated, signed and verified with its spec and seed:
    every one of the nine steps passes; the report."""
    keys = new_key_pair(tmp_path / "keys")
    signer = Signer.from_file(keys.private)
    spec = packs_variant(tmp_path, packs=packs)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path / "runs", run_id="r", signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    report = verify({"keys": keys, "spec": spec}, run.folder, "--seed-file", str(_seed(tmp_path)))
    assert report["failed_steps"] == []
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9
    return report


def test_the_example_without_its_value_floor_drawn_exactly_verifies_every_step(tmp_path):
    """Winners 80..110, at most one $100, no $20 or $100 back to back: a cap of one inside a spacing
    rule's tiers, drawn by docs/randomness.md 5.9 (not the chain); regenerated byte for byte (step 7)
    and every pack checked (step 5) and tested (step 8)."""
    report = _made_and_verified(tmp_path, 'neighbours = "across packs"\nmin_winners = 80\nmax_winners = 110\n'
                                          'caps = [ { prize = "100.00", at_most = 1 } ]\n'
                                          'spacing = [ { tiers = ["20", "100"], min_distance = 2 } ]')
    assert any(d.startswith("pool p1: every one of 100 packs meets the spec's pack parameters")
               for d in report["steps"][4]["details"])
    statistics = "\n".join(report["steps"][7]["details"])  # step 8 tested the packs against 5.9's law
    assert "capped tickets (packs.caps[0]) by tenth of the books" in statistics, statistics
    assert "drawn by the chain" not in statistics, statistics


def test_several_caps_alone_drawn_exactly_verify_every_step(tmp_path):
    """At most two $100 and at most two $20 a book, nothing else: drawn by docs/randomness.md 5.10;
    regenerated byte for byte (step 7), every pack checked (step 5), step 8 testing the compositions
    against 5.10's law and naming 5.10 for the prize value it tests by its spread only."""
    report = _made_and_verified(tmp_path, 'caps = [ { prize = "100.00", at_most = 2 }, '
                                          '{ prize = "20.00", at_most = 2 } ]')
    statistics = " ".join(" ".join(report["steps"][7]["details"]).split())
    assert "drawn exactly by docs/randomness.md 5.10" in statistics, statistics
    assert "capped tickets (packs.caps[0]) per book given the other caps' tickets" in statistics, statistics


def test_several_spacing_rules_alone_drawn_exactly_verify_every_step(tmp_path):
    """Winners 80..110, no $20 back to back, $100 at least 3 apart: drawn by docs/randomness.md 5.12;
    regenerated byte for byte (step 7), every pack checked (step 5), step 8 naming 5.12 for the
    histograms it cannot test and testing each tier given the rest of its pair of books."""
    report = _made_and_verified(tmp_path, 'min_winners = 80\nmax_winners = 110\nspacing = [ '
                                          '{ prize = "20.00", min_distance = 2 }, '
                                          '{ prize = "100.00", min_distance = 3 } ]')
    statistics = " ".join(" ".join(report["steps"][7]["details"]).split())
    said = "(several spacing rules alone) are drawn exactly by docs/randomness.md 5.12"
    assert said in statistics, statistics
    assert "given the rest of its pair of books" in statistics, statistics
    assert "parameters (a prize-value floor, two spacing rules" not in statistics, statistics


def test_caps_and_spacing_rules_together_drawn_exactly_verify_every_step(tmp_path):
    """Winners 80..110, at most one $100, no $20 or $100 back to back, the $20 at least 3 apart: drawn by
    docs/randomness.md 5.13 (5.9's draw, kept iff the $20 rule holds); regenerated byte for byte (step 7),
    every pack checked (step 5), step 8 holding the pool to the chain's tests (the target law's) and
    naming 5.13 for the histograms it cannot test."""
    rules = ('min_winners = 80\nmax_winners = 110\ncaps = [ { prize = "100.00", at_most = 1 } ]\n'
             'spacing = [ { tiers = ["20", "100"], min_distance = 2 }, '
             '{ prize = "20.00", min_distance = 3 } ]')
    (tmp_path / "spec").mkdir()
    game = load_spec(packs_variant(tmp_path / "spec", packs=rules))
    assert exactly_rejected(rules_for(game, game.pools[0]))
    report = _made_and_verified(tmp_path, rules)
    assert any(d.startswith("pool p1: every one of 100 packs meets the spec's pack parameters")
               for d in report["steps"][4]["details"])
    statistics = " ".join(" ".join(report["steps"][7]["details"]).split())
    assert "(caps and spacing rules together) are drawn exactly by docs/randomness.md 5.13" in statistics
    assert "given the rest of its pair of books" in statistics, statistics
