"""Cards (contract: docs/styles/cards.md): G games, each YOUR HAND against the DEALER'S HAND with a
PRIZE, every card of the area from one standard 52-card deck: `deal = "five"`, 5 cards each; `"hold_em"`,
2 cards each and 5 COMMUNITY cards, each side's hand its best five of seven; `dealer = "shared"`, G YOUR
HANDS against ONE DEALER'S HAND (section 1, Poker Night's). A game wins its PRIZE when
YOUR HAND ranks above the dealer's in standard five-card poker (section 5), or ties it where the spec
says ties win. A card is a code 0..51: rank code // 4 (2 .. A), suit code % 4."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
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

FIELDS: frozenset[str] = frozenset({"games", "prizes", "ties", "deal", "dealer"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_yours_", ("cards",)), ("_dealer_", ("cards",)),
                                                  ("_community_", ("cards",)), ("_prize_", ("prizes",)))
OPTIONAL_SPOTS = ("_community_",)  # a hold_em area's only (poolgen/game/spots.py)
DECK, HAND, MAX_GAMES = 52, 5, 5
MAX_SHARED = 9  # dealer = "shared": 5 + 5 G cards of the 52 (contract section 2)
HOLE = 2  # a hold_em side's own cards; the game's community cards are HAND
DEALS = ("five", "hold_em")
DEALERS = ("each", "shared")
SEVEN_CHOOSE_FIVE = np.array(list(combinations(range(HOLE + HAND), HAND)), dtype=np.int64)  # (21, 5)
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
    hold_em: bool = False  # `deal = "hold_em"` (contract section 1)
    shared: bool = False  # `dealer = "shared"`: one DEALER'S HAND for every game (contract section 1)

    @property
    def own(self) -> int:
        """The cards each side holds in a game: 5, or a hold_em side's 2."""
        return HOLE if self.hold_em else HAND

    @property
    def per_game(self) -> int:
        """The cards a game deals: 10, or 9 (2 + 2 + 5 community), or with a shared dealer YOUR 5 alone."""
        return HAND if self.shared else 2 * self.own + (HAND if self.hold_em else 0)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    dealer = r.get(table, "dealer", where, str, required=False)
    if dealer is not None and dealer not in DEALERS:
        raise r.fail(f"{where}.dealer", f"\"each\" or \"shared\", not {dealer!r}")
    shared = dealer == "shared"
    games = ctx.whole(table, "games", where, 1, high=MAX_SHARED if shared else MAX_GAMES)
    ties = r.get(table, "ties", where, str)
    if ties not in ("win", "lose"):
        raise r.fail(f"{where}.ties", f"\"win\" or \"lose\", not {ties!r}")
    prizes = ctx.group(table, "prizes", where, "prizes")
    if len(prizes) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    deal = r.get(table, "deal", where, str, required=False)
    if deal is not None and deal not in DEALS:
        raise r.fail(f"{where}.deal", f"\"five\" or \"hold_em\", not {deal!r}")
    if shared and deal == "hold_em":
        raise r.fail(f"{where}.dealer", "\"shared\" plays five-card hands, not deal = \"hold_em\"")
    return Params(games, prizes, ties == "win", hold_em=deal == "hold_em", shared=shared)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="a cards win is \"match\" (a game wins its prize)",
                           no_by="a game wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.games:
        return f"{len(wins)} wins, but the area has {params.games} games (one win each)"
    return None


def entry(params: Params) -> dict[str, Any]:
    deal = {"deal": "hold_em"} if params.hold_em else {}  # "five" left out: the entry as before `deal`
    deal |= {"dealer": "shared"} if params.shared else {}  # "each" left out, as "five"
    return {"games": params.games, "deck": "standard-52", "ranking": "poker-5-card-high",
            "prizes": prize_entry(params.prizes), "ties": "win" if params.ties_win else "lose"} | deal


def columns(area_id: str, params: Params) -> list[str]:
    own = params.own * params.games
    if params.shared:
        return ([f"{area_id}_yours_{i}" for i in range(own)] + [f"{area_id}_dealer_{i}" for i in range(HAND)]
                + [f"{area_id}_prize_{g}" for g in range(params.games)])
    cards = [f"{area_id}_{part}_{i}" for part in ("yours", "dealer") for i in range(own)]
    if params.hold_em:
        cards += [f"{area_id}_community_{i}" for i in range(HAND * params.games)]
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


