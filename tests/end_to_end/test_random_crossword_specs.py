"""Property: every random crossword spec that `check` accepts generates a pool that audit verifies,
every ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: one or two grids of a spine word across with words hanging down from it
(3 to 6 letters each), YOUR LETTERS of 5 to 24 of the 26 letters, a legend of one to three numbers of
completed words, an optional BONUS WORD of 3 to 6 letters (section 9) with tiers of it alone and with
the legend's first prize, an optional BONUS area (bonus_reveal), on pools of a few hundred tickets. A
legend or bonus word the loader's probe cannot lay out (docs/styles/crossword.md sections 2 and 9) is a
refusal, not a case. Likewise two grids each paid by its own legend (section 10)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support.random_specs import generates_and_verifies, load_drawn, refused_in_one_line
from tests.support.spec_docs import base_doc, write

LETTERS = [{"group": "abc", "code": ch, "symbol": ch} for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]


@st.composite
def comb(draw) -> list[str]:
    """A spine across and words down from some of its even columns, crossing it anywhere."""
    spine = draw(st.integers(3, 6))
    downs = [(j, n, draw(st.integers(0, n - 1))) for j in range(0, spine, 2) if draw(st.booleans())
             for n in [draw(st.integers(3, 6))]]
    top = max([p for _, _, p in downs] + [0])
    height = max([top - p + n for _, n, p in downs] + [top + 1])
    cells = {(top, j) for j in range(spine)} | {(top - p + k, j) for j, n, p in downs for k in range(n)}
    return ["".join("." if (i, j) in cells else "#" for j in range(spine)) for i in range(height)]


@st.composite
def games(draw) -> dict:
    grids = draw(st.lists(comb(), min_size=1, max_size=2))
    total = sum(1 + sum(1 for j in range(len(rows[0])) if sum(r[j] == "." for r in rows) >= 3)
                for rows in grids)  # the spine and the words down
    counts = draw(st.lists(st.integers(1, total), min_size=1, max_size=3, unique=True))
    prizes = [{"group": "legend", "code": f"L{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(len(counts))]
    area = {"id": "cw", "style": "crossword", "letters": draw(st.sampled_from([5, 7, 19, 20, 22, 24])),
            "alphabet": "abc", "prizes": "legend", "grids": grids,
            "legend": [{"words": n, "prize": f"L{i}"} for i, n in enumerate(sorted(counts))]}
    if draw(st.booleans()):
        area["colours"] = [draw(st.sampled_from(["black", "red", "blue"])) for _ in grids]
    areas, symbols = [area], LETTERS + prizes
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(4, 12))
    tiers = [{"id": f"w{i}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "cw", "prize": f"L{i}", "how": "match"}]} for i in range(len(counts))]
    if draw(st.booleans()):  # a BONUS WORD: its prize alone, and with the legend's first
        area["bonus"] = {"length": draw(st.integers(3, 6)), "prize": "BW"}
        symbols.append({"group": "legend", "code": "BW", "symbol": "$9", "value": "9.00"})
        tiers.append({"id": "bw", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "cw", "prize": "BW", "how": "bonus"}]})
        tiers.append({"id": "w0bw", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "cw", "prize": "L0", "how": "match"},
                               {"area": "cw", "prize": "BW", "how": "bonus"}]})
    if draw(st.booleans()):
        areas.append({"id": "bonus", "style": "bonus_reveal", "spots": 2, "prizes": "bp", "pictures": "pic"})
        symbols += [{"group": "bp", "code": "B5", "symbol": "$5", "value": "5.00"},
                    {"group": "pic", "code": "P1", "symbol": "Symbol of a flame"},
                    {"group": "pic", "code": "P2", "symbol": "Symbol of a pepper"}]
        tiers.append({"id": "b", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "bonus", "prize": "B5", "how": "reveal"}]})
        tiers.append({"id": "wb", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "cw", "prize": "L0", "how": "match"},
                               {"area": "bonus", "prize": "B5", "how": "reveal"}]})
    return base_doc(areas, symbols, tiers, max_wins=2, pool_tickets=tickets, per_book=per_book)


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_crossword_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("cw")
    # only the probe may refuse a drawn spec: a legend it cannot lay out
    generates_and_verifies(folder, doc, lambda m: "draws of the grids and" in m)


@st.composite
def per_grid_games(draw) -> dict:
    """Two grids, each paid by its own legend of one or two numbers (crossword.md section 10): a tier of
    each legend's prizes, one of both grids' first prizes, and maybe a BONUS WORD with grid 2's first."""
    grids = [draw(comb()), draw(comb())]
    legends, symbols, tiers = [], list(LETTERS), []
    tickets = 50 * draw(st.integers(4, 8))
    for g, rows in enumerate(grids):
        total = 1 + sum(1 for j in range(len(rows[0])) if sum(r[j] == "." for r in rows) >= 3)
        counts = sorted(draw(st.lists(st.integers(1, total), min_size=1, max_size=2, unique=True)))
        legends.append([{"words": n, "prize": f"G{g}L{i}"} for i, n in enumerate(counts)])
        symbols += [{"group": "legend", "code": f"G{g}L{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
                    for i in range(len(counts))]
        tiers += [{"id": f"g{g}w{i}", "count": draw(st.integers(0, tickets // 8)),
                   "wins": [{"area": "cw", "prize": f"G{g}L{i}", "how": "match"}]}
                  for i in range(len(counts))]
    tiers.append({"id": "both", "count": draw(st.integers(0, tickets // 8)),
                  "wins": [{"area": "cw", "prize": f"G{g}L0", "how": "match"} for g in range(2)]})
    area = {"id": "cw", "style": "crossword", "letters": draw(st.sampled_from([5, 7, 19, 20, 22, 24])),
            "alphabet": "abc", "prizes": "legend", "grids": grids, "legends": legends}
    if draw(st.booleans()):
        area["bonus"] = {"length": draw(st.integers(3, 6)), "prize": "BW"}
        symbols.append({"group": "legend", "code": "BW", "symbol": "$9", "value": "9.00"})
        tiers.append({"id": "g1bw", "count": draw(st.integers(0, tickets // 8)),
                      "wins": [{"area": "cw", "prize": "G1L0", "how": "match"},
                               {"area": "cw", "prize": "BW", "how": "bonus"}]})
    return base_doc([area], symbols, tiers, max_wins=3, pool_tickets=tickets, per_book=25)


@settings(SETTINGS, max_examples=6)
@given(doc=per_grid_games())
def test_every_accepted_crossword_spec_of_a_legend_a_grid_generates_a_pool_audit_verifies(tmp_path_factory,
                                                                                          doc):
    generates_and_verifies(tmp_path_factory.mktemp("cwg"), doc, lambda m: "draws of the grids and" in m)


BREAK = [
    lambda d: d["areas"][0].__setitem__("grids", [["..", ".."]]),
    lambda d: d["areas"][0].__setitem__("grids", [["...", ".#.", "..."]]),
    lambda d: d["areas"][0].__setitem__("letters", 0),
    lambda d: d["areas"][0].__setitem__("colours", ["black"] * 3),
    lambda d: d["areas"][0].__setitem__("spots", 4),
    lambda d: d["areas"][0]["legend"].append({"words": 99, "prize": "L0"}),
    lambda d: d["areas"][0]["legend"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"].append({"area": "cw", "prize": "L0", "how": "match"}),
    lambda d: d["symbols"].__setitem__(0, d["symbols"][0] | {"code": "AB"}),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_crossword_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)



def _legends(d: dict, legends: list) -> None:
    d["areas"][0].pop("legend", None)
    d["areas"][0]["legends"] = legends


BREAK_BONUS_AND_LEGENDS = [  # sections 9 and 10's fields, each refused naming it: (edit, field)
    (lambda d: d["areas"][0].__setitem__("bonus", {"length": 7, "prize": "L0"}), "areas[0].bonus.length"),
    (lambda d: d["areas"][0].__setitem__("bonus", {"length": 4, "prize": "A"}), "areas[0].bonus.prize"),
    (lambda d: d["areas"][0].__setitem__("bonus", {"length": 4}), "areas[0].bonus.prize"),
    (lambda d: d["areas"][0].__setitem__("bonus", 5), "areas[0].bonus"),
    (lambda d: d["tiers"][0]["wins"].append({"area": "cw", "prize": "L0", "how": "bonus"}), "tiers[0].wins"),
    (lambda d: _legends(d, [d["areas"][0]["legend"]] * 3), "areas[0].legends"),  # never 3 grids
    (lambda d: d["areas"][0].__setitem__("legends", [d["areas"][0]["legend"]] * len(d["areas"][0]["grids"])),
     "areas[0].legends"),  # and legend
    (lambda d: _legends(d, [[{"words": 99, "prize": f"L{g}"}] for g in range(len(d["areas"][0]["grids"]))]),
     "areas[0].legends[0]"),  # more words than grid 1 holds
]


@settings(SETTINGS, max_examples=2)
@given(doc=games())
@pytest.mark.parametrize("broken", range(len(BREAK_BONUS_AND_LEGENDS)))
def test_every_broken_bonus_word_or_legends_variant_is_refused_naming_its_field(tmp_path_factory, doc,
                                                                                broken):
    folder = tmp_path_factory.mktemp("bad")
    load_drawn(write(folder, doc), lambda m: "draws of the grids and" in m)  # the drawn spec, unbroken, loads
    edit, field = BREAK_BONUS_AND_LEGENDS[broken]
    edit(doc)
    with pytest.raises(SpecError) as err:
        load_spec(write(folder, doc))
    said = str(err.value)
    assert said.startswith(f"{folder}/g.toml: {field}") and "\n" not in said, said
