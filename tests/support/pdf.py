"""Reading back the PDFs of `poolgen proof` and `poolgen report` (pypdf)."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader


def pages(pdf: Path | bytes) -> list[str]:
    """Each page's text, whitespace runs (pypdf puts every table cell on a line) made one space."""
    data = pdf if isinstance(pdf, bytes) else pdf.read_bytes()
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages]
