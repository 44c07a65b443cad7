"""Property: every random lines spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: a grid of 3 to 4 rows and columns, some of its rows, columns and
diagonals as the lines, 3 to 5 pictures, a legend of one to three numbers of lines, on pools of a few
hundred tickets. A legend number no placement completes, or decoys the probe finds too few
(docs/styles/lines.md section 2), is a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    rows, cols = draw(st.integers(3, 4)), draw(st.integers(3, 4))
    every = [[r * cols + c for c in range(cols)] for r in range(rows)]
    every += [[r * cols + c for r in range(rows)] for c in range(cols)]
    if rows == cols:
        every += [[i * cols + i for i in range(rows)], [i * cols + cols - 1 - i for i in range(rows)]]
    lines = draw(st.lists(st.sampled_from(every), min_size=1, max_size=len(every), unique_by=tuple))
    numbers = sorted(draw(st.lists(st.integers(1, len(lines)), min_size=1, max_size=3, unique=True)))
    pictures = [{"group": "pic", "code": f"P{i}", "symbol": f"P{i}"} for i in range(draw(st.integers(3, 5)))]
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(len(numbers))]
    area = {"id": "ln", "style": "lines", "rows": rows, "cols": cols, "pictures": "pic", "symbol": "P0",
            "lines": lines, "prizes": "pz",
            "legend": [{"lines": n, "prize": f"Z{i}"} for i, n in enumerate(numbers)]}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "ln", "prize": f"Z{i}", "how": "match"}]} for i in range(len(numbers))]
    return base_doc([area], pictures + prizes, tiers, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_lines_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("ln")
    # only a legend no placement completes, or decoys too few
    generates_and_verifies(folder, doc, lambda m: any(w in m for w in ("no placement of the symbol", "probe",
                                                                       "draws of")))


BREAK = [
    lambda d: d["areas"][0].__setitem__("rows", 9),
    lambda d: d["areas"][0].__setitem__("symbol", "NOPE"),
    lambda d: d["areas"][0]["lines"].append([0, 1]),
    lambda d: d["areas"][0]["lines"].append(list(d["areas"][0]["lines"][0])),
    lambda d: d["areas"][0]["legend"].append({"lines": 99, "prize": "Z0"}),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"].append({"area": "ln", "prize": "Z0", "how": "match"}),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_lines_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)


@st.composite
def per_line_games(draw) -> dict:
    """A random lines spec paying a prize per line: printed (`line_prizes`, a list) or shown on each
    ticket (`"shown"`), tiers of one or two wins (docs/styles/lines.md sections 2 and 7)."""
    doc = draw(games())
    area = doc["areas"][0]
    del area["legend"]
    codes = [f"Z{i}" for i in range(3)]
    doc["symbols"] = [s for s in doc["symbols"] if s["group"] != "pz"] + [
        {"group": "pz", "code": c, "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
        for i, c in enumerate(codes)]
    area["line_prizes"] = draw(st.one_of(st.just("shown"), st.lists(
        st.sampled_from(codes), min_size=len(area["lines"]), max_size=len(area["lines"]))))
    tickets = doc["printed"]["pool_tickets"]
    wins = st.lists(st.sampled_from(codes), min_size=1, max_size=2).map(sorted)
    doc["tiers"] = [{"id": f"t{i}", "count": draw(st.integers(1, tickets // 12)),
                     "wins": [{"area": "ln", "prize": c, "how": "match"} for c in w]}
                    for i, w in enumerate(draw(st.lists(wins, min_size=1, max_size=4, unique_by=tuple)))]
    doc["play"]["max_wins"] = 2
    return doc


@SETTINGS
@given(doc=per_line_games())
def test_every_accepted_prize_per_line_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("pl")
    # a tier no placement makes, decoys too few, a prize no tier wins or a win of a prize no line prints
    generates_and_verifies(folder, doc, lambda m: any(w in m for w in (
        "no placement of the symbol", "probe", "draws of", "not used", "not one the lines print")))
