"""poker_hand's fields for a pair chart and Ohio's Joker Poker (docs/styles/poker_hand.md, section 2):
audit's spec reader refuses a bad `five_of_a_kind`, `joker_multiplier`, pair line or JOKER tier as poolgen's
loader does, naming the same field in the same words, and `poolgen check` says it in one line (exit 2);
both take the good ones; and a spec writing the defaults out makes the same run entry and layout, byte for
byte, as one leaving them out."""

from __future__ import annotations

import numpy as np
import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from tests.support import SEED_A
from tests.support.cli import invoke
from tests.support.spec_docs import base_doc, dumps

OHIO = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair", "kings_or_better"]
FIVE = ["five_of_a_kind", *OHIO]


def _doc(fields: dict, hands: list[str], by: dict[int, int | None] | None = None, free: int | None = None,
         extra: list[tuple[int, int | None]] = ()) -> dict:
    """A chart line Z0, Z1, ... for each hand; a tier per line, its win `by` by[i] (default none), plus a
    tier (line, by) for each of `extra`; Z`free` a free ticket."""
    symbols = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
               if i != free else {"group": "pz", "code": f"Z{i}", "symbol": "FREE", "free": True}
               for i in range(len(hands))]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz",
            "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(hands)]} | fields
    ways = [(i, (by or {}).get(i)) for i in range(len(hands))] + list(extra)
    tiers = [{"id": f"t{j}", "count": 10, "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"}
                                                   | ({} if k is None else {"by": k})]}
             for j, (i, k) in enumerate(ways)]
    return base_doc([area], symbols, tiers, max_wins=1, pool_tickets=500, per_book=25)


JOKER2 = {"joker": True, "five_of_a_kind": False, "joker_multiplier": 2}
CASES = [
    ({"five_of_a_kind": False}, OHIO, {},
     "areas[0].five_of_a_kind: only with joker = true (without the JOKER no hand is five of a kind)"),
    ({"joker": False, "joker_multiplier": 2}, OHIO, {},
     "areas[0].joker_multiplier: only with joker = true (without the JOKER no hand shows it)"),
    ({"joker": True, "joker_multiplier": 1}, FIVE, {},
     "areas[0].joker_multiplier: must be at least 2, got 1"),
    ({"joker": True, "joker_multiplier": 11}, FIVE, {},
     "areas[0].joker_multiplier: must be at most 10, got 11"),
    ({"joker": True, "joker_multiplier": "2"}, FIVE, {},
     "areas[0].joker_multiplier: must be a whole number, not '2'"),
    ({"joker": True, "five_of_a_kind": "no"}, FIVE, {},
     "areas[0].five_of_a_kind: must be a bool, not 'no'"),
    (JOKER2, FIVE, {},
     "areas[0].chart[0].hand: 'five_of_a_kind', but a chart pays from the best rank down: here "
     "'royal_flush'"),
    ({}, OHIO[:-1] + ["tens"], {},
     "areas[0].chart[8].hand: 'tens', but a chart pays from the best rank down: here 'jacks_or_better' (or "
     "another pair's: 'twos_or_better' to 'aces_or_better')"),
    (JOKER2, OHIO, {"free": 8},
     "areas[0].chart[8].prize: 'Z8' is a free ticket, which a JOKER hand cannot win 2 times "
     "(joker_multiplier)"),
    (JOKER2, OHIO, {"by": {0: 3}},
     "tiers[0].wins[0].by: area 'ph' (poker_hand): by = 3: a hand showing the JOKER wins by = 2 "
     "(joker_multiplier), one without it has no `by`"),
    (JOKER2, OHIO, {"extra": [(7, 2)]},
     "tiers[9].wins[0].by: area 'ph' (poker_hand): no two_pair hand shows the JOKER (the JOKER makes it "
     "three of a kind or better): no ticket can win 'Z7' with it"),
    ({"joker": True, "joker_multiplier": 2}, FIVE, {},
     "tiers[0].wins[0].by: area 'ph' (poker_hand): every five_of_a_kind hand shows the JOKER: no ticket can "
     "win 'Z0' without it"),
    ({"joker": True}, FIVE, {"by": {1: 2}},
     "tiers[1].wins[0].by: area 'ph' (poker_hand): a listed prize wins as listed: no `by`"),
]


@pytest.mark.parametrize(("fields", "hands", "more", "said"), CASES, ids=[c[3][:60] for c in CASES])
def test_both_refuse_a_bad_field_in_the_same_one_line(tmp_path, fields, hands, more, said):
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(_doc(fields, hands, **more)))
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value).startswith(f"{spec}: {said}")
    assert str(reader.value).startswith(f"{spec}: {said}")
    result = invoke("check", spec)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output and said in result.output


@pytest.mark.parametrize(("fields", "hands", "more"), [
    (JOKER2, OHIO, {"extra": [(i, 2) for i in range(7)] + [(8, 2)]}),  # Ohio's: all but two pair, JOKER too
    ({}, OHIO[:-1] + ["tens_or_better"], {}), ({"joker": True}, FIVE[:-1] + ["twos_or_better"], {}),
    ({"joker": True, "five_of_a_kind": True, "joker_multiplier": 10}, FIVE, {"by": {0: 10}})])
def test_both_take_pair_charts_and_joker_tiers(tmp_path, fields, hands, more):
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(_doc(fields, hands, **more)))
    load_spec(spec)
    read_spec(spec)


def test_the_defaults_written_out_make_the_same_entry_and_layout_as_left_out(tmp_path):
    """`five_of_a_kind = true` with the JOKER and a chart down to `jacks_or_better` are the old spec: the
    entry holds no new key and the same stream lays out the same cards."""
    made = []
    for name, fields in (("left", {"joker": True}), ("written", {"joker": True, "five_of_a_kind": True})):
        spec = tmp_path / f"{name}.toml"
        spec.write_text(dumps(_doc(fields, FIVE[:-1] + ["jacks_or_better"])))
        game = load_spec(spec)
        pool = game.pools[0]
        order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
        cols = game.play.lay_out(game, pool, order, derive_stream(SEED_A, "test", "defaults"))
        made.append((game.play.document(), {k: v.tobytes() for k, v in cols.items()}))
    assert made[0] == made[1]
    assert set(made[0][0]["areas"][0]) == {"id", "style", "deck", "ranking", "chart", "prizes", "joker"}
