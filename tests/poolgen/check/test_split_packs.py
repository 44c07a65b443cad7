"""`poolgen check` of pack parameters beside `split = "even"` (poolgen/check/split_packs.py, docs/new-game.md
2b): a minimum is proved with every share rounded down, an upper bound with every share rounded up, both
with the pool rounded down and one more of each tier that may round up placed on its losers; a variant
met only when the shares round up is refused, naming the parameter."""

from __future__ import annotations

import json

import numpy as np

from poolgen.check.packs import CHECK_SEED
from poolgen.check.split_packs import arrangement, place_extras
from poolgen.loader import load_spec
from poolgen.run.packs import Rules, rules_for
from poolgen.run.split import ceiling_game
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import kn_doc, write


def split_doc(packs: dict, counts: tuple[int, ...] = (100, 100, 50, 4)) -> dict:
    """The small key_number_match game as an order of six pools of 2,000 (40 packs of 50), counts per
    order split evenly, under `packs`."""
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    for tier, count in zip(doc["tiers"], counts, strict=True):
        tier["count"] = count
    return doc | {"packs": packs}


def _proof(tmp_path, packs: dict) -> str:
    result = invoke("check", write(tmp_path, split_doc(packs)), "--json")
    assert result.exit_code == 0, result.output
    notes = [n for n in json.loads(result.stdout)["games"][0]["notes"] if n.startswith("Test Game: pool p1:")]
    assert len(notes) == 1, notes  # six pools alike: one proof
    return notes[0][notes[0].index("; for every count") + 2:]  # after what a uniform shuffle breaks


def test_a_floor_beside_a_split_is_proved_with_every_share_rounded_down(tmp_path):
    assert _proof(tmp_path, {"min_prize_value": "1.00"}) == (
        "for every count the split may draw of pool p1: check found the pool with every share rounded down "
        "meeting every parameter, and placed one more ticket of each of the 4 tiers that may round up on its "
        "losers without breaking any (docs/new-game.md, 2b); drawn with the seed's counts "
        "(docs/randomness.md, 5.11)")


def test_upper_bounds_alone_beside_a_split_are_proved_with_every_share_rounded_up(tmp_path):
    assert _proof(tmp_path, {"max_winners": 2}) == (
        "for every count the split may draw of pool p1: with every share rounded up (the most of every "
        "tier), possible by the counts alone; drawn exactly (docs/randomness.md, 5.2)")


def test_a_floor_and_a_cap_beside_a_split_place_every_tier_that_may_round_up(tmp_path):
    assert _proof(tmp_path, {"min_winners": 1, "caps": [{"tiers": ["2", "6"], "at_most": 1}]}).startswith(
        "for every count the split may draw of pool p1: check found the pool with every share rounded down "
        "meeting every parameter, and placed one more ticket of each of the 4 tiers")


def test_a_floor_met_only_when_the_shares_round_up_is_refused_naming_it(tmp_path):
    """2 free tickets, 2 of $1 and 36 of $2 rounded down ($76 in 40 packs, enough by the count) cannot give
    40 packs $1.01 each (36 packs of a $2 and two of a free ticket and a $1); rounded up (37 of $2, one $6,
    3 free, 3 of $1) they can: check refuses what the most of every tier alone would have accepted."""
    path = write(tmp_path, split_doc({"min_prize_value": "1.01"}, counts=(13, 13, 217, 4)))
    one_line(invoke("check", path), "poolgen",
             f"{path}: packs.min_prize_value: pool p1 (every share rounded down): no arrangement meeting the "
             "pack parameters found after 200 proposals per ticket")
    up = ceiling_game(load_spec(path))
    rules = rules_for(up, up.pools[0])
    assert rules is not None
    found = arrangement(CHECK_SEED, up.id, "p1", rules)
    prizes = np.asarray(rules.prizes)[found].reshape(40, 50).sum(axis=1)
    assert prizes.min() >= 101 and np.bincount(found, minlength=5).tolist() == list(rules.counts)


