"""The third engine for cards, yours_beats_theirs, prize_box and symbol_count (tests/third_engines/cards.py,
written from docs/styles/cards.md, yours_beats_theirs.md, prize_box.md, symbol_count.md and play.md
alone) against audit's step 4 on real runs of the six examples cut to one small pool each (Poker
Showdown, Hold 'Em Poker, Poker Night, High Card Duel, Lucky Pairs, Five Alarm Flames) and of a game of
all four styles with what the examples do not show (ties that win, room for two matches, a legend with a
gap): every generated row is legal and pays its stored prize, every hand-made or tampered row is refused by
both with audit's very reasons and amount, and so are 600 rows of each run tampered at random."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_example
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit, cards

Row = dict
GAMES = {"poker_showdown": 3000, "holdem_poker": 600, "poker_night": 600, "high_card_duel": 3000,
         "lucky_pairs": 2400, "five_alarm_flames": 3000, "mixed": 600}


def _mixed(folder: Path) -> Path:
    """The four styles in one game, with what the examples do not show: ties that win (cards and
    yours_beats_theirs), a prize_box game of 5 spots (room for two matches) and a symbol_count legend
    with a gap (3 and 5) and `most_alike` left to its default (2)."""
    def sym(group: str, codes: list[str]) -> list[dict]:
        return [{"group": group, "code": c, "symbol": c} for c in codes]
    prizes = [{"group": "pz", "code": c, "symbol": f"${v}", "value": v}
              for c, v in (("A", "1.00"), ("B", "2.00"), ("C", "5.00"))]
    areas = [{"id": "ck", "style": "cards", "games": 2, "prizes": "pz", "ties": "win"},
             {"id": "yb", "style": "yours_beats_theirs", "pairs": 3, "numbers": "num", "prizes": "pz",
              "ties": "win"},
             {"id": "pb", "style": "prize_box", "games": 2, "spots": 5, "match": 2, "pictures": "pic",
              "prizes": "pz"},
             {"id": "sc", "style": "symbol_count", "spots": 6, "pictures": "fire", "symbol": "FIRE",
              "prizes": "pz", "legend": [{"count": 3, "prize": "A"}, {"count": 5, "prize": "C"}]}]
    symbols = (prizes + sym("num", ["1", "2", "3", "4", "5"]) + sym("pic", ["P1", "P2", "P3", "P4", "P5"])
               + sym("fire", ["FIRE", "D1", "D2", "D3", "D4"]))

    def won(*pairs: str) -> list[dict]:
        return [{"area": p[:2], "prize": p[2], "how": "match"} for p in pairs]
    tiers = [{"id": "c", "count": 60, "wins": won("ckA")}, {"id": "y", "count": 60, "wins": won("ybB")},
             {"id": "p", "count": 40, "wins": won("pbC")}, {"id": "s3", "count": 40, "wins": won("scA")},
             {"id": "s5", "count": 10, "wins": won("scC")},
             {"id": "mix", "count": 10, "wins": won("ckA", "ybB", "pbC", "scA")}]
    (folder / "mixed.toml").write_text(dumps(base_doc(areas, symbols, tiers, max_wins=4, pool_tickets=600)))
    return folder / "mixed.toml"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cards3")
    made = {}
    for name, tickets in GAMES.items():
        (root / name).mkdir()
        path = _mixed(root / name) if name == "mixed" else small_example(root / name, name, tickets)
        made[name] = generate(GenerateRequest(load_spec(path), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                              out=root / name, run_id="r")).folder
    return made


@pytest.mark.parametrize("game", list(GAMES))
def test_every_generated_row_is_legal_and_pays_its_prize(runs, game):
    table = pl.read_parquet(runs[game] / "pool-p1.parquet")
    assert table.height == GAMES[game]
    assert cards.judge(against_audit.play(runs[game]), table) == {}
    assert against_audit.layouts(runs[game])[0] == "pass"


def _code(card: str) -> int:
    """`AS` -> 51, `10H` -> 34 (cards.md section 4)."""
    return cards.RANKS.index(card[:-1]) * 4 + cards.SUITS.index(card[-1])


def _hands(yours: str, dealer: str) -> dict:
    """Game 0 of the poker area dealt `yours` against `dealer` and its PRIZE $3; games 1 and 2 dealt
    hands that tie (same ranks, other suits; ties lose) from the cards game 0 leaves: 30 distinct cards."""
    first = [_code(c) for c in (*yours.split(), *dealer.split())]
    free = [c for c in range(52) if c not in first]
    values = {f"poker_yours_{i}": c for i, c in enumerate(first[:5])}
    values |= {f"poker_dealer_{i}": c for i, c in enumerate(first[5:])}
    pairs = [[c for c in free if c // 4 == r] for r in range(13)]
    ranks = [r for r in (0, 2, 4, 6, 9, 11, 1, 3, 5, 8, 10, 12, 7) if len(pairs[r]) >= 2][:10]
    for k, r in enumerate(ranks):
        g, i = 1 + k // 5, 5 + k
        mine, theirs = (pairs[r][0], pairs[r][1]) if k % 2 else (pairs[r][1], pairs[r][0])
        values[f"poker_yours_{i}"], values[f"poker_dealer_{i}"] = mine, theirs
        assert g in (1, 2)
    assert len(ranks) == 10 and len(set(values.values())) == 30
    return values | {"poker_prize_0": 0}


HANDS = [  # (tier, YOUR hand 0, the DEALER'S hand 0, what game 0 pays, what it shows)
    ("p3", "AC 2D 3H 4S 5C", "2H 3S 4C 5D 6H", 0, "the wheel is the lowest straight"),
    ("lose", "2H 3S 4C 5D 6H", "AC 2D 3H 4S 5C", 300, "a six-high straight beats the wheel"),
    ("p3", "QC KD AH 2S 3C", "4D 4H 7S 8C 9D", 0, "Q-K-A-2-3 is no straight: ace-high loses to a pair"),
    ("lose", "10C JD QH KS AC", "9D 10H JS QC KD", 300, "the ace-high straight beats the king-high"),
    ("lose", "2C 5C 7C 9C JC", "8D 9H 10S JD QH", 300, "a flush beats a straight"),
    ("p3", "KC QD JH 9S 7C", "KD QH JS 9C 7D", 0, "hands that differ only in suits tie; ties lose"),
    ("p3", "2C 2D 2H AS AC", "3C 3D 3H KS KC", 0, "a full house ranks by its trips first"),
    ("lose", "9C 9D 5H 5S KC", "9H 9S 5C 5D QH", 300, "two pair, equal pairs: the kicker decides"),
    ("lose", "AC AD 8H 6S 4C", "AH AS 8C 6D 3H", 300, "one pair: the third kicker decides"),
    ("p3", "7C 7D 7H 7S 2C", "8C 9C 10C JC QC", 0, "four of a kind loses to a straight flush"),
    ("lose", "2D 3D 4D 5D AD", "KH KS KC KD 3H", 300, "the wheel's straight flush beats four kings"),
    ("p3", "KC KD 5H 5S 5C", "QH QS QC 6D 6H", 0, "fives full of kings lose to queens full of sixes"),
    ("p3", "AH KS QD JC 9H", "AS KD QC JH 9S", 0, "an ace-high tie of all five ranks loses"),
    ("lose", "AH KS QD JC 9H", "AS KD QC JH 8S", 300, "high card: the fifth rank decides"),
]


@pytest.mark.parametrize(("tier", "yours", "dealer", "pays", "what"), HANDS, ids=[h[4] for h in HANDS])
def test_a_hand_is_ranked_as_audit_ranks_it(runs, tmp_path, tier, yours, dealer, pays, what):
    _, paid = against_audit.agrees(cards.judge, runs["poker_showdown"], tmp_path / "r", tier,
                                   _hands(yours, dealer))
    assert paid == pays


def _winning(r: Row, area: str, kind: str, n: int) -> int:
    """The first game (pair) of `area` whose hands (numbers) win."""
    play = {"poker": 5, "duel": 1}[area]
    rank = cards.hand_rank if area == "poker" else (lambda v: tuple(v))
    for g in range(n):
        a = rank([r[f"{area}_yours_{play * g + i}"] for i in range(play)])
        b = rank([r[f"{area}_{kind}_{play * g + i}"] for i in range(play)])
        if a > b:
            return g
    raise AssertionError(r)


def _swap_game(r: Row, area: str, kind: str, g: int, n: int) -> dict:
    return ({f"{area}_yours_{n * g + i}": r[f"{area}_{kind}_{n * g + i}"] for i in range(n)}
            | {f"{area}_{kind}_{n * g + i}": r[f"{area}_yours_{n * g + i}"] for i in range(n)})


POKER: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: _swap_game(r, "poker", "dealer", 0, 5), "a loser's game 0 swapped: a win unpaid"),
    ("p3", lambda r: _swap_game(r, "poker", "dealer", _winning(r, "poker", "dealer", 3), 5),
     "a winner's winning hands swapped: it wins nothing"),
    ("p3", lambda r: {f"poker_prize_{_winning(r, 'poker', 'dealer', 3)}": 5}, "a $3 win shows $1,000"),
    ("lose", lambda r: {"poker_yours_1": r["poker_dealer_7"]}, "a card shown twice"),
    ("lose", lambda r: {"poker_yours_1": r["poker_dealer_7"], "poker_yours_12": r["poker_dealer_0"]},
     "two cards shown twice, listed in code order"),
    ("lose", lambda r: {"poker_yours_0": 60}, "a card out of range"),
    ("lose", lambda r: {"poker_yours_0": r["poker_dealer_3"] + 52}, "out of range, modulo 52 a card shown"),
    ("lose", lambda r: {"poker_dealer_9": None}, "a null card"),
    ("lose", lambda r: {"poker_yours_0": None, "poker_dealer_0": None}, "two null cards"),
    ("lose", lambda r: {"poker_yours_2": 60, "poker_dealer_2": 60}, "two cards of one code out of range"),
    ("lose", lambda r: {"poker_prize_2": 6, "poker_yours_14": 255}, "a PRIZE and a card out of range"),
    ("p3", lambda r: {f"poker_prize_{_winning(r, 'poker', 'dealer', 3)}": None}, "a winner's PRIZE null"),
    ("p5x3", lambda r: {"tier": "p3x2"}, "three wins stored as two"),
    ("p10", lambda r: {"tier": "zz"}, "a tier the play entry does not list"),
    ("p30", lambda r: {"prize_cents": 3001}, "a stored prize not paid"),
]

def _first_win(r: Row) -> int:
    """The first deal of a hold 'em row whose best five of seven beat the dealer's."""
    for g in range(4):
        board = [r[f"deal_community_{5 * g + i}"] for i in range(5)]
        if (cards.best_rank([r[f"deal_yours_{2 * g + i}"] for i in range(2)] + board)
                > cards.best_rank([r[f"deal_dealer_{2 * g + i}"] for i in range(2)] + board)):
            return g
    raise AssertionError(r)


HOLD_EM: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: _swap_game(r, "deal", "dealer", 0, 2), "a loser's hole cards swapped"),
    ("p5", lambda r: _swap_game(r, "deal", "dealer", _first_win(r), 2), "a winner's hole cards swapped"),
    ("p5", lambda r: {f"deal_prize_{_first_win(r)}": 6}, "a $5 win shows $10,000"),
    ("lose", lambda r: {"deal_community_3": r["deal_yours_5"]}, "a hole card on the board too"),
    ("lose", lambda r: {"deal_community_19": 60, "deal_dealer_0": None}, "a board card and a hole card out"),
    ("p10", lambda r: {"tier": "p5"}, "a $10 win stored as $5"),
]

DUEL: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: {"duel_yours_0": 12, "duel_theirs_0": 0}, "a loser's pair 0 wins"),
    ("p2", lambda r: {f"duel_yours_{_winning(r, 'duel', 'theirs', 4)}":
                      r[f"duel_theirs_{_winning(r, 'duel', 'theirs', 4)}"]}, "a win tied: ties lose"),
    ("p2", lambda r: {f"duel_prize_{_winning(r, 'duel', 'theirs', 4)}": 1}, "a $2 win shows $4"),
    ("lose", lambda r: {"duel_yours_1": 13, "duel_theirs_1": 0}, "YOUR symbol out of range above THEIRS"),
    ("lose", lambda r: {"duel_theirs_2": None}, "THEIR symbol null"),
    ("lose", lambda r: {"duel_yours_3": 12, "duel_theirs_3": 0, "duel_prize_3": 6}, "a win's PRIZE 6"),
    ("lose", lambda r: {"duel_yours_0": 40, "duel_theirs_2": 255, "duel_prize_1": 9}, "3 codes out of range"),
    ("p2x4", lambda r: {"tier": "p2x2"}, "four wins stored as two"),
    ("p4", lambda r: {"tier": "zz"}, "a tier the play entry does not list"),
]

BOX: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: {"games_spot_1": r["games_spot_0"]}, "a loser's game 1 shows a match"),
    ("lose", lambda r: {"games_spot_4": r["games_spot_3"], "games_spot_5": r["games_spot_3"]},
     "a loser's game 2: three like pictures"),
    ("w1", lambda r: {f"games_prize_{g}": 5 for g in range(6)}, "a $1 win shows $500"),
    ("w1x2", lambda r: {f"games_spot_{j}": j % 3 for j in range(18)}, "a winner shows no match"),
    ("lose", lambda r: {"games_spot_7": 6}, "a picture out of range"),
    ("lose", lambda r: {"games_spot_9": 6, "games_spot_10": 6}, "two like codes out of range"),
    ("lose", lambda r: {"games_prize_4": None, "games_spot_0": None}, "a null box and spot"),
    ("lose", lambda r: {"games_spot_0": 1, "games_spot_1": 1, "games_spot_2": 1, "games_prize_0": 7},
     "three like pictures and a box out of range"),
    ("lose", lambda r: {f"games_spot_{j}": 2 for j in (3, 4, 5, 12, 13, 14)}, "two games of three alike"),
    ("w5b", lambda r: {"tier": "w1x2"}, "three wins stored as two"),
]

FLAMES: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: {f"flames_spot_{j}": 0 for j in range(3)}, "a loser shows 3 FLAMES"),
    ("f3", lambda r: {f"flames_spot_{j}": 0 for j in range(4)}, "a 3 FLAMES winner shows 4"),
    ("lose", lambda r: {f"flames_spot_{j}": 0 if j < 7 else 1 for j in range(8)}, "7 FLAMES: no prize"),
    ("f6", lambda r: {f"flames_spot_{j}": 0 for j in range(8)}, "8 FLAMES: no legend prize"),
    ("lose", lambda r: {f"flames_spot_{j}": (1, 1, 1, 2, 2, 2, 3, 4)[j] for j in range(8)},
     "two decoys three times each"),
    ("lose", lambda r: {"flames_spot_5": None}, "a null spot"),
    ("lose", lambda r: {"flames_spot_2": 5, "flames_spot_6": 200}, "two spot codes out of range"),
    ("f3m4", lambda r: {"tier": "f3"}, "FLAMES and a match stored as FLAMES alone"),
    ("f3", lambda r: {"tier": "m2"}, "a legend $2.00 stored as a match's $2.00"),
]



def _tie(r: Row) -> dict:
    """ck's game 0 a tie (the same ranks in other suits; ties win) and game 1 lost, its PRIZE $1."""
    yours, dealer = "KC QD JH 9S 7C 2C 3D 4H 5S 7H", "KD QH JS 9C 7D AC AD 8H 8S 10C"
    return ({f"ck_yours_{i}": _code(c) for i, c in enumerate(yours.split(" "))}
            | {f"ck_dealer_{i}": _code(c) for i, c in enumerate(dealer.split(" "))} | {"ck_prize_0": 0})


