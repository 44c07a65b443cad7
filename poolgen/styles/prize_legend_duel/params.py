"""The parameters of the `prize_legend_duel` style: the spec's [play] table, read and checked
(docs/styles/prize_legend_duel.md, section 2), and the manifest's `play` entry made from them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from poolgen.errors import SpecError
from poolgen.game.model import Symbol
from poolgen.game.play import TicketTables
from poolgen.limits import bounded_decimal
from poolgen.money import fmt_cents

__all__ = ["FIELDS", "MAX_LEGEND", "MAX_SPOTS", "STYLE", "Params", "document", "read"]

STYLE = "prize_legend_duel"
FIELDS = ("spots", "losses", "play_symbols", "beats", "multiplier_symbol", "legend", "max_decompositions",
          "first_spot_loss", "loser_max_multipliers")
MAX_SPOTS = 40
MAX_LEGEND = 64  # the decomposition count recurses once per legend value
# first_spot_loss: "p/q" or a plain decimal, at most 12 digits a part (no exponent: Fraction("1e-999999999")
# would build a billion-digit integer); ASCII digits only (\d would take any script's).
_PLAIN = re.compile(r"[0-9]+\.?[0-9]*|\.[0-9]+")
_FRACTION = re.compile(r"^\s*(\d{1,12}\s*/\s*\d{1,12}|\d{1,12}(\.\d{1,12})?|\.\d{1,12})\s*$", re.ASCII)


@dataclass(frozen=True)
class Params:
    """The spec's [play] table, validated."""

    spots: int
    losses: int
    play_symbols: tuple[Symbol, ...]  # in the spec's order
    beats: dict[str, tuple[str, ...]]  # play symbol code -> the codes it beats
    multiplier: Symbol
    legend_text: tuple[str, ...]  # as written
    legend: tuple[Fraction, ...]  # ascending; prize symbols as multiples of the denomination
    max_decompositions: int
    first_spot_loss: Fraction
    first_spot_loss_text: str
    loser_max_multipliers: int

    @property
    def non_loss(self) -> int:
        """The most spots of a share that are not losses."""
        return self.spots - self.losses


