"""Cards (contract: docs/styles/cards.md): G games, each YOUR HAND of 5 cards against the DEALER'S
HAND of 5 cards with a PRIZE, every card of the area from one standard 52-card deck; a game wins its
PRIZE when YOUR HAND ranks above the dealer's in standard five-card poker (section 5), or ties it
where the spec says ties win. A card is a code 0..51: rank code // 4 (2 .. A), suit code % 4."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import (
    AreaReading,
    Cell,
    Groups,
    Section,
    Win,
    pool_prize_mix,
    prize_entry,
    shown_prize_win,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations

FIELDS: frozenset[str] = frozenset({"games", "prizes", "ties"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_yours_", ("cards",)), ("_dealer_", ("cards",)),
                                                  ("_prize_", ("prizes",)))
DECK, HAND, MAX_GAMES = 52, 5, 5
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_WORDS = ("TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN",
              "KING", "ACE")
SUITS = ("C", "D", "H", "S")
SUIT_WORDS = ("CLUBS", "DIAMONDS", "HEARTS", "SPADES")
CATEGORIES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush")


def card_text(code: int) -> str:
    """A card as printed: rank then suit (contract section 4), e.g. 51 -> 'AS'."""
    return RANKS[code // 4] + SUITS[code % 4]


CARDS: tuple[Symbol, ...] = tuple(Symbol(-1, "card", card_text(c), card_text(c),
                                         f"{RANK_WORDS[c // 4]} {SUIT_WORDS[c % 4]}") for c in range(DECK))


@dataclass(frozen=True)
class Params:
    games: int
    prizes: tuple[Symbol, ...]
    ties_win: bool
    cards: tuple[Symbol, ...] = CARDS  # the deck, code order (contract section 4)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    games = ctx.whole(table, "games", where, 1, high=MAX_GAMES)
    ties = r.get(table, "ties", where, str)
    if ties not in ("win", "lose"):
        raise r.fail(f"{where}.ties", f"\"win\" or \"lose\", not {ties!r}")
    prizes = ctx.group(table, "prizes", where, "prizes")
    if len(prizes) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    return Params(games, prizes, ties == "win")


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="a cards win is \"match\" (a game wins its prize)",
                           no_by="a game wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.games:
        return f"{len(wins)} wins, but the area has {params.games} games (one win each)"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"games": params.games, "deck": "standard-52", "ranking": "poker-5-card-high",
            "prizes": prize_entry(params.prizes), "ties": "win" if params.ties_win else "lose"}


def columns(area_id: str, params: Params) -> list[str]:
    cards = [f"{area_id}_{part}_{i}" for part in ("yours", "dealer") for i in range(HAND * params.games)]
    return cards + [f"{area_id}_prize_{g}" for g in range(params.games)]


def hand_scores(cards: np.ndarray) -> np.ndarray:
    """The strength of each hand of a (..., 5) array of card codes as one int64: a higher score is a
    better hand, equal scores tie (contract section 5). The score is the category times 13**5 plus
    the ranks in comparison order read as a base-13 number."""
    rank, suit = cards // 4 % 13, cards % 4
    count = (rank[..., :, None] == rank[..., None, :]).sum(axis=-1)  # how many of each card's rank
    order = np.sort(count * 16 + rank, axis=-1)[..., ::-1]  # by (count, rank), highest first
    ranks, counts = order % 16, order // 16
    top = counts[..., 0]
    second = counts[..., 2]  # the second group's size when the first is a pair or trips (2 or 1)
    flush = (suit == suit[..., :1]).all(axis=-1)
    distinct = top == 1
    wheel = distinct & (ranks[..., 0] == 12) & (ranks[..., 1] == 3)
    straight = distinct & ((ranks[..., 0] - ranks[..., 4] == 4) | wheel)
    category = np.select(
        [straight & flush, top == 4, (top == 3) & (counts[..., 3] == 2), flush, straight, top == 3,
         (top == 2) & (second == 2), top == 2],
        [8, 7, 6, 5, 4, 3, 2, 1], 0)
    high = np.where(wheel, 3, ranks[..., 0])
    weights = 13 ** np.arange(4, -1, -1, dtype=np.int64)
    kicker = (ranks.astype(np.int64) * weights).sum(axis=-1)
    tiebreak = np.where(straight, high.astype(np.int64) * weights[0], kicker)
    return np.asarray(category.astype(np.int64) * 13 ** 5 + tiebreak, dtype=np.int64)


# The same scores by table (what lay_out's many draws use): a hand's ranks as a product of primes (one
# product per multiset of ranks), looked up among the 6,175 multisets' products, each with its score
# computed by hand_scores above, once (and a second score for five distinct ranks of one suit).
_PRIMES = np.array([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41], dtype=np.int64)
_TABLES: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sorted products, the score of each multiset's hand not of one suit, of one suit), made once."""
    if not _TABLES:
        multisets = [m for m in combinations_with_replacement(range(13), HAND) if len(set(m)) > 1]
        ranks = np.array(multisets, dtype=np.int64)
        suits = np.arange(HAND) % 4  # suits 0,1,2,3,0: equal ranks never share a suit, never one suit
        products = _PRIMES[ranks].prod(axis=1)
        order = np.argsort(products)
        plain, suited = hand_scores(ranks * 4 + suits), hand_scores(ranks * 4)
        _TABLES.append((products[order], plain[order], suited[order]))
    return _TABLES[0]


