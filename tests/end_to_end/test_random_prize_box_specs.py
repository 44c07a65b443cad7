"""Property: every random prize_box spec that `check` accepts generates a pool that audit verifies,
every ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: 1 to 6 games of 2 to 6 spots, a match of 2 to the spots, 2 to 8 pictures,
1 to 4 prizes, tiers of one to three wins in the area, on pools of a few hundred tickets. Pictures the
loader finds too few to draw (docs/styles/prize_box.md section 2) are a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    n_games, spots = draw(st.integers(1, 6)), draw(st.integers(2, 6))
    match = draw(st.integers(2, spots))
    pictures = [{"group": "pic", "code": f"P{i}", "symbol": f"Symbol of a thing {i}"}
                for i in range(draw(st.integers(2, 8)))]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(draw(st.integers(1, 4)))]
    area = {"id": "pb", "style": "prize_box", "games": n_games, "spots": spots, "match": match,
            "pictures": "pic", "prizes": "pz"}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    ways = {tuple(sorted(draw(st.lists(st.sampled_from([p["code"] for p in prizes]), min_size=1,
                                       max_size=min(3, n_games))))) for _ in range(draw(st.integers(1, 4)))}
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "pb", "prize": c, "how": "match"} for c in way]}
             for i, way in enumerate(sorted(ways))]
    prizes = [p for p in prizes if any(p["code"] in way for way in ways)]  # an unwon prize: not used
    return base_doc([area], pictures + prizes, tiers, max_wins=3, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_prize_box_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("pb")
    # only pictures too few to fill a game may be refused
    generates_and_verifies(folder, doc, lambda m: "in 1 of 1,000 draws" in m)


BREAK = [
    lambda d: d["areas"][0].__setitem__("games", 0),
    lambda d: d["areas"][0].__setitem__("match", d["areas"][0]["spots"] + 1),
    lambda d: d["areas"][0].__setitem__("symbol", "P0"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("by", 2),
    lambda d: d["areas"][0].__setitem__("prizes", "pic"),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_prize_box_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
