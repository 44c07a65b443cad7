"""Step 8's promise for lines areas of several symbols (docs/styles/lines.md section 8): a cell that
shows a symbol shows each with probability 1/m whatever the tier, tested cell by cell ("which
symbol"); a board of X's and O's alone has no decoy to test. On a pool of 6,000 tickets laid out as the
contract says, step 8 passes with those features by name; the same pool with every loser whose centre
shows O turned over (X's for O's and O's for X's: still a loser, each row legal) fails it, naming the
centre."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from audit.stats.styles.pictures import lines
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support.spec_docs import base_doc, dumps
from tests.support.stats import judge, on_losers

SEED = hashlib.sha256(b"poolgen/tests/lines-symbols-features").digest()
WIN = "against win/lose"
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    pics = [{"group": "mark", "code": c, "symbol": c} for c in ("X", "O")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("2", "10")]
    area = {"id": "game", "style": "lines", "rows": 3, "cols": 3, "pictures": "mark", "symbols": ["X", "O"],
            "lines": LINES, "prizes": "pz", "line_prizes": "shown"}
    tiers = [{"id": "w2", "count": 1200, "wins": [{"area": "game", "prize": "2", "how": "match"}]},
             {"id": "w10", "count": 300, "wins": [{"area": "game", "prize": "10", "how": "match"}]}]
    path = tmp_path_factory.mktemp("lnsym") / "g.toml"
    path.write_text(dumps(base_doc([area], pics + prizes, tiers, pool_tickets=6000)))
    spec = load_spec(path)
    table = build_pool(spec, spec.pools[0], SEED)
    return spec, spec.pools[0], table, spec.play.document()["areas"][0]


def test_each_cells_symbol_is_tested_and_passes(pool):
    spec, p, table, _ = pool
    s, r = judge(spec, p, table, SEED)
    assert not s.failed and not r.failed
    judged = [j.finding.name for j in s.judged if j.finding.name.startswith("game_cell_")]
    feature = [f"game_cell_{k} (which symbol) on tickets whose cell {k} shows a symbol" for k in range(9)]
    assert judged == [f"{f}, {WIN}" for f in feature] + \
        [f"{f}, on a losing ticket, against the next ticket's prize (print order)" for f in feature] + \
        [f"{f}, on the first and last loser of each book, against the book's highest prize"
         for f in feature]  # no decoy: nothing else of the cells (step 8 sections 2, 1j and 1k)


def test_losers_turned_over_where_the_centre_shows_o_fail_naming_the_centre(pool):
    spec, p, table, area = pool
    cells = {f"game_cell_{k}": table[f"game_cell_{k}"].to_numpy().astype(np.int64) for k in range(9)}
    centre_o = cells["game_cell_4"] == 1
    flipped = {c: np.where(centre_o, 1 - v, v) for c, v in cells.items()}  # X <-> O: the same lines
    leaky = on_losers(table, area, flipped)
    assert (leaky["game_cell_4"].to_numpy()[table["prize_cents"].to_numpy() == 0] == 0).all()
    s, _ = judge(spec, p, leaky, SEED)
    failed = {j.finding.name: j.finding.p for j in s.failed}
    name = f"game_cell_4 (which symbol) on tickets whose cell 4 shows a symbol, {WIN}"
    assert name in failed and failed[name] < 1e-6, failed


@pytest.mark.parametrize("change", [{"symbols": ["X", "Z"]}, {"symbols": [1, 2]}, {"symbols": [["X"], "O"]},
                                    {"symbols": None}, {"symbol": "X"}])
def test_an_unreadable_symbols_entry_is_named_not_a_python_error(pool, change):
    """A re-signed play entry whose `symbols` are not its pictures: step 4 names the area unreadable;
    step 8 said `could not be checked: ValueError: 'Z' is not in list` (or `KeyError: 'symbol'`)."""
    _, _, table, area = pool
    broken = {k: v for k, v in {**area, **change}.items() if v is not None}
    with pytest.raises(ValueError) as caught:
        lines(broken, {}, {}, lambda c: table[c].to_numpy())
    assert str(caught.value) == ("manifest play entry: area 'game': its symbol or symbols are not among its "
                                 "pictures, each once (step 4 names it)")
