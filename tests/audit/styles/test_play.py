"""audit/styles: rows written by hand, evaluated from the manifest's play entry alone
(docs/styles/play.md, docs/styles/key_number_match.md, docs/styles/match_n.md)."""

from __future__ import annotations

import polars as pl

from audit.styles.play import evaluate
from poolgen.loader import load_spec
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
              "wins": [{"area": "play", "prize": "1", "how": "multiplier", "by": 5}]}]
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
