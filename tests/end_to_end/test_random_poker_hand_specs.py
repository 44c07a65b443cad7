"""Property: every random poker_hand spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier (step 9: the imaging file's cards, the JOKER included, are the deck's); and a broken
variant of it is refused with one line naming the file.

Specs are drawn at random: a deck with or without the JOKER (and then five of a kind a rank or not, and a
JOKER multiplier or none), a chart from the best rank down to a random last rank (a distinct prize a rank;
the pair line any pair's), a tier winning each of the chart's prizes (with a multiplier, one without the
JOKER and one with it, where hands of each are), the rarest ranks included: each winning hand is drawn
from its cell's hands, never by rejection, on pools of a few hundred tickets."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.checklist import Step
from tests.support.random_specs import PER_POOL, generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc

RANKS = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]


PAIRS = ["tens_or_better", "jacks_or_better", "kings_or_better", "twos_or_better"]


@st.composite
def games(draw) -> dict:
    joker = draw(st.booleans())
    five = not joker or draw(st.booleans())
    ranks = RANKS if joker and five else RANKS[1:]
    paid = ranks[:draw(st.integers(1, len(ranks)))]
    if paid[-1] == "jacks_or_better":
        paid[-1] = draw(st.sampled_from(PAIRS))
    k = draw(st.sampled_from([None, 3, 5])) if joker else None  # never 2: a broken variant writes by = 2
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${100 - i}", "value": f"{100 - i}.00"}
              for i in range(len(paid))]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz",
            "chart": [{"hand": h, "prize": p["code"]} for h, p in zip(paid, prizes, strict=True)]}
    if joker or draw(st.booleans()):
        area["joker"] = joker
    if joker and (not five or draw(st.booleans())):
        area["five_of_a_kind"] = five
    if k:
        area["joker_multiplier"] = k
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 10))
    # a tier for every prize the chart pays (a chart line no tier wins is refused), some held by no ticket;
    # with a multiplier one a cell of section 9 that holds hands: without the JOKER, then with it
    ways = [(i, by) for i, h in enumerate(paid) for by in ((None, k) if k else (None,))
            if not (k and (h, by) in (("five_of_a_kind", None), ("two_pair", k)))]
    tiers = [{"id": f"t{j}", "count": draw(st.integers(0, tickets // (8 + 2 * len(ways)))),
              "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"} | ({"by": by} if by else {})]}
             for j, (i, by) in enumerate(ways)]
    return base_doc([area], prizes, tiers, max_wins=1, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=8, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_poker_hand_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    generates_and_verifies(tmp_path_factory.mktemp("ph"), doc, steps=(*PER_POOL, Step.DELIVERABLES))


BREAK = [
    lambda d: d["areas"][0].__setitem__("joker", "yes"),
    lambda d: d["areas"][0].__setitem__("chart", []),
    lambda d: d["areas"][0]["chart"].reverse() if len(d["areas"][0]["chart"]) > 1
    else d["areas"][0]["chart"][0].__setitem__("hand", "pair"),
    lambda d: d["areas"][0]["chart"][0].__setitem__("prize", "NOPE"),
    lambda d: d["areas"][0].__setitem__("ties", "lose"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("by", 2),
    lambda d: d["tiers"][0]["wins"].append(dict(d["tiers"][0]["wins"][0])),
    lambda d: d["areas"][0].__delitem__("chart"),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_poker_hand_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
