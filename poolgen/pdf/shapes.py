"""`rect`: a reportlab `Rect` whose keyword arguments are type-checked.

types-reportlab declares `Rect.__init__(..., **kw: _SolidShapeKwArgs)` without `Unpack`, so mypy
takes every keyword argument for a whole `_SolidShapeKwArgs` dict and refuses them all. `rect`
takes them as `Rect` does (a solid shape's fill and stroke) and sets them the way `Rect` itself
does (`Shape.setProperties`, after the defaults): the same shape, the same PDF.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from reportlab.graphics.shapes import Rect

if TYPE_CHECKING:
    from reportlab.graphics.shapes import _SolidShapeKwArgs  # the stubs' keyword arguments of Rect

__all__ = ["rect"]


def rect(x: float, y: float, width: float, height: float, rx: float = 0, ry: float = 0,
         **kw: Unpack[_SolidShapeKwArgs]) -> Rect:
    """`Rect(x, y, width, height, rx, ry, **kw)`."""
    shape = Rect(x, y, width, height, rx, ry)
    shape.setProperties(kw)
    return shape
