"""A printed game's programmed pack parameters (docs/new-game.md, `[packs]`): rules about the
tickets of one pack (book) and about neighbouring tickets, which generation meets exactly
(docs/randomness.md, section 5) and audit checks from the files.

Positions are print order within a pool; a pack is a book of `tickets_per_book` consecutive
positions. An eInstant's `[blocks]` states the same rules per block of `block` consecutive serials
(a block is a pack), and an eInstant without blocks keeps the neighbour rule over its whole pool in
serial order (shares are sold in serial order). Tier indices are a pool's (0 = losers, then the
spec's tiers in order).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

__all__ = ["Cap", "Neighbours", "Packs", "Spacing", "manifest_packs"]

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
    """The parameters; `neighbours` is None when the spec says `neighbours = "off"` (its tiers have
    too few layouts for the rule; an eInstant's run made before 2026-12-02 had none either).
    `einstant`: an eInstant's `[blocks]` (or its default when the spec has none); `block` is its block
    of serials (None: a printed game, whose packs are its books, or an eInstant without blocks, whose
    rule is "across packs": every pair of consecutive serials of the pool). An eInstant's prize floor
    is `min_prize_times` the pool's share price (its pools differ in price), a printed game's
    `min_prize_cents`."""

    neighbours: Neighbours | None = None
    min_winners: int | None = None
    max_winners: int | None = None
    min_prize_cents: int | None = None
    caps: tuple[Cap, ...] = ()
    spacing: tuple[Spacing, ...] = ()
    block: int | None = None
    min_prize_times: Decimal | None = None
    einstant: bool = False

    @property
    def composition(self) -> bool:
        """Whether any parameter constrains which tiers a pack holds or their order (beyond the
        neighbour rule on layouts)."""
        return (self.min_winners is not None or self.max_winners is not None or self.value_floor
                or bool(self.caps) or bool(self.spacing))

    @property
    def value_floor(self) -> bool:
        """Whether a pack's prizes must add up to a minimum."""
        return self.min_prize_cents is not None or self.min_prize_times is not None

    @property
    def winners_only(self) -> bool:
        """Whether the only composition parameters are a minimum and/or maximum of winners."""
        return self.composition and not self.value_floor and not self.caps and not self.spacing

    def floor_cents(self, price_cents: int) -> int | None:
        """The least prize value of a pack of a pool whose ticket costs `price_cents`."""
        if self.min_prize_times is not None:
            return int(self.min_prize_times * price_cents)  # whole cents: the loader proved it
        return self.min_prize_cents


def manifest_packs(packs: Packs) -> dict[str, Any]:
    """The parameters as the manifest records them, `print.packs` (docs/manifest.md): `neighbours`
    ("within packs", "across packs" or "off") always; `min_winners`, `max_winners`, `min_prize_cents`
    only when set; `caps` ({`tiers`, `at_most`}) and `spacing` ({`tiers`, `min_distance`}) only when
    the spec has some, in the spec's order, a prize level written as the ids of the tiers paying it.
    An eInstant's `blocks` the same with `shares` (the block) first, "within blocks" / "across
    blocks" for the neighbour rule and `min_prize_times` (a decimal string) for the prize floor;
    without blocks, `neighbours` alone ("across blocks": every pair of consecutive serials, or "off")."""
    out: dict[str, Any] = {}
    if packs.einstant:
        if packs.block is not None:
            out["shares"] = packs.block
        out["neighbours"] = packs.neighbours.replace("packs", "blocks") if packs.neighbours else "off"
    else:
        out["neighbours"] = packs.neighbours or "off"
    for key, value in (("min_winners", packs.min_winners), ("max_winners", packs.max_winners),
                       ("min_prize_cents", packs.min_prize_cents)):
        if value is not None:
            out[key] = value
    if packs.min_prize_times is not None:
        out["min_prize_times"] = f"{packs.min_prize_times.normalize():f}"
    if packs.caps:
        out["caps"] = [{"tiers": list(c.tiers), "at_most": c.at_most} for c in packs.caps]
    if packs.spacing:
        out["spacing"] = [{"tiers": list(s.tiers), "min_distance": s.min_distance} for s in packs.spacing]
    return out
