"""A crossword's DOUBLER cell (docs/styles/crossword.md, section 11), read back by a reader written here
from the contract: every ticket of a designed pool shows one doubler cell a grid, and a completed word of
a grid holds that grid's doubler cell exactly when its tier's prize of that grid is doubled (whatever,
where the tier has no prize of that grid); the loader refuses, in one line, every doubler field and
tier it cannot read or lay out; the pool generates and verifies."""

from __future__ import annotations

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.random_specs import generates_and_verifies
from tests.support.spec_docs import crossword_doubler_doc, crossword_legends_doc, dumps

from .test_crossword import runs


def _doubled(tmp_path, doc: dict) -> list[tuple[str, int, int, bool]]:
    """(tier, grid, completed words, whether a completed word holds the grid's doubler cell) of every
    ticket and grid of the doc's first pool, laid out from a fixed stream."""
    (tmp_path / "g.toml").write_text(dumps(doc))
    spec = load_spec(tmp_path / "g.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    area = doc["areas"][0]
    assert [c for c in cols if "doubler" in c] == ["cw_doubler_0", "cw_doubler_1"]
    shown = np.stack([cols[f"cw_letter_{j}"] for j in range(9)], axis=1)
    cells = np.stack([cols[c] for c in cols if c.startswith("cw_cell_")], axis=1)
    sizes = [sum(r.count(".") for r in g) for g in area["grids"]]
    out = []
    for i in range(pool.tickets):
        held, base_cell = set(shown[i].tolist()), 0
        for g, rows in enumerate(area["grids"]):
            grid = cells[i, base_cell:base_cell + sizes[g]]
            mark = int(cols[f"cw_doubler_{g}"][i])
            assert 0 <= mark < sizes[g]
            free = doc["areas"][0]["doubler"].get("free", False)  # a free cell: matched whatever is held
            done = [w for w in runs(rows) if all(grid[k] in held or (free and k == mark) for k in w)]
            out.append((pool.tiers[tiers[i]].id, g, len(done), any(mark in w for w in done)))
            base_cell += sizes[g]
    return out


@pytest.mark.parametrize(("free", "by"), [(None, 2), (True, [2, 3])])
def test_a_completed_word_holds_the_doubler_cell_exactly_when_the_tiers_prize_is_doubled(tmp_path, free, by):
    doc = crossword_doubler_doc(free=free, by=by)
    by_tier = {t["id"]: t["wins"] for t in doc["tiers"]} | {"lose": []}
    legends = doc["areas"][0]["legends"]
    seen = set()
    for tier, g, done, hit in _doubled(tmp_path, doc):
        win = next((w for w in by_tier[tier] if w["how"] == "match"
                    and any(e["prize"] == w["prize"] for e in legends[g])), None)
        if win is None:
            assert done < legends[g][0]["words"], (tier, g, done)
            seen.add(("none", hit))
            continue
        assert done == next(e["words"] for e in legends[g] if e["prize"] == win["prize"])
        assert hit == ("by" in win), (tier, g, done, hit)
        seen.add(("won", hit))
    # losers' grids show completed words holding the doubler cell too (there is no prize to double)
    assert seen == {("none", True), ("none", False), ("won", True), ("won", False)}


@pytest.mark.parametrize(("free", "by"), [(None, 2), (True, [2, 3])])
def test_doubled_tiers_generate_and_verify(tmp_path, free, by):
    generates_and_verifies(tmp_path, crossword_doubler_doc(600, free, by))


def _refused(tmp_path, doc: dict, message: str) -> None:
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def _with(doubler: object, tiers: list | None = None) -> dict:
    doc = crossword_doubler_doc()
    doc["areas"][0]["doubler"] = doubler
    if tiers is not None:
        doc["tiers"] = tiers
    return doc


def _win(prize: str, by: int | None) -> list:
    return [{"id": "t", "count": 10, "wins": [{"area": "cw", "prize": p, "how": "match",
                                               **({"by": by} if by else {})}
                                              for p in ("1", "2", "5", "M1", "M3") if p == prize]}]


@pytest.mark.parametrize(("doubler", "message"), [
    (2, "areas[0].doubler: must be a table { by, free }"),
    ({"by": 2, "free": "yes"},
     "areas[0].doubler.free: true (the cell is a free space) or false (a marked letter)"),
    ({"by": 2, "cell": 3}, "areas[0].doubler.cell: unknown field"),
    ({"by": [2, 11]}, "areas[0].doubler.by: one k a grid, each a whole number 2 to 10 (2 of them), with a "
                      "legend a grid (`legends`)"),
    ({"by": [2]}, "areas[0].doubler.by: one k a grid, each a whole number 2 to 10 (2 of them), with a "
                  "legend a grid (`legends`)"),
    ({}, "areas[0].doubler.by: missing field"),
    ({"by": 1}, "areas[0].doubler.by: must be at least 2"),
    ({"by": 11}, "areas[0].doubler.by: must be at most 10"),
])
def test_doubler_fields_it_cannot_read_are_refused(tmp_path, doubler, message):
    _refused(tmp_path, _with(doubler), message)


def test_a_by_other_than_its_grids_k_is_refused(tmp_path):
    doc = crossword_doubler_doc(by=[2, 3])
    doc["tiers"][1]["wins"][0]["by"] = 2  # g2: grid 2's $1, whose k is 3
    _refused(tmp_path, doc, "tiers[1].wins[0].by: area 'cw' (crossword): by = 2: a doubled legend prize is "
                            "by = 3 (the area's doubler), an undoubled one has no `by`")


def test_a_by_other_than_the_doublers_is_refused(tmp_path):
    doc = crossword_doubler_doc()
    doc["tiers"][0]["wins"][0]["by"] = 3
    _refused(tmp_path, doc, "tiers[0].wins[0].by: area 'cw' (crossword): by = 3: a doubled legend prize is "
                            "by = 2 (the area's doubler), an undoubled one has no `by`")


def test_a_doubler_no_tier_wins_doubled_is_refused(tmp_path):
    doc = crossword_legends_doc()
    doc["areas"][0]["doubler"] = {"by": 2}
    doc["areas"][0]["legends"] = [[{"words": 2, "prize": "1"}, {"words": 3, "prize": "2"}],
                                  [{"words": 2, "prize": "M1"}]]  # no tier of every word of a grid
    doc["tiers"] = [t for t in doc["tiers"] if t["id"] != "top"]
    doc["symbols"] = [s for s in doc["symbols"] if s["code"] not in ("5", "M3")]
    _refused(tmp_path, doc, "areas[0].doubler: not used: no tier wins a doubled prize (every ticket would "
                            "print it, and it could never win)")


def test_a_by_in_a_crossword_without_a_doubler_is_refused(tmp_path):
    doc = crossword_legends_doc()
    doc["tiers"][0]["wins"][0]["by"] = 2
    _refused(tmp_path, doc, "tiers[0].wins[0].by: area 'cw' (crossword): the legend's prize wins as listed: "
                            "no `by`")


def test_an_undoubled_win_of_every_word_of_a_grid_is_refused(tmp_path):
    # grid 2's 3 words all completed: some completed word holds its doubler cell, whatever cell it is
    doc = crossword_doubler_doc()
    doc["tiers"] += [{"id": "t", "count": 5, "wins": [{"area": "cw", "prize": "M3", "how": "match"}]}]
    _refused(tmp_path, doc, f"tiers[{len(doc['tiers']) - 1}].wins: area 'cw' (crossword): this tier: none "
                            "of 16,384 draws of the grids and 9 YOUR LETTERS completes 0..1 and 3..3 words "
                            "and leaves incomplete a bonus word and no completed word holding grid 2's "
                            "doubler cell")
