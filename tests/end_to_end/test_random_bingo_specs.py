"""Property: every random bingo spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: 1 to 3 cards, a FREE centre or not, 15 to 32 calls, one to four of the
shapes in section 1's order with increasing prizes, tiers of one to `cards` wins, on pools of a
few hundred tickets. A pattern no card completes as its highest with these calls, or calls the
loser probe finds too many (docs/styles/bingo.md section 2), is a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc

SHAPES = ["line", "corners", "x", "full"]


@st.composite
def games(draw) -> dict:
    cards, free, calls = draw(st.integers(1, 3)), draw(st.booleans()), draw(st.integers(15, 32))
    chosen = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=4, unique=True))
    shapes = [s for s in SHAPES if s in chosen]  # the listed order; prizes increase along it
    numbers = [{"group": "num", "code": str(v), "symbol": str(v)} for v in range(1, 76)]
    if free:
        numbers.append({"group": "num", "code": "FREE", "symbol": "FREE"})
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(len(shapes))]
    area = {"id": "bg", "style": "bingo", "cards": cards, "free": free, "calls": calls, "numbers": "num",
            "patterns": [{"shape": s, "prize": f"Z{i}"} for i, s in enumerate(shapes)], "prizes": "pz"}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(2, 4))
    ways = draw(st.lists(st.lists(st.integers(0, len(shapes) - 1), min_size=1, max_size=cards)
                         .map(lambda w: tuple(sorted(w))), min_size=1, max_size=3, unique=True))
    tiers = [{"id": f"t{t}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "bg", "prize": f"Z{i}", "how": "match"} for i in won]}
             for t, won in enumerate(ways)]
    return base_doc([area], numbers + prizes, tiers, pool_tickets=tickets, per_book=per_book,
                    max_wins=cards)


SETTINGS = settings(max_examples=8, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_bingo_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("bg")
    # only a pattern never highest with these calls, or too many calls
    generates_and_verifies(folder, doc, lambda m: "as its highest pattern" in m or "complete no pattern" in m)


BREAK = [
    lambda d: d["areas"][0].__setitem__("cards", 9),
    lambda d: d["areas"][0].__setitem__("calls", 0),
    lambda d: d["areas"][0].__setitem__("free", "yes"),
    lambda d: d["areas"][0]["patterns"].append({"shape": "star", "prize": "Z0"}),
    lambda d: d["areas"][0]["patterns"].append(dict(d["areas"][0]["patterns"][0])),
    lambda d: d["symbols"].pop(0),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"].extend([{"area": "bg", "prize": "Z0", "how": "match"}] * 4),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_bingo_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
