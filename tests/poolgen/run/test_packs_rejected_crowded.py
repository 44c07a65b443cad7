"""A crowded pool of 5.13 (docs/randomness.md 5.13, "Check's measure"): 5.12's crowded pool (seven
losers, 11 free tickets at least 3 apart and 10 $1 tickets at least 2 apart in 4 packs of 7) with the
free tickets also at most three a pack, a cap that binds nothing (three is the most that fit 3 apart in
7). 5.13 takes it (the base is 5.8's draw of the free tickets' rule with its cap, the $1 rule left out at
10^2 / 28 = 3.57) and reads the stream as 5.12 does, so its try is kept with probability 256 / 777,920 =
3.3e-4, counted by brute force (tests/poolgen/run/test_packs_several_crowded.py): check measures 1,000
more tries and refuses the spec; a run's pool none of whose 10,000 tries is kept is drawn by the chain
from where they left the stream (the third engine's `chain.several` draws it again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.rng.labels import stream_label
from poolgen.run.packs import arrange, rules_for
from poolgen.run.packs.composition import spacing_ok
from poolgen.run.packs.rejected import base_of, exactly_rejected, left_out
from tests.support.cli import invoke
from tests.support.spec_docs import kn_doc, write
from tests.third_engines import chain, packs

SEED = (6).to_bytes(32, "big")  # none of its pool's 10,000 tries is kept (as under 5.12)


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 28, "pool_tickets": 28, "last_ticket": 6}
    doc["tiers"] = doc["tiers"][:2]
    doc["tiers"][0]["count"], doc["tiers"][1]["count"] = 11, 10
    del doc["areas"][0]["specials"]
    doc["symbols"] = [s for s in doc["symbols"] if s["group"] != "special"]
    doc["packs"] = {"caps": [{"tiers": ["free"], "at_most": 3}],
                    "spacing": [{"tiers": ["free"], "min_distance": 3}, {"tiers": ["1"], "min_distance": 2}]}
    return write(tmp_path_factory.mktemp("crowded"), doc)


def test_check_refuses_the_crowded_spec_by_its_measured_acceptance_naming_the_left_out_rule(spec):
    result = invoke("check", spec)
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        f"poolgen: error: {spec}: packs.spacing[1]: pool p1: check's pool took 1,529 tries and 1 of 1,000 "
        "more met every rule (at least 5 needed; each try accepted with probability about "
        "exp(-3.57) = 0.028 by the estimate): a run's pool would too often meet none in 10,000 "
        "(docs/randomness.md, 5.13)")


def test_a_pool_none_of_whose_tries_is_kept_is_drawn_by_the_chain_as_the_third_engine_draws_it(spec):
    game = load_spec(spec)
    pool = game.pools[0]
    rules = rules_for(game, pool)
    assert rules is not None and exactly_rejected(rules)
    assert base_of(rules)[0] == 0b011 and left_out(rules) == ["spacing[1]"]
    drawn = arrange(derive_stream(SEED, *stream_label(game.id, pool.id, "order")), rules)
    assert sorted(drawn.tolist()) == [0] * 7 + [1] * 11 + [2] * 10
    assert spacing_ok(rules, drawn.reshape(4, 7)).all()
    third = packs.Rules(caps=[(frozenset({1}), 3)], spacing=[(frozenset({1}), 3), (frozenset({2}), 2)])
    again = chain.several(SEED, game.id, pool.id, 7, [7, 11, 10], [0, 100, 100], third)
    assert again == ("5.3", drawn.tolist())
