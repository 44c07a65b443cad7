"""What a format-2 spec says of its symbols' art (step 5, --spec): the printer's art-library files its
`[[symbols]]` name in `art` (docs/new-game.md), which the manifest's `print.art` carries for the
imaging export (docs/validation.md, section 4) as, per spot prefix, each shown symbol's code and art.

The claim is first on (code, art) pairs: every pair the manifest states is one the spec states, and
every pair the spec states is on some spot of the manifest. A changed, added or dropped art reference
is a problem. Then on the list as docs/manifest.md states it (`art_spots`): one entry per spot prefix
of the spec's areas, in their and their styles' order, whose lists hold symbols with art, each such
symbol once in the spec's order. `poolgen imaging export` gives a spot the art of the entry whose
prefix it starts with: an entry under another prefix leaves the press a spot without its art.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from audit.errors import UnusableInput
from audit.read.manifest import Manifest
from audit.read.specs.model import same
from audit.styles.spots import SPOTS

__all__ = ["SpecArt", "art_spots", "refuse_bad_art", "spec_art"]
# spot rules an area has only when its columns do (poolgen/game/spots.py): a lines area's caller and shown
# line prizes, a bingo area's cards 5 to 8 (cards 1 to 4 are listed whether or not it has them)
OPTIONAL = {"lines": ("_call_", "_prize_"), "bingo": tuple(f"_card{k}_" for k in range(4, 8))}


def spec_art(doc: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """(code, art) of every symbol of the spec that has `art`, in the spec's order."""
    return tuple((str(s["code"]), str(s["art"])) for s in doc["symbols"] if "art" in s)


def art_spots(doc: dict[str, Any], columns: list[str]) -> list[dict[str, Any]]:
    """`print.art` as docs/manifest.md states it from the spec `doc`, for a pool of layout `columns`."""
    symbols = [s for s in doc.get("symbols", []) if isinstance(s, dict) and "art" in s]
    out = []
    for area in doc.get("areas", []):
        style, aid = str(area.get("style")), str(area.get("id"))
        for suffix, lists in SPOTS.get(style, ()):
            for prefix in [f"{aid}{suffix.replace('#', str(k))}" for k in range(8)] if "#" in suffix \
                    else [aid + suffix]:
                if prefix.removeprefix(aid) in OPTIONAL.get(style, ()) and \
                        not any(c.startswith(prefix) for c in columns):
                    continue
                art = [{"art": str(s["art"]), "code": str(s["code"])} for name in lists for s in symbols
                       if name in area and s.get("group") == area[name]]
                if art:
                    out.append({"spots": prefix, "symbols": art})
    return out


@dataclass(frozen=True)
class SpecArt:
    """The manifest's `print.art` states exactly the spec's art references, listed as docs/manifest.md
    states them."""

    pairs: tuple[tuple[str, str], ...]  # (code, art) of the spec's symbols with art
    doc: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the spec as read

    def problems(self, manifest: Manifest) -> list[str]:
        stated = manifest.doc.get("print", {})
        entries = stated.get("art", []) if isinstance(stated, dict) else []
        try:
            got = [(str(e["spots"]), str(s["code"]), str(s["art"])) for e in entries for s in e["symbols"]]
        except (KeyError, TypeError):
            return ["print.art: not a list of spots with their symbols' code and art"]
        arts: dict[str, list[str]] = {}
        for code, art in self.pairs:
            arts.setdefault(code, []).append(art)
        problems = []
        for spots, code, art in got:
            if art not in arts.get(code, []):
                problems.append(f"print.art {spots}: {code} art {art!r}, spec "
                                f"{' or '.join(repr(a) for a in arts.get(code, [])) or 'none'}")
        wrong = {code for _, code, art in got if art not in arts.get(code, [])}
        shown = {(code, art) for _, code, art in got}
        problems += [f"print.art: the spec's art {art!r} ({code}) is on no spot"
                     for code, art in self.pairs if (code, art) not in shown and code not in wrong]
        pools = manifest.doc.get("pools") or [{}]
        want = art_spots(self.doc, [str(c) for c in pools[0].get("columns") or []])
        if problems or same(entries, want):
            return problems
        said, listed = [str(e["spots"]) for e in entries], [e["spots"] for e in want]
        if said != listed:
            return [f"print.art: spots {said}, the spec's symbols with art show on {listed}"]
        bad = next(e for e, w in zip(entries, want, strict=True) if not same(e, w))
        return [f"print.art {bad['spots']}: symbols {[s.get('code') for s in bad['symbols']]}, spec "
                f"{[s['code'] for s in want[said.index(bad['spots'])]['symbols']]} (each once, in its order)"]


# docs/new-game.md, "Art references": a bare file name, 1 to 128 printable ASCII characters, no `/`, `\`,
# `:` or `..`, not starting with `.` or a space, not ending with a space
ART = re.compile(r"(?![. ])(?!.*\.\.)(?!.* $)[ -.0-9;-\[\]-~]{1,128}")


def refuse_bad_art(doc: dict[str, Any]) -> None:
    """A format-2 spec's `art` as poolgen's loader refuses it (docs/new-game.md, "Art references"): not a
    bare file name, a group where some symbols have art and some none, two of a group naming one file
    (compared without case)."""
    groups: dict[str, list[tuple[int, Any]]] = {}
    for i, s in enumerate(doc["symbols"]):
        art = s.get("art")
        if "art" in s and not isinstance(art, str):
            raise UnusableInput(f"symbols[{i}].art: must be a string, not {art!r}")
        if isinstance(art, str) and not ART.fullmatch(art):
            raise UnusableInput(f"symbols[{i}].art: {art[:80]!r} is not an art file name (1 to 128 printable "
                                "ASCII characters, no directory: no / \\ : or .., not starting with . or a "
                                "space)")
        groups.setdefault(s["group"], []).append((i, art))
    for group, members in groups.items():
        having = [i for i, art in members if art is not None]
        lacking = [i for i, art in members if art is None]
        if having and lacking:
            raise UnusableInput(f"symbols[{lacking[0]}].art: missing: every symbol of group {group!r} has "
                                f"art or none does (symbols[{having[0]}] has)")
        seen: dict[str, int] = {}
        for i, art in members:
            other = seen.setdefault(str(art).lower(), i) if art is not None else i
            if other != i:
                raise UnusableInput(f"symbols[{i}].art: duplicate art {art!r} in group {group!r} "
                                    f"(symbols[{other}] has it)")
