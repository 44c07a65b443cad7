"""Property: every random add_up spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: 1 to 5 games of 1 to 3 numbers (2 to 6 values 0..20), a target each game
can reach and miss, "at_least" or "exactly" (or exactly one of two or three targets), 1 to 4 prizes,
tiers of one to three wins in the area, on pools of a few hundred tickets. A target exactly no sum
makes is a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    n_games, spots = draw(st.integers(1, 5)), draw(st.integers(1, 3))
    values = sorted(draw(st.lists(st.integers(0, 20), min_size=2, max_size=6, unique=True)))
    numbers = [{"group": "num", "code": str(v), "symbol": str(v)} for v in values]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(draw(st.integers(1, 4)))]
    reach = draw(st.sampled_from(["at_least", "exactly", "several"]))  # several: exactly one of 2 or 3
    several, reach = reach == "several", "exactly" if reach == "several" else reach
    low, high = spots * values[0], spots * values[-1]
    target = draw(st.integers(low + 1, high)) if reach == "at_least" else draw(st.integers(low, high))
    if several:  # "7 or 11"
        target = sorted({target, *draw(st.lists(st.integers(low, high), min_size=1, max_size=2))})
        if len(target) == 1:
            target = target[0]
    area = {"id": "au", "style": "add_up", "games": n_games, "spots": spots, "numbers": "num",
            "target": target, "reach": reach, "prizes": "pz"}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    ways = {tuple(sorted(draw(st.lists(st.sampled_from([p["code"] for p in prizes]), min_size=1,
                                       max_size=min(3, n_games))))) for _ in range(draw(st.integers(1, 4)))}
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "au", "prize": c, "how": "match"} for c in way]}
             for i, way in enumerate(sorted(ways))]
    prizes = [p for p in prizes if any(p["code"] in way for way in ways)]  # an unwon prize: not used
    return base_doc([area], numbers + prizes, tiers, max_wins=3, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_add_up_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("au")
    # only a target exactly no sum of the numbers makes (or, of several, one that none makes, or
    # targets that every sum makes)
    refusals = ("must be able to reach", "cannot add up to", "must be able to miss")
    generates_and_verifies(folder, doc, lambda m: any(w in m for w in refusals))


BREAK = [
    lambda d: d["areas"][0].__setitem__("games", 0),
    lambda d: d["areas"][0].__setitem__("reach", "near"),
    lambda d: d["areas"][0].__setitem__("target", -1),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("by", 2),
    lambda d: d["areas"][0].__setitem__("prizes", "num"),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_add_up_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
