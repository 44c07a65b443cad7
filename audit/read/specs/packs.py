"""A printed spec's `[packs]` table (docs/new-game.md, "Pack parameters"), read with tomllib alone
for audit/steps/packs.py, and the same parameters as a manifest records them (`print.packs`,
docs/manifest.md). A run whose manifest has no `print.packs` (an older run) and no spec given, or a
spec with no `[packs]`, is held to the default neighbour rule alone (consecutive tickets of a pack
never show identical play data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.errors import UnusableInput
from audit.read.specs.money import money

__all__ = ["DEFAULT_RULES", "PackCap", "PackRules", "PackSpacing", "manifest_packs", "read_packs"]


@dataclass(frozen=True)
class PackCap:
    """At most `at_most` tickets per pack of the tiers `tiers`, or of prize `prize_cents`."""

    label: str
    at_most: int
    tiers: tuple[str, ...] = ()
    prize_cents: int | None = None


@dataclass(frozen=True)
class PackSpacing:
    """Tickets of the tiers (or prize) at least `min_distance` apart within a pack."""

    label: str
    min_distance: int
    tiers: tuple[str, ...] = ()
    prize_cents: int | None = None


@dataclass(frozen=True)
class PackRules:
    across: bool = False  # the neighbour rule also spans the boundary of consecutive packs
    neighbours: bool = True  # False: the spec turns the neighbour rule off (`neighbours = "off"`)
    min_winners: int | None = None
    max_winners: int | None = None
    min_prize_cents: int | None = None
    caps: tuple[PackCap, ...] = ()
    spacing: tuple[PackSpacing, ...] = ()

    @property
    def composition(self) -> bool:
        return (self.min_winners is not None or self.max_winners is not None
                or self.min_prize_cents is not None or bool(self.caps) or bool(self.spacing))


DEFAULT_RULES = PackRules()
_FIELDS = {"neighbours", "min_winners", "max_winners", "min_prize_value", "caps", "spacing"}


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnusableInput(f"{where}: must be a whole number, not {value!r}")
    return value


def _which(entry: dict[str, Any], where: str) -> tuple[tuple[str, ...], int | None]:
    if ("tiers" in entry) == ("prize" in entry):
        raise UnusableInput(f"{where}: names `tiers` or `prize`, one of them")
    if "prize" in entry:
        return (), money(entry["prize"], f"{where}.prize")
    tiers = entry["tiers"]
    if not isinstance(tiers, list) or not tiers or not all(isinstance(t, str) for t in tiers):
        raise UnusableInput(f"{where}.tiers: must be a non-empty list of tier ids")
    return tuple(tiers), None


def read_packs(doc: dict[str, Any]) -> PackRules:
    """The rules of a format-2 spec's `[packs]` (the default rules when it has none)."""
    raw = doc.get("packs")
    if raw is None:
        return DEFAULT_RULES
    if not isinstance(raw, dict) or set(raw) - _FIELDS:
        raise UnusableInput(f"packs: a table of {', '.join(sorted(_FIELDS))}")
    neighbours = raw.get("neighbours", "within packs")
    if neighbours not in ("within packs", "across packs", "off"):
        raise UnusableInput(f"packs.neighbours: {neighbours!r}")
    caps, spacing = [], []
    for i, entry in enumerate(raw.get("caps", [])):
        where = f"packs.caps[{i}]"
        tiers, prize = _which(entry, where)
        caps.append(PackCap(where, _whole(entry["at_most"], f"{where}.at_most"), tiers, prize))
    for i, entry in enumerate(raw.get("spacing", [])):
        where = f"packs.spacing[{i}]"
        tiers, prize = _which(entry, where)
        spacing.append(PackSpacing(where, _whole(entry["min_distance"], f"{where}.min_distance"), tiers,
                                   prize))
    return PackRules(
        across=neighbours == "across packs", neighbours=neighbours != "off",
        min_winners=_whole(raw["min_winners"], "packs.min_winners") if "min_winners" in raw else None,
        max_winners=_whole(raw["max_winners"], "packs.max_winners") if "max_winners" in raw else None,
        min_prize_cents=money(raw["min_prize_value"], "packs.min_prize_value")
        if "min_prize_value" in raw else None,
        caps=tuple(caps), spacing=tuple(spacing))


_RECORDED = {"neighbours", "min_winners", "max_winners", "min_prize_cents", "caps", "spacing"}


def _recorded(entries: object, where: str, bound: str) -> list[tuple[str, tuple[str, ...], int]]:
    """(label, tiers, bound) of each of a manifest's `caps` or `spacing` entries."""
    if not isinstance(entries, list) or not entries:
        raise UnusableInput(f"{where}: must be a non-empty list of tables")
    out = []
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"tiers", bound}:
            raise UnusableInput(f"{at}: must be a table of tiers and {bound}")
        tiers = entry["tiers"]
        if not isinstance(tiers, list) or not tiers or not all(isinstance(t, str) for t in tiers):
            raise UnusableInput(f"{at}.tiers: must be a non-empty list of tier ids")
        label = f"packs.{where.rsplit('.', 1)[-1]}[{i}]"
        out.append((label, tuple(tiers), _whole(entry[bound], f"{at}.{bound}")))
    return out


def manifest_packs(doc: dict[str, Any]) -> PackRules | None:
    """The pack parameters a printed run's manifest records (`print.packs`), None when it records none
    (an eInstant, or a run made before manifests recorded them). A malformed entry is refused."""
    printed = doc.get("print")
    if not isinstance(printed, dict) or "packs" not in printed:
        return None
    raw, where = printed["packs"], "manifest.json: print.packs"
    if not isinstance(raw, dict) or set(raw) - _RECORDED or "neighbours" not in raw:
        raise UnusableInput(f"{where}: a table of neighbours and optionally "
                            f"{', '.join(sorted(_RECORDED - {'neighbours'}))}")
    neighbours = raw["neighbours"]
    if neighbours not in ("within packs", "across packs", "off"):
        raise UnusableInput(f"{where}.neighbours: {neighbours!r}")
    caps = [PackCap(label, bound, tiers) for label, tiers, bound
            in _recorded(raw["caps"], f"{where}.caps", "at_most")] if "caps" in raw else []
    spacing = [PackSpacing(label, bound, tiers) for label, tiers, bound
               in _recorded(raw["spacing"], f"{where}.spacing", "min_distance")] if "spacing" in raw else []
    whole = {k: _whole(raw[k], f"{where}.{k}") if k in raw else None
             for k in ("min_winners", "max_winners", "min_prize_cents")}
    return PackRules(across=neighbours == "across packs", neighbours=neighbours != "off",
                     min_winners=whole["min_winners"], max_winners=whole["max_winners"],
                     min_prize_cents=whole["min_prize_cents"], caps=tuple(caps), spacing=tuple(spacing))
