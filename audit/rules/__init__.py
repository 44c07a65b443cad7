"""What audit's engines (audit/styles/) share: `Evaluation`, what a pool's layouts pay, and in
_shared.py the helpers that read layout columns and collect reasons.

Every game is evaluated by audit/styles from its manifest's `play` entry; no game has rules of its
own (the package keeps the name from when each game had its own engine here).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Evaluation:
    """What a pool's layouts pay: per row (in table order) prize in cents and number of wins."""

    prize_cents: np.ndarray
    wins: np.ndarray
    illegal: list[tuple[int, str]] = field(default_factory=list)  # (row, reason)
