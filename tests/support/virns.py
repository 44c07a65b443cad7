"""A printed ticket's validation number, read from its run's imaging files (docs/validation.md): what
`poolgen merkle-proof` asks of whoever wants a printed ticket's proof."""

from __future__ import annotations

from pathlib import Path

import polars as pl


def virn_of(run: Path, ticket: str) -> str:
    """The VIRN of printed ticket `ticket` (GGG-BBBBBBB-TTT) in run folder `run`."""
    game, book, number = ticket.split("-")
    for path in sorted(Path(run).glob("imaging-*.parquet")):
        found = pl.scan_parquet(path.absolute(), glob=False).filter(  # polars: ~ is home, [ a glob
            pl.col("barcode").str.starts_with(game + book + number)).select("virn").collect()
        if found.height:
            return str(found.item(0, 0))
    raise AssertionError(f"{run}: no imaging row of {ticket}")
