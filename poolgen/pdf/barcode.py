"""A printed ticket's barcode as the press draws it (docs/validation.md, section 2, "Symbology"): the
15-digit barcode number (16 for a game numbered 1000..9999) in Code 128 (ISO/IEC 15417), drawn by
reportlab's barcode module, with its human-readable line under the bars.

Code 128 because its subset C packs two digits a symbol and its mod-103 check digit comes on top of
the number's own MOD 97-10 check digits; an odd count of digits costs one switch: reportlab encodes
15 digits as Start C, seven digit pairs, Code B, the last digit, the check symbol, Stop (12 symbols,
the length of 16 digits in Interleaved 2 of 5, which would need a padding digit and has no check of
its own). Any Code 128 reader returns the 15 digits exactly as the imaging file's `barcode` column
holds them (16 digits: Start C, eight pairs, the check symbol, Stop). The human-readable line groups
them as `GGG BBBBBBB TTT CC` (`GGGG BBBBBBB TTT CC`).
"""

from __future__ import annotations

from reportlab.graphics.barcode.code128 import Code128
from reportlab.pdfgen.canvas import Canvas

from poolgen.pdf.draw import INK, left

__all__ = ["BARCODE_STRIP", "BAR_WIDTH", "draw_barcode", "human_readable"]

BAR_WIDTH = 1.0  # points per module: 0.35 mm, within what ticket presses print and scanners read
BAR_HEIGHT = 22.0
BARCODE_STRIP = 40.0  # the room under a printed face: bars, human-readable line, a margin


def human_readable(number: str) -> str:
    """The line under the bars: `GGG BBBBBBB TTT CC` (`GGGG BBBBBBB TTT CC` for 16 digits)."""
    g = len(number) - 12  # the game number's digits
    return f"{number[:g]} {number[g:g + 7]} {number[g + 7:g + 10]} {number[g + 10:]}"


def draw_barcode(c: Canvas, number: str, x: float, y: float) -> float:
    """Draw `number` as Code 128 with its human-readable line, bottom left at (x, y) (the quiet zones
    included); returns the width drawn."""
    code = Code128(number, barWidth=BAR_WIDTH, barHeight=BAR_HEIGHT, humanReadable=False, quiet=True)
    code.drawOn(c, x, y + 11)
    left(c, x + 10 * BAR_WIDTH, y + 2, human_readable(number), "Courier", 8, INK)
    left(c, x + code.width + 8, y + 11 + BAR_HEIGHT / 2 - 3, "Code 128 barcode number", "Helvetica", 7, INK)
    return float(code.width)
