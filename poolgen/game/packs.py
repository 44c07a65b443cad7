"""A printed game's programmed pack parameters (docs/new-game.md, `[packs]`): rules about the
tickets of one pack (book) and about neighbouring tickets, which generation meets exactly
(docs/randomness.md, section 5) and audit checks from the files.

Positions are print order within a pool; a pack is a book of `tickets_per_book` consecutive
positions. Tier indices are a pool's (0 = losers, then the spec's tiers in order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Cap", "Neighbours", "Packs", "Spacing"]

Neighbours = Literal["within packs", "across packs"]


@dataclass(frozen=True)
class Cap:
    """At most `at_most` tickets of the tiers `tiers` (tier ids) in one pack; `label` names the rule
    as the spec wrote it (`packs.caps[0]`)."""

    tiers: tuple[str, ...]
    at_most: int
    label: str


@dataclass(frozen=True)
class Spacing:
    """Two tickets of the tiers `tiers` in one pack are at least `min_distance` apart in print order
    (2: never back to back)."""

    tiers: tuple[str, ...]
    min_distance: int
    label: str


@dataclass(frozen=True)
class Packs:
    """The parameters; `neighbours` is None for eInstants (no packs) and for a printed game whose
    spec says `neighbours = "off"` (its tiers have too few layouts for the rule)."""

    neighbours: Neighbours | None = None
    min_winners: int | None = None
    max_winners: int | None = None
    min_prize_cents: int | None = None
    caps: tuple[Cap, ...] = ()
    spacing: tuple[Spacing, ...] = ()

    @property
    def composition(self) -> bool:
        """Whether any parameter constrains which tiers a pack holds or their order (beyond the
        neighbour rule on layouts)."""
        return (self.min_winners is not None or self.max_winners is not None
                or self.min_prize_cents is not None or bool(self.caps) or bool(self.spacing))

    @property
    def winners_only(self) -> bool:
        """Whether the only composition parameters are a minimum and/or maximum of winners."""
        return (self.composition and self.min_prize_cents is None and not self.caps
                and not self.spacing)
