"""A third engine for plays of `cards` (five-card and hold 'em deals, a shared dealer), `poker_hand`,
`yours_beats_theirs`, `prize_box` and `symbol_count` areas, from docs/styles/cards.md, poker_hand.md,
yours_beats_theirs.md, prize_box.md, symbol_count.md and docs/styles/play.md alone (a `match_n` area
beside them, as in Five Alarm Flames, is printed.py's).

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): given a
manifest's `play` entry and a pool table, it gives every row's wins and the reasons an illegal row is
refused, worded as the contracts state them, and what an illegal row still pays (each contract's
section 5 or 6: a null read as -2, a negative value -1, 9999 or more 9999; a PRIZE out of range the
nearest in range)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import polars as pl

from tests.third_engines.printed import match_n_row, verdicts

Win = tuple[str, str, int, str]  # (area, how, by, prize code)
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")


def _inside(value: int | None, size: int) -> bool:
    return value is not None and 0 <= value < size


def _shown(value: int | None) -> str:
    """A stored code as a reason lists it (as match_n.md section 5 lists them)."""
    return "null" if value is None else "negative" if value < 0 else ">=9999" if value >= 9999 else str(value)


def _read(value: int | None) -> int:
    """A stored value as an illegal row is still evaluated (cards.md section 6): null -2, negative -1,
    9999 or more 9999."""
    return -2 if value is None else -1 if value < 0 else min(value, 9999)


def _box(value: int | None, size: int) -> int:
    """A PRIZE (box) as read: out of range, the nearest in range."""
    return min(max(_read(value), 0), size - 1)


def _out(aid: str, named: dict[str, int | None], sizes: dict[str, int]) -> list[str]:
    """`<id>: a code out of range in <columns>`, the columns in the order given."""
    bad = [c for c, v in named.items() if not _inside(v, sizes[c])]
    return [f"{aid}: a code out of range in {', '.join(bad)}"] if bad else []


def printed_card(code: int) -> str:
    """cards.md section 4: rank then suit, code 51 `AS`, 34 `10H`."""
    return RANKS[code // 4] + SUITS[code % 4]


def hand_rank(codes: list[int]) -> tuple[int, ...]:
    """cards.md section 5: (category, the ranks compared in order); a larger tuple ranks higher."""
    ranks = [(c % 52) // 4 for c in codes]
    suits = {(c % 52) % 4 for c in codes}
    counts = Counter(ranks)
    # groups by size, then rank, highest first: quads+kicker, trips+pair, pairs+kicker, ... in order
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    top = None
    if len(counts) == 5:
        if max(ranks) - min(ranks) == 4:
            top = max(ranks)
        elif set(ranks) == {12, 0, 1, 2, 3}:
            top = 3  # the wheel: a five-high straight
    flush = len(suits) == 1
    if top is not None:
        return (8 if flush else 4, top)
    if shape[0] == 5:  # a card shown twice (section 6): four of a kind, its kicker that rank
        return (7, ranks[0], ranks[0])
    category = (7 if shape[0] == 4 else 6 if shape[:2] == [3, 2] else 5 if flush else 3 if shape[0] == 3
                else 2 if shape[:2] == [2, 2] else 1 if shape[0] == 2 else 0)
    return (category, *(sorted(ranks, reverse=True) if category == 5 else order))  # a flush: its 5 ranks


def best_rank(codes: list[int]) -> tuple[int, ...]:
    """cards.md section 1, "hold_em": the best hand_rank of the 21 hands of five of seven cards."""
    return max(hand_rank(list(five)) for five in combinations(codes, 5))


def cards_row(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    """One cards area of one row (cards.md section 6): five cards a side, or (`deal` "hold_em") two a
    side with the game's five community cards, each side's best five of seven; (`dealer` "shared") every
    game's five against the one DEALER'S HAND."""
    aid, g, prizes = area["id"], area["games"], area["prizes"]
    hold, one = area.get("deal", "five") == "hold_em", area.get("dealer", "each") == "shared"
    own = 2 if hold else 5
    yours = [named[f"{aid}_yours_{i}"] for i in range(own * g)]
    dealer = [named[f"{aid}_dealer_{i}"] for i in range(5 if one else own * g)]
    board = [named[f"{aid}_community_{i}"] for i in range(5 * g)] if hold else []
    sizes = {c: len(prizes) if "_prize_" in c else 52 for c in named}
    reasons = _out(aid, named, sizes)
    seen = Counter(v for v in yours + dealer + board if _inside(v, 52))
    twice = sorted(c for c, k in seen.items() if k > 1)
    if twice:
        reasons.append(f"{aid}: a card shown twice: {', '.join(printed_card(c) for c in twice)}")
    wins: list[Win] = []
    for k in range(g):
        shared = board[5 * k: 5 * k + 5]
        mine, theirs = yours[own * k: own * k + own] + shared, dealer[0 if one else own * k:][:own] + shared
        rank = best_rank if hold else hand_rank
        a, b = rank([_read(v) for v in mine]), rank([_read(v) for v in theirs])
        if a > b or (a == b and area["ties"] == "win"):
            wins.append((aid, "match", 1, prizes[_box(named[f"{aid}_prize_{k}"], len(prizes))]["code"]))
    return wins, reasons


# poker_hand.md section 5, worst first
POKER_RANKS = ("none", "jacks_or_better", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
               "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind")


def poker_rank(codes: list[int]) -> str:
    """poker_hand.md section 5: the RANK of five cards of the standard deck (a card possibly twice)."""
    category, *ranks = hand_rank(codes)
    if len({c // 4 for c in codes}) == 1:
        return "five_of_a_kind"
    if category == 8 and ranks[0] == 12:
        return "royal_flush"
    if category == 1 and ranks[0] < 9:
        return "none"
    return POKER_RANKS[category]


def poker_hand_row(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    """One poker_hand area of one row (poker_hand.md section 6): the chart's prize for the hand's RANK,
    the JOKER (52) wild at its first showing, the best of the 52 cards in its place, any other showing AS."""
    aid, size = area["id"], 53 if area["joker"] else 52
    cards = list(named.values())
    reasons = _out(aid, named, dict.fromkeys(named, size))
    seen = Counter(v for v in cards if _inside(v, size))
    twice = sorted(c for c, k in seen.items() if k > 1)
    if twice:
        reasons.append(f"{aid}: a card shown twice: "
                       f"{', '.join('JOKER' if c == 52 else printed_card(c) for c in twice)}")
    read = [_read(v) % size for v in cards]
    if 52 in read:
        at = read.index(52)
        read = [51 if c == 52 else c for c in read]
        rank = max((poker_rank(read[:at] + [c] + read[at + 1:]) for c in range(52)), key=POKER_RANKS.index)
    else:
        rank = poker_rank(read)
    paid = {line["hand"]: line["prize"] for line in area["chart"]}
    return ([(aid, "match", 1, paid[rank])] if rank in paid else []), reasons


def duel_row(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    """One yours_beats_theirs area of one row (yours_beats_theirs.md section 5)."""
    aid, n, prizes = area["id"], len(area["numbers"]), area["prizes"]
    reasons = _out(aid, named, {c: len(prizes) if "_prize_" in c else n for c in named})
    wins: list[Win] = []
    for p in range(area["pairs"]):
        y, t = _read(named[f"{aid}_yours_{p}"]), _read(named[f"{aid}_theirs_{p}"])
        if y > t or (y == t and area["ties"] == "win"):
            wins.append((aid, "match", 1, prizes[_box(named[f"{aid}_prize_{p}"], len(prizes))]["code"]))
    return wins, reasons


def prize_box_row(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    """One prize_box area of one row (prize_box.md section 5): rules 1, 2, 3 in that order."""
    aid, s, big_n = area["id"], area["spots"], area["match"]
    d, prizes = len(area["pictures"]), area["prizes"]
    reasons = _out(aid, named, {c: len(prizes) if "_prize_" in c else d for c in named})
    many, two, wins = [], [], []
    for g in range(area["games"]):
        counts = Counter(v for v in (named[f"{aid}_spot_{g * s + j}"] for j in range(s)) if _inside(v, d))
        if any(k > big_n for k in counts.values()):
            many.append(f"{aid}: game {g + 1}: more than {big_n} like pictures")
        matched = sum(k == big_n for k in counts.values())
        if matched >= 2:
            two.append(f"{aid}: game {g + 1}: two matches")
        if matched:
            wins.append((aid, "match", 1, prizes[_box(named[f"{aid}_prize_{g}"], len(prizes))]["code"]))
    return wins, reasons + [", ".join(t) for t in (many, two) if t]


def count_row(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    """One symbol_count area of one row (symbol_count.md section 5): rules 1, 2, 3 in that order."""
    aid, pictures, symbol = area["id"], area["pictures"], area["symbol"]
    spots = [named[f"{aid}_spot_{j}"] for j in range(area["spots"])]
    legend = {e["count"]: e["prize"] for e in area["legend"]}
    c1 = min(legend)
    most = area.get("most_alike", max(1, c1 - 1))
    reasons = []
    if not all(_inside(v, len(pictures)) for v in spots):
        reasons.append(f"{aid}: a spot code out of range ({', '.join(_shown(v) for v in spots)})")
    counts = Counter(pictures[v] for v in spots if v is not None and 0 <= v < len(pictures))
    decoys = [f"{aid}: {p} shown {counts[p]} times, at most {most}" for p in pictures
              if p != symbol and counts[p] > most]
    if decoys:
        reasons.append(", ".join(decoys))
    c = counts[symbol]
    if c >= c1 and c not in legend:
        reasons.append(f"{aid}: {c} x {symbol}: the legend has no prize for {c}")
    return ([(aid, "match", 1, legend[c])] if c in legend else []), reasons


def _columns(area: dict) -> list[str]:
    aid, style = area["id"], area["style"]
    if style == "cards":
        hold, g = area.get("deal", "five") == "hold_em", area["games"]
        own = 2 if hold else 5
        dealt = 5 if area.get("dealer", "each") == "shared" else own * g  # one DEALER'S HAND, or one a game
        return ([f"{aid}_yours_{i}" for i in range(own * g)] + [f"{aid}_dealer_{i}" for i in range(dealt)]
                + [f"{aid}_community_{i}" for i in range(5 * g if hold else 0)]
                + [f"{aid}_prize_{k}" for k in range(g)])
    if style == "poker_hand":
        return [f"{aid}_card_{i}" for i in range(5)]
    if style == "yours_beats_theirs":
        return [f"{aid}_{k}_{p}" for k in ("yours", "theirs", "prize") for p in range(area["pairs"])]
    if style == "prize_box":
        return ([f"{aid}_spot_{j}" for j in range(area["games"] * area["spots"])]
                + [f"{aid}_prize_{g}" for g in range(area["games"])])
    if style in ("symbol_count", "match_n"):
        return [f"{aid}_spot_{j}" for j in range(area["spots"])]
    raise ValueError(f"no third engine for style {style!r}")


def _match_n(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    return match_n_row(area, list(named.values()))


RULES = {"cards": cards_row, "poker_hand": poker_hand_row, "yours_beats_theirs": duel_row,
         "prize_box": prize_box_row,
         "symbol_count": count_row, "match_n": _match_n}


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize (reasons "" when it is legal): each area by its
    style's rules, the row by play.md's (`printed.verdicts`)."""
    parts = [(a, _columns(a), table.select(_columns(a)).rows()) for a in play["areas"]]

    def row(i: int) -> tuple[list[Win], list[str]]:
        wins: list[Win] = []
        reasons: list[str] = []
        for area, cols, rows in parts:
            w, r = RULES[area["style"]](area, dict(zip(cols, rows[i], strict=True)))
            wins += w
            reasons += r
        return wins, reasons

    return verdicts(play, table, (row(i) for i in range(table.height)))