def test_caps_met_only_when_the_shares_round_down_are_refused_naming_them(tmp_path):
    """Three caps of one on each pair of the free, $1 and $2 tiers let a pack hold one of the three: 16 +
    16 + 8 = 40 rounded down fit 40 packs, 17 + 17 + 9 = 43 rounded up do not (each cap alone fits)."""
    caps = [{"tiers": pair, "at_most": 1} for pair in (["free", "1"], ["1", "2"], ["free", "2"])]
    path = write(tmp_path, split_doc({"caps": caps}))
    one_line(invoke("check", path), "poolgen",
             f"{path}: packs.caps[0], packs.caps[1]: pool p1 (every share rounded up): no arrangement "
             "meeting the pack parameters found after 200 proposals per ticket")
    game = load_spec(path)
    rules = rules_for(game, game.pools[0])  # the pool as loaded: every share rounded down
    assert rules is not None and rules.counts == (1960, 16, 16, 8, 0)
    found = arrangement(CHECK_SEED, game.id, "p1", rules).reshape(40, 50)
    assert ((found >= 1) & (found <= 3)).sum(axis=1).max() == 1


def _rules(hi: int = 4, caps: tuple = (), spacing: tuple = ()) -> Rules:
    """Two packs of 4, a ticket of tier 1 first in each, six losers; tiers 1 and 2 of $1 and $5."""
    return Rules(m=4, books=2, counts=(6, 2, 0), prizes=(0, 100, 500), lo=0, hi=hi, min_cents=None,
                 caps=caps, spacing=spacing)


def test_a_tier_left_no_place_is_named_with_the_parameter_that_took_its_places():
    labels = np.array([1, 0, 0, 0, 1, 0, 0, 0], dtype=np.int16)
    assert place_extras(_rules(hi=1), labels, [2]) == (2, ["max_winners"])
    assert place_extras(_rules(caps=((frozenset({1, 2}), 1),)), labels, [2]) == (2, ["caps[0]"])
    assert place_extras(_rules(spacing=((frozenset({1, 2}), 4),)), labels, [2]) == (2, ["spacing[0]"])
    assert place_extras(_rules(spacing=((frozenset({1, 2}), 3),)), labels, [2, 1, 1]) == (1, ["spacing[0]"])
    assert place_extras(_rules(hi=2), labels, [2, 1]) is None  # one in each pack
    assert place_extras(_rules(hi=2), labels, [2, 1, 2]) == (2, ["max_winners"])
    assert labels.tolist() == [1, 0, 0, 0, 1, 0, 0, 0]  # a copy is placed on


def test_a_placement_that_fails_on_x_is_proved_count_vector_by_count_vector_when_few_tiers_round_up(tmp_path):
    """Caps of one on free-or-$1 and on $1-or-$2, at least one winner a pack: 20 free and 20 of $2 a pool,
    $1 19 or 20 (117 an order). X of 19 leaves its free tickets' and $2's empty packs apart, so the 20th
    $1 has no place on it (refused until review10), though both count vectors have pools: check now
    finds one for each, and the order generates."""
    caps = [{"tiers": ["free", "1"], "at_most": 1}, {"tiers": ["1", "2"], "at_most": 1}]
    path = write(tmp_path, split_doc({"caps": caps, "min_winners": 1}, counts=(120, 117, 120, 6)))
    game = load_spec(path)
    low = rules_for(game, game.pools[0])  # the pool as loaded: every share rounded down
    assert low is not None and low.counts == (1940, 20, 19, 20, 1)
    assert place_extras(low, arrangement(CHECK_SEED, game.id, "p1", low), [2]) == (2, ["caps[0]", "caps[1]"])
    result = invoke("check", path, "--json")
    assert result.exit_code == 0, result.output
    notes = [n for n in json.loads(result.stdout)["games"][0]["notes"] if n.startswith("Test Game: pool p1:")]
    assert notes[0].endswith(
        "; for every count the split may draw of pool p1: check found a pool meeting every parameter for "
        "each of the 2 count vectors the split may draw (the 1 tiers that may round up, each rounded up or "
        "not: docs/new-game.md, 2b); drawn with the seed's counts (docs/randomness.md, 5.11)")
    seed = tmp_path / "s.seed"
    seed.write_text(bytes(range(32)).hex() + "\n")
    seed.chmod(0o600)
    made = invoke("generate", path, "--seed-file", seed, "--out", tmp_path / "runs", "--unsigned",
                  "--workers", "1")
    assert made.exit_code == 0, made.output
