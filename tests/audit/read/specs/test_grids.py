"""audit/read/specs/grids.py and order.py: a crossword's grids and the counts tied to them, and a printed
order's books and pools, refused by audit's reader in poolgen's loader's words, naming the same field. A
sweep found audit's reader taking a ragged grid, a grid of other characters or none, a 31-column grid,
a grid without a word, with a 2- or 8-letter word or whose words cross in a loop, a legend counting more
words than its grid holds, 17 YOUR LETTERS of 26 (over 2,000,000 sets), a `labels` list one short, a
`last_pool` other than "partial", a pool or last pool of no whole books, a book of 1,001 tickets and an
area of 1,025 spots: `verify --spec` then held a run to a spec no generation could have used."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

GRID, G = ("areas", 0, "grids", 0), "areas[0].grids[0]: "
ROWS = ["....#....#", "###.##.#.#", "###....#.#", "####.#.#.#", ".....#####", "####....##", "####.#####",
        "###.....##"]  # cashtastic_crossword's first grid
CASES: list[tuple[tuple[Any, ...], object, str]] = [
    (GRID, [ROWS[0]] + [r[:-1] for r in ROWS[1:]], G + "the rows of a grid are strings of one length"),
    (GRID, ["o" + ROWS[0][1:]] + ROWS[1:], G + "a grid's rows hold only '.' (a letter) and '#'"),
    (GRID, "....#", G + "a grid is a list of rows (strings of '.' and '#')"),
    (GRID, [], G + "a grid is a list of rows (strings of '.' and '#')"),
    (GRID, ["#" * 31], G + "a grid is at most 30 x 30"),
    (GRID, ["#.#", "###"], G + "a grid holds at least one word (a run of two or more letters)"),
    (GRID, ["....", "#..#", "...."], G + "a word of 2 letters; the word list has words of 3 to 6"),
    (GRID, ["." * 8], G + "a word of 8 letters; the word list has words of 3 to 6 letters"),
    (GRID, ["....", ".##.", "...."], G + "the grid's words cross in a loop"),
    (GRID, ["....", "####", "#.##"], G + "the letter at row 3, column 2 is in no word"),
    (("areas", 0, "grids", 1), ["....######"], "areas[0].legends[1]: 8 completed words; grid 2 holds 1"),
    (("areas", 0, "letters"), 17,
     "areas[0].letters: more than 2,000,000 sets of 17 letters of 26 to draw from"),
    (("areas", 0, "labels"), ["YOUR LETTERS", "1", "2"],
     "areas[0].labels: 3 title(s) for the area's 4 section(s) (YOUR LETTERS; CROSSWORD 1; CROSSWORD 2; "
     "PRIZE LEGEND)"),
    (("printed", "last_pool"), "whole", "printed.last_pool: must be \"partial\", not 'whole'"),
    (("printed", "pool_tickets"), 99999, "printed.pool_tickets: a pool of 99999 is not whole books of 25"),
    (("printed", "order_tickets"), 1466449,
     "printed.order_tickets: the last pool of 66449 is not whole books of 25"),
    (("printed", "order_tickets"), 1500000,
     "printed.last_pool: not used: an order of 1500000 is whole pools of 100000"),
    (("printed", "last_ticket"), 1000,
     "printed.last_ticket: books of 1,001 tickets; at most 1,000 (three digits of every ticket id)"),
    (("areas", 1, "spots"), 1025, "areas[1].spots: 1,025 spots; a ticket has at most 1,024"),
]


@pytest.mark.parametrize(("path", "value", "said"), CASES, ids=[c[2][:60] for c in CASES])
def test_audits_reader_refuses_a_crossword_grid_or_printed_order_in_the_loaders_words(
        tmp_path: Path, path: tuple[Any, ...], value: object, said: str) -> None:
    doc = tomllib.loads((ROOT / "specs" / "examples" / "cashtastic_crossword.toml").read_text("utf-8"))
    table = doc
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value).startswith(f"{spec}: {said}")
    assert str(reader.value).startswith(f"{spec}: {said}")


def test_the_shipped_crosswords_grids_are_read_alike(tmp_path: Path) -> None:
    """Every example crossword (a bonus word, legends a grid, three grids) is taken by both readers."""
    names = sorted(p for p in (ROOT / "specs" / "examples").glob("*.toml")
                   if 'style = "crossword"' in p.read_text(encoding="utf-8"))
    assert len(names) == 9
    for path in names:
        load_spec(path)
        read_spec(path)
