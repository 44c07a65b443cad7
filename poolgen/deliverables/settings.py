"""A printed game's print-run settings, optional fields of its spec's `[printed]` table:

- `virn_digits`: digits of each ticket's validation number (default 12, 9..18);
- `high_tier_prize`: the prize (money) at or above which a prize is high-tier: validated only from
  the high-tier validation file, under its own key (default "600.00", the usual claim-centre
  threshold). `poolgen generate --high-tier-prize` overrides it for one run.
"""

from __future__ import annotations

from dataclasses import dataclass

from poolgen.deliverables.identity import DEFAULT_VIRN_DIGITS, VIRN_RANGE

FIELDS = {"virn_digits", "high_tier_prize"}
DEFAULT_HIGH_TIER_CENTS = 60000


@dataclass(frozen=True)
class PrintSettings:
    virn_digits: int = DEFAULT_VIRN_DIGITS
    high_tier_cents: int = DEFAULT_HIGH_TIER_CENTS


def read_print_settings(r, sales: dict) -> PrintSettings:
    """Read (and check) the settings from a spec's `[printed]` table with the spec's reader `r`."""
    digits = r.get(sales, "virn_digits", "printed", int, required=False)
    if digits is None:
        digits = DEFAULT_VIRN_DIGITS
    lo, hi = VIRN_RANGE
    if not lo <= digits <= hi:
        raise r.fail("printed.virn_digits", f"must be {lo} to {hi}, not {digits}")
    cents = r.money(sales, "high_tier_prize", "printed", required=False)
    if cents is None:
        cents = DEFAULT_HIGH_TIER_CENTS
    if cents <= 0:
        raise r.fail("printed.high_tier_prize", "must be more than nothing")
    return PrintSettings(digits, cents)


def print_settings(spec) -> PrintSettings:
    """The settings of a loaded printed spec (checked when it was loaded)."""
    from poolgen.spec import _Reader  # noqa: PLC0415

    return read_print_settings(_Reader(spec.path), spec.sales)
