"""Prints tests/vectors/packs.txt: known answers of the pack-parameter draws (docs/randomness.md,
section 5), each from its own stream of seed bytes(range(32)). Run from the project root:

    PYTHONPATH=. python tests/vectors/make_packs_vectors.py > tests/vectors/packs.txt

tests/poolgen/run/test_packs_vectors.py recomputes every line with the same `lines()`."""

from __future__ import annotations

import tempfile
from pathlib import Path

SEED = bytes(range(32))
LABEL = ("poolgen/vectors", "packs")


def lines() -> list[str]:
    from poolgen.loader import load_spec  # imported here so the header above prints without them
    from poolgen.rng import Weights, derive_stream
    from poolgen.run.build import build_pool
    from poolgen.run.merkle import root
    from poolgen.run.packs import Rules, arrange
    from poolgen.run.packs.beside import beside_per_pack, beside_tilt
    from poolgen.run.packs.capped import capped_per_pack, mixed_tilt, pair_tilt, pairs_per_pack
    from poolgen.run.packs.caps import caps_per_pack
    from poolgen.run.packs.composition import tilt, winners_per_pack
    from tests.support.blocks import blocks_variant
    from tests.support.packs import packs_variant

    def stream(name: str):  # one stream per line
        return derive_stream(SEED, *LABEL, name)

    out = []
    big = [3**100, 2**158, 1, 0, 5**68]
    picks = Weights(big).choices(stream("weights"), 12)
    out.append(f"weights([3^100, 2^158, 1, 0, 5^68], 12) = {' '.join(map(str, picks.tolist()))}")
    out.append(f"tilt(300, 1000, 87900, 80, 110) = {tilt(300, 1000, 87900, 80, 110)}")
    per = winners_per_pack(stream("winners"), 300, 10, 879, 80, 110)
    out.append(f"winners_per_pack(300, 10, 879, 80, 110) = {' '.join(map(str, per))}")
    small = dict(m=6, books=3, counts=(10, 5, 3), prizes=(0, 100, 500))
    exact = Rules(**small, lo=2, hi=4, min_cents=None, caps=(), spacing=())
    out.append(f"arrange(3x6, winners 2..4) = {''.join(map(str, arrange(stream('exact'), exact).tolist()))}")
    chain = Rules(**small, lo=0, hi=6, min_cents=600, caps=((frozenset({2}), 2),),
                  spacing=((frozenset({2}), 2),))
    seq = "".join(map(str, arrange(stream("chain"), chain).tolist()))
    out.append(f"arrange(3x6, $6, cap, spacing) = {seq}")
    out.append(f"mixed_tilt(300, 1000, 87900, 80, 110, 450) = {mixed_tilt(300, 1000, 87900, 80, 110, 450)}")
    w, c = capped_per_pack(stream("capped"), 300, 10, 879, 80, 110, 4)
    said = f"{' '.join(map(str, w))} / {''.join(map(str, c))}"
    out.append(f"capped_per_pack(300, 10, 879, 80, 110, 4) = {said}")
    capped = Rules(m=4, books=4, counts=(9, 4, 3), prizes=(0, 100, 500), lo=1, hi=2, min_cents=None,
                   caps=((frozenset({2}), 1),), spacing=())
    seq = "".join(map(str, arrange(stream("capped-arrange"), capped).tolist()))
    out.append(f"arrange(4x4, winners 1..2, B at most 1) = {seq}")
    u, v = pair_tilt(300, 1000, 87900, 80, 110, 950, 2)
    out.append(f"pair_tilt(300, 1000, 87900, 80, 110, 950, 2) = {u} {v}")
    w, c = pairs_per_pack(stream("pairs"), 300, 10, 879, 80, 110, 9, 2)
    said = f"{' '.join(map(str, w))} / {''.join(map(str, c))}"
    out.append(f"pairs_per_pack(300, 10, 879, 80, 110, 9, 2) = {said}")
    u, v = pair_tilt(300, 1000, 87900, 80, 110, 450, 30, 10)
    out.append(f"pair_tilt(300, 1000, 87900, 80, 110, 450, 30, distance 10) = {u} {v}")
    w, c = pairs_per_pack(stream("spaced-pairs"), 300, 10, 879, 80, 110, 9, 30, 10)
    said = f"{' '.join(map(str, w))} / {' '.join(map(str, c))}"
    out.append(f"pairs_per_pack(300, 10, 879, 80, 110, 9, 30, distance 10) = {said}")
    spaced = Rules(**small, lo=2, hi=4, min_cents=None, caps=(), spacing=((frozenset({1}), 3),))
    seq = "".join(map(str, arrange(stream("spaced-arrange"), spaced).tolist()))
    out.append(f"arrange(3x6, winners 2..4, A 3 apart) = {seq}")
    spaced = Rules(**small, lo=0, hi=6, min_cents=None, caps=((frozenset({1, 2}), 3),),
                   spacing=((frozenset({1, 2}), 2),))
    seq = "".join(map(str, arrange(stream("spaced-capped"), spaced).tolist()))
    out.append(f"arrange(3x6, A or B 2 apart and at most 3) = {seq}")
    u, v = beside_tilt(300, 1000, 87900, 80, 110, 450, 500, 1, 1)
    out.append(f"beside tilt(300, 1000, 87900, 80, 110, 450, 500, 1) = {u} {v}")
    w, c1, c2 = beside_per_pack(stream("beside"), 300, 10, 879, 80, 110, 4, 5, 1)
    said = f"{' '.join(map(str, w))} / {''.join(map(str, c1))} / {''.join(map(str, c2))}"
    out.append(f"beside_per_pack(300, 10, 879, 80, 110, 4, 5, 1) = {said}")
    w, c1, c2 = beside_per_pack(stream("beside-spaced"), 300, 10, 879, 80, 110, 4, 9, 30, 10)
    said = f"{' '.join(map(str, w))} / {''.join(map(str, c1))} / {' '.join(map(str, c2))}"
    out.append(f"beside_per_pack(300, 10, 879, 80, 110, 4, 9, 30, distance 10) = {said}")
    a, b = frozenset({1}), frozenset({2})
    beside = Rules(m=4, books=4, counts=(7, 3, 3, 3), prizes=(0, 100, 500, 200), lo=1, hi=3, min_cents=None,
                   caps=((a, 1), (b, 1)), spacing=())
    seq = "".join(map(str, arrange(stream("beside-arrange"), beside).tolist()))
    out.append(f"arrange(4x4, winners 1..3, A at most 1, B at most 1) = {seq}")
    beside = Rules(**small, lo=0, hi=6, min_cents=None, caps=((a, 2), (b, 1)), spacing=((a, 2),))
    seq = "".join(map(str, arrange(stream("beside-spaced-arrange"), beside).tolist()))
    out.append(f"arrange(3x6, B at most 1, A 2 apart and at most 2) = {seq}")
    beside = Rules(**small, lo=2, hi=4, min_cents=None, caps=((b, 1),), spacing=((a | b, 2),))
    seq = "".join(map(str, arrange(stream("beside-nested-arrange"), beside).tolist()))
    out.append(f"arrange(3x6, winners 2..4, B at most 1, A or B 2 apart) = {seq}")
    c = caps_per_pack(stream("caps"), 300, 10, [15, 18, 8], [2, 2, 1])
    said = " / ".join(" ".join(map(str, x)) for x in c)
    out.append(f"caps_per_pack(300, 10, [15, 18, 8], [2, 2, 1]) = {said}")
    caps = Rules(m=4, books=4, counts=(8, 3, 2, 3), prizes=(0, 100, 500, 200), lo=0, hi=4, min_cents=None,
                 caps=((a, 1), (b, 1), (frozenset({3}), 2)), spacing=())
    seq = "".join(map(str, arrange(stream("caps-arrange"), caps).tolist()))
    out.append(f"arrange(4x4, A at most 1, B at most 1, D at most 2) = {seq}")
    caps = Rules(m=6, books=3, counts=(10, 4, 3, 1), prizes=(0, 100, 500, 200), lo=0, hi=6, min_cents=None,
                 caps=((a, 2), (b, 2)), spacing=())
    seq = "".join(map(str, arrange(stream("caps-two"), caps).tolist()))
    out.append(f"arrange(3x6, A at most 2, B at most 2) = {seq}")
    several = Rules(**small, lo=0, hi=6, min_cents=None, caps=(), spacing=((a, 2), (b, 3)))
    seq = "".join(map(str, arrange(stream("several-arrange"), several).tolist()))
    out.append(f"arrange(3x6, A 2 apart, B 3 apart) = {seq}")
    several = Rules(**small, lo=2, hi=4, min_cents=None, caps=(), spacing=((a | b, 2), (b, 3)))
    seq = "".join(map(str, arrange(stream("several-nested"), several).tolist()))
    out.append(f"arrange(3x6, winners 2..4, A or B 2 apart, B 3 apart) = {seq}")
    rejected = Rules(**small, lo=0, hi=6, min_cents=None, caps=((b, 1),), spacing=((a, 3), (a | b, 2)))
    seq = "".join(map(str, arrange(stream("rejected-spacing"), rejected).tolist()))
    out.append(f"arrange(3x6, B at most 1, A 3 apart, A or B 2 apart) = {seq}")
    rejected = Rules(**small, lo=2, hi=4, min_cents=None, caps=((a, 2),), spacing=((b, 2),))
    seq = "".join(map(str, arrange(stream("rejected-cap"), rejected).tolist()))
    out.append(f"arrange(3x6, winners 2..4, A at most 2, B 2 apart) = {seq}")
    rejected = Rules(m=4, books=4, counts=(8, 3, 2, 3), prizes=(0, 100, 500, 200), lo=1, hi=3, min_cents=None,
                     caps=((a, 1), (b, 1), (frozenset({3}), 2)), spacing=())
    seq = "".join(map(str, arrange(stream("rejected-caps"), rejected).tolist()))
    out.append(f"arrange(4x4, winners 1..3, A at most 1, B at most 1, D at most 2) = {seq}")
    with tempfile.TemporaryDirectory() as folder:
        game = load_spec(packs_variant(Path(folder)))
        out.append(f"pool happy_holidays_packs/10 p1 = {root(build_pool(game, game.pools[0], SEED)).hex()}")
        game = load_spec(blocks_variant(Path(folder)))
        out.append(f"pool hand_to_hand_blocks/50 d1.00 = {root(build_pool(game, game.pools[0], SEED)).hex()}")
    return out