def table_scores(cards: np.ndarray) -> np.ndarray:
    """hand_scores(cards), the same int64 scores, by table lookup: a (..., 5) array of card codes."""
    products, plain, suited = _tables()
    cards = np.asarray(cards)
    rank = cards >> 2
    p = _PRIMES[rank[..., 0]]
    for i in range(1, HAND):
        p = p * _PRIMES[rank[..., i]]
    suit = cards & 3
    flush = suit[..., 0] == suit[..., 1]
    for i in range(2, HAND):
        flush &= suit[..., 0] == suit[..., i]
    at = np.searchsorted(products, p)
    return np.asarray(np.where(flush, suited[at], plain[at]), dtype=np.int64)


def category_of(score: int) -> str:
    return CATEGORIES[score // 13 ** 5]


def game_wins(yours: np.ndarray, dealer: np.ndarray, ties_win: bool) -> np.ndarray:
    """(rows, G) whether each game wins, from (rows, G, 5) hands."""
    a, b = table_scores(yours), table_scores(dealer)
    return np.asarray((a > b) | ((a == b) & ties_win), dtype=bool)


def _all_games_as_wanted(dealt: np.ndarray, want: np.ndarray, ties_win: bool) -> np.ndarray:
    """(game_wins(dealt's hands) == want).all(axis=1), game by game: a deal is scored no further once
    one of its games is not as wanted (about half the deals at each game)."""
    alive = np.arange(dealt.shape[0])
    for g in range(dealt.shape[1]):
        hands = dealt[alive, g]
        alive = alive[game_wins(hands[:, 0], hands[:, 1], ties_win) == want[alive, g]]
    ok = np.zeros(dealt.shape[0], dtype=bool)
    ok[alive] = True
    return ok


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 8, per tier in pool order, vectorised over its rows."""
    g_ = params.games
    index = {s.code: i for i, s in enumerate(params.prizes)}
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    deal = np.zeros((n, g_, 2, HAND), dtype=np.int64)
    prize = np.zeros((n, g_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        which = row_permutations(stream, k, g_)
        box = np.searchsorted(cumulative, integers(stream, int(cumulative[-1]), size=k * g_).reshape(k, g_),
                              side="right")
        want = np.zeros((k, g_), dtype=bool)
        want[np.arange(k)[:, None], which[:, :len(wins)]] = True
        hands = np.zeros((k, g_, 2, HAND), dtype=np.int64)
        pending = np.arange(k)
        while pending.size:
            dealt = row_permutations(stream, pending.size, DECK)[:, :2 * HAND * g_].reshape(-1, g_, 2, HAND)
            ok = _all_games_as_wanted(dealt, want[pending], params.ties_win)
            hands[pending[ok]] = dealt[ok]
            pending = pending[~ok]
        for i, w in enumerate(wins):
            box[np.arange(k), which[:, i]] = index[w.prize.code]
        deal[rows], prize[rows] = hands, box
    flat = np.concatenate([deal[:, :, 0].reshape(n, -1), deal[:, :, 1].reshape(n, -1), prize],
                          axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(flat[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _hand(area_id: str, part: str, g: int, row: Mapping[str, Any]) -> list[int]:
    return [int(row[f"{area_id}_{part}_{HAND * g + k}"]) for k in range(HAND)]


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """Two sections per game: YOUR HAND, then the DEALER'S HAND with the game's PRIZE."""
    sections: list[Section] = []
    for g in range(params.games):
        for part, title in (("yours", "YOUR HAND"), ("dealer", "DEALER'S HAND")):
            cells: list[Cell] = []
            for k, c in enumerate(_hand(area_id, part, g, row)):
                s = params.cards[c] if 0 <= c < DECK else None
                cells.append((f"{area_id}_{part}_{HAND * g + k}", s.symbol if s else "?",
                              s.caption if s else "", None, None))
            if part == "dealer":
                z = int(row[f"{area_id}_prize_{g}"])
                p = params.prizes[z] if 0 <= z < len(params.prizes) else None
                cells.append((f"{area_id}_prize_{g}", p.symbol if p else "?",
                               f"PRIZE: {p.caption if p else ''}", None, None))
            sections.append((f"GAME {g + 1}: {title}" + (" (BEAT IT, WIN PRIZE)" if part == "dealer" else ""),
                             cells))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 6), and the cells of the winning games."""
    lines, winning = [], set()
    for g in range(params.games):
        y, d = _hand(area_id, "yours", g, row), _hand(area_id, "dealer", g, row)
        z = int(row[f"{area_id}_prize_{g}"])
        if not all(0 <= c < DECK for c in y + d) or not 0 <= z < len(params.prizes):
            continue
        a, b = (int(s) for s in hand_scores(np.array([y, d])))
        if a > b or params.ties_win and a == b:
            winning |= {f"{area_id}_{part}_{HAND * g + k}" for part in ("yours", "dealer")
                        for k in range(HAND)}
            winning.add(f"{area_id}_prize_{g}")
            verb = "ties" if a == b else "beats"
            lines.append(f"{area_id}, game {g + 1}: {' '.join(map(card_text, y))} ({category_of(a)}) {verb} "
                         f"{' '.join(map(card_text, d))} ({category_of(b)}): wins "
                         f"{fmt_cents(params.prizes[z].cents or 0, currency)}.")
    return lines, winning
