"""What a spec file says each pool must hold, read with tomllib alone (step 5 with --spec).

Printed games: every pool holds `pool_tickets` tickets at `price`; a tier's count is per order
(`counts_per = "order"`: divided by order_tickets / pool_tickets) or per pool. eInstants: one pool
per denomination and number of play areas, `pool_shares` shares at denomination x areas; a tier
pays multiplier x denomination x areas. Losers = pool size - winners, listed first as tier "lose".
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from audit.errors import UnusableInput, read_input
from audit.read.limits import MAX_SPEC_BYTES, bound_toml


@dataclass(frozen=True)
class ExpectedPool:
    price_cents: int
    tickets: int
    tiers: tuple[tuple[str | None, int, int], ...]  # (id or None for eInstants, prize, count)
    denomination_cents: int | None = None
    play_areas: int | None = None


@dataclass(frozen=True)
class SpecFigures:
    file: str
    sha256: str
    game: dict
    pools: tuple[ExpectedPool, ...]
    doc: dict = field(default_factory=dict, compare=False, repr=False)  # the spec as read (an eInstant
    # style's engine derives the expected play entry from it: audit/styles/<style>.py play_from_spec)


# A spec's money as printed: optional $, digits grouped by commas in threes (or not grouped), optional
# point and two digits of cents. '$1,2500.00', '7.5', '-5', '1e3' are refused, as poolgen's loader does.
_AMOUNT = re.compile(r"\$?(\d{1,3}(,\d{3})*|\d+)(\.\d{2})?")


def money(text: object, where: str) -> int:
    """'$1,103,611', '1.00', '$5' -> cents, exactly (Decimal, never a binary float)."""
    if not isinstance(text, str):
        raise UnusableInput(f"{where}: money must be a string, not {text!r}")
    try:
        value = Decimal(text.strip().lstrip("$").replace(",", "")) * 100
    except ArithmeticError:  # InvalidOperation, or Overflow of an enormous exponent
        raise UnusableInput(f"{where}: {text!r} is not an amount") from None
    if not value.is_finite():
        raise UnusableInput(f"{where}: {text!r} is not a finite amount")
    if value != value.to_integral_value():
        raise UnusableInput(f"{where}: {text!r} has fractions of a cent")
    if not _AMOUNT.fullmatch(text.strip()):
        raise UnusableInput(f"{where}: {text!r} is not a well-formed amount")
    return int(value)


def multiplier(value: object, where: str) -> Decimal:
    """An eInstant tier's multiplier: a finite decimal number, as text ("4.5") or an integer."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise UnusableInput(f"{where}: a multiplier must be a decimal string, not {value!r}")
    try:
        number = Decimal(value.strip() if isinstance(value, str) else value)
    except ArithmeticError:
        raise UnusableInput(f"{where}: {value!r} is not a number") from None
    if not number.is_finite():
        raise UnusableInput(f"{where}: {value!r} is not a finite number")
    return number


def read_spec(path: Path):  # SpecFigures, or StyledFigures for a format-2 spec
    raw = read_input(path, "spec", MAX_SPEC_BYTES)
    try:
        text = raw.decode("utf-8")
        bound_toml(text)
        doc = tomllib.loads(text)
        if doc.get("format") == 2:  # a game of play styles (audit/spec_styles.py)
            from audit.read.spec.printed import read_styled

            return read_styled(doc, Path(path).name, hashlib.sha256(raw).hexdigest())
        game = doc["game"]
        if isinstance(game, dict) and "style" in game:  # an eInstant of a generic style: named by game.id
            game = {**game, "rules": game.get("id")}
        if game["kind"] != "einstant" or "style" not in game:
            raise UnusableInput("game: a format = 1 spec is an eInstant of a style (game.id, game.style); "
                                "a printed game's spec is format = 2, of play styles")
        pools = _einstant(doc["einstant"], doc["tiers"])
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UnusableInput(f"{path}: not a TOML spec: {exc}") from None
    except UnusableInput as exc:  # a field's value, named by where it is
        raise UnusableInput(f"{path}: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError, RecursionError) as exc:
        # ArithmeticError: decimal.InvalidOperation, ZeroDivisionError, OverflowError
        raise UnusableInput(f"{path}: not a spec this verifier can read "
                            f"({type(exc).__name__}: {exc or 'a value is out of range'})") from None
    return SpecFigures(Path(path).name, hashlib.sha256(raw).hexdigest(), game, pools, doc)


def _einstant(sales: dict, tiers: list[dict]) -> tuple[ExpectedPool, ...]:
    size = sales["pool_shares"]
    winners = sum(t["count"] for t in tiers)
    pools = []
    for j, d in enumerate(sales["denominations"]):
        denomination = money(d, f"einstant.denominations[{j}]")
        for areas in sales["play_areas"]:
            rows: list[tuple[str | None, int, int]] = [("lose", 0, size - winners)]
            for i, t in enumerate(tiers):
                prize = multiplier(t["multiplier"], f"tiers[{i}].multiplier") * denomination * areas
                if prize != prize.to_integral_value():
                    raise UnusableInput(f"tiers[{i}].multiplier gives fractions of a cent")
                rows.append((None, int(prize), t["count"]))
            pools.append(ExpectedPool(price_cents=denomination * areas, tickets=size, tiers=tuple(rows),
                                      denomination_cents=denomination, play_areas=areas))
    return tuple(pools)


def compare_pool(spec: SpecFigures, entry: dict) -> list[str]:
    """How a manifest pool entry differs from what the spec says that pool holds (empty: agrees)."""
    found = [p for p in spec.pools if (p.denomination_cents, p.play_areas)
             == (entry.get("denomination_cents"), entry.get("play_areas"))]
    if not found:
        return [f"the spec has no pool of denomination {entry.get('denomination_cents')} cents and "
                f"{entry.get('play_areas')} play area(s)"]
    want = found[0]
    problems = []
    if entry["price_cents"] != want.price_cents:
        problems.append(f"price {entry['price_cents']} cents, spec {want.price_cents}")
    if entry["tickets"] != want.tickets:
        problems.append(f"{entry['tickets']} tickets, spec {want.tickets}")
    got = [(t["id"], t["prize_cents"], t["count"]) for t in entry["tiers"]]
    if len(got) != len(want.tiers):
        problems.append(f"{len(got)} tiers, spec {len(want.tiers)}")
    for (gid, gprize, gcount), (wid, wprize, wcount) in zip(got, want.tiers, strict=False):
        if wid is not None and gid != wid:
            problems.append(f"tier {gid!r} where the spec has {wid!r}")
        elif (gprize, gcount) != (wprize, wcount):
            problems.append(f"tier {gid!r}: {gcount} x {gprize} cents, spec {wcount} x {wprize} cents")
    return problems
