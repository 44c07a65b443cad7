"""audit/styles/play.py: a ticket of areas evaluated from the manifest's play entry alone
(docs/styles/play.md, docs/styles/key_number_match.md, docs/styles/match_n.md): rows written by hand,
and the play entry's refusals word for word (its areas, tiers and wins, their bounds read inclusively)."""

from __future__ import annotations

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from tests.support.play_entries import KN_PLAY, edited, kn_table, refusal
from tests.support.spec_docs import base_doc, dumps, kn_doc


def play(tmp_path, doc: dict) -> dict:
    (tmp_path / "g.toml").write_text(dumps(doc))
    return load_spec(tmp_path / "g.toml").play.document()


def kn_row(tier: str, win: list[int], your: list[int], prize: list[int]) -> dict:
    row = {"tier": tier}
    row |= {f"play_win_{i}": v for i, v in enumerate(win)}
    row |= {f"play_your_{j}": v for j, v in enumerate(your)}
    row |= {f"play_prize_{j}": v for j, v in enumerate(prize)}
    return row


def table(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows).with_columns(pl.exclude("tier").cast(pl.UInt8))


def test_key_number_match_rows(tmp_path):
    doc = play(tmp_path, kn_doc())  # numbers 1..6 (codes 0..5), BAG = 6, 2X = 7; prizes FREE, $1, $5
    rows = [
        kn_row("lose", [0, 1], [2, 3, 4], [1, 1, 2]),  # no number matches: nothing
        kn_row("1", [0, 1], [1, 3, 4], [1, 2, 2]),  # your number 2 matches: $1
        kn_row("free", [0, 1], [3, 0, 4], [1, 0, 2]),  # a match on FREE: the ticket price
        kn_row("2", [0, 1], [3, 7, 4], [1, 1, 2]),  # 2X on $1: $2
        kn_row("6", [0, 1], [6, 1, 4], [2, 1, 2]),  # moneybag on $5 and a match on $1: $6
        kn_row("1", [0, 0], [0, 3, 4], [1, 1, 1]),  # two equal winning numbers
        kn_row("lose", [0, 1], [0, 3, 4], [1, 1, 1]),  # a loser showing a match
        kn_row("1", [0, 1], [9, 3, 4], [1, 1, 1]),  # a code beyond the specials
        kn_row("6", [0, 1], [6, 6, 0], [2, 2, 2]),  # three wins where a ticket wins at most 2
        kn_row("t99", [0, 1], [2, 3, 4], [1, 1, 1]),  # a tier the play entry does not have
    ]
    result = evaluate(table(rows), {"id": "p1"}, doc)
    assert result.prize_cents.tolist() == [0, 100, 100, 200, 600, 100, 100, 0, 1500, 0]
    assert result.wins.tolist() == [0, 1, 1, 1, 2, 1, 1, 0, 3, 0]
    assert result.illegal == [
        (5, "play: two winning numbers are equal"),
        (6, "its wins are not its tier 'lose''s (1 win(s) paying 100 cents)"),
        (7, "play: a your-number code out of range (9, 3, 4); its wins are not its tier '1''s "
            "(0 win(s) paying 0 cents)"),
        (8, "3 wins, at most 2; its wins are not its tier '6''s (3 win(s) paying 1500 cents)"),
        (9, "tier 't99' is not in the manifest's play entry"),
    ]


def test_match_n_rows(tmp_path):
    prizes = [{"group": "prize", "code": c, "symbol": c, "value": f"{c}.00"} for c in ("1", "2", "5", "10")]
    mults = [{"group": "mult", "code": f"{k}X", "symbol": f"{k}X", "by": k} for k in (2, 5)]
    area = {"id": "play", "style": "match_n", "spots": 6, "match": 3, "prizes": "prize",
            "multipliers": "mult"}
    tiers = [{"id": "2", "count": 10, "wins": [{"area": "play", "prize": "2", "how": "match"}]},
             {"id": "5x1", "count": 10,
              "wins": [{"area": "play", "prize": "1", "how": "multiplier", "by": 5}]},
             {"id": "2x2", "count": 10,  # a tier of the 2X: a multiplier no tier wins is refused
              "wins": [{"area": "play", "prize": "2", "how": "multiplier", "by": 2}]}]
    # codes: $1 0, $2 1, $5 2, $10 3, 2X 4, 5X 5
    doc = play(tmp_path, base_doc([area], prizes + mults, tiers))

    def row(tier, spots):
        return {"tier": tier} | {f"play_spot_{j}": v for j, v in enumerate(spots)}
    rows = [row("lose", [0, 0, 1, 1, 2, 3]),  # pairs only: nothing
            row("2", [1, 0, 1, 2, 1, 3]),  # three $2: $2
            row("5x1", [0, 5, 0, 1, 2, 3]),  # two $1 and 5X: 5 x $1
            row("5x1", [0, 4, 0, 5, 2, 3]),  # two multipliers
            row("2", [1, 1, 1, 1, 2, 3]),  # four $2
            row("lose", [2, 2, 4, 0, 1, 3])]  # a loser showing two $5 and 2X: a $10 win
    result = evaluate(table(rows), {"id": "p1"}, doc)
    assert result.prize_cents.tolist() == [0, 200, 500, 0, 0, 1000]
    assert [r for r, _ in result.illegal] == [3, 4, 5]
    assert result.illegal[0][1].startswith("play: 2 multiplier symbols")
    assert result.illegal[1][1].startswith("play: more than 3 like amounts")
    assert result.illegal[2][1] == "its wins are not its tier 'lose''s (1 win(s) paying 1000 cents)"


