"""The third engine of the pack parameters' chain (tests/third_engines/chain.py, written from
docs/randomness.md sections 2 to 5 and docs/new-game.md 2b alone) against poolgen: pools generated
under a value floor (5.3: not exact, but deterministic from the seed) are drawn again, ticket by
ticket, from the seed, the spec and the manifest's counts, and every pack meets every parameter.
Small pools (the pack-parameter example cut to 40 books of 20, its `[packs]` replaced), the two
printed examples cut small as written, and an eInstant's blocks under `min_prize_times` (5.4)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, SEED_B, SPECS
from tests.support.blocks import blocks_variant
from tests.third_engines import chain, packs
from tests.third_engines.split import Stream

EXAMPLE = SPECS / "examples" / "happy_holidays_packs.toml"
SMALL = {"free": 80, "1": 60, "2": 40, "5": 20, "20": 12, "100": 8}  # $1,360 in 40 books of 20: $34 a book

CASES = {  # name: the [packs] table's rule lines (each a branch of 5.3 with a value floor)
    "a floor of $12 alone": 'min_prize_value = "12.00"',
    "a floor of $12, winners 3..9": 'min_winners = 3\nmax_winners = 9\nmin_prize_value = "12.00"',
    "a floor of $12, at most one $100": (
        'min_prize_value = "12.00"\ncaps = [ { prize = "100.00", at_most = 1 } ]'),
    "a floor of $12, $20 or $100 at least 3 apart": (
        'min_prize_value = "12.00"\nspacing = [ { tiers = ["20", "100"], min_distance = 3 } ]'),
    "a floor of $12, winners 3 or more, one $100, $20 or $100 never back to back": (
        'min_winners = 3\nmin_prize_value = "12.00"\ncaps = [ { prize = "100.00", at_most = 1 } ]\n'
        'spacing = [ { tiers = ["20", "100"], min_distance = 2 } ]'),
}


OTHERS = {  # the chain's branches without a floor (5.3's list; packs.py refuses each as the chain's)
    "two spacing rules past 5.12's rule: $20 or $100 at least 10 apart, $5 at least 10 apart": (  # 3600 > 4T
        'spacing = [ { tiers = ["20", "100"], min_distance = 10 }, { tiers = ["5"], min_distance = 10 } ]'),
    # 5.13 draws caps and spacing rules together where the left-out rules cost at most 4 (the small
    # pool's T = 800 tickets in B = 40 books): these four cost more, so they stay the chain's
    "three caps with winners bounds past 5.13's rule: one $2, one $5, two $1, winners 3..9": (  # 5 > 4
        'min_winners = 3\nmax_winners = 9\ncaps = [ { prize = "2.00", at_most = 1 }, '
        '{ prize = "5.00", at_most = 1 }, { tiers = ["1"], at_most = 2 } ]'),
    "two caps of two with winners bounds past 5.13's rule: $1, $2, winners 3..9": (  # 40^3 / (40^2 3!) > 4
        'min_winners = 3\nmax_winners = 9\ncaps = [ { tiers = ["1"], at_most = 2 }, '
        '{ prize = "2.00", at_most = 2 } ]'),
    "a spacing rule beside a cap of two on other tiers past 5.13's rule: $2 4 apart, $1 at most two": (
        'spacing = [ { prize = "2.00", min_distance = 4 } ]\n'  # 40^2 x 3 / 800 = 6 > 4
        'caps = [ { tiers = ["1"], at_most = 2 } ]'),
    "a cap across a spacing rule's tiers past 5.13's rule: $1 or $5 at most 3, $2 or $5 not back to back": (
        'spacing = [ { tiers = ["2", "5"], min_distance = 2 } ]\n'  # 60^2 / 800 = 4.5 > 4
        'caps = [ { tiers = ["1", "5"], at_most = 3 } ]'),
}


def _cents(text: str) -> int:
    return int(Decimal(str(text).replace("$", "").replace(",", "")) * 100)


def _counts(text: str, count: Callable[[str, int], int]) -> str:
    """A spec's text with every tier's count made `count(its id, its count)`."""
    return re.sub(r'^\[\[tiers\]\]\nid = "(\w+)"\n(.*?)^count = (\d+)$',
                  lambda t: f'[[tiers]]\nid = "{t[1]}"\n{t[2]}count = {count(t[1], int(t[3]))}', text,
                  flags=re.M | re.S)


def _cut(folder: Path, source: Path, cuts: dict[str, str], count: Callable[[str, int], int],
         rules: str | None = None, name: str | None = None) -> Path:
    """`source` with each `cuts` key replaced (once each), its counts made `count(id, count)` and, if
    given, `rules` as its whole `[packs]`."""
    text = source.read_text()
    for was, now in cuts.items():
        assert text.count(was) == 1, was
        text = text.replace(was, now)
    text = _counts(text, count)
    if rules is not None:
        text = re.sub(r"\[packs\]\n.*?\n\n", f"[packs]\n{rules}\n\n", text, flags=re.S)
    path = folder / (name or source.name)
    path.write_text(text)
    return path


def _printed(doc: dict, ids: list[str]) -> tuple[list[int], packs.Rules]:
    """The tiers' prizes in cents (a free ticket at the price) and the spec's `[packs]` as Rules."""
    price = _cents(doc["printed"]["price"])
    paid = {t["id"]: _cents(t.get("prize", doc["printed"]["price"])) for t in doc["tiers"]}

    def tiers(rule: dict) -> frozenset[int]:
        names = rule.get("tiers") or [t for t, c in paid.items() if c == _cents(rule["prize"])]
        return frozenset(ids.index(t) for t in names)

    given = doc["packs"]
    assert price
    return [0, *(paid[t] for t in ids[1:])], packs.Rules(
        min_winners=given.get("min_winners"), max_winners=given.get("max_winners"),
        caps=[(tiers(c), c["at_most"]) for c in given.get("caps", [])],
        spacing=[(tiers(s), s["min_distance"]) for s in given.get("spacing", [])],
        floor=_cents(given["min_prize_value"]) if "min_prize_value" in given else None)


def _check(doc: dict, run: Path, seed: bytes, key: str) -> list[str]:
    """The engine's redraw of the run's one pool against its stored order (compared whole), every pack
    held to every rule; the stored order."""
    (entry,) = json.loads((run / "manifest.json").read_text())["pools"]
    printed = "printed" in doc
    if printed:
        ids = ["lose", *(t["id"] for t in doc["tiers"])]
        m = doc["printed"]["last_ticket"] - doc["printed"]["first_ticket"] + 1
        prizes, rules = _printed(doc, ids)
    else:
        ids = ["lose", *(f"m{t['multiplier']}" for t in doc["tiers"])]
        given = doc["blocks"]
        m, price = given["shares"], entry["price_cents"]
        prizes = [0, *(_cents(t["multiplier"]) * price // 100 for t in doc["tiers"])]
        sets = {k: [(frozenset(ids.index(t) for t in r["tiers"]), r[lim]) for r in given.get(k, [])]
                for k, lim in (("caps", "at_most"), ("spacing", "min_distance"))}
        rules = packs.Rules(min_winners=given.get("min_winners"), max_winners=given.get("max_winners"),
                            floor=_cents(given["min_prize_times"]) * price // 100, **sets)
    stated = {t["id"]: t["count"] for t in entry["tiers"]}
    table = pl.read_parquet(run / entry["file"]["name"], columns=[key, "tier"])
    stored = table.sort(key)["tier"].to_list()
    counts = [stated.get(t, 0) for t in ids]
    got = chain.redraw(seed, doc["game"]["id"], entry["id"], m, counts, prizes, rules)
    pool = chain.Pool(m, prizes, rules)
    order = [ids.index(t) for t in stored]
    broken = [b for b in range(len(order) // m) if pool.shortfall(order[b * m:(b + 1) * m])]
    assert broken == []
    assert [ids[t] for t in got] == stored
    return stored


def _generated(folder: Path, spec: Path, seed: bytes, pool: str | None = "p1") -> Path:
    """A run of `pool` (None: the spec's pools) from `seed`: its folder."""
    return generate(GenerateRequest(load_spec(spec), seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=folder,
                                    run_id=spec.stem, pool_ids=None if pool is None else [pool])).folder


SMALL_CUTS = {"order_tickets = 300000": "order_tickets = 800", "pool_tickets = 300000": "pool_tickets = 800",
              "last_ticket = 299": "last_ticket = 19"}


@pytest.mark.parametrize("case", sorted(CASES) + sorted(OTHERS))
def test_the_chain_draws_each_branchs_pool_again_ticket_by_ticket(tmp_path, case):
    name = re.sub(r"\W+", "_", case)
    rules = {**CASES, **OTHERS}[case]
    spec = _cut(tmp_path, EXAMPLE, SMALL_CUTS, lambda t, _: SMALL[t], rules, name + ".toml")
    doc = tomllib.loads(spec.read_text())
    ids = ["lose", *(t["id"] for t in doc["tiers"])]
    with pytest.raises(packs.Chain):  # no exact section takes the rules (5.3's first paragraph)
        packs.section(_printed(doc, ids)[1], [SMALL.get(t, 580) for t in ids], 20)
    _check(doc, _generated(tmp_path, spec, SEED_A), SEED_A, "position")


def test_the_pack_parameter_example_is_drawn_again(tmp_path):
    """happy_holidays_packs as written, cut to 10 books of 300 (counts a hundredth): winners 80..110,
    $150 a book, at most one $100, $20 or $100 never back to back."""
    cuts = {"order_tickets = 300000": "order_tickets = 3000", "pool_tickets = 300000": "pool_tickets = 3000"}
    spec = _cut(tmp_path, EXAMPLE, cuts, lambda _, c: c // 100)
    doc = tomllib.loads(spec.read_text())
    _check(doc, _generated(tmp_path, spec, SEED_A), SEED_A, "position")


def test_pairs_payday_is_drawn_again(tmp_path):
    """pairs_payday_packs as written, cut to an order of 11,000 in pools of 2,000 (16 books of 125;
    counts a hundredth, at least 11): at least 30 winners and $150 a book, at most one $500 or more;
    its first and its last (partial) pool."""
    cuts = {"order_tickets = 1100000": "order_tickets = 11000",
            "pool_tickets = 200000": "pool_tickets = 2000"}
    spec = _cut(tmp_path, SPECS / "examples" / "pairs_payday_packs.toml", cuts,
                lambda _, c: max(11, c // 1100 * 11))
    doc = tomllib.loads(spec.read_text())
    for pool in ("p1", "p6"):
        stored = _check(doc, _generated(tmp_path / pool, spec, SEED_B, pool), SEED_B, "position")
        assert len(stored) == {"p1": 2000, "p6": 1000}[pool]


def test_an_einstants_block_floor_is_drawn_again(tmp_path):
    """hand_to_hand_blocks as written (5.4: `min_prize_times` enters the chain as a value floor of 40 x
    the share price), cut to one pool of 10,000 shares: the tier of every serial."""
    spec = blocks_variant(tmp_path, 100)
    doc = tomllib.loads(spec.read_text())
    _check(doc, _generated(tmp_path, spec, SEED_B, None), SEED_B, "serial")


@pytest.mark.parametrize("seed", [SEED_A, SEED_B], ids=["SEED_A", "SEED_B"])
def test_packs_no_order_spaces_in_10000_are_drawn_directly_as_poolgen_draws_them(seed):
    """Step 4's way out: a pack of 24 holding 12 tickets of a rule never back to back accepts one
    uniform order in 208,012 (13 / C(24, 12)), so it is still broken after 10,000 new orders and is
    drawn directly under its one rule (5.8's spaced places; both such packs are, under either seed);
    the packs beside it, one order or a few. The engine's orders against poolgen's `chain_orders` on
    the same content and stream."""
    # function-local: the implementation the engine is held to; the engine module does not import it
    import numpy as np

    from poolgen.rng import derive_stream
    from poolgen.run.packs.composition import Rules as Theirs
    from poolgen.run.packs.spaced import chain_orders

    content = [[1] * 12 + [0] * 12, [1] * 3 + [2] * 5 + [0] * 16, [1] * 12 + [0] * 12, [2] * 9 + [0] * 15]
    counts = [sum(p.count(t) for p in content) for t in range(3)]
    rules = Theirs(m=24, books=4, counts=tuple(counts), prizes=(0, 100, 200), lo=0, hi=24, min_cents=None,
                   caps=(), spacing=((frozenset({1}), 2),))
    label = ("poolgen/v1", "lab", "p1", "order")
    ours = chain.orders(Stream(seed, label), [list(p) for p in content],
                        chain.Pool(24, [0, 100, 200], packs.Rules(spacing=[(frozenset({1}), 2)])))
    theirs = chain_orders(derive_stream(seed, *label), rules, np.asarray(content, dtype=np.int16))
    assert ours == theirs.reshape(-1).tolist()
    assert [p for p in range(95) if ours[p] == ours[p + 1] == 1 and p % 24 != 23] == []
