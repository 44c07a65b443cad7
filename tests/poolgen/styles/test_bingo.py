"""bingo layouts (poolgen/styles/bingo/style.py) read back here from docs/styles/bingo.md alone: a full pool
of Bingo Bonanza (specs/examples/bingo_bonanza.toml) whose every ticket's prize, recomputed from its
cards and the caller's numbers, is its tier's; a line card drawn as section 7 draws it is, given the
calls, distributed as plain rejection draws it; the loader refuses, in one line, what it cannot lay
out."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from poolgen.deliverables.imaging import art_spots, spot_alphabets
from poolgen.game.spots import area_spots
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation, row_permutations
from poolgen.styles.bingo import style as bingo
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/bingo_bonanza.toml"
ROWS = [[r * 5 + c for c in range(5)] for r in range(5)]
COLS = [[r * 5 + c for r in range(5)] for c in range(5)]
DIAG = [[0, 6, 12, 18, 24], [4, 8, 12, 16, 20]]
SHAPES = [ROWS + COLS + DIAG, [[0, 4, 20, 24]], [DIAG[0] + DIAG[1]], [list(range(25))]]  # line .. full
CENTS = [200, 500, 5000, 50000]  # the example's patterns, in order


def test_every_ticket_of_a_full_pool_pays_what_its_cards_and_calls_show():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    n = tiers.size
    calls = np.stack([cols[f"bingo_call_{i}"] for i in range(30)], axis=1).astype(np.int64) + 1
    assert calls.min() >= 1 and calls.max() <= 75
    assert (np.diff(np.sort(calls, axis=1), axis=1) > 0).all()  # distinct
    called = np.zeros((n, 77), dtype=bool)
    np.put_along_axis(called, calls, True, axis=1)
    paid = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    for k in range(2):
        card = np.stack([cols[f"bingo_card{k}_{c}"] for c in range(25)], axis=1).astype(np.int64)
        assert (card[:, 12] == 75).all()  # FREE
        numbers = np.delete(card, 12, axis=1) + 1
        column = np.delete(np.arange(25) % 5, 12)
        assert ((numbers - 1) // 15 == column).all()
        assert (np.diff(np.sort(numbers, axis=1), axis=1) > 0).all()
        marked = np.take_along_axis(called, np.where(card == 75, 76, card + 1), axis=1)
        marked[:, 12] = True
        best = np.full(n, -1)
        for p, sets in enumerate(SHAPES):
            best[np.logical_or.reduce([marked[:, s].all(axis=1) for s in sets])] = p
        paid += np.where(best >= 0, np.array(CENTS + [0])[best], 0)
        wins += best >= 0
    want = np.array([t.prize_cents for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(paid, want)
    np.testing.assert_array_equal(wins, np.array([len(spec.play.wins[t.id]) for t in pool.tiers])[tiers])
    assert np.bincount(called[tiers == 0].sum(axis=1)).size == 31  # every loser shows 30 calls
    # Known answer: the digest of every column (sorted by name: name, NUL, its uint8 bytes), as the
    # code before custom patterns (commit d3a2aad) lays this pool out: a catalogue-only spec keeps
    # every byte.
    digest = hashlib.sha256()
    for name in sorted(cols):
        digest.update(name.encode() + b"\0" + np.ascontiguousarray(cols[name], dtype=np.uint8).tobytes())
    assert digest.hexdigest() == "3a420726d4a270f6ccdf094fed0c9067a88b8ef4fb3ed4daf6488ef9fe7048e3"


def _doc(**area: object) -> dict:
    numbers = [{"group": "num", "code": str(v), "symbol": str(v)} for v in range(1, 76)]
    numbers.append({"group": "num", "code": "FREE", "symbol": "FREE"})
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "bg", "style": "bingo", "cards": 1, "free": True, "calls": 30, "numbers": "num",
            "patterns": [{"shape": "line", "prize": "1"}, {"shape": "x", "prize": "2"}], "prizes": "pz"}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "bg", "prize": "1", "how": "match"}]}]
    return base_doc([base], numbers + prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"cards": 9}, "areas[0].cards: must be at most 8, got 9"),
    ({"calls": 75}, "areas[0].calls: must be at most 74, got 75"),
    ({"free": False}, "areas[0].numbers: the symbols of the numbers 1 to 75"),
    ({"patterns": [{"shape": "star", "prize": "1"}]}, "areas[0].patterns[0].shape: 'star': one of line"),
    ({"patterns": [{"shape": "x", "prize": "2"}, {"shape": "line", "prize": "1"}]},
     "areas[0].patterns[1].prize: the patterns are listed by increasing prize"),
    ({"patterns": [{"shape": "x", "prize": "1"}, {"shape": "line", "prize": "2"}]},
     "areas[0].patterns[0]: no card with 30 calls completes 'x' as its highest pattern"),
    ({"calls": 6, "patterns": [{"shape": "full", "prize": "1"}]},
     "areas[0].patterns[0]: no card with 6 calls completes 'full' as its highest pattern"),
    ({"calls": 70}, "areas[0].calls: fewer than 8 of 1,024 draws of the calls and 1 card(s) complete no "
                    "pattern on any card with 70 calls"),
    # a losing ticket's cards must all lose in one round: 45 calls leave one card losing often enough
    # (test_one_card_of_45_calls_still_checks), never all eight
    ({"cards": 8, "calls": 45}, "areas[0].calls: fewer than 8 of 1,024 draws of the calls and 8 card(s) "
                                "complete no pattern on any card with 45 calls"),
    ({"patterns": []}, "areas[0].patterns: list the patterns that win"),
    # custom patterns (section 2): their cells, names and sameness
    ({"patterns": [{"name": "T", "cells": [[0, 25]], "prize": "1"}]},
     "areas[0].patterns[0].cells[0]: 25 is not a cell 0..24 (row k // 5, column k % 5)"),
    ({"patterns": [{"name": "T", "cells": [[0, True]], "prize": "1"}]},
     "areas[0].patterns[0].cells[0]: True is not a cell 0..24"),
    ({"patterns": [{"name": "T", "cells": [[]], "prize": "1"}]},
     "areas[0].patterns[0].cells[0]: an empty cell set: list one or more cells 0..24"),
    ({"patterns": [{"name": "T", "cells": [], "prize": "1"}]},
     "areas[0].patterns[0].cells: a list of 1 to 256 cell sets (lists of cells 0..24)"),
    ({"patterns": [{"name": "T", "cells": [[0, 1, 0]], "prize": "1"}]},
     "areas[0].patterns[0].cells[0]: a cell listed twice"),
    ({"patterns": [{"name": "T", "cells": [[0, 1, 2], [2, 1, 0]], "prize": "1"}]},
     "areas[0].patterns[0].cells[1]: the same cells as cells[0]"),
    ({"patterns": [{"shape": "corners", "prize": "1"},
                   {"name": "C", "cells": [[24, 20, 4, 0]], "prize": "2"}]},
     "areas[0].patterns[1]: the same cell sets as patterns[0] ('corners')"),
    ({"patterns": [{"name": "A", "cells": [[0, 1], [5, 6]], "prize": "1"},
                   {"name": "B", "cells": [[6, 5], [1, 0]], "prize": "2"}]},
     "areas[0].patterns[1]: the same cell sets as patterns[0] ('A')"),
    ({"patterns": [{"name": "Line", "cells": [[0, 1]], "prize": "1"}]},
     "areas[0].patterns[0].name: 'Line': 1 to 24 letters, digits, spaces, '-' or \"'\" (a letter or digit "
     "first), not a catalogue shape's name nor another pattern's"),
    ({"patterns": [{"name": "t", "cells": [[0, 1]], "prize": "1"},
                   {"name": "T", "cells": [[0, 2]], "prize": "2"}]},
     "areas[0].patterns[1].name: 'T': 1 to 24 letters"),
    ({"patterns": [{"name": " T", "cells": [[0, 1]], "prize": "1"}]},
     "areas[0].patterns[0].name: ' T': 1 to"),
    ({"patterns": [{"shape": "line", "cells": [[0, 1]], "prize": "1"}]},
     "areas[0].patterns[0]: must be a table { shape, prize } or { name, cells, prize }"),
    ({"patterns": [{"name": "TOP", "cells": [[0, 1, 2, 3, 4]], "prize": "1"},
                   {"shape": "line", "prize": "2"}]},
     "areas[0].patterns[0]: no card with 30 calls completes 'TOP' as its highest pattern"),
    ({"free": True, "patterns": [{"name": "DOT", "cells": [[12]], "prize": "1"}]},
     "areas[0].calls: fewer than 8 of 1,024 draws of the calls and 1 card(s) complete no pattern on any "
     "card with 30 calls"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_one_card_of_45_calls_still_checks(tmp_path):
    """The eight-card refusal above is the cards', not the calls': one card of 45 calls checks."""
    doc = _doc(cards=1, calls=45)
    doc["tiers"].append({"id": "x", "count": 5, "wins": [{"area": "bg", "prize": "2", "how": "match"}]})
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert load_spec(tmp_path / "g.toml").play.areas[0].params.calls == 45


def test_eight_cards_lay_out_and_their_spots_have_the_numbers_as_four_cards_had(tmp_path):
    """Cards 5 to 8 (section 2) have their columns, each an index into `numbers` (section 4); an area of
    at most four cards keeps the four spot rules it had (the imaging art entries list them)."""
    doc = _doc(cards=8, calls=20)
    doc["play"]["max_wins"] = 8
    doc["tiers"].append({"id": "e", "count": 5, "wins": [{"area": "bg", "prize": "1", "how": "match"}] * 3
                         + [{"area": "bg", "prize": "2", "how": "match"}]})
    (tmp_path / "g.toml").write_text(dumps(doc))
    spec = load_spec(tmp_path / "g.toml")
    area = spec.play.areas[0]
    assert [suffix for suffix, _ in area_spots(area)] == ["_call_"] + [f"_card{k}_" for k in range(8)]
    pool = spec.pools[0]
    tiers = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    assert len(cols) == 20 + 8 * 25 and "bg_card7_24" in cols
    alphabets = spot_alphabets(spec, list(cols))
    assert alphabets is not None and alphabets["bg_card7_0"][75] == ("FREE", "FREE", "")
    called = np.zeros((tiers.size, 77), dtype=bool)
    np.put_along_axis(called, np.stack([cols[f"bg_call_{i}"] for i in range(20)], axis=1) + 1, True, axis=1)
    won = np.zeros((tiers.size, 2), dtype=np.int64)
    for k in range(8):
        card = np.stack([cols[f"bg_card{k}_{c}"] for c in range(25)], axis=1).astype(np.int64)
        marked = np.take_along_axis(called, np.where(card == 75, 76, card + 1), axis=1)
        marked[:, 12] = True
        x = marked[:, DIAG[0] + DIAG[1]].all(axis=1)
        line = np.logical_or.reduce([marked[:, s].all(axis=1) for s in SHAPES[0]])
        won[:, 0] += line & ~x
        won[:, 1] += x
    np.testing.assert_array_equal(won, np.array([[0, 0], [1, 0], [3, 1]])[tiers])
    two = load_spec(EXAMPLE).play.areas[0]
    assert [suffix for suffix, _ in area_spots(two)] == ["_call_"] + [f"_card{k}_" for k in range(4)]


@pytest.mark.parametrize(("cards", "listed"), [(1, 4), (2, 4), (4, 4), (5, 5), (8, 8)])
def test_print_art_lists_four_cards_spots_up_to_four_cards_then_each_cards(tmp_path, cards, listed):
    """docs/styles/bingo.md section 4 and docs/manifest.md: with art on the numbers, `print.art` lists
    `_call_` and the prefixes of cards 0..3 for an area of at most four cards (those without columns
    too, as when four was the most), else of each of its cards."""
    doc = _doc(cards=cards, calls=20)
    doc["tiers"].append({"id": "x", "count": 5, "wins": [{"area": "bg", "prize": "2", "how": "match"}]})
    for s in doc["symbols"]:
        if s["group"] == "num":
            s["art"] = f"n{s['code']}.eps"
    (tmp_path / "g.toml").write_text(dumps(doc))
    spots = [e["spots"] for e in art_spots(load_spec(tmp_path / "g.toml"))]
    assert spots == ["bg_call_"] + [f"bg_card{k}_" for k in range(listed)]


def test_the_manifest_entry_of_catalogue_shapes_is_as_before_and_lists_a_custom_patterns_cells():
    """Section 3: a spec of catalogue shapes only has the entry it had before custom patterns (its
    runs keep their bytes); a custom pattern's cells are listed, each set increasing, sets in order."""
    old = bingo.entry(load_spec(EXAMPLE).play.areas[0].params)
    assert old["patterns"] == [{"shape": "line", "prize": "2"}, {"shape": "corners", "prize": "5"},
                               {"shape": "x", "prize": "50"}, {"shape": "full", "prize": "500"}]
    assert list(old) == ["numbers", "cards", "free", "calls", "patterns", "prizes"]
    params = load_spec("specs/examples/pattern_bingo.toml").play.areas[0].params
    assert bingo.entry(params)["patterns"] == [
        {"shape": "line", "prize": "2"}, {"shape": "postage_stamp", "prize": "4"},
        {"shape": "two_lines", "prize": "10"},
        {"name": "T", "cells": [[0, 1, 2, 3, 4, 7, 12, 17, 22]], "prize": "25"},
        {"name": "L", "cells": [[0, 5, 10, 15, 20, 21, 22, 23, 24], [0, 1, 2, 3, 4, 9, 14, 19, 24],
                                [0, 1, 2, 3, 4, 5, 10, 15, 20], [4, 9, 14, 19, 20, 21, 22, 23, 24]],
         "prize": "50"},
        {"shape": "frame", "prize": "500"}]


