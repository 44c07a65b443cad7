"""A third re-evaluator of `cards` deals (five-card, hold 'em, a shared dealer), written from
docs/styles/cards.md and docs/styles/play.md alone (not from poolgen/ or audit/, nor the other third
engines): a hand's value under section 5 as a tuple that compares as the ranking does, each side's best
five of seven (section 1), each game's win (section 6), and a row's wins and amount as the run's own
files (manifest.json's `play`, the pool file's columns) state them; held to the rows' tiers and stored
prizes by tests/third_engines/test_deals_agree.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

Value = tuple[int, ...]

# the five-card categories of section 5, lowest first
CATEGORIES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush")
WHEEL = (12, 3, 2, 1, 0)  # A-2-3-4-5, ranks highest first: a straight whose top card is the 5 (rank 3)


def value(cards: Sequence[int]) -> Value:
    """Five cards' value (section 5): the category, then the ranks that order hands within it, in the
    order the section names them. Two hands tie exactly when their values are equal."""
    return _value(tuple(sorted((c // 4 for c in cards), reverse=True)), len({c % 4 for c in cards}) == 1)


@cache
def _value(ranks: tuple[int, ...], flush: bool) -> Value:
    """The value of five cards of these ranks (highest first), of one suit or not: suits never rank."""
    top = -1
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif tuple(ranks) == WHEEL:
        top = 3
    if top >= 0:
        return (8 if flush else 4, top)
    if flush:
        return (5, *ranks)
    # groups by size, then rank, largest first: quads/trips/pairs before their kickers
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    sizes = tuple(n for _, n in groups)
    order = tuple(r for r, _ in groups)
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[sizes]
    return (category, *order)


def best(seven: Sequence[int]) -> Value:
    """The highest value of the 21 hands of five of seven cards (section 1). (As `value` of each, faster:
    the cards taken highest code first, so each hand's ranks come highest first; a hand is a flush only
    when the seven hold five of a suit.)"""
    cards = sorted(seven, reverse=True)
    if max(Counter(c % 4 for c in cards).values()) < 5:
        return max(_value(h, False) for h in combinations(tuple(c // 4 for c in cards), 5))
    return max(_value(tuple(c // 4 for c in h), len({c % 4 for c in h}) == 1) for h in combinations(cards, 5))


def game_wins(area: dict, row: dict) -> list[int]:
    """The games (0-based, in order) that the row's area wins (section 6): YOUR hand above the DEALER'S,
    or equal to it where `ties` is "win"."""
    aid, g = area["id"], area["games"]
    hold = area.get("deal", "five") == "hold_em"
    shared = area.get("dealer", "each") == "shared"
    each = 2 if hold else 5
    yours = [row[f"{aid}_yours_{i}"] for i in range(each * g)]
    dealer = [row[f"{aid}_dealer_{i}"] for i in range(5 if shared else each * g)]
    won = []
    for k in range(g):
        mine = yours[each * k: each * k + each]
        theirs = dealer[:5] if shared else dealer[each * k: each * k + each]
        if hold:
            board = [row[f"{aid}_community_{i}"] for i in range(5 * k, 5 * k + 5)]
            a, b = best(mine + board), best(theirs + board)
        else:
            a, b = value(mine), value(theirs)
        if a > b or (a == b and area["ties"] == "win"):
            won.append(k)
    return won


def cards_shown(area: dict, row: dict) -> list[int]:
    """Every card code of the area's row (section 4's card columns)."""
    aid, g = area["id"], area["games"]
    hold = area.get("deal", "five") == "hold_em"
    shared = area.get("dealer", "each") == "shared"
    n_yours = (2 if hold else 5) * g
    n_dealer = 5 if shared else n_yours
    cols = ([f"{aid}_yours_{i}" for i in range(n_yours)] + [f"{aid}_dealer_{i}" for i in range(n_dealer)]
            + ([f"{aid}_community_{i}" for i in range(5 * g)] if hold else []))
    return [row[c] for c in cols]


def wins(area: dict, row: dict) -> list[tuple[str, str, int, str]]:
    """The area's wins as play.md's multiset items (area, how, by, prize code): one a winning game."""
    codes = [p["code"] for p in area["prizes"]]
    return [(area["id"], "match", 1, codes[row[f"{area['id']}_prize_{k}"]]) for k in game_wins(area, row)]


def tier_wins(play: dict) -> dict[str, list[tuple[str, str, int, str]]]:
    """Each tier's wins as the manifest's `play.tiers` states them, sorted (a multiset)."""
    return {t["id"]: sorted((w["area"], w["how"], w.get("by", 1), w["prize"]) for w in t["wins"])
            for t in play["tiers"]}


def judge(play: dict, row: dict) -> list[str]:
    """What is wrong with one row of a play of cards areas alone (empty: it is legal and pays its stored
    prize): a card shown twice, wins other than its tier's, an amount other than the one stored."""
    found: list[str] = []
    shown: list[tuple[str, str, int, str]] = []
    cents = 0
    for area in play["areas"]:
        assert area["style"] == "cards", area["style"]
        cards = cards_shown(area, row)
        if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
            found.append(f"{area['id']}: cards {sorted(cards)}")
        got = wins(area, row)
        shown += got
        value_of = {p["code"]: p["cents"] for p in area["prizes"]}
        cents += sum(value_of[w[3]] for w in got)
    if sorted(shown) != tier_wins(play)[row["tier"]]:
        found.append(f"wins {sorted(shown)}, tier {row['tier']!r}")
    if cents != row["prize_cents"]:
        found.append(f"pays {cents}, stores {row['prize_cents']}")
    return found


