"""A crossword of a legend a grid (docs/styles/crossword.md section 10), read back by a reader written
here from the contract: every ticket of a designed pool (tests/support/spec_docs.py,
`crossword_legends_doc`) completes in each grid exactly its tier's number for that grid's legend (below
the legend's smallest where the tier has no prize of that grid) and its bonus word exactly when its tier
pays it; YOUR LETTERS are uniform among the sets meeting every grid's count; the loader refuses, in one
line, every `legends` it cannot read or lay out; a one-legend crossword with a bonus word lays out byte
for byte as before."""

from __future__ import annotations

import copy
from itertools import combinations

import numpy as np
import pytest
from scipy.stats import chisquare

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from poolgen.styles.crossword.fill import _letters
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.laid_out import layout_digest
from tests.support.spec_docs import crossword_legends_doc, dumps

from .test_crossword import runs


def _laid_out(tmp_path, doc: dict):
    (tmp_path / "g.toml").write_text(dumps(doc))
    spec = load_spec(tmp_path / "g.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    return pool, tiers, spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))


def test_each_grid_completes_exactly_its_tiers_number_for_its_own_legend(tmp_path):
    doc = crossword_legends_doc()
    area = doc["areas"][0]
    pool, tiers, cols = _laid_out(tmp_path, doc)
    alphabet = "ABCDEHILNORSTU"
    shown = np.stack([cols[f"cw_letter_{j}"] for j in range(9)], axis=1)
    cells = np.stack([cols[c] for c in cols if c.startswith("cw_cell_")], axis=1)
    word = np.stack([cols[f"cw_bonus_{k}"] for k in range(4)], axis=1)
    sizes = [sum(r.count(".") for r in g) for g in area["grids"]]
    wins = {t["id"]: {w["prize"] for w in t["wins"]} for t in doc["tiers"]} | {"lose": set()}
    seen = set()
    for i in range(pool.tickets):
        tier = pool.tiers[tiers[i]].id
        held, base = set(shown[i].tolist()), 0
        assert len(held) == 9
        for g, (rows, legend) in enumerate(zip(area["grids"], area["legends"], strict=True)):
            grid = cells[i, base:base + sizes[g]]
            done = sum(all(grid[k] in held for k in w) for w in runs(rows))
            base += sizes[g]
            want = [e["words"] for e in legend if e["prize"] in wins[tier]]
            assert (done == want[0]) if want else done < legend[0]["words"], (i, tier, g, done)
            seen.add((tier, g, done))
        assert all(v in held for v in word[i].tolist()) == ("B" in wins[tier])
        assert "".join(alphabet[v] for v in word[i].tolist()).isalpha()
    # losers complete 0 and 1 words in each grid, both seen
    assert {d for t, g, d in seen if t == "lose"} == {0, 1}


def test_your_letters_are_uniform_among_the_sets_meeting_every_grids_count():
    """Six letters, three shown (20 sets), two spans of two words each (AB, CD | BE, AF): a set
    qualifies when it completes exactly one word of the first span and none of the second. 20,000
    rows of the same words: every row's set qualifies, and the qualifying sets are drawn alike (chi-square,
    a fixed stream)."""
    masks = np.array([0b000011, 0b001100, 0b010010, 0b100001], dtype=np.int64)
    m = 20_000
    ok, letters = _letters(np.tile(masks, (m, 1)), np.tile([1, 0], (m, 1)), np.tile([1, 0], (m, 1)), 6, 3,
                           derive_stream(SEED_A, "test", "spans"), None, ((0, 2), (2, 4)))
    assert ok.all()
    qualify = []
    for combo in combinations(range(6), 3):
        held = sum(1 << c for c in combo)
        first = sum((w & held) == w for w in masks[:2].tolist())
        second = sum((w & held) == w for w in masks[2:].tolist())
        if (first, second) == (1, 0):
            qualify.append(held)
    drawn = np.bitwise_or.reduce(np.left_shift(1, letters), axis=1)
    values, counts = np.unique(drawn, return_counts=True)
    assert sorted(values.tolist()) == sorted(qualify) and len(qualify) == 6
    assert chisquare(counts).pvalue > 1e-4


def _refused(tmp_path, doc: dict, message: str) -> None:
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def _with(legends: object = None, tiers: list | None = None, **area: object) -> dict:
    doc = copy.deepcopy(crossword_legends_doc())
    if legends is not None:
        doc["areas"][0]["legends"] = legends
    doc["areas"][0].update(area)
    doc["areas"][0] = {k: v for k, v in doc["areas"][0].items() if v is not None}
    if tiers is not None:
        doc["tiers"] = tiers
    return doc


def _tier(*prizes: str) -> list:
    return [{"id": "t", "count": 10, "wins": [{"area": "cw", "prize": p, "how": "match"} for p in prizes]}]


ONE = [{"words": 2, "prize": "1"}]
TWO = [{"words": 2, "prize": "M1"}]


@pytest.mark.parametrize(("doc", "message"), [
    (_with(legend=ONE), "areas[0].legends: one legend over all the grids (`legend`) or one a grid "
                        "(`legends`), not both"),
    (_with([ONE]), "areas[0].legends: one legend a grid: 2 legends, not 1"),
    (_with([ONE, [{"words": 2, "prize": "1"}]]),
     "areas[0].legends[1][0].prize: prize '1' is grid 1's legend's: a prize names its grid, so no code is in "
     "two legends"),
    (_with([ONE, [{"words": 4, "prize": "M1"}]]), "areas[0].legends[1]: 4 completed words; grid 2 holds 3"),
    (_with([ONE, [{"words": 2, "prize": "M1"}, {"words": 1, "prize": "M3"}]]),
     "areas[0].legends[1][1].words: the legend lists numbers of words in increasing order"),
    (_with([ONE, TWO], _tier("1"), letters=1, bonus=None),
     "areas[0].legends[0]: grid 1: 2 completed words: none of 16,384 draws of the grids and 1 YOUR LETTERS "
     "completes 2..2 words"),
])
def test_legends_it_cannot_read_or_lay_out_are_refused(tmp_path, doc, message):
    _refused(tmp_path, doc, message)


def test_two_prizes_of_one_grids_legend_in_one_tier_are_refused(tmp_path):
    _refused(tmp_path, _with([[*ONE, {"words": 3, "prize": "2"}], TWO], tiers=_tier("1", "2")),
             "tiers[0].wins: area 'cw' (crossword): a ticket wins one legend prize in grid 1 (only the "
             "highest)")


def test_a_tier_whose_grids_no_draw_meets_together_is_refused(tmp_path):
    # 3 YOUR LETTERS: each grid's 2 words alone happen, both grids' at once never (with 4, since the word
    # list lost its slurs, a draw finds both)
    _refused(tmp_path, _with([ONE, TWO], tiers=_tier("1", "M1"), letters=3, bonus=None),
             "tiers[0].wins: area 'cw' (crossword): this tier: none of 16,384 draws of the grids and 3 YOUR "
             "LETTERS completes 2..2 and 2..2 words")


def test_the_bonus_word_example_of_one_legend_lays_out_byte_for_byte_as_before():
    """sha256 over every layout column (name, then its bytes) of 6,000 rows of the "$100,000 Crossword"
    example's first pool, as poolgen laid them out at commit 4bc70f7, before legends a grid (with today's
    word list copied into that commit; with its own, before the slurs LDNOOBW and the hand review removed,
    it gave cb2eb97d...)."""
    assert layout_digest("specs/examples/hundred_thousand_crossword.toml")[0] == \
        "e9cab8b8b31ab78751ee13ea07c5740776511b746a9c849cf6598c3fa2aa76ec"


def test_a_legend_prize_no_tier_wins_is_refused(tmp_path):
    """A legend line no tier wins was accepted (only the bonus word's was refused): every ticket would
    print a prize that never wins, a field nothing uses (contract, sections 2 and 10)."""
    doc = _with()
    doc["tiers"] = [t for t in doc["tiers"] if t["id"] != "top"]  # the one tier of grid 1's $5
    _refused(tmp_path, doc, "areas[0].legends[0][2].prize: not used: no tier wins '5' (every ticket would "
                            "print it in the legend, and it could never win)")
