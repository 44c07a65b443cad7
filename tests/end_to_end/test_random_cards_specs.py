"""Property: every random cards spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: 1 to 5 games, a deal of five cards (`deal` left out or written out) or
hold 'em, ties that win or lose, 1 to 4 prizes, tiers of one to three
wins in the area, on pools of a few hundred tickets."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.checklist import Step
from tests.support.random_specs import PER_POOL, generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    n_games = draw(st.integers(1, 5))
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(draw(st.integers(1, 4)))]
    area = {"id": "pk", "style": "cards", "games": n_games, "prizes": "pz",
            "ties": draw(st.sampled_from(["win", "lose"]))}
    deal = draw(st.sampled_from([None, "five", "hold_em"]))
    if deal is not None:
        area["deal"] = deal
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 10))
    ways = {tuple(sorted(draw(st.lists(st.sampled_from([p["code"] for p in prizes]), min_size=1,
                                       max_size=min(3, n_games))))) for _ in range(draw(st.integers(1, 4)))}
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "pk", "prize": c, "how": "match"} for c in way]}
             for i, way in enumerate(sorted(ways))]
    prizes = [p for p in prizes if any(p["code"] in way for way in ways)]  # an unwon prize: not used
    return base_doc([area], prizes, tiers, max_wins=3, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=10, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_cards_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("pk")
    # built valid: check must accept it; 9: the imaging file's cards are the deck's (contract section 4)
    generates_and_verifies(folder, doc, steps=(*PER_POOL, Step.DELIVERABLES))


BREAK = [
    lambda d: d["areas"][0].__setitem__("games", 0),
    lambda d: d["areas"][0].__setitem__("games", 6),
    lambda d: d["areas"][0].__setitem__("ties", "split"),
    lambda d: d["areas"][0].__setitem__("deal", "omaha"),
    lambda d: d["areas"][0].__setitem__("numbers", "pz"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("by", 2),
    lambda d: d["areas"][0].__delitem__("prizes"),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_cards_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
