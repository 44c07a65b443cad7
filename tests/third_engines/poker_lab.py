"""A third engine for the two card mechanics of poker hands, written as an outside test lab would, from
docs/styles/poker_hand.md, docs/styles/cards.md (`deal = "hold_em"`, and `"five"`) and docs/styles/play.md
alone: a hand's RANK (the JOKER the best of what it may stand for; the one-pair line any pair's; with
`five_of_a_kind = false` no five of a kind), a five-card hand's standard value (cards.md section 5) and
the best five of seven, the deck's hands counted per RANK from rank multisets (an independent count of
poker_hand.md section 9), and a pool row judged from the manifest's `play` entry: its wins (by
`joker_multiplier` for a hand showing the JOKER), what it pays and every reason it is illegal, worded as
the contracts word them. It imports neither poolgen nor audit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from math import comb, prod
from typing import Any

RANKS = ("five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better", "none")
PAIRS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
         "kings", "aces")  # the one-pair line `<pair>_or_better` names the lowest pair it pays: rank 0..12
JACKS = 9
JOKER = 52
FACES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = "CDHS"
WHEEL = {12, 0, 1, 2, 3}
Row = dict[str, Any]
Win = dict[str, Any]


def printed(code: int) -> str:
    """A card as printed: `AS`, `10H`, `JOKER`."""
    return "JOKER" if code == JOKER else FACES[code // 4] + SUITS[code % 4]


def code_of(text: str) -> int:
    """The code of a card printed `AS` (or `JOKER`)."""
    return JOKER if text == "JOKER" else FACES.index(text[:-1]) * 4 + SUITS.index(text[-1])


def _in_sequence(ranks: Sequence[int]) -> bool:
    distinct = set(ranks)
    return len(distinct) == 5 and (max(distinct) - min(distinct) == 4 or distinct == WHEEL)


def pair_line(low: int) -> str:
    """The one-pair RANK of a chart whose lowest pair paid is of rank `low` (9: `jacks_or_better`)."""
    return f"{PAIRS[low]}_or_better"


def place(name: str) -> int:
    """A RANK's place in section 5's table, best first (any pair's line the tenth)."""
    return JACKS if name.endswith("_or_better") else RANKS.index(name)


def plain_rank(ranks: Sequence[int], suits: Sequence[int], low: int = JACKS) -> str:
    """poker_hand.md section 5's table, first row that the five cards (ranks 0..12, suits 0..3) are, the
    one-pair line paying a pair of rank `low` or higher; cards may repeat (an illegal row's) and rank as
    their ranks and suits say."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    suited = len(set(suits)) == 1
    if shape[0] == 5:
        return "five_of_a_kind"
    if suited and set(ranks) == {8, 9, 10, 11, 12}:
        return "royal_flush"
    if suited and _in_sequence(ranks):
        return "straight_flush"
    if shape[0] == 4:
        return "four_of_a_kind"
    if shape[:2] == [3, 2]:
        return "full_house"
    if suited:
        return "flush"
    if _in_sequence(ranks):
        return "straight"
    if shape[0] == 3:
        return "three_of_a_kind"
    if shape[:2] == [2, 2]:
        return "two_pair"
    if shape[0] == 2 and max(r for r, n in counts.items() if n == 2) >= low:
        return pair_line(low)
    return "none"


def best(names: Iterable[str]) -> str:
    return min(names, key=place)


def rank(cards: Sequence[int], low: int = JACKS, five: bool = True) -> str:
    """The RANK of five card codes (52 the JOKER): wild at its first showing, every other JOKER an `AS`;
    the wild one the best of the 52 cards of the standard deck in its place, one the hand shows included;
    with `five` false (a spec's `five_of_a_kind = false`) a five_of_a_kind so found is four_of_a_kind."""
    if JOKER not in cards:
        name = plain_rank([c // 4 for c in cards], [c % 4 for c in cards], low)
    else:
        wild = list(cards).index(JOKER)
        rest = [51 if c == JOKER else c for i, c in enumerate(cards) if i != wild]
        name = _wild(rest, low, range(52))
    return "four_of_a_kind" if name == "five_of_a_kind" and not five else name


def rank_unshown(cards: Sequence[int], low: int = JACKS) -> str:
    """section 1's other reading of `five_of_a_kind = false`, for a legal hand: the JOKER stands only for
    a card the hand does not show (the best of the 48 others in its place)."""
    rest = [c for c in cards if c != JOKER]
    return _wild(rest, low, [s for s in range(52) if s not in rest])


def _wild(rest: list[int], low: int, stands: Iterable[int]) -> str:
    """The best RANK of the four cards `rest` and the JOKER standing for each card of `stands`."""
    return best(plain_rank([c // 4 for c in [*rest, s]], [c % 4 for c in [*rest, s]], low) for s in stands)


def counts(joker: bool, low: int = JACKS, five: bool = True) -> dict[str, tuple[int, int]]:
    """Per RANK: (hands of the deck, of which show the JOKER), counted from the multisets of ranks (each
    weighed by its ways to choose suits, a flush's 4 apart), not by dealing every hand; the one-pair RANK
    paying a pair of rank `low` or higher, and with `five` false five_of_a_kind counted as four_of_a_kind."""
    out = {r: [0, 0] for r in (*RANKS[:JACKS], pair_line(low), "none")}
    for ranks in combinations_with_replacement(range(13), 5):
        ways = prod(comb(4, n) for n in Counter(ranks).values())
        if ways == 0:
            continue
        if len(set(ranks)) == 5:
            out[plain_rank(ranks, [0] * 5, low)][0] += 4
            ways -= 4
        out[plain_rank(ranks, [0, 1, 0, 0, 0], low)][0] += ways
    if joker:
        for four in combinations_with_replacement(range(13), 4):
            ways = prod(comb(4, n) for n in Counter(four).values())
            if ways == 0:
                continue
            mixed = [0, 1, 0, 0]
            patterns = [([0] * 4, 4), (mixed, ways - 4)] if len(set(four)) == 4 else [(mixed, ways)]
            for suits, n in patterns:
                name = best(plain_rank([*four, r], [*suits, s], low) for r in range(13) for s in range(4))
                name = "four_of_a_kind" if name == "five_of_a_kind" and not five else name
                out[name][0] += n
                out[name][1] += n
    return {r: (a, b) for r, (a, b) in out.items()}


def value(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """cards.md section 5: (category 0..8, the ranks it compares by, in order) of five card codes."""
    ranks = [c // 4 for c in cards]
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    by = tuple(r for _, r in groups)
    shape = [n for n, _ in groups]
    flush = len({c % 4 for c in cards}) == 1
    straight = _in_sequence(ranks)
    top = 3 if set(ranks) == WHEEL else max(ranks)
    if straight and flush:
        return 8, (top,)
    if shape[0] >= 4:  # five of one rank (a card shown twice): four of a kind, its kicker that rank
        return 7, (by[0], by[-1] if len(by) > 1 else by[0])
    if shape[:2] == [3, 2]:
        return 6, by
    if flush:
        return 5, tuple(sorted(ranks, reverse=True))
    if straight:
        return 4, (top,)
    return {3: 3, 2: 2 if shape[:2] == [2, 2] else 1, 1: 0}[shape[0]], by


def best_of(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The best value of any five of the cards (cards.md section 1)."""
    return max(value(five) for five in combinations(cards, 5))


def _read(value_: int | None) -> int:
    if value_ is None:
        return -2
    return -1 if value_ < 0 else min(value_, 9999)


def _bad(value_: int | None, limit: int) -> bool:
    return value_ is None or value_ < 0 or value_ >= limit


def _shown_twice(area: str, values: list[int | None], limit: int) -> list[str]:
    seen = Counter(v for v in values if not _bad(v, limit))
    twice = sorted(c for c, n in seen.items() if n > 1)
    return [f"{area}: a card shown twice: {', '.join(printed(c) for c in twice)}"] if twice else []


def _out_of_range(area: str, row: Row, columns: list[str], limits: list[int]) -> list[str]:
    bad = [c for c, lim in zip(columns, limits, strict=True) if _bad(row[c], lim)]
    return [f"{area}: a code out of range in {', '.join(bad)}"] if bad else []


def _win(area: str, prize: str, cents: int, by: int = 1) -> Win:
    return {"area": area, "how": "match", "by": by, "prize": prize, "prize_cents": cents}


def chart_pair(chart: list[dict]) -> int:
    """The rank of the lowest pair a chart pays (section 2: its one-pair line); jacks when it pays none
    (no pair then wins: the line is not in the chart)."""
    lines = [c["hand"] for c in chart if c["hand"].endswith("_or_better")]
    return PAIRS.index(lines[0].removesuffix("_or_better")) if lines else JACKS


def poker_hand_row(entry: dict, row: Row) -> tuple[list[Win], list[str]]:
    """poker_hand.md section 6: the area's wins and its reasons, rule order."""
    area, size = entry["id"], 53 if entry["joker"] else 52
    columns = [f"{area}_card_{i}" for i in range(5)]
    reasons = _out_of_range(area, row, columns, [size] * 5)
    reasons += _shown_twice(area, [row[c] for c in columns], size)
    cards = [_read(row[c]) % size for c in columns]
    name = rank(cards, chart_pair(entry["chart"]), entry.get("five_of_a_kind", True))
    cents = {p["code"]: p["cents"] for p in entry["prizes"]}
    paid = [p["prize"] for p in entry["chart"] if p["hand"] == name]
    by = entry.get("joker_multiplier", 1) if JOKER in cards else 1
    wins = [_win(area, code, cents[code], by) for code in paid]
    return wins, reasons


def cards_columns(entry: dict) -> tuple[list[str], list[str], list[str], list[str]]:
    """cards.md section 4: YOUR cards, the DEALER'S (with `dealer` "shared" its one hand of 5), the
    COMMUNITY cards (none for "five"), the PRIZES."""
    area, g = entry["id"], entry["games"]
    each = 2 if entry.get("deal", "five") == "hold_em" else 5
    dealt = 5 if entry.get("dealer", "each") == "shared" else each * g
    community = [f"{area}_community_{i}" for i in range(5 * g)] if each == 2 else []
    return ([f"{area}_yours_{i}" for i in range(each * g)], [f"{area}_dealer_{i}" for i in range(dealt)],
            community, [f"{area}_prize_{i}" for i in range(g)])


def cards_row(entry: dict, row: Row) -> tuple[list[Win], list[str]]:
    """cards.md section 6: each game's win and the area's reasons, rule order (with `dealer` "shared" every
    game's YOUR HAND against the one DEALER'S HAND)."""
    area, g, prizes = entry["id"], entry["games"], entry["prizes"]
    yours, dealer, community, prize = cards_columns(entry)
    deck = yours + dealer + community
    reasons = _out_of_range(area, row, deck + prize, [52] * len(deck) + [len(prizes)] * g)
    reasons += _shown_twice(area, [row[c] for c in deck], 52)
    each, shared = len(yours) // g, entry.get("dealer", "each") == "shared"
    wins = []
    for game in range(g):
        def hand(cols: list[str], n: int, at: int = game) -> list[int]:
            return [_read(row[c]) % 52 for c in cols[n * at:n * at + n]]
        board = hand(community, 5)
        theirs_dealt = hand(dealer, each, 0 if shared else game)
        mine, theirs = best_of(hand(yours, each) + board), best_of(theirs_dealt + board)
        if mine > theirs or (mine == theirs and entry["ties"] == "win"):
            p = prizes[min(max(_read(row[prize[game]]), 0), len(prizes) - 1)]
            wins.append(_win(area, p["code"], p["cents"]))
    return wins, reasons


AREAS = {"poker_hand": poker_hand_row, "cards": cards_row}


def judge_row(play: dict, row: Row) -> tuple[list[Win], str, int]:
    """play.md, evaluating a row: its wins, its reasons joined with "; " ("" when legal), what it pays (of
    a play whose areas are poker_hand and cards alone: the lab knows no other style)."""
    wins: list[Win] = []
    reasons: list[str] = []
    for entry in play["areas"]:
        got, why = AREAS[entry["style"]](entry, row)
        wins += got
        reasons += why
    pays = sum(w["by"] * w["prize_cents"] for w in wins)
    if len(wins) > play["max_wins"]:
        reasons.append(f"{len(wins)} wins, at most {play['max_wins']}")
    tiers = {t["id"]: t["wins"] for t in play["tiers"]}
    key = Counter((w["area"], w["how"], w["by"], w["prize"]) for w in wins)
    if row["tier"] not in tiers:
        reasons.append(f"tier '{row['tier']}' is not in the manifest's play entry")
    elif key != Counter((w["area"], w["how"], w["by"], w["prize"]) for w in tiers[row["tier"]]):
        tier = row["tier"]
        reasons.append(f"its wins are not its tier '{tier}''s ({len(wins)} win(s) paying {pays} cents)")
    return wins, "; ".join(reasons), pays


def judge(play: dict, table: Any) -> dict[int, tuple[str, int]]:
    """Every row (a polars table of a pool file) that is illegal or does not pay its stored prize, by its
    position: (its reasons, what it pays)."""
    out = {}
    for row in table.iter_rows(named=True):
        _, reasons, pays = judge_row(play, row)
        if reasons or pays != row["prize_cents"]:
            out[row["position"]] = (reasons, pays)
    return out