def census() -> tuple[dict[str, int], int]:
    """Every one of the C(52, 5) = 2,598,960 five-card hands valued by `value`, counted by category, and
    the number of distinct values (hands that tie exactly are one value): by rank multiset, each valued
    on its cards, weighted by the number of hands of those ranks (a product of C(4, n) over its ranks;
    five distinct ranks: 4 of the 1,024 suitings are a flush)."""
    from itertools import combinations_with_replacement
    from math import comb, prod
    counts: Counter[str] = Counter()
    values: set[Value] = set()
    for ranks in combinations_with_replacement(range(13), 5):
        n = Counter(ranks)
        if max(n.values()) > 4:
            continue
        # each rank's cards in suits 0, 1, ...: never a flush unless five distinct ranks, suited next
        cards = [4 * r + s for r, k in sorted(n.items()) for s in range(k)]
        if len(n) == 5:
            suited = [4 * r for r in ranks]
            offsuit = suited[:4] + [suited[4] + 1]
            for hand, ways in ((suited, 4), (offsuit, 4 ** 5 - 4)):
                v = value(hand)
                counts[CATEGORIES[v[0]]] += ways
                values.add(v)
            continue
        v = value(cards)
        counts[CATEGORIES[v[0]]] += prod(comb(4, k) for k in n.values())
        values.add(v)
    return dict(counts), len(values)


def census7() -> tuple[dict[str, int], int]:
    """Every one of the C(52, 7) = 133,784,560 seven-card sets valued by `best` (section 1's best five of
    seven), counted by category, and the number of distinct values. A set with five or more cards of one
    suit (one suit at most) is valued by those suited ranks alone: its best hand is a flush or a straight
    flush, as its other two cards at most make three of a kind; C(39, 7 - k) sets share k suited ranks,
    in each of 4 suits. Any other set is valued by its rank multiset, dealt in suits that make no flush,
    and counted as the suitings of its ranks less those with five of a suit."""
    from itertools import combinations_with_replacement
    from math import comb, prod
    counts: Counter[str] = Counter()
    values: set[Value] = set()
    for k in (5, 6, 7):
        for suited in combinations(range(13), k):
            v = best([4 * r for r in suited] + [4 * r + 1 for r in range(7 - k)])
            counts[CATEGORIES[v[0]]] += 4 * comb(39, 7 - k)
            values.add(v)
    for ranks in combinations_with_replacement(range(13), 7):
        n = Counter(ranks)
        if max(n.values()) > 4:
            continue
        cards = [4 * r + (i % 4) for i, r in enumerate(ranks)]
        flushed = 0 if len(n) < 5 else 4 * sum(
            prod(comb(3, n[r] - 1) for r in s) * prod(comb(3, n[r]) for r in n if r not in s)
            for size in (5, 6, 7) for s in combinations(sorted(n), size))
        v = best(cards)
        counts[CATEGORIES[v[0]]] += prod(comb(4, c) for c in n.values()) - flushed
        values.add(v)
    return dict(counts), len(values)
