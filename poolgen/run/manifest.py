"""The run manifest: what a run claims, serialised canonically so its bytes can be signed.

Canonical form (`poolgen.files.write.canonical_bytes`): JSON, keys sorted, UTF-8, separators "," and ":",
no floats anywhere (money in integer cents; odds and percentages as decimal strings).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from poolgen.game.model import Pool
from poolgen.money import round_half_up

FORMAT = "poolgen-manifest/1"
MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"


def pool_figures(pool: Pool, counts: list[int], prizes: list[int]) -> dict[str, Any]:
    """Per-tier counts as recounted from the built table, with the figures they add up to."""
    tickets = sum(counts)
    winners = sum(c for c, p in zip(counts, prizes, strict=True) if p)
    cost = sum(c * p for c, p in zip(counts, prizes, strict=True))
    entry = {
        "id": pool.id,
        "price_cents": pool.price_cents,
        "tickets": tickets,
        "tiers": [{"id": t.id, "prize_cents": p, "count": c}
                  for t, c, p in zip(pool.tiers, counts, prizes, strict=True)],
        "winners": winners,
        "prize_cost_cents": cost,
        "odds_1_in": str(round_half_up(Fraction(tickets, winners), 4)) if winners else None,
        "payout_pct": str(round_half_up(Fraction(100 * cost, tickets * pool.price_cents), 4)),
    }
    if pool.denomination_cents is not None:
        entry["denomination_cents"] = pool.denomination_cents
        entry["play_areas"] = pool.play_areas
    if pool.first_book is not None:
        entry["first_book"] = pool.first_book
        entry["books"] = pool.books
    return entry


def totals(pools: list[dict[str, Any]]) -> dict[str, Any]:
    tickets = sum(p["tickets"] for p in pools)
    winners = sum(p["winners"] for p in pools)
    cost = sum(p["prize_cost_cents"] for p in pools)
    sales = sum(p["tickets"] * p["price_cents"] for p in pools)
    return {
        "pools": len(pools),
        "tickets": tickets,
        "winners": winners,
        "prize_cost_cents": cost,
        "sales_cents": sales,
        "odds_1_in": str(round_half_up(Fraction(tickets, winners), 4)) if winners else None,
        "payout_pct": str(round_half_up(Fraction(100 * cost, sales), 4)),
    }
