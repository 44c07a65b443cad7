"""What a spec says a run holds, whatever the spec's file format: the one model step 5 holds a
manifest to (audit/steps/figures.py `check_against_spec`).

The reader (audit/read/specs/__init__.py) knows the format and builds the model; nothing after it
asks. A model is the spec file's name and SHA-256, the game fields the manifest must state, and its
claims: each claim (the pools, the areas and tiers, the play entry a style derives) says how a
manifest differs from it, in the order step 5 reports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from audit.read.manifest import Manifest
from audit.styles.cards import deck_symbols
from audit.styles.spots import cell_numbers

__all__ = ["Claim", "SpecExpectation", "same"]


def same(a: object, b: object) -> bool:
    """Equal, and of one JSON type at every level: a manifest's `true` is not the spec's 1, nor 1.0 it
    (Python's == says both are), nor a list a tuple's items in another type (a reader's tuples are lists)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b

JOKER_SYMBOL = ("JOKER", "JOKER", "JOKER")  # docs/styles/poker_hand.md, section 4


class Claim(Protocol):
    """One thing a spec says of a run."""

    def problems(self, manifest: Manifest) -> list[str]:
        """How the manifest differs from the claim, one line each (empty: it agrees)."""
        ...


@dataclass(frozen=True)
class SpecExpectation:
    """What a spec says a run holds (valid by construction: only the reader builds one)."""

    file: str  # the spec file's name
    sha256: str  # of the spec file's bytes: the manifest's `spec.sha256`
    game: tuple[tuple[str, object], ...]  # (manifest game field, the spec's value), in report order
    claims: tuple[Claim, ...]
    scope: str  # what the claims cover, as step 5's line says it ("every pool", ...)
    doc: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the spec as read

    def symbols(self) -> set[tuple[str, str, str]]:
        """(code, symbol, caption) of every symbol the spec lists (step 9 holds imaging files to them),
        the 52 cards of the deck a `cards` area always shows (docs/styles/cards.md, section 4) and a
        crossword doubler's cell numbers."""
        listed = {(str(s.get("code")), str(s.get("symbol")), str(s.get("caption", "")))
                  for s in self.doc.get("symbols", [])}
        areas = self.doc.get("areas", [])
        cards = isinstance(areas, list) and any(isinstance(a, dict)
                                                and a.get("style") in ("cards", "poker_hand") for a in areas)
        if isinstance(areas, list) and any(isinstance(a, dict) and a.get("style") == "poker_hand"
                                           and a.get("joker") is True for a in areas):
            listed |= {JOKER_SYMBOL}  # docs/styles/poker_hand.md, section 4
        cells = {(c, c, "") for a in (areas if isinstance(areas, list) else [])
                 if isinstance(a, dict) and a.get("style") == "crossword" and "doubler" in a
                 for c in cell_numbers(a.get("grids"))}  # its doubler columns (docs/styles/crossword.md 11)
        return (listed | deck_symbols() if cards else listed) | cells

    def list_symbols(self, area: str, lists: tuple[str, ...]) -> set[tuple[str, str, str]] | None:
        """(code, symbol, caption) of the symbols of the groups the spec's area `area` names as its
        `lists` (a `cards` list: the deck), the symbols a spot indexing those lists may show; None
        when one of them names no group of the spec (then step 9 takes any symbol of the spec)."""
        areas = self.doc.get("areas", [])
        found = [a for a in areas if isinstance(a, dict) and a.get("id") == area] if isinstance(areas, list) \
            else []
        out: set[tuple[str, str, str]] = set()
        for name in lists:
            if name == "cards":
                out |= deck_symbols()
                if found and found[0].get("style") == "poker_hand" and found[0].get("joker") is True:
                    out.add(JOKER_SYMBOL)
                continue
            if name == "cells":  # a crossword's doubler cells: numbers (docs/styles/crossword.md 11)
                out |= {(c, c, "") for c in cell_numbers(found[0].get("grids") if found else None)}
                continue
            if found and name not in found[0]:  # a list the area leaves out (no specials): nothing to show
                continue
            group = found[0].get(name) if found else None
            symbols = [s for s in self.doc.get("symbols", [])
                       if isinstance(s, dict) and s.get("group") == group]
            if not isinstance(group, str) or not symbols:
                return None
            out |= {(str(s.get("code")), str(s.get("symbol")), str(s.get("caption", ""))) for s in symbols}
        return out
