"""The third engine of pack parameters (tests/third_engines/packs.py) gives every exact line of
tests/vectors/packs.txt: the tilts of 5.2, 5.6, 5.7, 5.8 and 5.9 at Happy Holidays size, the
weighted choices, the winners, caps and pairs per pack of 10 packs of 300, and the arrangements of
small pools under each exact section (5.12's and 5.13's included); each line from the stream
derive_stream(seed, "poolgen/vectors", "packs", NAME) with NAME and the pools' counts as the file's
header states them. The chain's line and the two pools' roots are not the engine's."""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import pytest

from tests.support import VECTORS
from tests.third_engines import packs
from tests.third_engines.packs_draws import apart, choices, pair_tilt, tilt, winners_per_pack
from tests.third_engines.split import Stream

A, B, D = frozenset({1}), frozenset({2}), frozenset({3})
M, PACKS, WINS = 300, 10, 879  # the per-pack lines: 10 packs of 300, 879 winners, 80..110 a pack


def _stream(name: str) -> Stream:
    return Stream(bytes(range(32)), ("poolgen/vectors", "packs", name))


def _joined(xs: list[int], sep: str = " ") -> str:
    return sep.join(map(str, xs))


def _per_pack(order: list[int], sets: list[frozenset[int]]) -> list[list[int]]:
    """Each pack's winners, then its tickets of each set."""
    cut = [order[b * M:(b + 1) * M] for b in range(len(order) // M)]
    return [[sum(t != 0 for t in p) for p in cut]] + [[sum(t in s for t in p) for p in cut] for s in sets]


def _arranged(name: str, counts: tuple[int, ...], m: int, rules: packs.Rules) -> str:
    """A small pool's tier order as the section its rules get draws it, from the stream NAME."""
    return _joined(packs.draw(_stream(name), [*counts], m, rules)[1], "")


def _pair_tilt(k: int, held: int, d: int = 1, first: int = 0) -> str:
    f0 = {(w, c): apart(M, c, d) * comb(M - c, w - c) for w in range(80, 111) for c in range(min(k, w) + 1)}
    f1 = {(w, c): (w - c) * f for (w, c), f in f0.items() if w > c}
    return _joined(list(pair_tilt([(1000 - first, f0), (first, f1)], 87900, held, 80, 110, k)))


def _capped(name: str, held: int, k: int, d: int | None = None) -> str:
    counts = [PACKS * M - WINS, WINS - held, held]
    order = (packs.one_cap(_stream(name), counts, M, 80, 110, B, k) if d is None
             else packs.one_spacing(_stream(name), counts, M, 80, 110, B, d, k))
    w, c = _per_pack(order, [B])
    return f"{_joined(w)} / {_joined(c, '' if d is None else ' ')}"


def _beside(name: str, first: int, second: int, k: int, d: int | None) -> str:
    counts = [PACKS * M - WINS, WINS - first - second, first, second]
    w, c1, c2 = _per_pack(packs.beside(_stream(name), counts, M, 80, 110, B, D, k, d), [B, D])
    return f"{_joined(w)} / {_joined(c1, '')} / {_joined(c2, '' if d is None else ' ')}"


def _caps() -> str:
    order = packs.caps_alone(_stream("caps"), [PACKS * M - 41, 15, 18, 8], M, [(A, 2), (B, 2), (D, 1)])
    return " / ".join(_joined(x) for x in _per_pack(order, [A, B, D])[1:])


def _fraction(u: int) -> str:
    num, den = packs.lowest(u)
    return f"{num}/{den}"


LINES: dict[str, Callable[[], str]] = {
    "weights([3^100, 2^158, 1, 0, 5^68], 12)":
        lambda: _joined(choices(_stream("weights"), [3**100, 2**158, 1, 0, 5**68], 12)),
    "tilt(300, 1000, 87900, 80, 110)": lambda: _fraction(tilt(M, 1000, 87900, 80, 110)),
    "winners_per_pack(300, 10, 879, 80, 110)":
        lambda: _joined(winners_per_pack(_stream("winners"), M, 10, WINS, 80, 110)),
    "arrange(3x6, winners 2..4)": lambda: _arranged("exact", (10, 5, 3), 6, packs.Rules(2, 4)),
    "mixed_tilt(300, 1000, 87900, 80, 110, 450)":
        lambda: _fraction(packs.mixed_tilt(M, 1000, 87900, 80, 110, 450)),
    "capped_per_pack(300, 10, 879, 80, 110, 4)": lambda: _capped("capped", 4, 1),
    "arrange(4x4, winners 1..2, B at most 1)":
        lambda: _arranged("capped-arrange", (9, 4, 3), 4, packs.Rules(1, 2, caps=[(B, 1)])),
    "pair_tilt(300, 1000, 87900, 80, 110, 950, 2)": lambda: _pair_tilt(2, 950),
    "pairs_per_pack(300, 10, 879, 80, 110, 9, 2)": lambda: _capped("pairs", 9, 2),
    "pair_tilt(300, 1000, 87900, 80, 110, 450, 30, distance 10)": lambda: _pair_tilt(30, 450, 10),
    "pairs_per_pack(300, 10, 879, 80, 110, 9, 30, distance 10)": lambda: _capped("spaced-pairs", 9, 30, 10),
    "arrange(3x6, winners 2..4, A 3 apart)":
        lambda: _arranged("spaced-arrange", (10, 5, 3), 6, packs.Rules(2, 4, spacing=[(A, 3)])),
    "arrange(3x6, A or B 2 apart and at most 3)":
        lambda: _arranged("spaced-capped", (10, 5, 3), 6,
                          packs.Rules(caps=[(A | B, 3)], spacing=[(A | B, 2)])),
    "beside tilt(300, 1000, 87900, 80, 110, 450, 500, 1)": lambda: _pair_tilt(1, 500, first=450),
    "beside_per_pack(300, 10, 879, 80, 110, 4, 5, 1)": lambda: _beside("beside", 4, 5, 1, None),
    "beside_per_pack(300, 10, 879, 80, 110, 4, 9, 30, distance 10)":
        lambda: _beside("beside-spaced", 4, 9, 30, 10),
    "arrange(4x4, winners 1..3, A at most 1, B at most 1)":
        lambda: _arranged("beside-arrange", (7, 3, 3, 3), 4, packs.Rules(1, 3, caps=[(A, 1), (B, 1)])),
    "arrange(3x6, B at most 1, A 2 apart and at most 2)":
        lambda: _arranged("beside-spaced-arrange", (10, 5, 3), 6,
                          packs.Rules(caps=[(A, 2), (B, 1)], spacing=[(A, 2)])),
    "arrange(3x6, winners 2..4, B at most 1, A or B 2 apart)":
        lambda: _arranged("beside-nested-arrange", (10, 5, 3), 6,
                          packs.Rules(2, 4, caps=[(B, 1)], spacing=[(A | B, 2)])),
    "caps_per_pack(300, 10, [15, 18, 8], [2, 2, 1])": _caps,
    "arrange(4x4, A at most 1, B at most 1, D at most 2)":
        lambda: _arranged("caps-arrange", (8, 3, 2, 3), 4, packs.Rules(caps=[(A, 1), (B, 1), (D, 2)])),
    "arrange(3x6, A at most 2, B at most 2)":
        lambda: _arranged("caps-two", (10, 4, 3, 1), 6, packs.Rules(caps=[(A, 2), (B, 2)])),
    "arrange(3x6, A 2 apart, B 3 apart)":
        lambda: _arranged("several-arrange", (10, 5, 3), 6, packs.Rules(spacing=[(A, 2), (B, 3)])),
    "arrange(3x6, winners 2..4, A or B 2 apart, B 3 apart)":
        lambda: _arranged("several-nested", (10, 5, 3), 6, packs.Rules(2, 4, spacing=[(A | B, 2), (B, 3)])),
    "arrange(3x6, B at most 1, A 3 apart, A or B 2 apart)":
        lambda: _arranged("rejected-spacing", (10, 5, 3), 6,
                          packs.Rules(caps=[(B, 1)], spacing=[(A, 3), (A | B, 2)])),
    "arrange(3x6, winners 2..4, A at most 2, B 2 apart)":
        lambda: _arranged("rejected-cap", (10, 5, 3), 6, packs.Rules(2, 4, caps=[(A, 2)], spacing=[(B, 2)])),
    "arrange(4x4, winners 1..3, A at most 1, B at most 1, D at most 2)":
        lambda: _arranged("rejected-caps", (8, 3, 2, 3), 4, packs.Rules(1, 3, caps=[(A, 1), (B, 1), (D, 2)])),
}


def _known() -> dict[str, str]:
    lines = [line for line in (VECTORS / "packs.txt").read_text().splitlines() if not line.startswith("#")]
    return dict(line.split(" = ", 1) for line in lines)


def test_every_line_but_the_chains_and_the_pools_is_the_engines():
    assert sorted(set(_known()) - set(LINES)) == ["arrange(3x6, $6, cap, spacing)",
                                                  "pool hand_to_hand_blocks/50 d1.00",
                                                  "pool happy_holidays_packs/10 p1"]


@pytest.mark.parametrize("line", LINES)
def test_the_engine_gives_the_known_answer(line):
    assert LINES[line]() == _known()[line]
