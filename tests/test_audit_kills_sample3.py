"""Tests that kill the mutants a third mutmut sample left alive in audit's style engines (issue 17):
audit/styles/prize_legend_duel.py, area_match.py, match_n.py, key_number_match.py, bonus_reveal.py
and audit/styles/interface.py.

Each test pins an exact behaviour a surviving mutant changed: a bound read inclusively (64 legend
values, 255 symbols, 256 prize symbols, a denomination of 1 cent, most_alike 1), a duel whose only
loss is at spot 0, a bad row that is not the first, a refusal word for word. Play entries and one-row
(or two-row) polars tables are written by hand.
"""

from __future__ import annotations

import polars as pl
import pytest

from audit.styles import area_match as am
from audit.styles import bonus_reveal, key_number_match, match_n
from audit.styles import prize_legend_duel as pld
from audit.styles.interface import Reasons
from audit.styles.play import evaluate
from tests.audit.styles.test_area_match_edge_cases import DUEL, LOSING, PLAY, POOL, area_row, d200, duel_row
from tests.audit.styles.test_bonus_reveal import BR_AREA, MN_AREA
from tests.support.play_entries import KN_AREA, KN_PLAY, edited, kn_table, refusal

# ------------------------------------------------------------------------------------------------
# prize_legend_duel
# ------------------------------------------------------------------------------------------------

ONE_LOSS = {**DUEL, "spots": 2, "losses": 1}  # play ends with the first loss


def test_duel_a_legend_of_64_values_is_read_65_refused():
    legend = [str(k) for k in range(1, 66)]
    assert len(pld.read_play({**DUEL, "legend": legend[:64]}).legend) == 64
    with pytest.raises(ValueError) as exc:
        pld.read_play({**DUEL, "legend": legend})
    assert str(exc.value) == "manifest play entry: play.legend: not a list of 1 to 64 decimal strings"


def test_duel_the_only_loss_at_spot_0_ends_play():
    """losses = 1 and spot 0 a LOSE: the last loss is at spot 0 and spot 1 is UNPLAYED, a legal loser."""
    out = pld.evaluate(duel_row([1, 0], [0, 0], prize=0), POOL, ONE_LOSS)
    assert (out.illegal, out.prize_cents.tolist(), out.wins.tolist()) == ([], [0], [0])


def test_duel_a_win_after_the_only_loss_at_spot_0_is_named():
    out = pld.evaluate(duel_row([1, 3], [0, 100], prize=100), POOL, ONE_LOSS)
    assert out.illegal == [(0, "spot_1 is WIN after the last loss at spot 0")]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([100], [1])


def test_duel_a_denomination_of_1_cent_is_read_0_refused():
    out = pld.evaluate(duel_row([3, 1], [2, 0], prize=2), {**POOL, "denomination_cents": 1}, ONE_LOSS)
    assert (out.illegal, out.prize_cents.tolist(), out.wins.tolist()) == ([], [2], [1])
    with pytest.raises(ValueError) as exc:
        pld.evaluate(duel_row([3, 1], [2, 0], prize=2), {**POOL, "denomination_cents": 0}, ONE_LOSS)
    assert str(exc.value) == "prize_legend_duel: pool denomination_cents 0 is not a whole number >= 1"


# ------------------------------------------------------------------------------------------------
# area_match
# ------------------------------------------------------------------------------------------------

def area_refusal(**changes) -> str:
    with pytest.raises(ValueError) as exc:
        am.read_play({**PLAY, **changes})
    return str(exc.value)


def test_area_match_reads_255_symbols_and_refuses_256():
    symbols = [*PLAY["symbols"], *(f"S{k}" for k in range(256 - len(PLAY["symbols"])))]
    assert len(am.read_play({**PLAY, "symbols": symbols[:255]}).symbols) == 255
    assert area_refusal(symbols=symbols) == ("manifest play entry (area_match): symbols must list 1 to 255 "
                                             "symbol names")


def test_area_match_refuses_a_match_pays_entry_that_is_not_a_table():
    assert area_refusal(match_pays=[3]) == ("manifest play entry (area_match): match_pays[0].count must be "
                                            "a whole number 1..4, not None")


