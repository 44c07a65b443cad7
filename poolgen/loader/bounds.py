"""A spec's values and sizes within `poolgen.limits`, checked as the spec is loaded.

`bound_values` walks the parsed TOML once (integers, list lengths, string lengths, no control
character in a string) before any field
is interpreted; `bound_pools` checks the pools the spec makes (sizes, counts, prizes, the memory
one pool would need) before anything is built. Both raise the loader's one-line SpecError.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Protocol

from poolgen.errors import SpecError
from poolgen.game.model import Pool
from poolgen.limits import (
    MAX_INTEGER,
    MAX_LIST_ITEMS,
    MAX_MONEY_CENTS,
    MAX_ORDER_TICKETS,
    MAX_PLAY_AREAS,
    MAX_POOL_MEMORY,
    MAX_POOL_TICKETS,
    MAX_POOLS,
    MAX_SYMBOLS,
    MAX_TIERS,
    pool_memory,
)
from poolgen.money import USD, Currency, fmt_cents

# the characters that reorder text on display (Unicode bidirectional marks, embeddings, overrides
# and isolates): refused in a spec's text as control characters are (docs/new-game.md, section 1)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

MAX_STRING_CHARS = 10_000
_LIST_LIMITS = {"tiers": MAX_TIERS, "symbols": MAX_SYMBOLS}
# Texts the report's tables print in one cell (a longer one outgrew a page: reportlab LayoutError).
_TEXT_LIMITS = {"game.name": 200, "game.regulation": 200, "game.source": 500}
MAX_TIER_ID_CHARS = 64


class _Fails(Protocol):
    def fail(self, where: str, why: str) -> SpecError: ...


def bound_values(r: _Fails, doc: Mapping[str, Any]) -> None:
    """Every integer within TOML's 64-bit range, every list and string of a bounded length."""
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and not -MAX_INTEGER <= value <= MAX_INTEGER:
            raise r.fail(where, f"{value} is out of range (a whole number below 2**63)")
        if isinstance(value, str) and len(value) > MAX_STRING_CHARS:
            raise r.fail(where, f"text longer than {MAX_STRING_CHARS:,} characters")
        if isinstance(value, str) and len(value) > _text_limit(where):
            raise r.fail(where, f"text longer than {_text_limit(where):,} characters")
        if isinstance(value, str) and (bad := next((c for c in value if unicodedata.category(c) == "Cc"),
                                                   None)) is not None:
            # a name, caption or code is printed: on terminals, proofs, reports and the press's files
            raise r.fail(where, f"text holds a control character (U+{ord(bad):04X})")
        if isinstance(value, str) and (bad := next((c for c in value if c in BIDI_CONTROLS),
                                                   None)) is not None:
            # one reorders the characters after it on screen and paper ("Trojan Source", CVE-2021-42574)
            raise r.fail(where, f"text holds a bidirectional control character (U+{ord(bad):04X})")
        if isinstance(value, list):
            limit = _LIST_LIMITS.get(where, MAX_LIST_ITEMS)
            if len(value) > limit:
                raise r.fail(where, f"{len(value):,} entries; at most {limit:,}")
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
        elif isinstance(value, dict):
            if len(value) > MAX_LIST_ITEMS:
                raise r.fail(where or "spec", f"{len(value):,} fields; at most {MAX_LIST_ITEMS:,}")
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in value.items())


def _text_limit(where: str) -> int:
    if re.fullmatch(r"tiers\[\d+\]\.id", where):
        return MAX_TIER_ID_CHARS
    return _TEXT_LIMITS.get(where, MAX_STRING_CHARS)


def bound_money(r: _Fails, where: str, cents: int, currency: Currency = USD) -> int:
    if cents > MAX_MONEY_CENTS:
        raise r.fail(where, f"{fmt_cents(cents, currency)} is more than "
                            f"{fmt_cents(MAX_MONEY_CENTS, currency)}")
    return cents


def bound_sizes(r: _Fails, section: str, pool: int, order: int) -> None:
    """A pool and an order of tickets (or shares) within the limits, a pool of at least one."""
    if pool < 1:
        raise r.fail(f"{section}.pool_{_unit(section)}", "a pool holds at least one ticket")
    if pool > MAX_POOL_TICKETS:
        raise r.fail(f"{section}.pool_{_unit(section)}", f"{pool:,} is more than {MAX_POOL_TICKETS:,} "
                                                          "per pool")
    if order < 1:
        unit = _unit(section)
        raise r.fail(f"{section}.order_{unit}", f"an order holds at least one {unit[:-1]}")
    if order > MAX_ORDER_TICKETS:
        raise r.fail(f"{section}.order_{_unit(section)}", f"{order:,} is more than "
                                                           f"{MAX_ORDER_TICKETS:,} per order")


def _unit(section: str) -> str:
    return "tickets" if section == "printed" else "shares"


def bound_einstant_lists(r: _Fails, denominations: list[int], areas: list[int]) -> None:
    """At least one denomination and one play-area count, none twice, each positive and bounded."""
    if not denominations:
        raise r.fail("einstant.denominations", "empty: give at least one denomination")
    for j, d in enumerate(denominations):
        if d <= 0:
            raise r.fail(f"einstant.denominations[{j}]", "a denomination must be more than nothing")
    if len(set(denominations)) != len(denominations):
        raise r.fail("einstant.denominations", "a denomination is listed twice")
    if not areas:
        raise r.fail("einstant.play_areas", "empty: give at least one number of play areas")
    for j, a in enumerate(areas):
        if a > MAX_PLAY_AREAS:
            raise r.fail(f"einstant.play_areas[{j}]", f"{a} play areas; at most {MAX_PLAY_AREAS}")
    if len(set(areas)) != len(areas):
        raise r.fail("einstant.play_areas", "a number of play areas is listed twice")
    if len(denominations) * len(areas) > MAX_POOLS:
        raise r.fail("einstant", f"{len(denominations)} denominations x {len(areas)} play areas are "
                                 f"more than {MAX_POOLS} pools")


def bound_pools(r: _Fails, section: str, pools: tuple[Pool, ...], spots: int = 0) -> None:
    """The pools of an order: how many, their prizes, and the memory building one needs (a printed
    ticket of `spots` layout columns)."""
    if len(pools) > MAX_POOLS:
        raise r.fail(f"{section}.order_{_unit(section)}", f"{len(pools)} pools; at most {MAX_POOLS}")
    for p in pools:
        for t in p.tiers:
            bound_money(r, f"tiers ({t.id}, pool {p.id})", t.prize_cents)
        need = pool_memory(p.tickets, p.play_areas, spots)
        if need > MAX_POOL_MEMORY:
            raise r.fail(section, f"pool {p.id} would need about {need / 2**30:.1f} GiB of memory to "
                                  f"build; at most {MAX_POOL_MEMORY / 2**30:.0f} GiB")
