"""Step 8 under the exact draws of docs/randomness.md 5.6 to 5.8 (audit/stats/packs.py;
docs/statistics.md 1b): which parameters have a known law, honest pools made with each pass at the
design's rate, and an insider's pool that keeps every parameter but moves the capped or spaced
tickets fails, naming the test; also through `verify_run` on a re-signed run."""

from __future__ import annotations

import hashlib
import json
import shutil
import tomllib
from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.read.manifest import Tier
from audit.read.specs.packs import PackCap, PackRules, PackSpacing, read_blocks, read_packs
from audit.stats.packs import Beside, Exact, exact_case, pack_block_findings
from audit.stats.step import pool_statistics
from audit.steps.packs import check_pack_rules
from audit.verify import VerifyRequest, verify_run
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.build import build_pool, identity_columns
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support.blocks import blocks_variant
from tests.support.chain_biases import kept_from_ends, pairs_evened
from tests.support.packs import (
    capped_evened,
    capped_to_first_packs,
    capped_to_rich_packs,
    held_packs_first,
    packs_in_order,
    richest_packs_first,
    small_packs,
    spaced_to_starts,
)
from tests.support.stats import Entry

LOSERS_1K = "against the book's highest prize"  # docs/statistics.md 1k: a layout test, no pack test
# docs/statistics.md 1c's tests, not the pack tests
SECTION_1C = ("printed book number: smallest", "printed book number: largest", "one last digit",
              "first or last ticket", "in fewest books",
              "printed book number: close together",  # and 1e's, made under pack parameters too
              "by printed book number, in tenths")  # and 1f's

TIERS = (Tier("lose", 0, 10), Tier("5", 500, 3), Tier("20", 2000, 2), Tier("100", 10000, 1),
         Tier("b", 10000, 1))
CAP1 = 'caps = [ { tiers = ["5", "20", "100"], at_most = 1 } ]'  # 51 tickets in 100 books of 30
CAP3 = 'min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["2"], at_most = 3 } ]'  # 235 tickets
SPACED = 'spacing = [ { tiers = ["2"], min_distance = 4 } ]'
SPACED_CAPPED = ('min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["2"], at_most = 4 } ]\n'
                 'spacing = [ { tiers = ["2"], min_distance = 3 } ]')
CAPPED, SPACED_NAME = "capped tickets (packs.caps[0])", "spaced tickets (packs.spacing[0])"


def test_the_exact_cases_are_those_of_the_generator_s_exact_draws():
    cap = PackCap("packs.caps[0]", 1, prize_cents=10000)
    assert exact_case(PackRules(min_winners=3), TIERS) == Exact(frozenset(), None, 1, "")
    assert exact_case(PackRules(caps=(cap,)), TIERS) == Exact(frozenset({"100", "b"}), 1, 1, "packs.caps[0]")
    spacing = PackSpacing("packs.spacing[0]", 3, ("100", "b"))
    assert exact_case(PackRules(max_winners=9, caps=(cap,), spacing=(spacing,)), TIERS) == Exact(
        frozenset({"100", "b"}), 1, 3, "packs.spacing[0]")
    other = PackCap("packs.caps[1]", 2, ("20",))
    assert exact_case(PackRules(caps=(cap, other)), TIERS) == Beside(  # 5.9: test_packs_beside.py
        frozenset({"100", "b"}), frozenset({"20"}), False, 2, 1, "packs.caps[0]", "packs.caps[1]")
    for chain in (PackRules(min_prize_cents=100, caps=(cap,)), PackRules(caps=(other, other)),
                  PackRules(caps=(other,), spacing=(spacing,)),
                  PackRules(spacing=(spacing, PackSpacing("packs.spacing[1]", 2, ("5",)))),
                  PackRules(caps=(PackCap("packs.caps[0]", 1, ("lose",)),))):
        assert exact_case(chain, TIERS) is None, chain


def _judged(spec, packs: PackRules, table: pl.DataFrame, seed: bytes, per_book: int):
    pool = spec.pools[0]
    return pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind, per_book=per_book,
                           pools=1, play=spec.play.document(), packs=packs)


