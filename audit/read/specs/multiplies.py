"""A ticket_multiplier area's `multiplies` (docs/styles/ticket_multiplier.md, section 9), read from the
spec as poolgen's loader reads it and refused in its words: a non-empty list of tables { area, grid },
each naming an area listed before the box, at most once, `grid` a puzzle 1..G of a crossword with
`legends`. `covers` says whether a tier's win is one the box multiplies (every other win without it)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["covers", "refuse_multiplies", "refuse_pair_multipliers", "scaled", "shown_elsewhere"]


def refuse_multiplies(area: dict[str, Any], where: str, earlier: list[dict[str, Any]]) -> None:
    if "multiplies" not in area:
        return
    raw, at0 = area["multiplies"], f"{where}.multiplies"
    if not isinstance(raw, list) or not raw or not all(isinstance(x, dict) for x in raw):
        raise UnusableInput(f"{at0}: must be a non-empty list of tables {{ area, grid }}")
    before = {a.get("id"): a for a in earlier}
    seen: set[str] = set()
    for j, t in enumerate(raw):
        at = f"{at0}[{j}]"
        for key in t:
            if key not in ("area", "grid"):
                raise UnusableInput(f"{at}.{key}: unknown field")
        if "area" not in t:
            raise UnusableInput(f"{at}.area: missing field")
        target = before.get(t["area"]) if isinstance(t["area"], str) else None
        if target is None:
            raise UnusableInput(f"{at}.area: no area {t['area']!r} listed before this one")
        if target["id"] in seen:
            raise UnusableInput(f"{at}.area: area {target['id']!r} named twice")
        seen.add(target["id"])
        if "grid" not in t:
            continue
        grid = t["grid"]
        if isinstance(grid, bool) or not isinstance(grid, int):
            raise UnusableInput(f"{at}.grid: must be a whole number, not {grid!r}")
        if target.get("style") != "crossword" or "legends" not in target:
            raise UnusableInput(f"{at}.grid: area {target['id']!r} ({target.get('style')}) has no legend a "
                                "grid: grid names a crossword's puzzle")
        if not 1 <= grid <= len(target["legends"]):
            raise UnusableInput(f"{at}.grid: must be 1..{len(target['legends'])}, got {grid}")


def covers(areas: dict[str, dict[str, Any]], box: dict[str, Any], win: dict[str, Any]) -> bool:
    """Whether the box's multiplier multiplies `win` (a tier's win of another area)."""
    if win["how"] == "ticket":
        return False
    if "multiplies" not in box:
        return True
    for t in box["multiplies"]:
        if t["area"] == win["area"]:
            if "grid" not in t:
                return True
            legend = areas[t["area"]]["legends"][t["grid"] - 1]  # its legend's wins, never a bonus word's
            return win["how"] == "match" and any(x.get("prize") == win["prize"] for x in legend)
    return False


def scaled(areas: dict[str, dict[str, Any]], wins: list[dict[str, Any]], total: int, times: int) -> int:
    """A tier's prize: `total` (its wins' sum, as the manifest writes them) with the wins its box covers
    paid `times` times."""
    box = next((areas[w["area"]] for w in wins if w["how"] == "ticket"), None)
    plain = 0 if box is None else sum(w["by"] * w["prize_cents"] for w in wins if not covers(areas, box, w))
    return (total - plain) * times + plain


def shown_elsewhere(doc: dict[str, Any], box: dict[str, Any]) -> bool:
    """Whether the box, with `multiplies`, shows a multiplier on some tier's winners too (a tier with no
    win it covers): then `multipliers_on_losers` is used whether or not a pool holds a losing ticket."""
    areas = {a["id"]: a for a in doc["areas"]}
    return "multiplies" in box and any(not any(covers(areas, box, w) for w in t["wins"])
                                       for t in doc["tiers"])


def refuse_pair_multipliers(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """A yours_beats_theirs area's `multipliers` (docs/styles/yours_beats_theirs.md, section 2): 2 or
    more symbols, no two of the same `by`."""
    if "multipliers" not in area:
        return
    group = [s for s in doc["symbols"] if s.get("group") == area["multipliers"]]
    if len(group) < 2:
        raise UnusableInput(f"{where}.multipliers: at least 2 multiplier symbols (one alone tells every "
                            "pair's multiplier before it is scratched)")
    for i, s in enumerate(group):
        for x in (x for x in group[:i] if x.get("by") == s.get("by")):
            raise UnusableInput(f"{where}.multipliers: two multiplier symbols by {s.get('by')} "
                                f"({x.get('code')!r} and {s.get('code')!r}): a win shows the first, so the "
                                "other would show on losing pairs only")
