"""Property: every random bingo spec that `check` accepts generates a pool that audit verifies, every
ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random: 1 to 3 cards, a FREE centre or not, 15 to 32 calls (24 or more with a
`frame`: fewer make a case take minutes, every round refused for want of called B and O numbers,
though it passes), up to four of the
catalogue's shapes in section 1's order and up to two custom patterns (one to three random cell sets
of 2 to 8 cells each) put among them, with increasing prizes, tiers of one to `cards` wins, on pools
of a few hundred tickets. A pattern no card completes as its highest with these calls, calls the
loser probe finds too many, or a custom pattern with a catalogue shape's cell sets
(docs/styles/bingo.md section 2), is a refusal, not a case."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poolgen.styles.bingo import style as bingo
from tests.support.random_specs import generates_and_verifies, refused_in_one_line
from tests.support.spec_docs import base_doc

SHAPES = ["line", "corners", "x", "full", "postage_stamp", "frame", "two_lines"]
CELL_SETS = st.lists(st.lists(st.integers(0, 24), min_size=2, max_size=8, unique=True), min_size=1,
                     max_size=3, unique_by=frozenset)


@st.composite
def games(draw) -> dict:
    cards, free, calls = draw(st.integers(1, 3)), draw(st.booleans()), draw(st.integers(15, 32))
    chosen = draw(st.lists(st.sampled_from(SHAPES), max_size=4, unique=True))
    if "frame" in chosen:  # 16 cells: with fewer calls rounds are refused so often that a case takes minutes
        calls = max(calls, 24)
    listed: list[dict] = [{"shape": s} for s in SHAPES if s in chosen]  # the listed order
    for k in range(draw(st.integers(0 if listed else 1, 2))):  # custom patterns, anywhere in the list
        listed.insert(draw(st.integers(0, len(listed))), {"name": f"Custom {k}", "cells": draw(CELL_SETS)})
    shapes = [dict(p, prize=f"Z{i}") for i, p in enumerate(listed)]  # prizes increase along the list
    numbers = [{"group": "num", "code": str(v), "symbol": str(v)} for v in range(1, 76)]
    if free:
        numbers.append({"group": "num", "code": "FREE", "symbol": "FREE"})
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${i + 1}", "value": f"{i + 1}.00"}
              for i in range(len(shapes))]
    area = {"id": "bg", "style": "bingo", "cards": cards, "free": free, "calls": calls, "numbers": "num",
            "patterns": shapes, "prizes": "pz"}
    per_book = 25
    tickets = per_book * 2 * draw(st.integers(2, 4))
    ways = draw(st.lists(st.lists(st.integers(0, len(shapes) - 1), min_size=1, max_size=cards)
                         .map(lambda w: tuple(sorted(w))), min_size=1, max_size=3, unique=True))
    ways += [(i,) for i in range(len(shapes)) if not any(i in w for w in ways)]  # a pattern no tier wins:
    # refused (a field nothing uses), so every pattern is some tier's
    tiers = [{"id": f"t{t}", "count": draw(st.integers(0, tickets // 8)),
              "wins": [{"area": "bg", "prize": f"Z{i}", "how": "match"} for i in won]}
             for t, won in enumerate(ways)]
    return base_doc([area], numbers + prizes, tiers, pool_tickets=tickets, per_book=per_book,
                    max_wins=cards)


SETTINGS = settings(max_examples=8, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SETTINGS
@given(doc=games())
def test_every_accepted_bingo_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("bg")
    # only a pattern never highest with these calls, too many calls, or a catalogue shape's sets again
    generates_and_verifies(folder, doc, lambda m: "as its highest pattern" in m or "complete no pattern" in m
                           or "the same cell sets as" in m)


BREAK = [
    lambda d: d["areas"][0].__setitem__("cards", 9),
    lambda d: d["areas"][0].__setitem__("calls", 0),
    lambda d: d["areas"][0].__setitem__("free", "yes"),
    lambda d: d["areas"][0]["patterns"].append({"shape": "star", "prize": "Z0"}),
    lambda d: d["areas"][0]["patterns"].append(dict(d["areas"][0]["patterns"][0])),
    lambda d: d["symbols"].pop(0),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "reveal"),
    lambda d: d["tiers"][0]["wins"].extend([{"area": "bg", "prize": "Z0", "how": "match"}] * 4),
    # custom patterns (section 2): a cell out of range, an empty set, a set twice, a catalogue name,
    # a copy of the first pattern's cell sets (after every other, with a higher prize)
    lambda d: d["areas"][0]["patterns"].append({"name": "Q", "cells": [[0, 25]], "prize": "Z9"}),
    lambda d: d["areas"][0]["patterns"].append({"name": "Q", "cells": [[3], []], "prize": "Z9"}),
    lambda d: d["areas"][0]["patterns"].append({"name": "Q", "cells": [[0, 6], [6, 0]], "prize": "Z9"}),
    lambda d: d["areas"][0]["patterns"].append({"name": "Frame", "cells": [[0, 6]], "prize": "Z9"}),
    lambda d: d["areas"][0]["patterns"].append(_same_as_first(d)),
]


def _same_as_first(doc: dict) -> dict:
    """A custom pattern with the first listed pattern's cell sets, reversed, paying a new top prize."""
    first = doc["areas"][0]["patterns"][0]
    sets = first.get("cells") or [list(s) for s in bingo.SHAPES[first["shape"]]]
    doc["symbols"].append({"group": "pz", "code": "Z9", "symbol": "$99", "value": "99.00"})
    return {"name": "Q", "cells": [s[::-1] for s in sets[::-1]], "prize": "Z9"}


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_bingo_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    BREAK[broken](doc)
    refused_in_one_line(tmp_path_factory.mktemp("bad"), doc, broken)