def _spec(tmp_path, packs: str, name: str):
    path = small_packs(tmp_path, packs, f"{name}.toml")
    return load_spec(path), read_packs(tomllib.loads(path.read_text()))


def _refused_naming(spec, rules: PackRules, seed: bytes, change, named: str) -> None:
    """The honest pool of `seed` passes step 8; `change`d by an insider, every parameter still met (step
    5 passes it), it fails by the test named `named...`, with p < 1e-6."""
    honest = build_pool(spec, spec.pools[0], seed)
    assert not _judged(spec, rules, honest, seed, 30).failed
    biased = change(honest)
    check_pack_rules(biased, 30, rules)  # step 5 passes it: every parameter still met
    failed = _judged(spec, rules, biased, seed, 30).failed
    hit = [j for j in failed if j.finding.name.startswith(named)]
    assert hit and hit[0].finding.p < 1e-6, [(j.finding.name, j.finding.p) for j in failed]


@pytest.mark.parametrize(("packs", "held", "tests"), [
    (CAP1, CAPPED, 6), (CAP3, CAPPED, 7), (SPACED, SPACED_NAME, 7), (SPACED_CAPPED, SPACED_NAME, 7)])
def test_honest_pools_made_with_an_exact_draw_pass_at_the_design_s_rate(tmp_path, packs, held, tests):
    """120 small pools (100 books of 30) of each exact case: at most 4 fail step 8 (a pool fails with
    probability at most 1%: P(5 or more of 120) = 0.0075), every pack test is made, and no pack test's
    p-value is at most 0.05 in more than 14 of them (P = 0.0034 for a uniform p-value). Measured on
    1,000 pools of each: bench/stats_packs.py, docs/statistics.md 1b."""
    spec, rules = _spec(tmp_path, packs, "honest")
    failed, low = 0, np.zeros(tests)
    for i in range(120):
        seed = hashlib.sha256(b"poolgen/tests/packs-exact/%d" % i).digest()
        s = _judged(spec, rules, build_pool(spec, spec.pools[0], seed), seed, 30)
        mine = [j for j in s.judged if ("book" in j.finding.name or "runs" in j.finding.name)
                and not j.finding.name.endswith(SECTION_1C)
                and LOSERS_1K not in j.finding.name]  # the pack tests
        names = [j.finding.name for j in mine]
        assert len(mine) == tests and sum(held in n for n in names) >= 3, names
        low += [j.finding.p <= 0.05 for j in mine]
        failed += bool(s.failed)
    assert failed <= 4, failed
    assert low.max() <= 14, low


@pytest.mark.parametrize(("packs", "change", "named"), [
    (CAP1, lambda t: capped_to_first_packs(t, 30, ["5", "20", "100"]), f"{CAPPED} by tenth of the books"),
    (CAP1, lambda t: capped_to_rich_packs(t, 30, ["5", "20", "100"]),
     f"winners per book of 30 (0..30) given its {CAPPED}"),
    (CAP3, lambda t: capped_evened(t, 30, ["2"]),
     f"{CAPPED} per book: histogram of 100 books given their winners"),
    (SPACED, lambda t: spaced_to_starts(t, 30, ["2"], 4), f"{SPACED_NAME} by place in their book"),
    (SPACED_CAPPED, lambda t: spaced_to_starts(t, 30, ["2"], 3), f"{SPACED_NAME} by place in their book")])
def test_an_insider_s_pool_meeting_every_parameter_fails_naming_the_test(tmp_path, packs, change, named):
    spec, rules = _spec(tmp_path, packs, "biased")
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/biased").digest()
    _refused_naming(spec, rules, seed, change, named)