def test_the_entry_as_written_evaluates():  # the baseline every refusal below changes one thing of
    result = evaluate(kn_table([0, 1], [1, 3, 4], [1, 1, 1], tier="1"), {"id": "p1"}, KN_PLAY)
    assert (result.prize_cents.tolist(), result.wins.tolist(), result.illegal) == ([100], [1], [])


def test_a_play_entry_without_max_wins():
    assert refusal(edited(lambda p: p.pop("max_wins"))) == "manifest play entry: play.max_wins is missing"


def test_a_multiplier_of_zero_is_out_of_range():
    play = edited(lambda p: p["areas"][0]["specials"][1].update(by=0))
    assert refusal(play, kn_table([0, 1], [7, 3, 4], [1, 1, 1])) == (
        "manifest play entry: area 'play': a multiplier or amount out of range")


def test_a_multiplier_of_4096_is_out_of_range():
    play = edited(lambda p: p["areas"][0]["specials"][1].update(by=4096))
    assert refusal(play, kn_table([0, 1], [7, 3, 4], [1, 1, 1])) == (
        "manifest play entry: area 'play': a multiplier or amount out of range")


def test_a_prize_of_2_to_the_40_cents_is_out_of_range_and_one_cent_less_is_not():
    play = edited(lambda p: p["areas"][0]["prizes"][2].update(cents=1 << 40))
    assert refusal(play, kn_table([0, 1], [2, 3, 4], [1, 1, 2])) == (
        "manifest play entry: area 'play': prizes is not a non-empty list of {code, cents} "
        "(cents 0..2^40 - 1)")
    play["areas"][0]["prizes"][2]["cents"] = (1 << 40) - 1
    assert evaluate(kn_table([0, 1], [2, 3, 4], [1, 1, 2]), {"id": "p1"}, play).illegal == []


def test_a_win_without_how():
    play = edited(lambda p: p["tiers"][1]["wins"][0].pop("how"))
    assert refusal(play) == "manifest play entry: tiers[1].wins[0].how is missing"


@pytest.mark.parametrize("key, value", [("area", "elsewhere"), ("how", "guess")])
def test_a_win_of_an_unknown_area_or_how(key, value):
    play = edited(lambda p: p["tiers"][1]["wins"][0].update({key: value}))
    assert refusal(play) == "manifest play entry: tiers[1].wins[0]: unknown area or how"


def test_a_win_on_a_prize_the_area_does_not_have():
    play = edited(lambda p: p["tiers"][1]["wins"][0].update(prize_cents=999))
    assert refusal(play) == ("manifest play entry: tiers[1].wins[0]: prize '1' of 999 cents is not one of "
                             "its area's prizes")


def test_a_play_entry_without_tiers():
    assert refusal(edited(lambda p: p.pop("tiers"))) == "manifest play entry: play.tiers is missing"


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


def test_a_table_of_more_rows_than_one_slice_reads_as_the_same_rows_one_by_one(tmp_path):
    # evaluate takes ROWS (65,536) rows at a time (issue 28, memory): the rows of the test above,
    # 6,554 times over, span two slices, and every illegal row keeps its place in the whole table
    doc = play(tmp_path, kn_doc())
    rows = [
        kn_row("lose", [0, 1], [2, 3, 4], [1, 1, 2]),
        kn_row("1", [0, 1], [1, 3, 4], [1, 2, 2]),
        kn_row("free", [0, 1], [3, 0, 4], [1, 0, 2]),
        kn_row("2", [0, 1], [3, 7, 4], [1, 1, 2]),
        kn_row("6", [0, 1], [6, 1, 4], [2, 1, 2]),
        kn_row("1", [0, 0], [0, 3, 4], [1, 1, 1]),
        kn_row("lose", [0, 1], [0, 3, 4], [1, 1, 1]),
        kn_row("1", [0, 1], [9, 3, 4], [1, 1, 1]),
        kn_row("6", [0, 1], [6, 6, 0], [2, 2, 2]),
        kn_row("t99", [0, 1], [2, 3, 4], [1, 1, 1]),
    ]
    once = evaluate(table(rows), {"id": "p1"}, doc)
    times = 6_554  # 65,540 rows: the last slice starts at row 65,536, within the 6,554th copy
    result = evaluate(pl.concat([table(rows)] * times), {"id": "p1"}, doc)
    assert result.prize_cents.tolist() == once.prize_cents.tolist() * times
    assert result.wins.tolist() == once.wins.tolist() * times
    assert len(result.illegal) == 5 * times
    assert result.illegal == [(10 * k + row, why) for k in range(times) for row, why in once.illegal]
    assert result.illegal[-5:] == [(65_535, "play: two winning numbers are equal"),
                                   (65_536, "its wins are not its tier 'lose''s (1 win(s) paying 100 cents)"),
                                   *[(65_530 + row, why) for row, why in once.illegal[2:]]]


@pytest.mark.parametrize(("key", "change"), [
    ("numbers", lambda a: a["numbers"].__setitem__(0, 1)),
    ("specials", lambda a: a["specials"][0].pop("code")),
    ("specials", lambda a: a["specials"][1].update(code=2))])
def test_a_code_no_row_shows_that_is_not_a_string_stops_the_step(key, change):
    play = edited(lambda p: change(p["areas"][0]))
    assert refusal(play) == f"manifest play entry: area 'play': {key} lists a code that is not a string"


@pytest.mark.parametrize(("key", "value"), [("yours", 1025), ("winning", 1 << 45)])
def test_a_count_of_columns_above_the_1024_a_ticket_holds_stops_the_step(key, value):
    play = edited(lambda p: p["areas"][0].update({key: value}))
    assert refusal(play) == (f"manifest play entry: area 'play': {key} {value} is more than the 1,024 spots "
                             "a ticket holds")