def best_scores(seven: np.ndarray) -> np.ndarray:
    """The score of each (..., 7) array of cards' best five-card hand (contract section 1, "hold_em"):
    the highest of its 21 five-card hands' scores."""
    return np.asarray(table_scores(np.asarray(seven)[..., SEVEN_CHOOSE_FIVE]).max(axis=-1), dtype=np.int64)


def sides(params: Params, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(YOUR hands, the DEALER'S) of (..., per_game) games' cards as dealt (contract section 8): five
    cards each, or a hold_em side's two with the game's five community cards, seven."""
    if not params.hold_em:
        return games[..., :HAND], games[..., HAND:2 * HAND]
    board = games[..., 2 * HOLE:]
    return (np.concatenate([games[..., :HOLE], board], axis=-1),
            np.concatenate([games[..., HOLE:2 * HOLE], board], axis=-1))


def game_scores(params: Params, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(YOUR hands' scores, the DEALER'S) of a (..., per_game) array of games' cards as dealt."""
    yours, dealer = sides(params, games)
    score = best_scores if params.hold_em else table_scores
    return score(yours), score(dealer)


def game_wins(params: Params, games: np.ndarray) -> np.ndarray:
    """Whether each game wins (contract section 6), from a (..., per_game) array of games' cards."""
    a, b = game_scores(params, games)
    return np.asarray((a > b) | ((a == b) & params.ties_win), dtype=bool)


def _all_games_as_wanted(dealt: np.ndarray, want: np.ndarray, params: Params) -> np.ndarray:
    """(game_wins(dealt) == want).all(axis=1), game by game: a deal is scored no further once one of
    its games is not as wanted (about half the deals at each game)."""
    alive = np.arange(dealt.shape[0])
    for g in range(dealt.shape[1]):
        alive = alive[game_wins(params, dealt[alive, g]) == want[alive, g]]
    ok = np.zeros(dealt.shape[0], dtype=bool)
    ok[alive] = True
    return ok


def shared_wins(params: Params, dealt: np.ndarray) -> np.ndarray:
    """Whether each game wins (contract section 6), (k, G), of (k, 5 + 5 G) deals of `dealer = "shared"`
    in section 8's order: the DEALER'S HAND, then game g's YOUR HAND at 5 + 5g."""
    dealer = table_scores(dealt[:, :HAND])[:, None]
    yours = table_scores(dealt[:, HAND:].reshape(dealt.shape[0], -1, HAND))
    return np.asarray((yours > dealer) | ((yours == dealer) & params.ties_win), dtype=bool)


def _shared_deals(params: Params, want: np.ndarray, stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    """(the DEALER'S HANDS (k, 5), YOUR HANDS (k, G, 5)) of contract section 8, step 3 with `dealer =
    "shared"`: deals until the number of games won is the number wanted, then the winning hands placed
    in the wanted games (both in increasing order), the losing hands in the others."""
    k, g_ = want.shape
    need = want.sum(axis=1)
    kept = np.zeros((k, HAND * (g_ + 1)), dtype=np.int64)
    pending = np.arange(k)
    while pending.size:
        dealt = row_permutations(stream, pending.size, DECK)[:, :HAND * (g_ + 1)]
        ok = shared_wins(params, dealt).sum(axis=1) == need[pending]
        kept[pending[ok]] = dealt[ok]
        pending = pending[~ok]
    rows = np.arange(k)[:, None]
    source = np.argsort(~shared_wins(params, kept), axis=1, kind="stable")  # the winning hands first
    target = np.argsort(~want, axis=1, kind="stable")  # the wanted games first
    hands = kept[:, HAND:].reshape(k, g_, HAND)
    placed = np.empty_like(hands)
    placed[rows, target] = hands[rows, source]
    return kept[:, :HAND], placed


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 8, per tier in pool order, vectorised over its rows."""
    g_, per = params.games, params.per_game
    index = {s.code: i for i, s in enumerate(params.prizes)}
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    deal = np.zeros((n, g_, per), dtype=np.int64)
    dealer = np.zeros((n, HAND), dtype=np.int64)  # dealer = "shared": its one hand a row
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
        hands = np.zeros((k, g_, per), dtype=np.int64)
        pending = np.arange(k)
        if params.shared:
            dealer[rows], hands = _shared_deals(params, want, stream)
            pending = pending[:0]
        while pending.size:
            dealt = row_permutations(stream, pending.size, DECK)[:, :per * g_].reshape(-1, g_, per)
            ok = _all_games_as_wanted(dealt, want[pending], params)
            hands[pending[ok]] = dealt[ok]
            pending = pending[~ok]
        for i, w in enumerate(wins):
            box[np.arange(k), which[:, i]] = index[w.prize.code]
        deal[rows], prize[rows] = hands, box
    own = params.own
    parts = [deal[:, :, :own], deal[:, :, own:2 * own]] + ([deal[:, :, 2 * own:]] if params.hold_em else [])
    if params.shared:
        parts = [deal, dealer]
    flat = np.concatenate([p.reshape(n, -1) for p in parts] + [prize], axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(flat[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _parts(params: Params) -> list[tuple[str, int, str]]:
    """(column part, cards a game holds in it, its title) in the contract's column order (section 4)."""
    if not params.hold_em:
        return [("yours", HAND, "YOUR HAND"), ("dealer", HAND, "DEALER'S HAND")]
    return [("yours", HOLE, "YOUR 2 CARDS"), ("dealer", HOLE, "DEALER'S 2 CARDS"),
            ("community", HAND, "COMMUNITY CARDS")]


def _names(area_id: str, part: str, size: int, g: int, shared: bool = False) -> list[str]:
    """Game g's columns of a part; with a shared dealer every game's DEALER'S HAND is `_dealer_0..4`."""
    g = 0 if shared and part == "dealer" else g
    return [f"{area_id}_{part}_{size * g + k}" for k in range(size)]


def _cells(params: Params, row: Mapping[str, Any], names: list[str]) -> list[Cell]:
    cells: list[Cell] = []
    for name in names:
        c = int(row[name])
        s = params.cards[c] if 0 <= c < DECK else None
        cells.append((name, s.symbol if s else "?", s.caption if s else "", None, None))
    return cells


def _prize_cell(area_id: str, params: Params, row: Mapping[str, Any], g: int) -> Cell:
    z = int(row[f"{area_id}_prize_{g}"])
    p = params.prizes[z] if 0 <= z < len(params.prizes) else None
    return (f"{area_id}_prize_{g}", p.symbol if p else "?", f"PRIZE: {p.caption if p else ''}", None, None)


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """Per game: YOUR HAND, then the DEALER'S HAND (hold_em: YOUR 2 CARDS, the DEALER'S 2 CARDS, the
    COMMUNITY CARDS), the last with the game's PRIZE; with a shared dealer, the DEALER'S HAND once, then
    each of YOUR HANDS with its PRIZE."""
    if params.shared:
        return [("DEALER'S HAND (BEAT IT WITH ANY OF YOUR HANDS, WIN THAT HAND'S PRIZE)",
                 _cells(params, row, _names(area_id, "dealer", HAND, 0)))] + [
            (f"HAND {g + 1}: YOUR HAND", _cells(params, row, _names(area_id, "yours", HAND, g))
             + [_prize_cell(area_id, params, row, g)]) for g in range(params.games)]
    sections: list[Section] = []
    parts = _parts(params)
    for g in range(params.games):
        for part, size, title in parts:
            cells = _cells(params, row, _names(area_id, part, size, g))
            if part == parts[-1][0]:
                cells.append(_prize_cell(area_id, params, row, g))
            sections.append((f"GAME {g + 1}: {title}" + (" (BEAT IT, WIN PRIZE)" if part == "dealer" else ""),
                             cells))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 6), and the cells of the winning games."""
    lines, winning = [], set()
    for g in range(params.games):
        names = {part: _names(area_id, part, size, g, params.shared) for part, size, _ in _parts(params)}
        cards = {part: [int(row[c]) for c in cs] for part, cs in names.items()}
        z = int(row[f"{area_id}_prize_{g}"])
        if not all(0 <= c < DECK for cs in cards.values() for c in cs) or not 0 <= z < len(params.prizes):
            continue
        a, b = (int(x[0]) for x in game_scores(params, np.array([sum(cards.values(), [])])))
        if a > b or params.ties_win and a == b:
            winning |= {c for cs in names.values() for c in cs} | {f"{area_id}_prize_{g}"}
            verb = "ties" if a == b else "beats"
            board = f" with {' '.join(map(card_text, cards['community']))}" if params.hold_em else ""
            lines.append(f"{area_id}, game {g + 1}: {' '.join(map(card_text, cards['yours']))}{board} "
                         f"({category_of(a)}) {verb} {' '.join(map(card_text, cards['dealer']))} "
                         f"({category_of(b)}): wins {fmt_cents(params.prizes[z].cents or 0, currency)}.")
    return lines, winning
