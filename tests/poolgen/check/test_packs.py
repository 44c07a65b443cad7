"""`poolgen check` on pack parameters (poolgen/check/packs.py): what each parameter does to a pool,
computed exactly, and the one-line refusal of parameters no pool can meet."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from audit.read.specs.packs import PackRules, read_packs
from poolgen.check.packs import _hypergeom_pmf, check_layouts_vary, share_breaking
from poolgen.cli.main import app
from poolgen.errors import SpecError
from poolgen.game.packs import Packs
from poolgen.loader import load_spec
from poolgen.rng import integers
from poolgen.run.packs import Rules
from tests.support import spec_path
from tests.support.cli import one_line
from tests.support.packs import EXAMPLE, packs_variant
from tests.support.spec_docs import base_doc, write

M, COUNTS, PRIZES = 6, (10, 5, 3), (0, 100, 500)  # one pack of 6 from 18 tickets: 10 losers, 5 A, 3 B


def _pack(a: int, b: int) -> float:
    """P(a pack of 6 holds a A and b B) under a uniform shuffle, by counting."""
    return math.comb(10, M - a - b) * math.comb(5, a) * math.comb(3, b) / math.comb(18, M)


def test_shares_are_the_exact_probabilities_a_uniform_shuffle_gives_one_pack():
    rules = Rules(m=M, books=3, counts=COUNTS, prizes=PRIZES, lo=2, hi=4, min_cents=600,
                  caps=((frozenset({2}), 1),), spacing=((frozenset({1, 2}), 3),))
    packs = [(a, b) for a in range(6) for b in range(4) if a + b <= M]
    shares = share_breaking(rules)
    assert shares["min_winners"] == pytest.approx(sum(_pack(a, b) for a, b in packs if a + b < 2), rel=1e-12)
    assert shares["max_winners"] == pytest.approx(sum(_pack(a, b) for a, b in packs if a + b > 4), rel=1e-12)
    assert shares["min_prize_value"] == pytest.approx(
        sum(_pack(a, b) for a, b in packs if 100 * a + 500 * b < 600), rel=1e-12)
    assert shares["caps[0]"] == pytest.approx(sum(_pack(a, b) for a, b in packs if b > 1), rel=1e-12)
    # j winners among 6 spots, all at least 3 apart: C(6 - 2 (j - 1), j) of the C(6, j) placements
    close = sum(_pack(a, b) * (1 - (math.comb(M - 2 * (a + b - 1), a + b) if M - 2 * (a + b - 1) >= a + b
                                    else 0) / math.comb(M, a + b)) for a, b in packs if a + b >= 2)
    assert shares["spacing[0]"] == pytest.approx(close, rel=1e-12)


def test_check_says_what_each_parameter_does_and_proves_them_possible():
    result = CliRunner().invoke(app, ["check", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert ("pool p1: packs a uniform shuffle would leave breaking each parameter (min $150.00): "
            "min_winners 14.3%; max_winners 0.245%; min_prize_value 48%; caps[0] 7.52%; spacing[0] 0.298%; "
            "possible: check found a pool meeting every parameter") in text
    assert "nor the last of a pack and the first of the next" in text


def test_an_infeasible_variant_is_refused_naming_the_parameter(tmp_path):
    spec = packs_variant(tmp_path, divisor=1, packs='min_winners = 80\nmin_prize_value = "185.00"')
    result = CliRunner().invoke(app, ["check", str(spec)])
    one_line(result, "poolgen", f"{tmp_path}/happy_holidays_packs.toml: packs.min_prize_value: pool p1 "
                                "(1,000 packs of 300) pays $181,850.00 in all, less than $185.00 x 1,000 = "
                                "$185,000.00")


class ThreeLayouts:
    """A play whose every ticket shows one of three layouts, uniformly."""

    @staticmethod
    def lay_out(game, pool, tiers, stream, mix=None):
        return {"spot": integers(stream, 3, size=len(tiers)).astype(np.uint8)}


def test_tiers_with_too_few_layouts_for_the_neighbour_rule_are_refused_naming_it(tmp_path):
    game = load_spec(packs_variant(tmp_path, packs='neighbours = "within packs"'))  # the default rule
    check_layouts_vary(game, 300)  # the real layouts vary enough
    with pytest.raises(SpecError) as info:
        check_layouts_vary(replace(game, play=ThreeLayouts), 300)
    assert str(info.value).startswith(f"{tmp_path}/happy_holidays_packs.toml: packs.neighbours: tier lose: ")
    assert str(info.value).endswith("too many to keep the neighbours of a pack of 300 apart; write "
                                    "neighbours = \"off\" in [packs] (or give the tier more varied layouts)")


def test_the_rule_turned_off_is_read_noted_and_not_audited(tmp_path):
    game = load_spec(packs_variant(tmp_path, packs='neighbours = "off"'))
    assert game.packs == Packs(neighbours=None)
    result = CliRunner().invoke(app, ["check", str(tmp_path / "happy_holidays_packs.toml")])
    assert result.exit_code == 0 and "the neighbour rule is off (packs.neighbours = \"off\")" in " ".join(
        result.output.split())
    assert read_packs({"packs": {"neighbours": "off"}}) == PackRules(neighbours=False)


def test_one_spacing_rule_is_noted_as_drawn_exactly(tmp_path):
    spec = packs_variant(tmp_path, packs='spacing = [ { prize = "100.00", min_distance = 10 } ]')
    result = CliRunner().invoke(app, ["check", str(spec)])
    assert result.exit_code == 0, result.output
    assert "possible by the counts alone; drawn exactly (docs/randomness.md, 5.8)" in " ".join(
        result.output.split())


@pytest.mark.parametrize("packs", [
    'caps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 1 } ]',
    'min_winners = 80\ncaps = [ { prize = "20.00", at_most = 2 }, { prize = "100.00", at_most = 1 } ]',
    'caps = [ { prize = "100.00", at_most = 1 } ]\nspacing = [ { prize = "20.00", min_distance = 2 } ]',
])
def test_a_cap_of_one_beside_a_second_rule_is_noted_as_drawn_exactly(tmp_path, packs):
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    assert "possible by the counts alone; drawn exactly (docs/randomness.md, 5.9)" in " ".join(
        result.output.split())


def test_several_caps_alone_are_noted_as_drawn_exactly_with_their_acceptance(tmp_path):
    """45 $100 and 50 $20 in 100 books of 300: exp(-45 x 50 / 30,000) = 0.93 (5.10)."""
    packs = 'caps = [ { prize = "100.00", at_most = 2 }, { prize = "20.00", at_most = 2 } ]'
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    assert ("possible by the counts alone; drawn exactly (docs/randomness.md, 5.10: several caps by "
            "rejection, each try accepted with probability about exp(-0.075) = 0.93)") in " ".join(
        result.output.split())


def test_several_caps_alone_too_slow_for_5_10_are_noted_as_drawn_by_the_chain(tmp_path):
    """Caps on the $1 and $2 tiers (tens of thousands of tickets each): the estimate is far below 1e-3."""
    packs = 'caps = [ { prize = "1.00", at_most = 299 }, { prize = "2.00", at_most = 299 } ]'
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert ("drawn by the chain (docs/randomness.md, 5.3) (5.10's exact draw of caps alone: each try "
            "accepted with probability about exp(-") in said, said
    assert ": below 1e-3, or the caps' tickets more than half the pool)" in said, said


def test_several_spacing_rules_alone_are_noted_as_drawn_exactly_with_their_acceptance(tmp_path):
    """45 $100 at least 3 apart (the primary: 45^2 x 2 > 50^2) and 50 $20 never back to back in 100 books
    of 300: a try accepted with probability about exp(-50^2 / 30,000) = 0.92 (5.12)."""
    packs = ('spacing = [ { prize = "20.00", min_distance = 2 }, { prize = "100.00", min_distance = 3 } ]')
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    assert ("possible: check drew a pool meeting every parameter; drawn exactly (docs/randomness.md, 5.12: "
            "several spacing rules by rejection, each try accepted with probability about exp(-0.0833) = "
            "0.92 by the estimate)") in " ".join(result.output.split())


def test_several_spacing_rules_past_5_12_s_estimate_are_noted_as_drawn_by_the_chain(tmp_path):
    """2,350 $2 and 410 $5 at least 3 apart: the rule but the primary, 410^2 x 2 = 336,200 > 4 x 30,000."""
    packs = ('spacing = [ { prize = "2.00", min_distance = 3 }, { prize = "5.00", min_distance = 3 } ]')
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert ("drawn by the chain (docs/randomness.md, 5.3) (5.12's exact draw of several spacing rules: "
            "each try accepted with probability about exp(-11.2) = 1.4e-05 by the estimate, below exp(-4))"
            ) in said


def test_a_cap_beside_a_spacing_rule_on_other_tiers_is_noted_as_drawn_exactly_by_5_13(tmp_path):
    """50 $20 at most two a book (5.7 draws it) and 45 $100 never back to back in 100 books of 300: a try
    kept with probability about exp(-45^2 / 30,000) = 0.93 (5.13; the $100 rule as the base would leave
    the cap to cost 50^3 / (100^2 3!) = 2.08)."""
    packs = ('caps = [ { prize = "20.00", at_most = 2 } ]\n'
             'spacing = [ { prize = "100.00", min_distance = 2 } ]')
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    assert ("possible: check drew a pool meeting every parameter; drawn exactly (docs/randomness.md, 5.13: "
            "caps and spacing rules by rejection from the exact draw of some of them, each try accepted with "
            "probability about exp(-0.0675) = 0.93 by the estimate)") in " ".join(result.output.split())


def test_caps_and_spacing_rules_past_5_13_s_estimate_are_noted_as_drawn_by_the_chain(tmp_path):
    """410 $5 at most six a book (cost 410^7 / (100^6 7!) = 386 left out) and 2,350 $2 never back to back
    (2,350^2 / 30,000 = 184, the $100 rule's 0.0675 beside it): either left out costs far more than 4."""
    packs = ('caps = [ { prize = "5.00", at_most = 6 } ]\n'
             'spacing = [ { prize = "2.00", min_distance = 2 }, { prize = "100.00", min_distance = 2 } ]')
    result = CliRunner().invoke(app, ["check", str(packs_variant(tmp_path, packs=packs))])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert ("drawn by the chain (docs/randomness.md, 5.3) (5.13's exact draw by rejection: each try accepted "
            "with probability about exp(-184) = ") in said, said
    assert "by the estimate, below exp(-4))" in said, said


@pytest.mark.parametrize(("total", "held", "drawn"), [(200_000, 12, 300), (300_000, 100_000, 299), (18, 5, 6),
                                                      (10, 8, 6), (50, 50, 10)])
def test_check_s_hypergeometric_law_is_within_1e_12_of_the_exact_fractions(total, held, drawn):
    """The value floor's share (`_value_short`) draws on this law at pool size; scipy.stats' own was 3e-11
    off there (and took 6 ms a call). (10, 8, 6): no pack without the tier, scipy.stats' own is used."""
    pmf = _hypergeom_pmf(total, held, drawn)
    assert len(pmf) == min(held, drawn) + 1
    for k, p in enumerate(pmf.tolist()):
        exact = Fraction(math.comb(held, k) * math.comb(total - held, drawn - k), math.comb(total, drawn))
        assert abs(Fraction(p) - exact) <= exact * Fraction(1, 10**12), k


class CountedLayouts:
    """The game's own play, counting the pools it lays out for the neighbour rule's probe."""

    def __init__(self, play):
        self.play, self.pools = play, []

    def lay_out(self, game, pool, tiers, stream, mix=None):
        self.pools.append(pool.id)
        return self.play.lay_out(game, pool, tiers, stream, mix)


def test_printed_pools_alike_but_for_their_id_and_books_are_probed_once():
    """Wild Side's five pools differ only in their id and their first book (books first_book .. + 2,499):
    neither changes a layout, so the first is probed and the other four were drawn again for nothing
    (the dedupe compared the pools without their id only, so every printed pool was probed)."""
    game = load_spec(spec_path("wild_side"))
    assert [p.first_book for p in game.pools] == [0, 2500, 5000, 7500, 10000]
    counted = CountedLayouts(game.play)
    check_layouts_vary(replace(game, play=counted), 60)
    assert counted.pools == ["p1"]


def test_two_losing_layouts_in_packs_of_ten_are_refused_though_a_pair_of_them_matches_half_the_time(tmp_path):
    """A match_n area of 2 spots and 2 amounts: a loser shows (A, B) or (B, A), so a pack of 10 losers
    is laid out without an identical pair once in 512 draws. The old rule, (1 - (k + 1) / 256)^9 >=
    1%, passed it on the probe's 98 matches of 256 and `generate` then gave up on runs after 1,000
    rounds with a traceback (found by the win-all pass's random specs)."""
    prizes = [{"group": "p", "code": "A", "symbol": "$1.00", "value": "1.00"},
              {"group": "p", "code": "B", "symbol": "$2.00", "value": "2.00"}]
    area = {"id": "play", "style": "match_n", "spots": 2, "match": 2, "prizes": "p"}
    tiers = [{"id": "t0", "count": 0, "wins": [{"area": "play", "prize": "A", "how": "match"}]}]
    path = write(tmp_path, base_doc([area], prizes, tiers, pool_tickets=200, per_book=10))
    with pytest.raises(SpecError) as info:
        check_layouts_vary(load_spec(path), 10)
    assert str(info.value) == (
        f"{path}: packs.neighbours: tier lose: 98 of 256 pairs of its layouts drawn at random are identical, "
        "too many to keep the neighbours of a pack of 10 apart; write neighbours = \"off\" in [packs] (or "
        "give the tier more varied layouts)")


def test_a_probe_is_drawn_again_for_a_changed_layout_and_not_for_changed_published_figures(tmp_path):
    """check keeps its last probes (poolgen/check/packs.py `_matches`), keyed on the game as laid out:
    the same game from another folder, or with other published figures, is not laid out again; a game
    whose count or play changes is, and is refused as a fresh check refuses it."""
    game = load_spec(spec_path("wild_side"))
    counted = CountedLayouts(game.play)
    check_layouts_vary(replace(game, play=counted), 60)
    tier = game.tiers[0]
    figures = replace(tier.published, cost="$1.00", odds="1 in 2")
    other = replace(game, path=tmp_path / game.path.name, sha256="0" * 64, play=counted,
                    tiers=(replace(tier, published=figures), *game.tiers[1:]),
                    published=replace(game.published, odds="1 in 3.00"))
    check_layouts_vary(other, 60)
    assert counted.pools == ["p1"]  # the second check's probe was the first's
    pools = tuple(replace(p, tiers=(replace(p.tiers[0], count=p.tiers[0].count - 1), *p.tiers[1:]))
                  for p in game.pools)
    check_layouts_vary(replace(game, play=counted, pools=pools), 60)
    assert counted.pools == ["p1", "p1"]  # a count changes the pool's mix: laid out again
    with pytest.raises(SpecError) as info:
        check_layouts_vary(replace(game, play=ThreeLayouts), 60)  # another play: laid out, and refused
    assert str(info.value) == (
        f"{game.file}: packs.neighbours: tier lose of pool p1: 100 of 256 pairs of its layouts drawn at "
        "random are identical, too many to keep the neighbours of a pack of 60 apart; write neighbours = "
        "\"off\" in [packs] (or give the tier more varied layouts)")