def test_the_catalogue_is_the_contracts():
    """Section 1's new shapes, cell for cell; `two_lines` is every pair of lines, 66 sets all different."""
    assert bingo.SHAPES["postage_stamp"] == ((0, 1, 5, 6), (3, 4, 8, 9), (15, 16, 20, 21), (18, 19, 23, 24))
    assert bingo.SHAPES["frame"] == ((0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 19, 20, 21, 22, 23, 24),)
    pairs = bingo.SHAPES["two_lines"]
    assert len(pairs) == len(set(pairs)) == 66
    assert pairs[0] == tuple(range(10))  # rows 0 and 1
    assert pairs[-1] == (0, 4, 6, 8, 12, 16, 18, 20, 24)  # the two diagonals
    assert pairs[4] == (0, 1, 2, 3, 4, 5, 10, 15, 20)  # (0, 5): row 0 and column 0


def _first_line(marked: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """How many kept cards have each of the 12 lines as their first complete one."""
    complete = np.stack([marked[:, s].all(axis=1) for s in SHAPES[0]], axis=1)[keep]
    return np.bincount(complete.argmax(axis=1), minlength=12)


def test_a_line_card_given_the_calls_is_as_plain_rejection_draws_it():
    """Section 7's forced proposal with its correction against plain rejection (uniform cards kept when
    a line is their highest pattern), for one set of calls; without the correction it is far off."""
    params = load_spec(EXAMPLE).play.areas[0].params
    calls = row_permutations(derive_stream(SEED_A, "test", "calls"), 1, 75)[0, :30] + 1
    one = np.zeros(76, dtype=bool)
    one[calls] = True
    stream = derive_stream(SEED_A, "test", "forced")
    called = np.repeat(one[None], 20_000, axis=0)
    card, ok = bingo.forced_cards(stream, params, called, 0)
    marked = bingo.marks(card, called)
    ok &= bingo.best(params, marked) == 0
    accepted = bingo.weight_accept(stream, params, called, marked, 0, ok)
    many = np.repeat(one[None], 300_000, axis=0)
    cards = bingo.uniform_cards(derive_stream(SEED_A, "test", "plain"), many.shape[0], True)
    plain = bingo.marks(cards, many)
    reference = _first_line(plain, bingo.best(params, plain) == 0)
    used = reference > 0
    corrected = chi2_contingency(np.array([_first_line(marked, accepted), reference])[:, used])
    uncorrected = chi2_contingency(np.array([_first_line(marked, ok), reference])[:, used])
    assert corrected.pvalue > 1e-4 and uncorrected.pvalue < 1e-12


L_SETS = [[0, 5, 10, 15, 20, 21, 22, 23, 24], [0, 1, 2, 3, 4, 9, 14, 19, 24], [0, 1, 2, 3, 4, 5, 10, 15, 20],
          [4, 9, 14, 19, 20, 21, 22, 23, 24]]


def _which_sets(marked: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """How many kept cards complete each combination of the L's four sets (a 4-bit code)."""
    complete = np.stack([marked[:, s].all(axis=1) for s in L_SETS], axis=1)[keep]
    return np.bincount(complete @ np.array([1, 2, 4, 8]), minlength=16)


def test_a_custom_pattern_of_several_sets_is_drawn_uniformly(tmp_path):
    """Section 7's argument for any cell sets: a custom L of four overlapping sets (a card may
    complete two), drawn by the forced proposal and its correction, given one set of calls, against
    plain rejection of uniform cards; without the correction the cards completing two are too many."""
    (tmp_path / "g.toml").write_text(dumps(_doc(calls=40, patterns=[{"name": "L", "cells": L_SETS,
                                                                     "prize": "1"}])))
    params = load_spec(tmp_path / "g.toml").play.areas[0].params
    calls = row_permutations(derive_stream(SEED_A, "test", "l-calls"), 1, 75)[0, :40] + 1
    one = np.zeros(76, dtype=bool)
    one[calls] = True
    stream = derive_stream(SEED_A, "test", "l-forced")
    called = np.repeat(one[None], 20_000, axis=0)
    card, ok = bingo.forced_cards(stream, params, called, 0)
    marked = bingo.marks(card, called)
    ok &= bingo.best(params, marked) == 0
    accepted = bingo.weight_accept(stream, params, called, marked, 0, ok)
    many = np.repeat(one[None], 300_000, axis=0)
    cards = bingo.uniform_cards(derive_stream(SEED_A, "test", "l-plain"), many.shape[0], True)
    plain = bingo.marks(cards, many)
    reference = _which_sets(plain, bingo.best(params, plain) == 0)
    used = reference > 0
    corrected = chi2_contingency(np.array([_which_sets(marked, accepted), reference])[:, used])
    uncorrected = chi2_contingency(np.array([_which_sets(marked, ok), reference])[:, used])
    assert corrected.pvalue > 1e-4 and uncorrected.pvalue < 1e-12


def test_a_pattern_no_tier_wins_is_refused(tmp_path):
    """A pattern whose prize no tier wins was accepted: every ticket would print a prize that never wins,
    a field nothing uses (docs/styles/bingo.md, section 2)."""
    doc = _doc()  # its one tier wins the line's $1 alone
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].patterns[1].prize: not used: no tier wins '2' (every ticket would print it in "
             "the legend, and it could never win)")
    doc["tiers"].append({"id": "u", "count": 5, "wins": [{"area": "bg", "prize": "2", "how": "match"}]})
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert [w.prize.code for w in load_spec(tmp_path / "g.toml").play.wins["u"]] == ["2"]
