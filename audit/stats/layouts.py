"""What a layout contract promises carries no information about winning, as features for step 8's
chi-square tests of independence and its classifier test, keyed by style (docs/styles/<style>.md).

A printed ticket shows nothing of its play area before it is scratched (the latex covers every
spot; what is printed outside it, the ticket id and book, is the position, which step 8's position
and per-book tests cover). So for printed games the tests are the no-information properties a
style's contract states for what one scratched spot shows (section 8 of docs/styles/<style>.md;
audit/stats/styles/, from the manifest's `play` entry with `areas`). eInstants: what the player
sees before the outcome is decided, as the eInstant style's contract names it (the manifest's
`play` entry names the style).

A feature is (name, codes), a code below 0 leaving its row out of that test; a classifier block is
a list of code columns sharing one code space (encoded one-hot, or multi-hot for a set such as a key
number match's WINNING NUMBERS). A run whose styles have no entry gets no layout tests (step 8 says
so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from audit.stats.loser_runs import LoserRuns
from audit.stats.next_ticket import NextTickets, book_finding, book_name, next_ticket_name
from audit.stats.spread import spread_columns, spread_features
from audit.stats.styles import style_columns, style_features
from audit.stats.tests import Finding, auc_classifier, independence

__all__ = ["LayoutFeatures", "layout_columns", "layout_features", "layout_findings"]

Get = Callable[[str], np.ndarray]

DUEL_LOSE = 1  # the prize_legend_duel style's outcome code of a loss (docs/styles/prize_legend_duel.md, 3)
DUEL_UNPLAYED, DUEL_MULTIPLIER = 0, 4  # and of a spot after the last loss, and of the multiplier symbol


@dataclass(frozen=True)
class LayoutFeatures:
    chi_square: list[tuple[str, np.ndarray]]  # a code below 0 leaves its row out of that test
    classifier_name: str
    classifier: list[list[np.ndarray]]  # empty: no classifier; rows with a code below 0 left out
    not_tested: tuple[str, ...] = ()
    next_only: list[tuple[str, np.ndarray]] = field(default_factory=list)  # 1j's alone: a loser's columns
    runs: list[tuple[str, np.ndarray]] = field(default_factory=list)  # 1l: the duel's reveals
    next_each: list[tuple[str, np.ndarray]] = field(default_factory=list)  # 1l: 1j's, each value a group


def _prize_legend_duel(get: Get, play: dict[str, Any]) -> LayoutFeatures:
    """docs/styles/prize_legend_duel.md section 8: whether spot 0 (the first reveal) is a loss is drawn
    the same way for winners and losers, with probability play.first_spot_loss. (What else spot 0
    shows is not promised: a non-loss spot 0 is a multiplier more often on losers.)"""
    rule = play.get("first_spot_loss")
    first_loss = (get("spot_0") == DUEL_LOSE).astype(np.int64)
    return LayoutFeatures([(f"first reveal (spot_0) a loss (drawn {rule} for every share), against win/lose",
                            first_loss)],
                          "win/lose predicted from whether spot_0 is a loss", [[first_loss]],
                          runs=_duel_reveals(get, _duel_spots(play)))
    # no losing share's column of its own in 1j: its losers' layouts are few (two consecutive ones the
    # same 0.35% of the time), so the neighbour rule ties a loser's reveals to the next share's tier
    # (docs/statistics.md 1j); 1l's tests of runs of losers read what the rule leaves alone


def _duel_reveals(get: Get, spots: int) -> list[tuple[str, np.ndarray]]:
    """1l's features of a duel share: each reveal's outcome code, then the reveal showing a multiplier (its
    spot plus one, the first such; 0: none) and how many reveals are played (codes other than UNPLAYED)."""
    codes = [get(f"spot_{j}") for j in range(spots)]
    where = np.zeros(len(codes[0]), dtype=np.int64)
    played = np.zeros(len(codes[0]), dtype=np.int64)
    for j in range(spots - 1, -1, -1):  # from the last spot back: the first multiplier's is written last
        where[codes[j] == DUEL_MULTIPLIER] = j + 1
        played += codes[j] != DUEL_UNPLAYED
    return [*((f"spot_{j} (a reveal's outcome code)", c) for j, c in enumerate(codes)),
            ("the reveal showing a multiplier (its spot + 1, 0 if none)", where),
            ("the reveals played", played)]


def _duel_spots(play: dict[str, Any]) -> int:
    spots = play.get("spots")
    return spots if isinstance(spots, int) and 0 < spots <= 40 else 1


def _duel_columns(play: dict[str, Any], present: tuple[str, ...] | None = None) -> tuple[str, ...]:
    return tuple(f"spot_{j}" for j in range(_duel_spots(play)))


def _area_match(get: Get, play: dict[str, Any], present: tuple[str, ...] | None = None) -> LayoutFeatures:
    """docs/styles/area_match.md section 6: a0_s0, the first spot shown, is drawn uniformly over the
    play entry's symbol codes for every share, before and independently of its tier (whatever the
    style's parameters: the test reads the code, not what it means)."""
    first = get("a0_s0")
    return LayoutFeatures([("a0_s0 (the first spot shown) against win/lose", first)],
                          "win/lose predicted from a0_s0", [[first]],
                          next_only=[(f"{c} (as shown)", get(c)) for c in _area_columns(play, present)[1:]])


