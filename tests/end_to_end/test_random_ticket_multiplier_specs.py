"""Property: every random ticket_multiplier spec that `check` accepts generates a pool that audit
verifies, every ticket paying its tier (k x its other wins where its tier is multiplied); and a broken
variant of it is refused with one line naming the file.

Specs are drawn at random: a bonus_reveal area of 2 to 4 spots (1 to 3 amounts, 2 to 4 pictures) and a
ticket_multiplier box of 1 to 4 spots (1 to 3 multipliers of distinct k = 2..10, each printed "<k>X": two
alike are refused; 1 to 4 pictures; multipliers on losers or not); tiers of one or two reveals, each
multiplied or not, on pools of a few hundred tickets."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc, drop_unpaid_specials


@st.composite
def games(draw) -> dict:
    amounts = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
               for i in range(draw(st.integers(1, 3)))]
    pictures = [{"group": "pic", "code": f"P{i}", "symbol": f"Symbol of a thing {i}"}
                for i in range(draw(st.integers(2, 4)))]
    ks = draw(st.lists(st.integers(2, 10), min_size=1, max_size=3, unique=True))
    mults = [{"group": "mul", "code": f"{k}X{i}", "symbol": f"{k}X", "by": k} for i, k in enumerate(ks)]
    decoys = [{"group": "dec", "code": f"D{i}", "symbol": f"Symbol of a decoy {i}"}
              for i in range(draw(st.integers(1, 4)))]
    reveal = {"id": "b", "style": "bonus_reveal", "spots": draw(st.integers(2, 4)), "prizes": "pz",
              "pictures": "pic"}
    box = {"id": "x", "style": "ticket_multiplier", "spots": draw(st.integers(1, 4)), "multipliers": "mul",
           "pictures": "dec"} | ({"multipliers_on_losers": True} if draw(st.booleans()) else {})
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    codes, times = [a["code"] for a in amounts], [None] + [m["code"] for m in mults]
    ways = {(tuple(sorted(draw(st.lists(st.sampled_from(codes), min_size=1, max_size=2)))),
             draw(st.sampled_from(times))) for _ in range(draw(st.integers(1, 5)))}
    ways = sorted(ways, key=str)
    if not any(m for _, m in ways):  # a box no tier multiplies by is refused: one tier shows a multiplier
        ways[0] = (ways[0][0], times[1])
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "b", "prize": c, "how": "reveal"} for c in way]
              + ([{"area": "x", "prize": m, "how": "ticket"}] if m else [])}
             for i, (way, m) in enumerate(ways)]
    return drop_unpaid_specials(base_doc([reveal, box], amounts + pictures + mults + decoys, tiers,
                                            max_wins=2, pool_tickets=tickets, per_book=per_book))


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_ticket_multiplier_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    # a reveal area too small to fill without a repeated picture is the only refusal the draw allows
    generates_and_verifies(tmp_path_factory.mktemp("tm"), doc, lambda m: "cannot fill a losing ticket" in m)


BREAK = [
    lambda d: d["areas"][1].__setitem__("spots", 0),
    lambda d: d["areas"][1].__setitem__("multipliers", "pz"),
    lambda d: d["areas"].append(d["areas"][1] | {"id": "y"}),
    lambda d: d["symbols"][-1].__setitem__("value", "1.00"),  # a decoy with a value
    lambda d: next(s for s in d["symbols"] if s["group"] == "mul").pop("by"),
    lambda d: d["tiers"][0]["wins"].append({"area": "x", "prize": "NOPE", "how": "ticket"}),
    lambda d: d["tiers"][0].__setitem__("wins", [{"area": "x", "prize": d["symbols"][-1]["code"],
                                                  "how": "ticket"}]),
    lambda d: d["tiers"][0].__setitem__("wins", [{"area": "x", "prize": next(
        s["code"] for s in d["symbols"] if s["group"] == "mul"), "how": "ticket"}]),
    lambda d: d["tiers"][0]["wins"].append({"area": "x", "prize": next(
        s["code"] for s in d["symbols"] if s["group"] == "mul"), "how": "multiplier", "by": 2}),
    lambda d: d["areas"][1].__setitem__("multipliers_on_losers", "yes"),
    lambda d: (d["areas"][1].__setitem__("multipliers_on_losers", True),  # a pool of no losing ticket
               d["tiers"][0].__setitem__("count", d["tiers"][0]["count"] + d["printed"]["pool_tickets"]
                                         - sum(t["count"] for t in d["tiers"]))),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_ticket_multiplier_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
