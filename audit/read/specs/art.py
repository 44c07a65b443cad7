"""What a format-2 spec says of its symbols' art (step 5, --spec): the printer's art-library files its
`[[symbols]]` name in `art` (docs/new-game.md), which the manifest's `print.art` carries for the
imaging export (docs/validation.md, section 4) as, per spot prefix, each shown symbol's code and art.

The claim is on (code, art) pairs, not spots (which spot shows which group is the styles' business,
steps 4 and 9): every pair the manifest states is one the spec states, and every pair the spec states
is on some spot of the manifest. A changed, added or dropped art reference is a problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.read.manifest import Manifest

__all__ = ["SpecArt", "spec_art"]


def spec_art(doc: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """(code, art) of every symbol of the spec that has `art`, in the spec's order."""
    return tuple((str(s["code"]), str(s["art"])) for s in doc["symbols"] if "art" in s)


@dataclass(frozen=True)
class SpecArt:
    """The manifest's `print.art` states exactly the spec's art references."""

    pairs: tuple[tuple[str, str], ...]  # (code, art) of the spec's symbols with art

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
        return problems
