"""audit's spec reader refuses a poker_hand chart (docs/styles/poker_hand.md, section 2) as poolgen's loader
does, naming the same field in the same words: a chart not from the best rank the deck makes (with the
JOKER five_of_a_kind, else royal_flush), a rank out of order or past the last, a prize twice, a JOKER that
is not true or false; and both take a chart of every rank, the JOKER's included."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support.spec_docs import base_doc, dumps

RANKS = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]


def _doc(joker: bool | None, hands: list[str], prizes: list[str] | None = None) -> dict:
    """A prize symbol Z0, Z1, ... for each chart line (at least one) and a tier winning each prize the chart
    pays (a chart line no tier wins is refused: tests/audit/read/specs/test_unused.py)."""
    symbols = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
               for i in range(max(1, len(hands)))]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz",
            "chart": [{"hand": h, "prize": p} for h, p in zip(hands, prizes or [f"Z{i}" for i in range(11)],
                                                               strict=False)]}
    if joker is not None:
        area["joker"] = joker
    codes = dict.fromkeys(line["prize"] for line in area["chart"]) or {"Z0": None}
    tiers = [{"id": f"t{code}", "count": 10, "wins": [{"area": "ph", "prize": code, "how": "match"}]}
             for code in codes]
    return base_doc([area], symbols, tiers, max_wins=1, pool_tickets=500, per_book=25)


CASES = [
    (True, RANKS[1:], None, "areas[0].chart[0].hand: 'royal_flush', but a chart pays from the best rank "
                            "down: here 'five_of_a_kind'"),
    (False, RANKS, None, "areas[0].chart[0].hand: 'five_of_a_kind', but a chart pays from the best rank "
                         "down: here 'royal_flush'"),
    (None, RANKS[1:] + ["pair"], None, "areas[0].chart[9].hand: 'pair', but a chart pays from the best rank "
                                       "down: here nothing: the chart has every rank"),
    (None, [RANKS[1], RANKS[3]], None, "areas[0].chart[1].hand: 'four_of_a_kind', but a chart pays from the "
                                       "best rank down: here 'straight_flush'"),
    (None, RANKS[1:3], ["Z0", "Z0"], "areas[0].chart[1].prize: 'Z0' is paid for another hand too (a win's "
                                     "prize names its hand)"),
    (None, RANKS[1:3], ["Z0", "Q"], "areas[0].chart[1].prize: not one of the area's prize symbols"),
    ("yes", RANKS, None, "areas[0].joker: must be a bool, not 'yes'"),
    # the loader's words for a hand or prize not a string, and a long hand cut to 80 characters (audit's
    # reader said "'5', but a chart pays ...", "not one of the area's prize symbols", and "boolean")
    (None, [5], None, "areas[0].chart[0].hand: must be a string, not 5"),
    (None, RANKS[1:2], [5], "areas[0].chart[0].prize: must be a string, not 5"),
    (None, ["royal_" * 20], None, f"areas[0].chart[0].hand: {('royal_' * 20)[:80]!r}, but a chart pays from "
                                  "the best rank down: here 'royal_flush'"),
    (None, [], None, "areas[0].chart: list the hands that pay, best first, each with its prize"),
]


@pytest.mark.parametrize(("joker", "hands", "prizes", "said"), CASES, ids=[c[3][:40] for c in CASES])
def test_audit_refuses_a_bad_chart_in_the_loaders_words(tmp_path, joker, hands, prizes, said):
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(_doc(joker, hands, prizes)))
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value).startswith(f"{spec}: {said}")
    assert str(reader.value).startswith(f"{spec}: {said}")


@pytest.mark.parametrize("joker", [True, False, None])
def test_both_take_a_chart_of_every_rank_the_deck_makes(tmp_path, joker):
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(_doc(joker, RANKS if joker else RANKS[1:])))
    load_spec(spec)
    read_spec(spec)