if __name__ == "__main__":
    print("# Known answers of the pack-parameter draws (docs/randomness.md, section 5), seed")
    print("# bytes(range(32)), one stream per line: derive_stream(seed, \"poolgen/vectors\", \"packs\",")
    print("# NAME) (the five lines of the exact capped draws, 5.6 and 5.7, added on branch i24-blocks; the")
    print("# four of the exact spaced draws, 5.8, on branch i24-spacing; the six of a cap of one beside a")
    print("# second rule, 5.9, on branch caps-exact; the three of several caps alone, 5.10, on branch caps;")
    print("# the two of several spacing rules alone, 5.12, on branch spacing11; the three of caps and")
    print("# spacing rules together by rejection, 5.13, on branch cap12; each before the last two, every")
    print("# earlier line unchanged).")
    print("# NAME, in the order of the lines that draw (a tilt draws nothing): weights, winners,")
    print("# exact, chain, capped, capped-arrange, pairs, spaced-pairs, spaced-arrange, spaced-capped,")
    print("# beside, beside-spaced, beside-arrange, beside-spaced-arrange, beside-nested-arrange, caps,")
    print("# caps-arrange, caps-two, several-arrange, several-nested, rejected-spacing, rejected-cap,")
    print("# rejected-caps. An arrange line's pool holds, losers")
    print("# first, then tiers A, B, D (indices 1, 2, 3; $1, $5, $2): 3x6 10 5 3 (caps-two 10 4 3 1),")
    print("# 4x4 9 4 3 (beside-arrange 7 3 3 3, caps-arrange and rejected-caps 8 3 2 3). The other lines'")
    print("# figures are m, B,")
    print("# W, lo, hi, then the held")
    print("# tickets C (5.9's: C1, C2), k and the distance d where they apply, as docs/randomness.md")
    print("# names them (5.10's: m, B, each cap's C, each cap's k).")
    print("# The last two lines are the Merkle roots of build_pool on")
    print("# specs/examples/happy_holidays_packs.toml cut to 100 packs (tests/support/packs.py) and on")
    print("# specs/examples/hand_to_hand_blocks.toml cut to 200 blocks of 100 (tests/support/blocks.py).")
    print("# Printed by tests/vectors/make_packs_vectors.py on 2026-12-02 (branch i24-packs; the eInstant")
    print("# line on branch i24-blocks); a changed line means a seed no longer gives the pools it gave.")
    print("# The happy_holidays_packs line was printed again on main after df1c4fc: a run laid out again for")
    print("# the neighbour rule is drawn with the pool's mix (docs/randomness.md 5.1), not its own rows'.")
    print("# The chain's three lines (\"$6, cap, spacing\" and both pools) were printed again on main")
    print("# when the chain of 5.3 went from 6 to 12 sweeps (2026-12-02: step 8's pair tests found 6 short).")
    for line in lines():
        print(line)
