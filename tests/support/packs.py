"""The pack-parameter example (specs/examples/happy_holidays_packs.toml) cut to a smaller pool, and
with another `[packs]` table, for tests that must run in seconds; the chi-square of drawn pack
compositions against their exact law."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from scipy import stats

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


def pooled_chisquare(seen: Counter, weights: dict) -> float:
    """Pearson's chi-square p-value of the draws `seen` (cell -> times drawn) against the law
    proportional to `weights` (cell -> weight), the rarest cells pooled to at least 5 expected."""
    draws = sum(seen.values())
    total = sum(weights.values())
    exp, obs, acc_e, acc_o = [], [], 0.0, 0
    for c in sorted(weights, key=lambda c: weights[c]):  # rarest first, pooled to 5 expected
        acc_e += draws * weights[c] / total
        acc_o += seen[c]
        if acc_e >= 5:
            exp.append(acc_e)
            obs.append(acc_o)
            acc_e, acc_o = 0.0, 0
    exp[-1] += acc_e
    obs[-1] += acc_o
    return float(stats.chisquare(obs, exp).pvalue)