def test_area_match_names_the_bonus_game_of_a_bad_symbol():
    games = [PLAY["bonus_games"][0], {**PLAY["bonus_games"][1], "symbol": 0}]
    assert area_refusal(bonus_games=games) == ("manifest play entry (area_match): bonus_games[1].symbol "
                                               "must be a whole number 1..13, not 0")


def test_area_match_refuses_a_pool_of_0_play_areas_by_its_id():
    with pytest.raises(ValueError) as exc:
        am.evaluate(area_row([LOSING], prize=0), {**d200(1), "play_areas": 0}, PLAY)
    assert str(exc.value) == "area_match: pool 'd2.00x1': play_areas 0 < 1"


def test_area_match_a_null_symbol_is_named_and_read_as_0():
    out = am.evaluate(area_row([LOSING], prize=0, nulls=("a0_s1",)), d200(1), PLAY)
    assert out.illegal == [(0, "a0_s1 is null; a0_s1 has code 0, not a symbol code 1..13")]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([0], [0])


# ------------------------------------------------------------------------------------------------
# match_n
# ------------------------------------------------------------------------------------------------

def mn_table(rows: list[list[int]], aid: str = "play") -> pl.DataFrame:
    return pl.DataFrame({f"{aid}_spot_{j}": [r[j] for r in rows] for j in range(len(rows[0]))}).cast(pl.UInt8)


def test_match_n_reads_256_prize_symbols_and_refuses_257():
    prizes = [{"code": str(k), "cents": 100 * (k + 1)} for k in range(257)]
    area = {"id": "play", "style": "match_n", "spots": 3, "match": 2, "prizes": prizes[:256],
            "multipliers": []}
    reasons = Reasons()
    slots = match_n.evaluate(mn_table([[255, 7, 255]]), area, reasons)
    assert reasons.illegal() == [] and len(slots) == 256
    assert [k for k, s in enumerate(slots) if s.won[0]] == [255]
    assert (slots[255].cents.tolist(), slots[255].by.tolist()) == ([25600], [1])
    with pytest.raises(ValueError) as exc:
        match_n.evaluate(mn_table([[0, 0, 1]]), {**area, "prizes": prizes}, Reasons())
    assert str(exc.value) == "manifest play entry: area 'play': more than 256 prize symbols"


def test_match_n_names_the_row_with_a_code_out_of_range_not_the_first():
    reasons = Reasons()
    slots = match_n.evaluate(mn_table([[0, 0, 0, 1, 1, 2], [0, 1, 0, 1, 5, 2]]), MN_AREA, reasons)
    assert reasons.illegal() == [(1, "play: a spot code out of range (0, 1, 0, 1, 5, 2)")]
    assert slots[0].won.tolist() == [True, True] and slots[0].by.tolist() == [1, 2]


# ------------------------------------------------------------------------------------------------
# key_number_match, bonus_reveal
# ------------------------------------------------------------------------------------------------

def test_key_number_match_reads_256_prize_symbols_and_refuses_257():
    prizes = [{"code": str(k), "cents": 100 * (k + 1)} for k in range(257)]
    reasons = Reasons()
    table = kn_table([0, 1], [1, 3, 4], [255, 0, 0])
    slots = key_number_match.evaluate(table, KN_AREA | {"prizes": prizes[:256]}, reasons)
    assert reasons.illegal() == [] and [bool(s.won[0]) for s in slots] == [True, False, False]
    assert (slots[0].cents.tolist(), slots[0].prize.tolist()) == ([25600], [255])
    with pytest.raises(ValueError) as exc:
        key_number_match.evaluate(kn_table([0, 1], [1, 3, 4], [0, 0, 0]), KN_AREA | {"prizes": prizes},
                                  Reasons())
    assert str(exc.value) == "manifest play entry: area 'play': more than 256 prize symbols"


def test_key_number_match_refuses_an_area_without_prize_symbols():
    with pytest.raises(ValueError) as exc:
        key_number_match.evaluate(kn_table([0, 1], [1, 3, 4], [0, 0, 0]), KN_AREA | {"prizes": []}, Reasons())
    assert str(exc.value) == "manifest play entry: area 'play': no prize symbols"