def read(tables: TicketTables) -> Params:
    """Read and validate a `prize_legend_duel` spec's [play] table (one SpecError naming the field)."""
    fail = tables.fail
    play = tables.play
    for key in play:
        if key not in FIELDS:
            raise fail(f"play.{key}", f"unknown field (the {STYLE} style reads {', '.join(FIELDS)})")
    for key in FIELDS:
        if key not in play:
            raise fail(f"play.{key}", "missing field")
    if tables.layout:
        raise fail("layout", f"the {STYLE} style reads every parameter from [play]; remove [layout]")
    if list(tables.play_areas) != [1]:
        raise fail("einstant.play_areas", f"the {STYLE} style has one play area: write [1]")

    def whole(key: str, lo: int, hi: int) -> int:
        value = play[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise fail(f"play.{key}", f"must be a whole number {lo}..{hi}, not {value!r}")
        return value

    losses = whole("losses", 1, MAX_SPOTS - 1)
    spots = whole("spots", losses + 1, MAX_SPOTS)
    declared = {s.code: s for s in tables.symbols if s.group == "play"}
    codes = play["play_symbols"]
    if not isinstance(codes, list) or len(codes) < 2 or not all(isinstance(c, str) for c in codes):
        raise fail("play.play_symbols", "must be a list of at least 2 symbol codes")
    if len(set(codes)) != len(codes):
        raise fail("play.play_symbols", "a code appears twice")
    for c in codes:
        if c not in declared:
            raise fail("play.play_symbols", f"{c!r} is not a [[symbols]] code of group \"play\"")
    mult = play["multiplier_symbol"]
    if not isinstance(mult, str) or mult not in declared or mult in codes:
        raise fail("play.multiplier_symbol", f"must be a [[symbols]] code of group \"play\" that is not "
                                             f"a play symbol, not {mult!r}")
    unused = [c for c in declared if c not in codes and c != mult]
    if unused:
        raise fail("symbols", f"play symbol {unused[0]!r} is neither in play.play_symbols nor "
                              "play.multiplier_symbol")
    beats = _beats(play["beats"], codes, lambda why: fail("play.beats", why))
    legend_text, legend = _legend(play["legend"], lambda why: fail("play.legend", why))
    for j, v in enumerate(legend_text):  # a prize symbol shown is v x the share's price, in cents
        for d in tables.denomination_cents:  # = the denomination: one play area
            if (Fraction(v) * d).denominator != 1:
                shown = fmt_cents(d, tables.currency)
                raise fail(f"play.legend[{j}]", f"{v} x {shown} is not whole cents (a prize symbol a share "
                                                "may show)")
    cap = whole("max_decompositions", 1, 1 << 20)
    text = play["first_spot_loss"]
    try:
        if not isinstance(text, str) or not _FRACTION.match(text):
            raise ValueError
        prob = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise fail("play.first_spot_loss",
                   f"must be a fraction string such as \"1/4\", not {text!r}") from None
    if not 0 <= prob <= 1:
        raise fail("play.first_spot_loss", f"{text!r} is not a probability")
    if losses == 1 and prob:
        raise fail("play.first_spot_loss", "must be \"0\" with losses = 1 (a first-spot loss would end "
                                           "every such share at once, winners included)")
    lmax = whole("loser_max_multipliers", 0, spots - losses)
    return Params(spots, losses, tuple(declared[c] for c in codes), beats, declared[mult], legend_text,
                  legend, cap, prob, text, lmax)


def _beats(raw: object, codes: list[str], fail: Callable[[str], SpecError]) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise fail("must be a table: play symbol code = [the codes it beats]")
    for key in raw:
        if key not in codes:
            raise fail(f"{key!r} is not a play symbol")
    out: dict[str, tuple[str, ...]] = {}
    for c in codes:
        beaten = raw.get(c)
        if beaten is None:
            raise fail(f"no entry for play symbol {c!r}")
        if not isinstance(beaten, list) or not all(isinstance(b, str) for b in beaten):
            raise fail(f"{c}: must be a list of play symbol codes, not {beaten!r}")
        for b in beaten:
            if b not in codes:
                raise fail(f"{c}: {b!r} is not a play symbol")
            if b == c:
                raise fail(f"{c}: a symbol cannot beat itself")
        if len(set(beaten)) != len(beaten):
            raise fail(f"{c}: a code appears twice")
        out[c] = tuple(beaten)
    for c in codes:
        for b in out[c]:
            if c in out[b]:
                raise fail(f"{c} beats {b} and {b} beats {c}")
        if not out[c]:
            raise fail(f"{c} beats nothing (a pick of it could never win)")
        if not any(c in out[o] for o in codes):
            raise fail(f"nothing beats {c} (a pick of it could never lose)")
    return out


def _legend(raw: object, fail: Callable[[str], SpecError]) -> tuple[tuple[str, ...], tuple[Fraction, ...]]:
    if not isinstance(raw, list) or not raw:
        raise fail("must be a non-empty list of decimal strings")
    if len(raw) > MAX_LEGEND:
        raise fail(f"{len(raw)} values; at most {MAX_LEGEND}")
    legend: list[Fraction] = []
    for v in raw:
        if not isinstance(v, str):
            raise fail(f"values are decimal strings such as \"0.5\", not {v!r}")
        try:
            d = bounded_decimal(v)
        except ValueError as exc:
            raise fail(str(exc)) from None
        if d <= 0:
            raise fail(f"{v!r} is not a positive number")
        if not _PLAIN.fullmatch(v):  # as the manifest's play entry carries it (contract, section 2)
            raise fail(f"{v!r} is not a plain decimal such as \"0.5\" (digits and at most one point)")
        legend.append(Fraction(d))
    if len(set(legend)) != len(legend):
        raise fail("a value appears twice")
    return tuple(raw), tuple(sorted(legend))


def document(params: Params) -> dict[str, Any]:
    """The manifest's `play` entry (docs/styles/prize_legend_duel.md, section 2)."""
    return {
        "style": STYLE,
        "spots": params.spots,
        "losses": params.losses,
        "play_symbols": [{"code": s.code, "symbol": s.symbol, "beats": list(params.beats[s.code])}
                         for s in params.play_symbols],
        "multiplier_symbol": {"code": params.multiplier.code, "symbol": params.multiplier.symbol},
        "legend": list(params.legend_text),
        "max_decompositions": params.max_decompositions,
        "first_spot_loss": params.first_spot_loss_text,
        "loser_max_multipliers": params.loser_max_multipliers,
    }
