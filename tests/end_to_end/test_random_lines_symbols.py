"""Property: every random lines spec of several line-making symbols (`symbols`, docs/styles/lines.md
section 1a) that `check` accepts generates a pool that audit verifies, every ticket paying its tier.

Specs are drawn at random: a grid of 2 to 3 rows and 3 columns, some of its rows, columns and diagonals
as the lines, 2 or 3 symbols with no decoys or 2, paid by a legend of one to three numbers of lines or
by a prize spot a line, on pools of a few hundred tickets. A legend number or a tier no placement of
the symbols completes, decoys the probe finds too few, or lines every board completes (section 2) is a
refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.random_specs import generates_and_verifies
from tests.support.spec_docs import base_doc


@st.composite
def games(draw) -> dict:
    rows, cols = draw(st.integers(2, 3)), 3
    every = [[r * cols + c for c in range(cols)] for r in range(rows)]
    if rows == 3:
        every += [[r * cols + c for r in range(rows)] for c in range(cols)] + [[0, 4, 8], [2, 4, 6]]
    lines = draw(st.lists(st.sampled_from(every), min_size=1, max_size=len(every), unique_by=tuple))
    symbols = [f"S{i}" for i in range(draw(st.integers(2, 3)))]
    decoys = [f"D{i}" for i in range(draw(st.sampled_from((0, 2))))]
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in symbols + decoys]
    area = {"id": "ln", "style": "lines", "rows": rows, "cols": cols, "pictures": "pic", "symbols": symbols,
            "lines": lines, "prizes": "pz"}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 10))
    if draw(st.booleans()):
        numbers = sorted(draw(st.lists(st.integers(1, len(lines)), min_size=1, max_size=3, unique=True)))
        area["legend"] = [{"lines": n, "prize": f"Z{i}"} for i, n in enumerate(numbers)]
        tiers = [{"id": f"t{i}", "count": draw(st.integers(0, tickets // 8)),
                  "wins": [{"area": "ln", "prize": f"Z{i}", "how": "match"}]} for i in range(len(numbers))]
        codes, max_wins = [f"Z{i}" for i in range(len(numbers))], 1
    else:
        area["line_prizes"] = "shown"
        codes, max_wins = ["Z0", "Z1"], 2
        wins = st.lists(st.sampled_from(codes), min_size=1, max_size=2).map(sorted)
        tiers = [{"id": f"t{i}", "count": draw(st.integers(1, tickets // 12)),
                  "wins": [{"area": "ln", "prize": c, "how": "match"} for c in w]}
                 for i, w in enumerate(draw(st.lists(wins, min_size=1, max_size=3, unique_by=tuple)))]
    prizes = [{"group": "pz", "code": c, "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i, c in enumerate(codes)]
    return base_doc([area], pictures + prizes, tiers, pool_tickets=tickets, per_book=per_book,
                    max_wins=max_wins)


SETTINGS = settings(max_examples=10, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_lines_spec_of_several_symbols_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("lnsym")
    generates_and_verifies(folder, doc, lambda m: any(w in m for w in (
        "no placement of the symbols", "draws of", "every placement of the symbols", "not used")))