def test_key_number_match_a_prize_code_out_of_range_wins_the_last_prize():
    """A prize code past the area's prizes is named, and the win is read on the last prize (as the
    amount shown is): it is then the win of a tier of that prize, and no other reason is given."""
    tier = {"id": "5", "wins": [{"area": "play", "how": "match", "by": 1, "prize": "5", "prize_cents": 500}]}
    play = {**KN_PLAY, "tiers": [*KN_PLAY["tiers"], tier]}
    out = evaluate(kn_table([0, 1], [1, 3, 4], [3, 1, 1], tier="5"), {"id": "p1"}, play)
    assert out.illegal == [(0, "play: a prize code out of range (3, 1, 1)")]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([500], [1])


def test_bonus_reveal_reads_most_alike_1():
    """most_alike = 1: no picture may show twice."""
    area = BR_AREA | {"most_alike": 1}
    reasons = Reasons()
    slots = bonus_reveal.evaluate(mn_table([[0, 1, 2], [0, 0, 2]], aid="bonus"), area, reasons)
    assert reasons.illegal() == [(1, "bonus: one picture shows 2 times (at most 1: more read as a match that "
                                     "wins nothing)")]
    assert [s.won.tolist() for s in slots] == [[False, False], [False, False], [True, True]]


# ------------------------------------------------------------------------------------------------
# audit/styles/play.py: the play entry, the tiers
# ------------------------------------------------------------------------------------------------

WIN_1 = {"area": "play", "how": "match", "by": 1, "prize": "1", "prize_cents": 100}


def test_a_play_entry_without_areas():
    assert refusal(edited(lambda p: p.pop("areas"))) == "manifest play entry: play.areas is missing"


def test_winning_from_an_area_that_is_not_an_earlier_one():
    play = edited(lambda p: p["areas"][0].update(winning_from="nowhere"))
    assert refusal(play) == ("manifest play entry: area 'play': winning_from 'nowhere' is not an earlier "
                             "area of the same numbers")


def test_a_prize_of_0_cents_is_in_range():
    play = edited(lambda p: p["areas"][0]["prizes"][0].update(cents=0))
    out = evaluate(kn_table([0, 1], [2, 3, 4], [0, 1, 1]), {"id": "p1"}, play)
    assert (out.illegal, out.prize_cents.tolist(), out.wins.tolist()) == ([], [0], [0])


def test_a_row_without_a_tier_is_named():
    table = kn_table([0, 1], [1, 3, 4], [1, 1, 1], tier="1")
    for no_tier in (table.drop("tier"), table.with_columns(pl.lit(None, dtype=pl.String).alias("tier"))):
        out = evaluate(no_tier, {"id": "p1"}, KN_PLAY)
        assert out.illegal == [(0, "tier None is not in the manifest's play entry")]
        assert (out.prize_cents.tolist(), out.wins.tolist()) == ([100], [1])


def test_a_tier_without_wins():
    play = edited(lambda p: p["tiers"][1].pop("wins"))
    assert refusal(play) == "manifest play entry: tiers[1].wins is missing"


def test_a_win_without_prize_cents():
    play = edited(lambda p: p["tiers"][1]["wins"][0].pop("prize_cents"))
    assert refusal(play) == "manifest play entry: tiers[1].wins[0].prize_cents is missing"


def test_a_win_by_4096_is_out_of_range():
    play = edited(lambda p: p["tiers"][1]["wins"][0].update(by=4096))
    assert refusal(play) == "manifest play entry: tiers[1].wins[0]: by out of range"


def test_a_tier_of_as_many_wins_as_places_is_read_one_more_refused():
    """Three YOUR NUMBERS, three places: a tier of three wins is read, a tier of four refused."""
    play = edited(lambda p: p.update(max_wins=3) or p["tiers"].append({"id": "3", "wins": [WIN_1] * 3}))
    out = evaluate(kn_table([0, 1], [1, 0, 1], [1, 1, 1], tier="3"), {"id": "p1"}, play)
    assert (out.illegal, out.prize_cents.tolist(), out.wins.tolist()) == ([], [300], [3])
    play["tiers"][2]["wins"].append(WIN_1)
    assert refusal(play) == "manifest play entry: tiers[2] has more wins than the areas have places"