MIXED: list[tuple[str, Callable[[Row], dict], str]] = [
    ("y", _tie, "a cards tie wins where ties win: unpaid"),
    ("c", lambda r: {f"yb_yours_{p}": r[f"yb_theirs_{p}"] for p in range(3)} | {"yb_prize_1": 1},
     "three tied pairs win where ties win"),
    ("y", lambda r: {f"pb_spot_{j}": (0, 0, 1, 1, 2)[j] for j in range(5)}, "two matches in game 1"),
    ("y", lambda r: {f"pb_spot_{j}": (0, 0, 0, 1, 1, 3, 3, 4, 4, 4)[j] for j in range(10)},
     "more than 2 and two matches, both games"),
    ("y", lambda r: {f"sc_spot_{j}": (0, 0, 0, 0, 1, 2)[j] for j in range(6)}, "4 FIRE: a gap in the legend"),
    ("s3", lambda r: {f"sc_spot_{j}": (0, 0, 0, 1, 1, 1)[j] for j in range(6)},
     "a decoy 3 times (at most 2)"),
    ("mix", lambda r: {"sc_spot_0": 9, "pb_prize_1": None, "ck_yours_3": 60, "yb_theirs_2": 5},
     "one code out of range in each area"),
]

CASES = ([("poker_showdown", *c) for c in POKER] + [("holdem_poker", *c) for c in HOLD_EM]
         + [("high_card_duel", *c) for c in DUEL]
         + [("lucky_pairs", *c) for c in BOX] + [("five_alarm_flames", *c) for c in FLAMES]
         + [("mixed", *c) for c in MIXED])


@pytest.mark.parametrize(("game", "tier", "values", "what"), CASES, ids=[f"{c[0]}: {c[3]}" for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(runs, tmp_path, game, tier, values, what):
    row = pl.read_parquet(runs[game] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(cards.judge, runs[game], tmp_path / "r", tier, values(row))


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


@pytest.mark.parametrize("game", list(GAMES))
def test_rows_tampered_at_random_are_judged_as_audit_judges_them(runs, game):
    """600 rows of each run, the layout columns widened to Int32, each row with one to three cells (or
    its tier) set from a seeded generator: a null, a negative value, one of 9999 or more, a code just or
    far out of range, another cell's value of the same row, any small code. The engine and audit's
    step-4 evaluation refuse the same rows with the same reasons and find the same amounts."""
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[game] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    table = table.with_columns(pl.col(layout).cast(pl.Int32))
    rows, rng = table.to_dicts(), random.Random(f"cards3 {game}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 600)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice((-3, 12000, 5, 6, 13, 52, 60, 255)) if u < 0.2 else r[rng.choice(layout)]
                    if u < 0.6 else rng.randrange(14))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert cards.judge(play, tampered) == audit
    assert len(audit) > 300  # most tampered rows are refused
