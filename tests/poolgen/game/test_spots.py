"""An area's spot rules (poolgen/game/spots.py): a lines area has prize spots only with
`line_prizes = "shown"` (docs/styles/lines.md section 4); every other rule of a style stays."""

from __future__ import annotations

from poolgen.game.spots import area_spots
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import base_doc, dumps


def test_a_lines_area_of_a_legend_has_no_prize_spots():
    spec = load_spec(ROOT / "specs/examples/tic_tac_cash.toml")
    assert [area_spots(a) for a in spec.play.areas] == [[("_cell_", ("pictures",))]]


def test_a_lines_area_of_shown_prizes_has_a_prize_spot_a_line(tmp_path):
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in ("X", "O", "S")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00", "art": f"P{c}.eps"}
              for c in ("1", "2")]
    area = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": "pic", "symbol": "X",
            "lines": [[0, 1, 2], [3, 4, 5], [6, 7, 8]], "prizes": "pz", "line_prizes": "shown"}
    tiers = [{"id": t, "count": 10, "wins": [{"area": "ln", "prize": t, "how": "match"}]} for t in ("1", "2")]
    (tmp_path / "g.toml").write_text(dumps(base_doc([area], pictures + prizes, tiers, pool_tickets=100)))
    (got,) = [area_spots(a) for a in load_spec(tmp_path / "g.toml").play.areas]
    assert got == [("_cell_", ("pictures",)), ("_prize_", ("prizes",))]
