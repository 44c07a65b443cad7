"""The block-parameter example (specs/examples/hand_to_hand_blocks.toml) cut to a smaller pool, and
with another `[blocks]` table, for tests that must run in seconds."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import SPECS

EXAMPLE = SPECS / "examples" / "hand_to_hand_blocks.toml"


def blocks_variant(folder: Path, divisor: int = 50, blocks: str | None = None,
                   name: str = "hand_to_hand_blocks.toml") -> Path:
    """The example with its pool and every count divided by `divisor` (50: one pool of 20,000 shares,
    200 blocks of 100; the rarest tiers keep one share) and, if given, `blocks` (TOML lines) as its
    whole `[blocks]` table ("" drops it)."""
    text = EXAMPLE.read_text()
    text = text.replace("pool_shares = 1000000", f"pool_shares = {1000000 // divisor}")
    text = text.replace("order_shares = 1000000", f"order_shares = {1000000 // divisor}")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // divisor)}", text,
                  flags=re.M)
    if blocks is not None:
        table = f"[blocks]\n{blocks}\n\n" if blocks else ""
        text = re.sub(r"^\[blocks\].*?\n\n", table, text, flags=re.S | re.M)
    path = folder / name
    path.write_text(text)
    return path
