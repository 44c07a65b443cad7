"""Step 8's no-information features of style-based runs (audit/stats/styles/, layouts.py), keyed by
style and computed from the manifest's play entry and the pool's tier counts: match_n's every spot among
the spots that show an amount (docs/styles/match_n.md section 8), the capped case, area_match's first spot,
and a style without features."""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.stats.layouts import layout_columns, layout_findings
from audit.stats.step import columns_needed
from audit.stats.styles import style_features
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path
from tests.support.spec_docs import base_doc, dumps

SEED = bytes(range(32))
PLAY = load_spec(spec_path("primetime_payout")).play.document()  # area_match's play entry


def _findings(spec, pool_id: str, table: pl.DataFrame | None = None):
    pool = spec.pool(pool_id)
    table = build_pool(spec, pool, SEED) if table is None else table
    win = table["prize_cents"].to_numpy() > 0
    return layout_findings(table, spec.id, win, 12345, spec.play.document(),
                           {t.id: t.count for t in pool.tiers})


def _multiplier_game(tmp_path, count: int):
    prizes = [{"group": "prize", "code": c, "symbol": f"${c}", "value": f"{c}.00"}
              for c in ("1", "2", "5", "10", "20", "50", "100")]
    mults = [{"group": "mult", "code": "2X", "symbol": "2X", "by": 2}]
    area = {"id": "bonus", "style": "match_n", "spots": 9, "match": 3, "prizes": "prize",
            "multipliers": "mult"}
    x2 = [{"area": "bonus", "prize": "10", "how": "multiplier", "by": 2}]
    tiers = [{"id": "x2", "count": count, "wins": x2},
             {"id": "5", "count": 1000, "wins": [{"area": "bonus", "prize": "5", "how": "match"}]}]
    path = tmp_path / "g.toml"
    path.write_text(dumps(base_doc([area], prizes + mults, tiers, pool_tickets=20_000)))
    return load_spec(path)


def test_columns_come_from_the_play_entry_not_the_game():
    play = load_spec(spec_path("happy_holidays")).play.document()
    assert layout_columns() == ()  # a run without a play entry: no layout tests
    spots = tuple(f"play_spot_{j}" for j in range(6))  # match_n.md section 8: any one spot
    assert layout_columns(play) == spots
    assert columns_needed(play) == ["prize_cents", *spots]


def test_happy_holidays_spot_0_and_its_classifier():
    found, skipped = _findings(load_spec(spec_path("happy_holidays")), "p1")
    assert [f.name for f in found] == [
        *(f"play_spot_{j} (one scratched spot) against win/lose" for j in range(6)),
        "win/lose predicted from play_spot_0"]
    assert found[0].method == "chi-square test of independence, 2 x 6" and found[0].p > 0.01
    assert skipped == []


def test_a_multiplier_symbol_in_spot_0_is_left_out_of_the_test(tmp_path):
    """Only multiplied winners show a multiplier symbol (what cannot be hidden); among spots that show
    an amount, winners and losers look alike."""
    spec = _multiplier_game(tmp_path, 2000)
    table = build_pool(spec, spec.pool("p1"), SEED)
    shown = int((table["bonus_spot_0"].to_numpy() == 7).sum())
    assert shown > 100  # about 2,000 / 9 of the x2 winners show the 2X in spot 0
    found, skipped = _findings(spec, "p1", table)
    assert [f.name for f in found] == [
        *(f"bonus_spot_{j} (one scratched spot) against win/lose among tickets whose spot {j} shows an amount"
          for j in range(9)),
        "win/lose predicted from bonus_spot_0"]
    assert found[0].method == "chi-square test of independence, 2 x 7"  # the 7 amounts, not the 2X
    assert all(f.p > 0.01 for f in found) and skipped == []
    # the same spot with each winner's won amount moved into spot 0: both tests fail
    spots = np.stack([table[f"bonus_spot_{j}"].to_numpy() for j in range(9)], axis=1)
    won = np.where(table["tier"].to_numpy() == "5", 2, 3)
    win = table["prize_cents"].to_numpy() > 0
    for j in range(1, 9):
        move = win & (spots[:, j] == won) & (spots[:, 0] != won)
        spots[move, 0], spots[move, j] = spots[move, j], spots[move, 0]
    leaky = table.with_columns(pl.Series("bonus_spot_0", spots[:, 0], dtype=pl.UInt8))
    found, _ = _findings(spec, "p1", leaky)
    assert found[0].p < 1e-10 and found[-1].p < 1e-10  # spot 0 and its classifier


def test_no_promise_when_losers_cannot_match_the_winners(tmp_path):
    spec = _multiplier_game(tmp_path, 16_000)  # m($10) = 9 x 33,000 / 137,000 = 2.168 > 2
    found, skipped = _findings(spec, "p1")
    assert found == []
    assert skipped == ["layout: bonus_spot_0: winners show 10 2.168 times in 9 spots, more than a ticket "
                       "without a win may (2): no promise (match_n.md section 8)"]


def test_every_area_of_a_two_style_game_is_tested():
    """double_take: its key_number_match area (WINNING NUMBERS of its own, special symbols) and its
    match_n area each give their section-8 features; the classifier reads both blocks."""
    spec = load_spec(spec_path("happy_holidays").parent / "examples" / "double_take.toml")
    found, skipped = _findings(spec, "p1")
    assert [f.name for f in found] == [
        *(f"play_win_{j} (a WINNING NUMBER) against win/lose" for j in range(3)),
        "smallest WINNING NUMBER of play against win/lose",
        *(f"bonus_spot_{j} (one scratched spot) against win/lose" for j in range(6)),
        "win/lose predicted from the set of WINNING NUMBERS of area play and bonus_spot_0"]
    assert skipped == []


def test_an_area_of_a_style_without_features_is_named():
    play = {"areas": [{"id": "odd", "style": "scratch_and_hope"}], "tiers": []}
    chi, blocks, skipped = style_features(play, {}, lambda c: np.zeros(3, dtype=np.int64))
    assert (chi, blocks) == ([], [])
    assert skipped == ["layout: area 'odd': no no-information tests for style 'scratch_and_hope'"]


def test_step_8_features_are_keyed_by_the_style_not_the_game():
    from audit.stats.layouts import layout_columns, layout_features

    assert layout_columns() == () and layout_features(len) is None
    # a0_s0 (section 2's), and what 1j tests of a losing share: area 0's other symbols, amount and bonus game
    assert layout_columns(PLAY) == ("a0_s0", "a0_s1", "a0_s2", "a0_s3", "a0_amount", "a0_bonus")
    first = np.array([1, 13, 9], dtype=np.uint8)
    features = layout_features(lambda c: first, PLAY)
    assert [name for name, _ in features.chi_square] == ["a0_s0 (the first spot shown) against win/lose"]
    assert [name for name, _ in features.next_only] == [f"{c} (as shown)" for c in layout_columns(PLAY)[1:]]
    assert features.classifier_name == "win/lose predicted from a0_s0"
    assert features.classifier[0][0] is first
    assert layout_columns({"style": "no_such_style"}) == ()
