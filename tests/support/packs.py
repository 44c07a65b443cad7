"""The pack-parameter example (specs/examples/happy_holidays_packs.toml) cut to a smaller pool, and
with another `[packs]` table, for tests that must run in seconds."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import SPECS

EXAMPLE = SPECS / "examples" / "happy_holidays_packs.toml"


def packs_variant(folder: Path, divisor: int = 10, packs: str | None = None,
                  name: str = "happy_holidays_packs.toml") -> Path:
    """The example with every count and the order divided by `divisor` (10: one pool of 100 packs
    of 300) and, if given, `packs` (TOML lines) as its whole `[packs]` table."""
    text = EXAMPLE.read_text()
    text = text.replace("order_tickets = 300000", f"order_tickets = {300000 // divisor}")
    text = text.replace("pool_tickets = 300000", f"pool_tickets = {300000 // divisor}")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {int(m.group(1)) // divisor}", text, flags=re.M)
    if packs is not None:
        text = re.sub(r"\[packs\]\n(.*?\n)\n", f"[packs]\n{packs}\n\n", text, flags=re.S)
    path = folder / name
    path.write_text(text)
    return path
