"""A `prize_legend_duel` spec's [play], refused at read as poolgen's loader refuses it, naming the same
field: written from docs/styles/prize_legend_duel.md, section 2 (the table of [play] fields and what is
checked). The play symbols and the multiplier symbol are codes of the [[symbols]] group "play"."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_misshapen_duel"]

_FIELDS = ("spots", "losses", "play_symbols", "beats", "multiplier_symbol", "legend", "max_decompositions",
           "first_spot_loss", "loser_max_multipliers")


def _whole(play: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = play[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UnusableInput(f"play.{key}: must be a whole number {lo}..{hi}, not {value!r}")
    return value


def _beats(beats: object, codes: list[str]) -> None:
    """Every play symbol beats a list of others and is beaten by one; never both ways."""
    if not isinstance(beats, dict):
        raise UnusableInput("play.beats: must be a table: play symbol code = [the codes it beats]")
    for key in beats:
        if key not in codes:
            raise UnusableInput(f"play.beats: {key!r} is not a play symbol")
    for c in codes:
        if c not in beats:
            raise UnusableInput(f"play.beats: no entry for play symbol {c!r}")
        beaten = beats[c]
        if not isinstance(beaten, list) or not all(isinstance(b, str) for b in beaten):
            raise UnusableInput(f"play.beats: {c}: must be a list of play symbol codes, not {beaten!r}")
        for b in beaten:
            if b not in codes:
                raise UnusableInput(f"play.beats: {c}: {b!r} is not a play symbol")
            if b == c:
                raise UnusableInput(f"play.beats: {c}: a symbol cannot beat itself")
        if len(set(beaten)) != len(beaten):
            raise UnusableInput(f"play.beats: {c}: a code appears twice")
    for c in codes:
        for b in beats[c]:
            if c in beats[b]:
                raise UnusableInput(f"play.beats: {c} beats {b} and {b} beats {c}")
        if not beats[c]:
            raise UnusableInput(f"play.beats: {c} beats nothing (a pick of it could never win)")
        if not any(c in beats[o] for o in codes):
            raise UnusableInput(f"play.beats: nothing beats {c} (a pick of it could never lose)")


def _probability(text: object, losses: int) -> None:
    if not isinstance(text, str):
        raise UnusableInput(f"play.first_spot_loss: must be a string (\"1/4\", \"0.25\"), not {text!r}")
    try:
        p = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise UnusableInput(f"play.first_spot_loss: {text!r} is not a probability") from None
    if not 0 <= p <= 1:
        raise UnusableInput(f"play.first_spot_loss: {text!r} is not a probability")
    if losses == 1 and p:
        raise UnusableInput("play.first_spot_loss: must be \"0\" with losses = 1 (a first-spot loss would "
                            "end every share at once)")


def refuse_misshapen_duel(doc: dict[str, Any]) -> None:
    """UnusableInput naming the first [play] field of a prize_legend_duel spec that section 2 refuses."""
    play = doc.get("play", {})
    if not isinstance(play, dict):
        raise UnusableInput("play: must be a table")
    for key in _FIELDS:
        if key not in play:
            raise UnusableInput(f"play.{key}: missing field")
    losses = _whole(play, "losses", 1, 39)
    spots = _whole(play, "spots", losses + 1, 40)
    _whole(play, "max_decompositions", 1, 1 << 20)
    _whole(play, "loser_max_multipliers", 0, spots - losses)
    codes = [s.get("code") for s in doc["symbols"] if s.get("group") == "play"]
    listed = play["play_symbols"]
    if not isinstance(listed, list) or len(listed) < 2:
        raise UnusableInput("play.play_symbols: must be a list of at least 2 symbol codes")
    if len(set(map(repr, listed))) != len(listed):
        raise UnusableInput("play.play_symbols: a code appears twice")
    for c in listed:
        if c not in codes:
            raise UnusableInput(f"play.play_symbols: {c!r} is not a [[symbols]] code of group \"play\"")
    multiplier = play["multiplier_symbol"]
    if multiplier not in codes or multiplier in listed:
        raise UnusableInput("play.multiplier_symbol: must be a [[symbols]] code of group \"play\" that is "
                            "not a play symbol")
    _beats(play["beats"], listed)
    legend = play["legend"]
    if not isinstance(legend, list) or not legend:
        raise UnusableInput("play.legend: must be a non-empty list of decimal strings")
    _probability(play["first_spot_loss"], losses)