def test_einstant_blocks_under_winners_bounds_or_a_cap_are_tested_per_block(tmp_path):
    """A small eInstant (200 blocks of 100 shares) under `min_winners` alone and beside a cap of one
    (the top tiers: 9 shares): its pack tests are the blocks', honest pools pass."""
    caps = 'caps = [ { tiers = ["m5000", "m500", "m400", "m300", "m200", "m100", "m50"], at_most = 1 } ]'
    for i, blocks in enumerate(("shares = 100\nmin_winners = 25", f"shares = 100\nmin_winners = 25\n{caps}")):
        path = blocks_variant(tmp_path, 50, blocks, f"blocks{i}.toml")
        spec, rules = load_spec(path), read_blocks(tomllib.loads(path.read_text()))
        seed = hashlib.sha256(b"poolgen/tests/packs-exact/blocks/%d" % i).digest()
        s = _judged(spec, rules, build_pool(spec, spec.pools[0], seed), seed, 0)
        names = [j.finding.name for j in s.judged]
        assert "winners by place in their block (tenths)" in names or i == 1, names
        assert any(n.startswith("winners per block of 100") for n in names), names
        assert (i == 1) == any(n.startswith("capped tickets (blocks.caps[0])") for n in names), names
        assert not s.failed, [(j.finding.name, j.finding.p) for j in s.failed]


