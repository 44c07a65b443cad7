"""`poolgen check` on an eInstant's default neighbour rule (poolgen/check/packs.py): a tier whose layouts
repeat too often for the longest run of it a pool is expected to hold is refused in one line naming
blocks.neighbours; `[blocks] neighbours = "off"` is noted and checks nothing."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from poolgen.check.game import check_spec
from poolgen.check.packs import check_layouts_vary, longest_run
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import integers
from tests.support import spec_path
from tests.support.blocks import blocks_variant


class ThreeLayouts:
    """A play whose every share shows one of three layouts, uniformly."""

    @staticmethod
    def lay_out(game, pool, tiers, stream, mix=None):
        return {"spot": integers(stream, 3, size=len(tiers)).astype(np.uint8)}


class Refuses:
    """A style module that lays nothing out: its every other answer the real module's."""

    def __init__(self, real):
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)

    def lay_out(self, *args, **kwargs):
        raise AssertionError("laid out")


@pytest.mark.parametrize(("count", "n", "run"), [
    (661_356, 1_000_000, 31),  # Hand to Hand Tactics' losers: log(338,644) / log(1 / 0.661356) = 30.7
    (13_223, 20_000, 22),      # the example cut to 20,000 shares
    (2, 20_000, 2),            # never below a pair
    (19_999, 20_000, 10_000),  # one other share cuts the tier in two: its mean run
    (20_000, 20_000, 20_000),  # the tier fills the pool
])
def test_the_longest_run_a_pool_is_expected_to_hold(count, n, run):
    assert longest_run(count, n) == run


@pytest.mark.parametrize(("blocks", "run"), [("", 22), ('shares = 100\nneighbours = "across blocks"', 22),
                                             ('shares = 100\nneighbours = "within blocks"', 22)])
def test_tiers_with_too_few_layouts_are_refused_naming_blocks_neighbours(tmp_path, blocks, run):
    game = load_spec(blocks_variant(tmp_path, blocks=blocks))
    check_layouts_vary(game, game.packs.block)  # the real layouts vary enough
    with pytest.raises(SpecError) as info:
        check_layouts_vary(replace(game, play=ThreeLayouts), game.packs.block)
    said = str(info.value)
    assert said.startswith(f"{tmp_path}/hand_to_hand_blocks.toml: blocks.neighbours: tier lose: ")
    assert "\n" not in said
    assert said.endswith(f"too many to keep the neighbours of a run of {run} shares of the tier (the "
                         "longest a pool is expected to hold) apart; write neighbours = \"off\" in [blocks] "
                         "(or give the tier more varied layouts)")


def test_within_small_blocks_the_same_layouts_are_enough(tmp_path):
    """Three layouts (a pair matches with probability 1/3) are too few for a run of 22 but enough for
    runs cut at every block of 10: (1 - (k + 1) / 256)^9 >= 1%."""
    game = load_spec(blocks_variant(tmp_path, blocks='shares = 10\nneighbours = "within blocks"'))
    check_layouts_vary(replace(game, play=ThreeLayouts), game.packs.block)
    across = load_spec(blocks_variant(tmp_path, blocks='shares = 10\nneighbours = "across blocks"'))
    with pytest.raises(SpecError, match="a run of 22 shares of the tier"):
        check_layouts_vary(replace(across, play=ThreeLayouts), across.packs.block)


def test_the_rule_turned_off_is_noted_and_lays_nothing_out(tmp_path):
    game = load_spec(blocks_variant(tmp_path, blocks='neighbours = "off"'))
    result = check_spec(replace(game, play=replace(game.play, module=Refuses(game.play.module))))
    name = "Hand to Hand Tactics (block parameters)"
    assert f"{name}: the neighbour rule is off (blocks.neighbours = \"off\")" in result.notes


def test_the_default_rule_goes_without_a_note():
    result = check_spec(load_spec(spec_path("hand_to_hand_tactics")))
    assert not result.problems and not any("neighbour" in n for n in result.notes)


def test_every_pool_is_probed_and_a_later_pool_s_few_layouts_are_refused_naming_it():
    """Primetime Payout's 16 pools differ in areas and prizes, so each is probed with its own layouts:
    one pool whose layouts take three values is refused, named, though the first pool's vary enough."""
    game = load_spec(spec_path("primetime_payout"))
    last = game.pools[-1].id
    real = game.play

    class FewInTheLast:
        @staticmethod
        def lay_out(g, pool, tiers, stream, mix=None):
            if pool.id == last:
                return ThreeLayouts.lay_out(g, pool, tiers, stream, mix)
            return real.lay_out(g, pool, tiers, stream, mix)

    check_layouts_vary(game, game.packs.block)
    with pytest.raises(SpecError) as info:
        check_layouts_vary(replace(game, play=FewInTheLast), game.packs.block)
    said = str(info.value)
    assert said.startswith(f"{game.file}: blocks.neighbours: tier lose of pool {last}: ") and \
        "\n" not in said
