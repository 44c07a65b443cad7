"""Property: every random symbol_count spec that `check` accepts generates a pool that audit verifies,
every ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: 1 to 10 spots, 2 to 6 pictures (the first counted), a legend of one to
three counts, a decoy cap that fills the spots, sometimes a match_n area beside it, on pools of a few
hundred tickets. Decoys the loader finds too tight to draw (docs/styles/symbol_count.md section 2)
are a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    spots = draw(st.integers(1, 10))
    n_pictures = draw(st.integers(2, 6))
    counts = sorted(draw(st.lists(st.integers(1, spots), min_size=1, max_size=3, unique=True)))
    decoys = n_pictures - 1
    most = max(-(-spots // decoys), draw(st.integers(1, spots)))
    pictures = [{"group": "pic", "code": f"P{i}", "symbol": f"Symbol of a thing {i}"}
                for i in range(n_pictures)]
    prizes = [{"group": "lp", "code": f"L{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(len(counts))]
    areas = [{"id": "sc", "style": "symbol_count", "spots": spots, "pictures": "pic", "symbol": "P0",
              "prizes": "lp", "legend": [{"count": c, "prize": f"L{i}"} for i, c in enumerate(counts)],
              "most_alike": most}]
    symbols = pictures + prizes
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    tiers = [{"id": f"c{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "sc", "prize": f"L{i}", "how": "match"}]} for i in range(len(counts))]
    if draw(st.booleans()):
        areas.append({"id": "mn", "style": "match_n", "spots": 4, "match": 2, "prizes": "mp"})
        symbols += [{"group": "mp", "code": f"M{i}", "symbol": f"${i}", "value": f"{i}.00"}
                    for i in (1, 2, 3, 4)]
        tiers.append({"id": "m", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "mn", "prize": "M2", "how": "match"}]})
        tiers.append({"id": "cm", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "sc", "prize": "L0", "how": "match"},
                               {"area": "mn", "prize": "M1", "how": "match"}]})
    return base_doc(areas, symbols, tiers, max_wins=2, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_symbol_count_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("sc")
    # only decoys too tight to draw may be refused
    generates_and_verifies(folder, doc, lambda m: "draws of" in m)


BREAK = [
    lambda d: d["areas"][0].__setitem__("symbol", "NOPE"),
    lambda d: d["areas"][0].__setitem__("spots", 0),
    lambda d: d["areas"][0].__setitem__("most_alike", 0),
    lambda d: d["areas"][0].__setitem__("grids", []),
    lambda d: d["areas"][0]["legend"].append({"count": 99, "prize": "L0"}),
    lambda d: d["areas"][0]["legend"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"].append({"area": "sc", "prize": "L0", "how": "match"}),
    lambda d: d["areas"][0].__setitem__("legend", []),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_symbol_count_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