def _area_columns(play: dict[str, Any], present: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Each area's symbols, amount and bonus game, area 0's and those of every later area the pool has
    (`present`, its columns: area i while a{i}_s0 is one): a loser's, each tested against the next share's
    prize (sections 1j and 1l; a0_s0 first, section 2's feature)."""
    spots = play.get("spots")
    count = spots if isinstance(spots, int) and spots > 0 else 1
    areas = 1
    while present is not None and areas < 16 and f"a{areas}_s0" in present:
        areas += 1
    return tuple(c for i in range(areas) for c in (*(f"a{i}_s{j}" for j in range(count)), f"a{i}_amount",
                                                   f"a{i}_bonus"))


# eInstant styles (the manifest's `play.style`): (columns, features), each from the play entry.
_STYLES: dict[str, tuple[Callable[[dict[str, Any], tuple[str, ...] | None], tuple[str, ...]],
                         Callable[[Get, dict[str, Any], tuple[str, ...] | None], LayoutFeatures]]] = {
    "prize_legend_duel": (_duel_columns, lambda get, play, present: _prize_legend_duel(get, play)),
    "area_match": (_area_columns, _area_match),
}


def _style(play: dict[str, Any]) -> str | None:
    style = play.get("style")
    return style if isinstance(style, str) else None


def _is_styled(play: dict[str, Any]) -> bool:
    return isinstance(play.get("areas"), list)


def layout_columns(play: dict[str, Any] | None = None,
                   present: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The layout columns the run's no-information tests read (none for a run without an entry). A
    run of an eInstant style (`play.style`) is keyed by its style, one of play areas (`play.areas`)
    by its areas' styles, each with parameters from `play`; `present`, the pool's columns (the
    manifest's), says which areas an area_match pool has."""
    if not isinstance(play, dict):
        return ()
    style = _style(play)
    if style is not None:
        return _STYLES[style][0](play, present) if style in _STYLES else ()
    if _is_styled(play):
        return tuple(dict.fromkeys([*style_columns(play), *spread_columns(play)]))
    return ()


def layout_features(get: Get, play: dict[str, Any] | None = None, counts: dict[str, int] | None = None,
                    present: tuple[str, ...] | None = None) -> LayoutFeatures | None:
    """The run's no-information features from its columns (`get(name)`), or None if its style has no
    entry here. A run of play areas: its areas' features (audit/stats/styles/), from the play entry
    and the pool's tier counts (`counts`, tier id -> tickets), and 1l's counts over an area's spots."""
    if not isinstance(play, dict):
        return None
    style = _style(play)
    if style is not None:
        return _STYLES[style][1](get, play, present) if style in _STYLES else None
    if _is_styled(play):
        chi, blocks, skipped = style_features(play, counts or {}, get)
        name = "win/lose predicted from " + " and ".join(n for n, _ in blocks) if blocks else ""
        return LayoutFeatures(chi, name, [b for _, b in blocks], tuple(skipped),
                              next_only=spread_features(play, get),
                              next_each=spread_features(play, get, each_value=True))
    return None


def _codes(column: pl.Series) -> np.ndarray:
    """A layout column as codes; a null (a row step 4 refuses) as -1, which leaves its row out."""
    return (column.cast(pl.Int64).fill_null(-1) if column.null_count() else column).to_numpy()


def layout_findings(table: pl.DataFrame, rules: str, win: np.ndarray, key: int,
                    play: dict[str, Any] | None = None, counts: dict[str, int] | None = None, *,
                    prize: np.ndarray | None = None, kind: str = "printed",
                    per_book: int | None = None) -> tuple[list[Finding], list[str]]:
    """Section 2's tests of the run's features; with `prize` (the pool's, in print order), each
    chi-square feature on the losers also against the next ticket's prize, and with `per_book` (a printed
    game's books) on the first and last loser of each book against the book's highest prize
    (audit/stats/next_ticket.py)."""
    features = layout_features(lambda c: _codes(table[c]), play, counts, tuple(table.columns))
    if features is None:
        return [], [f"layout no-information tests: no contract tests for game rules {rules!r}"]
    found = []
    for name, codes in features.chi_square:  # a code below 0 leaves its row out
        keep = codes >= 0
        found.append(independence(name, win[keep], codes[keep]))
    skipped = [f"layout: {name}: one category only or too few winners" for (name, _), f
               in zip(features.chi_square, found, strict=True) if f is None] + list(features.not_tested)
    if features.classifier:
        keep = np.logical_and.reduce([c >= 0 for block in features.classifier for c in block])
        blocks = [[c[keep] for c in block] for block in features.classifier]
        found.append(auc_classifier(features.classifier_name, win[keep], blocks, key))
        if found[-1] is None:
            skipped.append(f"layout: {features.classifier_name}: too few winners or losers in a half")
    if prize is not None:  # a loser's tell of the next ticket (docs/statistics.md 1j)
        following = NextTickets(prize)
        for name, codes in features.chi_square + features.next_only:
            found.append(following.finding(next_ticket_name(name, kind), codes))
            if found[-1] is None:
                skipped.append(f"layout: {next_ticket_name(name, kind)}: too few losers or one class only")
        for name, codes in features.next_each:  # a poker hand's draws (1l)
            found.append(following.finding(next_ticket_name(name, kind), codes, each=True))
            if found[-1] is None:
                skipped.append(f"layout: {next_ticket_name(name, kind)}: too few losers or one class only")
    if prize is not None and per_book:  # a loser's tell of its book (docs/statistics.md 1k; none: not listed)
        found += [book_finding(book_name(name), prize, codes, per_book) for name, codes in
                  features.chi_square + features.next_only]
        found += [book_finding(book_name(name), prize, codes, per_book, each=True)
                  for name, codes in features.next_each]
    if prize is not None and features.runs:  # a duel's reveals, where the neighbour rule ties them (1l)
        runs = LoserRuns(prize)
        for name, codes in features.runs:
            found += runs.findings(name, codes)
    return [f for f in found if f is not None], skipped