def test_a_re_signed_run_whose_capped_tickets_moved_to_the_first_books_fails_step_8_alone(tmp_path):
    spec = load_spec(small_packs(tmp_path, CAP1))
    keys = new_key_pair(tmp_path / "keys")
    signer = Signer.from_file(keys.private)
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/signed").digest()
    run = generate(GenerateRequest(spec, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path / "runs",
                                   run_id="capped", signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    assert verify_run(VerifyRequest(run=run, public_key=keys.public)).failed == []
    biased = tmp_path / "biased"
    shutil.copytree(run, biased)
    path = next(biased.glob("pool-*.parquet"))
    table = capped_to_first_packs(pl.read_parquet(path), 30, ["5", "20", "100"])
    table = table.with_columns(list(identity_columns(spec, spec.pools[0], seed).values()))
    table.write_parquet(path, compression="zstd", compression_level=1, statistics=False)
    doc = json.loads((biased / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(path)
    doc["pools"][0]["merkle"]["root"] = merkle_root(table).hex()
    for f in doc.pop("deliverables", []):  # the printer's files would tell too (step 9)
        if f["role"] != "pool":
            (biased / f["name"]).unlink()
    (biased / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(biased)
    report = verify_run(VerifyRequest(run=biased, public_key=keys.public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert any(f"{CAPPED} by tenth of the books" in r for r in reasons), reasons


def test_packs_breaking_their_parameters_are_not_held_to_the_law():
    """A pool whose packs break the rules (step 5 fails it) gets no pack test against the law, which
    is defined on valid pools only: one line says so, and nothing raises."""
    tiers = (Tier("lose", 0, 16), Tier("a", 500, 4))
    prize = np.array([500, 500, 0, 0, 0, 0, 0, 0] + [500, 0, 0, 500] + [0] * 8)  # 5 packs of 4
    tier = np.where(prize > 0, "a", "lose")
    for rules in (PackRules(min_winners=1), PackRules(caps=(PackCap("packs.caps[0]", 1, ("a",)),)),
                  PackRules(spacing=(PackSpacing("packs.spacing[0]", 2, ("a",)),))):
        found, skipped = pack_block_findings(prize, 4, rules, tiers, tier)
        assert found == [] and skipped == [
            "the book tests under the pack parameters: some books break them (step 5 names them), so their "
            "law does not apply"], rules


CHAIN = ('min_winners = 6\nmax_winners = 12\nmin_prize_value = "12.00"\n'
         'caps = [ { prize = "100.00", at_most = 1 } ]\n'
         'spacing = [ { tiers = ["5", "20", "100"], min_distance = 3 } ]')


FLOOR = 'min_winners = 7\nmin_prize_value = "12.00"\ncaps = [ { prize = "100.00", at_most = 1 } ]'


def test_under_the_chain_the_spread_over_the_packs_and_the_order_within_each_are_tested(tmp_path):
    """Every parameter (the chain of randomness.md 5.3): the compositions' histograms are listed as not
    tested; the packs are exchangeable, so winners, the spaced tickets and the prize value per book by
    tenth of the books are tested (the capped $100s, 5 of them, too few to bin), each prize level by tenth
    of the books (instead of section 1's by tenth of the pool), each tier given the rest
    of its pair of books (the $1, $2 and free tiers: the others have too few pairs with a choice), the
    spaced tickets' places (one spacing rule), the other winners'
    places and the runs within each book (the spaced tickets left out); an honest pool passes; the other
    winners moved to the first of their books' other places (every parameter kept) fail the place test."""
    spec, rules = _spec(tmp_path, CHAIN, "chain")
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/chain").digest()
    honest = build_pool(spec, spec.pools[0], seed)
    s = _judged(spec, rules, honest, seed, 30)
    names = [j.finding.name for j in s.judged if "book" in j.finding.name
             and not j.finding.name.endswith(SECTION_1C)
             and LOSERS_1K not in j.finding.name]  # the pack tests
    pairs = [f"tier {t} ($1.00) per book given the rest of its pair of books: {w}" if t != "2" else
             f"tier 2 ($2.00) per book given the rest of its pair of books: {w}"
             for t in ("1", "2", "free") for w in ("toward the richer book", "spread")]
    assert names == ["winners per book by tenth of the books",
                     f"{SPACED_NAME} by tenth of the books",
                     *(f"prize level {a} per book by tenth of the books"
                       for a in ("$5.00 (41 tickets)", "$2.00 (235 tickets)", "$1.00 (594 tickets)")),
                     "prize value per book by tenth of the books: 100 books",
                     "prize value of the two books of each pair of books", *pairs,
                     f"{SPACED_NAME} by place in their book (y = place - i (3 - 1) of the i-th, tenths of "
                     "the places they may take)",
                     "other winners by place among their book's other places (tenths)",
                     "prizes of the other winners at the first and last places of their books",
                     "runs of winners and losers within each book, the spaced tickets left out"]
    assert any("drawn by the chain of docs/randomness.md 5.3" in why for why in s.not_tested)
    methods = {j.finding.name: j.finding.method for j in s.judged}  # at most 200 tickets: the exact tail
    assert methods["prize level $5.00 (41 tickets) per book by tenth of the books"].endswith("exact tail")
    assert methods["prize level $2.00 (235 tickets) per book by tenth of the books"].startswith(
        "permutation chi-square of the held count per part")
    # the $5, $20 and $100 tiers: fewer than 20 pairs with a choice (6 tests); by tenth of the books, the
    # capped $100s and the $20 prize level (5 tickets each; the $100 level is the capped tickets: once)
    assert "8 of the book tests: too few tickets to bin or rank" in s.not_tested
    assert not s.failed
    win = honest["prize_cents"].to_numpy() > 0
    spaced = honest["tier"].is_in(["5", "20", "100"]).to_numpy()
    order = np.arange(honest.height)
    for b in range(100):  # in each book, its other winners to the first of its other places
        at = np.arange(b * 30, (b + 1) * 30)
        other = at[~spaced[at]]
        order[other] = np.concatenate([other[win[other]], other[~win[other]]])
    biased = honest[order]
    check_pack_rules(biased, 30, rules)  # step 5 passes it: every parameter still met
    failed = {j.finding.name: j.finding.p for j in _judged(spec, rules, biased, seed, 30).failed}
    assert failed["other winners by place among their book's other places (tenths)"] < 1e-6, failed


@pytest.mark.parametrize(("change", "named"), [
    (lambda t: held_packs_first(t, 30, ["5", "20", "100"]), f"{SPACED_NAME} by tenth of the books"),
    (lambda t: richest_packs_first(t, 30), "prize value per book by tenth of the books"),
    (lambda t: packs_in_order(t, 30, (t["prize_cents"].to_numpy() > 0).reshape(100, 30).sum(axis=1)),
     "winners per book by tenth of the books")])
def test_under_the_chain_whole_packs_moved_by_an_insider_fail_naming_the_test(tmp_path, change, named):
    """Under the chain the compositions have no known law, but an insider who orders whole books (each
    still meeting every parameter: those holding spaced tickets, the richest or the most winning ones
    first) is refused by the tenth-of-the-books test made for it."""
    spec, rules = _spec(tmp_path, CHAIN, "chain")
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/chain").digest()
    _refused_naming(spec, rules, seed, change, named)


def test_under_the_chain_spaced_tickets_put_at_the_start_of_their_books_fail_the_spaced_place_test(tmp_path):
    """Under the chain each book's order is uniform among those meeting its one spacing rule (5.3 step 4),
    so the spaced tickets' places are tested as under 5.8: an insider who puts every book's $5, $20 and
    $100 tickets at its places 0, 3, 6, ... (every parameter kept; the spread and pair tests see nothing:
    0 of 100 pools refused before this test, bench/stats_packs.py --bias starts-chain) is refused by it."""
    spec, rules = _spec(tmp_path, CHAIN, "chain")
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/chain").digest()
    _refused_naming(spec, rules, seed, lambda t: spaced_to_starts(t, 30, ["5", "20", "100"], 3),
                    f"{SPACED_NAME} by place in their book")


@pytest.mark.parametrize(("packs", "change"), [
    (CHAIN, lambda t: kept_from_ends(t, 30, ["2"], ["free", "1"])),
    (FLOOR, lambda t: kept_from_ends(t, 30, ["2", "5", "20", "100"], ["free", "1", "2", "5"]))])
def test_under_the_chain_better_prizes_kept_from_the_ends_of_their_books_fail_the_ends_test(tmp_path, packs,
                                                                                           change):
    """Under the chain, given each book's composition and its other winners' places, their prizes are a
    uniform permutation over those places (5.3 step 4): an insider who swaps every better prize at a
    book's first or last ticket with a lesser one of its middle (the winners' places, so the place and
    runs tests, unchanged: 1 of 100 pools refused before this test, bench/stats_packs.py --bias
    ends-floor) is refused by the ends test."""
    spec, rules = _spec(tmp_path, packs, "ends")
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/ends").digest()
    honest = build_pool(spec, spec.pools[0], seed)
    named = "prizes of the other winners at the first and last places of their books"
    before = {j.finding.name: j for j in _judged(spec, rules, honest, seed, 30).judged}
    assert not before[named].rejected and before[named].finding.p > 0.01
    biased = change(honest)
    check_pack_rules(biased, 30, rules)  # step 5 passes it: every parameter still met
    after = _judged(spec, rules, biased, seed, 30)
    failed = [(j.finding.name, j.finding.p) for j in after.failed]
    assert [name for name, _ in failed] == [named], failed
    assert after.failed[0].finding.p < 1e-4


@pytest.mark.parametrize("packs", [CHAIN, FLOOR])
def test_under_the_chain_whole_pairs_of_books_evened_out_fail_the_pair_value_test(tmp_path, packs):
    """The pair tests condition on each pair's union, so pairs made of a rich and a poor book (whole books
    moved, every parameter kept) keep every pair's split honest: before the pair value test 26 and 31 of
    100 such pools were refused, by the tenths (bench/stats_packs.py --bias pairs-evened-floor, -chain);
    the books are exchangeable, so the ranks of value within the pairs have their permutation law."""
    spec, rules = _spec(tmp_path, packs, "pairs")
    seed = hashlib.sha256(b"poolgen/tests/packs-exact/pairs").digest()
    honest = build_pool(spec, spec.pools[0], seed)
    named = "prize value of the two books of each pair of books"
    assert not _judged(spec, rules, honest, seed, 30).failed
    biased = pairs_evened(honest, 30)
    check_pack_rules(biased, 30, rules)  # step 5 passes it: every parameter still met
    failed = {j.finding.name: j.finding for j in _judged(spec, rules, biased, seed, 30).failed}
    assert named in failed and failed[named].p < 1e-4, failed
    assert float(failed[named].figures.rsplit("z = ", 1)[1]) > 3.8, failed[named]  # books far apart
