"""Property: every random blackjack spec that the loader accepts generates a pool that audit verifies,
every ticket paying its tier; a spec the loader refuses is refused for a reason docs/styles/blackjack.md
states (a tier no DEALER'S TOTAL can show, an area whose hands cannot all lose), never by a crash.

Specs are drawn at random: 1 to 4 hands of 1 to 3 spots, 2 to 5 symbols of 2 to 26 points, 1 to 3
DEALER'S TOTALS of 0 to 21 points, 1 to 3 prizes, tiers of one to three wins in the area, on pools of a
few hundred tickets."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    hands = draw(st.integers(1, 4))
    size = draw(st.integers(2, 5))
    numbers = [{"group": "card", "code": f"C{i}", "symbol": f"c{i}"} for i in range(size)]
    dealers = [{"group": "dealer", "code": f"D{i}", "symbol": f"d{i}"}
               for i in range(draw(st.integers(1, 3)))]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(draw(st.integers(1, 3)))]
    area = {"id": "bj", "style": "blackjack", "hands": hands, "hand_cards": draw(st.integers(1, 3)),
            "numbers": "card", "points": draw(st.lists(st.integers(2, 26), min_size=size, max_size=size)),
            "dealer_totals": "dealer",
            "dealer_points": draw(st.lists(st.integers(0, 21), min_size=len(dealers), max_size=len(dealers))),
            "prizes": "pz"}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 8))
    ways = {tuple(sorted(draw(st.lists(st.sampled_from([p["code"] for p in prizes]), min_size=1,
                                       max_size=min(3, hands))))) for _ in range(draw(st.integers(1, 3)))}
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "bj", "prize": c, "how": "match"} for c in way]}
             for i, way in enumerate(sorted(ways))]
    prizes = [p for p in prizes if any(p["code"] in way for way in ways)]  # an unwon prize: not used
    return base_doc([area], numbers + dealers + prizes, tiers, max_wins=3, pool_tickets=tickets,
                    per_book=per_book)


def _stated(message: str) -> bool:
    """A refusal the contract states (section 2): no DEALER'S TOTAL for a tier's wins, or for losers."""
    return "no DEALER'S TOTAL lets" in message


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(doc=games())
def test_every_accepted_blackjack_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    generates_and_verifies(tmp_path_factory.mktemp("bj"), doc, refusal=_stated)
