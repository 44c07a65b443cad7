"""Property: every random maze spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: a grid of 2 to 5 rows and columns, 1 to 3 STARTs anywhere in it, 1 to 6
paying exits on its border with 1 to 3 prizes, tiers of one or more wins (up to one a START), on pools
of a few hundred tickets. A tier the probe finds too rare for rejection (docs/styles/maze.md
section 2) is a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    starts = draw(st.lists(st.integers(0, rows * cols - 1), min_size=1, max_size=3, unique=True))
    border = [(s, a) for s, n in (("top", cols), ("right", rows), ("bottom", cols), ("left", rows))
              for a in range(n)]
    places = draw(st.lists(st.sampled_from(border), min_size=1, max_size=6, unique=True))
    n_prizes = draw(st.integers(1, 3))
    exits = [{"side": s, "at": a, "prize": f"Z{draw(st.integers(0, n_prizes - 1))}"} for s, a in places]
    used = sorted({e["prize"] for e in exits})
    arrows = [{"group": "ar", "code": c, "symbol": c} for c in ("UP", "RIGHT", "DOWN", "LEFT")]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(n_prizes) if f"Z{i}" in used]
    area = {"id": "mz", "style": "maze", "rows": rows, "cols": cols, "arrows": "ar", "starts": starts,
            "exits": exits, "prizes": "pz"}
    ways = draw(st.lists(st.lists(st.sampled_from(used), min_size=1, max_size=len(starts)).map(sorted),
                         min_size=1, max_size=3, unique_by=tuple))
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "mz", "prize": p, "how": "match"} for p in way]}
             for i, way in enumerate(ways)]
    return base_doc([area], arrows + prizes, tiers, pool_tickets=tickets, per_book=per_book,
                    max_wins=max(len(w) for w in ways))


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_maze_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("mz")
    # only a tier (or the losers) the probe finds too rare for rejection
    generates_and_verifies(folder, doc, lambda m: "probe grids" in m)


BREAK = [
    lambda d: d["areas"][0].__setitem__("rows", 9),
    lambda d: d["areas"][0].__setitem__("starts", d["areas"][0]["starts"] * 2),
    lambda d: d["areas"][0]["exits"].append(dict(d["areas"][0]["exits"][0])),
    lambda d: d["areas"][0]["exits"].append({"side": "left", "at": 99, "prize": "Z0"}),
    lambda d: d["areas"][0]["exits"].append({"side": "middle", "at": 0, "prize": "Z0"}),
    lambda d: d["areas"][0].__setitem__("arrows", "pz"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"].extend([d["tiers"][0]["wins"][0]] * 3),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_maze_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
