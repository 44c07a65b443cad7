"""Which spot rules of an area's style (its `SPOTS`: column prefix -> the symbol lists its codes index)
the area has. A style may state a rule for spots only some of its areas print, and names it in
`OPTIONAL_SPOTS` (a lines area's prize spots, docs/styles/lines.md section 4, only with
`line_prizes = "shown"`): such a rule counts only where the area has its columns. The imaging export
and the loader's art checks read an area's spots through `area_spots`."""

from __future__ import annotations

from poolgen.game.play import Area

__all__ = ["area_spots"]


def area_spots(area: Area) -> list[tuple[str, tuple[str, ...]]]:
    """The style's spot rules, less an optional one whose spots this area does not have."""
    optional = getattr(area.module, "OPTIONAL_SPOTS", ())
    columns = area.columns() if optional else []
    return [(suffix, lists) for suffix, lists in area.module.SPOTS
            if suffix not in optional or any(c.startswith(area.id + suffix) for c in columns)]
