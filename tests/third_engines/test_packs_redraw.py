"""The third engine of pack parameters (tests/third_engines/packs.py, written from docs/randomness.md
sections 2 to 4, 5.2, 5.6 to 5.10, 5.12 and 5.13 and docs/new-game.md 2b alone) against poolgen: pools
generated with `[packs]` rules that each section draws exactly are drawn again, ticket by ticket, from the
seed, the spec and the manifest's counts alone. One small pool per case (the pack-parameter example cut to
40 books of 20, its `[packs]` replaced), the example itself and pairs_payday_packs cut small without
their value floor (5.9 and 5.6), an eInstant's blocks (5.4: hand_to_hand_blocks without its floor),
and the floor's pools, which the contract leaves to the chain (5.3): the engine refuses them."""

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
from tests.third_engines import packs
from tests.third_engines.packs_draws import big_integer, choices
from tests.third_engines.split import Stream

EXAMPLE = SPECS / "examples" / "happy_holidays_packs.toml"
SMALL = {"free": 80, "1": 60, "2": 40, "5": 20, "20": 12, "100": 8}  # 220 winners in 40 books of 20

CASES = {  # name: (the [packs] table's rule lines, the section the contract gives them)
    "winners 3..8": ("min_winners = 3\nmax_winners = 8", "5.2"),
    "$100 at most one, winners 3 or more": (
        'min_winners = 3\ncaps = [ { prize = "100.00", at_most = 1 } ]', "5.6"),
    "$20 or $100 at most one, no bounds": ('caps = [ { tiers = ["20", "100"], at_most = 1 } ]', "5.6"),
    "$20 or $100 at most two, winners 3..8": (
        'min_winners = 3\nmax_winners = 8\ncaps = [ { tiers = ["20", "100"], at_most = 2 } ]', "5.7"),
    "$20 or $100 at least 3 apart, winners at most 9": (
        'max_winners = 9\nspacing = [ { tiers = ["20", "100"], min_distance = 3 } ]', "5.8"),
    "$5 or $20 at least 4 apart and at most two, winners 2 or more": (
        'min_winners = 2\nspacing = [ { tiers = ["5", "20"], min_distance = 4 } ]\n'
        'caps = [ { tiers = ["5", "20"], at_most = 2 } ]', "5.8"),
    "$100 at most one beside $20 at most one, winners 3 or more": (
        'min_winners = 3\ncaps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 1 } ]',
        "5.9"),
    "$100 at most one inside $5 to $100 at most two": (
        'caps = [ { tiers = ["5", "20", "100"], at_most = 2 }, { prize = "100.00", at_most = 1 } ]', "5.9"),
    "$100 at most one inside $20 or $100 never back to back, winners 3..9": (
        'min_winners = 3\nmax_winners = 9\ncaps = [ { prize = "100.00", at_most = 1 } ]\n'
        'spacing = [ { tiers = ["20", "100"], min_distance = 2 } ]', "5.9"),
    "$100 at most one inside $2 to $100 never back to back (packs of 3 or more of them)": (
        'caps = [ { prize = "100.00", at_most = 1 } ]\n'
        'spacing = [ { tiers = ["2", "5", "20", "100"], min_distance = 2 } ]', "5.9"),
    "$100 at most one beside $5 or $20 at least 3 apart": (
        'caps = [ { prize = "100.00", at_most = 1 } ]\n'
        'spacing = [ { tiers = ["5", "20"], min_distance = 3 } ]', "5.9"),
    "$100 at most two and $20 at most two": (
        'caps = [ { prize = "100.00", at_most = 2 }, { prize = "20.00", at_most = 2 } ]', "5.10"),
    "$100 at most one, $20 at most one, $5 at most two": (
        'caps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 1 }, '
        '{ prize = "5.00", at_most = 2 } ]', "5.10"),
    "$20 or $100 at least 3 apart, $5 never back to back": (
        'spacing = [ { tiers = ["20", "100"], min_distance = 3 }, { tiers = ["5"], min_distance = 2 } ]',
        "5.12"),
    "$100 at least 4 apart inside $5 to $100 never back to back, winners 3..9": (
        'min_winners = 3\nmax_winners = 9\nspacing = [ { tiers = ["5", "20", "100"], min_distance = 2 }, '
        '{ prize = "100.00", min_distance = 4 } ]', "5.12"),
    "$100 at most one inside $20 or $100 never back to back, $5 at least 3 apart, winners 3..9": (
        'min_winners = 3\nmax_winners = 9\ncaps = [ { prize = "100.00", at_most = 1 } ]\n'
        'spacing = [ { tiers = ["20", "100"], min_distance = 2 }, { prize = "5.00", min_distance = 3 } ]',
        "5.13"),
    "$20 at most two, $100 never back to back, winners 3..9": (
        'min_winners = 3\nmax_winners = 9\ncaps = [ { prize = "20.00", at_most = 2 } ]\n'
        'spacing = [ { prize = "100.00", min_distance = 2 } ]', "5.13"),
    "$100 at most one, $20 at most one, $5 at most two, winners 3 or more": (
        'min_winners = 3\ncaps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 1 }, '
        '{ prize = "5.00", at_most = 2 } ]', "5.13"),
    "the neighbour rule alone": ('neighbours = "across packs"', "4"),
}


def _small(folder: Path, name: str, rules: str) -> Path:
    """The example cut to one pool of 40 books of 20 (counts SMALL), `rules` its whole `[packs]`."""
    text = EXAMPLE.read_text()
    for was, now in (("order_tickets = 300000", "order_tickets = 800"), ("pool_tickets = 300000",
                     "pool_tickets = 800"), ("last_ticket = 299", "last_ticket = 19")):
        assert text.count(was) == 1, was
        text = text.replace(was, now)
    text = _counts(text, lambda tier, _: SMALL[tier])
    text = re.sub(r"\[packs\]\n.*?\n\n", f"[packs]\n{rules}\n\n", text, flags=re.S)
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


def _counts(text: str, count: Callable[[str, int], int]) -> str:
    """A spec's text with every tier's count made `count(its id, its count)`."""
    return re.sub(r'^\[\[tiers\]\]\nid = "(\w+)"\n(.*?)^count = (\d+)$',
                  lambda t: f'[[tiers]]\nid = "{t[1]}"\n{t[2]}count = {count(t[1], int(t[3]))}', text,
                  flags=re.M | re.S)


def _cents(text: str) -> int:
    return int(Decimal(text.replace("$", "").replace(",", "")) * 100)


def _rules(doc: dict, ids: list[str]) -> packs.Rules:
    """The spec's `[packs]` as the engine's Rules: a `prize` is the tiers paying it (a free ticket pays
    the price), money in cents."""
    paid = {t["id"]: _cents(t.get("prize", doc["printed"]["price"])) for t in doc["tiers"]}

    def tiers(rule: dict) -> frozenset[int]:
        names = rule.get("tiers") or [t for t, c in paid.items() if c == _cents(rule["prize"])]
        return frozenset(ids.index(t) for t in names)

    given = doc.get("packs", {})
    return packs.Rules(min_winners=given.get("min_winners"), max_winners=given.get("max_winners"),
                       caps=[(tiers(c), c["at_most"]) for c in given.get("caps", [])],
                       spacing=[(tiers(s), s["min_distance"]) for s in given.get("spacing", [])],
                       floor=_cents(given["min_prize_value"]) if "min_prize_value" in given else None)


def _generated(folder: Path, spec: Path, seed: bytes,
               pool: str = "p1") -> tuple[dict, list[str], list[str], dict]:
    """A run of `pool` from `seed`: the spec, the tier ids (losers first), the pool's tier order by
    position, and the manifest's entry for the pool."""
    run = generate(GenerateRequest(load_spec(spec), seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=folder,
                                   run_id=spec.stem, pool_ids=[pool])).folder
    doc = tomllib.loads(spec.read_text())
    (entry,) = json.loads((run / "manifest.json").read_text())["pools"]
    table = pl.read_parquet(run / entry["file"]["name"], columns=["position", "tier"]).sort("position")
    return doc, ["lose", *(t["id"] for t in doc["tiers"])], table["tier"].to_list(), entry


def _redrawn(doc: dict, ids: list[str], entry: dict, seed: bytes) -> tuple[str, list[str]]:
    """The engine's draw of the pool from the seed, the spec and the manifest's counts alone."""
    stated = {t["id"]: t["count"] for t in entry["tiers"]}
    m = doc["printed"]["last_ticket"] - doc["printed"]["first_ticket"] + 1
    section, order = packs.redraw(seed, doc["game"]["id"], entry["id"], m, [stated.get(t, 0) for t in ids],
                                  _rules(doc, ids))
    return section, [ids[t] for t in order]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_engine_draws_each_sections_pool_again_ticket_by_ticket(tmp_path, case):
    rules, section = CASES[case]
    name = re.sub(r"\W+", "_", case)
    for seed in (SEED_A, SEED_B) if section in ("4", "5.2", "5.6", "5.10", "5.12", "5.13") else (SEED_A,):
        doc, ids, stored, entry = _generated(tmp_path / seed.hex()[:4], _small(tmp_path, name, rules), seed)
        assert _redrawn(doc, ids, entry, seed) == (section, stored)


def _example_without_floor(folder: Path, source: Path, cuts: dict[str, str],
                           count: Callable[[str, int], int]) -> Path:
    """`source` with each `cuts` key replaced by its value (once each), its counts made `count(id,
    count)` and its value floor dropped."""
    text = source.read_text()
    for was, now in cuts.items():
        assert text.count(was) == 1, was
        text = text.replace(was, now)
    text = _counts(text, count)
    path = folder / source.name
    path.write_text(re.sub(r"^min_prize_value = .*\n", "", text, count=1, flags=re.M))
    return path


def test_the_pack_parameter_example_without_its_floor_is_drawn_again(tmp_path):
    """happy_holidays_packs cut to 10 books of 300 (counts a hundredth), its floor dropped: winners
    80..110, at most one $100, $20 or $100 never back to back, drawn by 5.9 (the cap inside)."""
    cuts = {"order_tickets = 300000": "order_tickets = 3000", "pool_tickets = 300000": "pool_tickets = 3000"}
    spec = _example_without_floor(tmp_path, EXAMPLE, cuts, lambda _, c: c // 100)
    doc, ids, stored, entry = _generated(tmp_path, spec, SEED_A)
    assert _redrawn(doc, ids, entry, SEED_A) == ("5.9", stored)


def test_pairs_payday_without_its_floor_is_drawn_again(tmp_path):
    """pairs_payday_packs cut to an order of 11,000 in pools of 2,000 (16 books of 125; counts a
    hundredth, at least 11: multiples of 11), its floor dropped: at least 30 winners and at most one
    $500 or more a book, drawn by 5.6; its first and its last (partial) pool."""
    cuts = {"order_tickets = 1100000": "order_tickets = 11000",
            "pool_tickets = 200000": "pool_tickets = 2000"}
    spec = _example_without_floor(tmp_path, SPECS / "examples" / "pairs_payday_packs.toml", cuts,
                                  lambda _, c: max(11, c // 1100 * 11))
    for pool in ("p1", "p6"):
        doc, ids, stored, entry = _generated(tmp_path / pool, spec, SEED_B, pool)
        assert len(stored) == {"p1": 2000, "p6": 1000}[pool]
        assert _redrawn(doc, ids, entry, SEED_B) == ("5.6", stored)


BLOCKS = {  # an eInstant's [blocks] (5.4: the same draws, a block of serials for a pack)
    "the block example without its floor": (
        'shares = 100\nmin_winners = 25\ncaps = [ { tiers = ["m5000", "m500", "m400", "m300", "m200"], '
        'at_most = 1 } ]\nspacing = [ { tiers = ["m50", "m45", "m40"], min_distance = 2 } ]', "5.9"),
    "blocks of 50, one $200 or more and two $40 to $50 at most": (
        'shares = 50\nneighbours = "within blocks"\ncaps = [ { tiers = ["m5000", "m500", "m400", "m300", '
        '"m200"], at_most = 1 }, { tiers = ["m50", "m45", "m40"], at_most = 2 } ]', "5.9"),
}


@pytest.mark.parametrize("case", sorted(BLOCKS))
def test_an_einstants_blocks_are_drawn_again_serial_by_serial(tmp_path, case):
    """hand_to_hand_blocks cut to one pool of 10,000 shares (counts a hundredth, at least 1), its
    `[blocks]` replaced: the tier of every serial, from the seed, the spec and the manifest."""
    rules, section = BLOCKS[case]
    spec = blocks_variant(tmp_path, 100, rules)
    run = generate(GenerateRequest(load_spec(spec), SEED_B, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path, run_id="r")).folder
    doc = tomllib.loads(spec.read_text())
    (entry,) = json.loads((run / "manifest.json").read_text())["pools"]
    ids = ["lose", *(f"m{t['multiplier']}" for t in doc["tiers"])]
    assert [t["id"] for t in entry["tiers"]] == ids
    given = doc["blocks"]
    sets = {key: [(frozenset(ids.index(t) for t in r["tiers"]), r[limit]) for r in given.get(key, [])]
            for key, limit in (("caps", "at_most"), ("spacing", "min_distance"))}
    counts = [t["count"] for t in entry["tiers"]]
    got = packs.redraw(SEED_B, doc["game"]["id"], entry["id"], given["shares"], counts,
                       packs.Rules(min_winners=given.get("min_winners"), **sets))
    stored = pl.read_parquet(run / entry["file"]["name"], columns=["serial", "tier"]).sort("serial")["tier"]
    assert (got[0], [ids[t] for t in got[1]]) == (section, stored.to_list())


@pytest.mark.parametrize("source", ["happy_holidays_packs", "pairs_payday_packs"])
def test_a_value_floor_is_the_chains_and_the_engine_draws_nothing(source):
    """The contract states no exact draw under a value floor (5.3): the engine refuses, it does not guess."""
    doc = tomllib.loads((SPECS / "examples" / f"{source}.toml").read_text())
    ids = ["lose", *(t["id"] for t in doc["tiers"])]
    with pytest.raises(packs.Chain, match="a value floor"):
        packs.section(_rules(doc, ids), [1] * len(ids), 10)


@pytest.mark.parametrize("bound", [1, 2, 3, 1 << 64, (1 << 64) + 1, 3 << 130])
def test_big_integers_read_the_words_section_3_says(bound):
    """`big_integers(n)` reads ceil(bits / 64) words a candidate, at least one (a bound of 1 reads a word
    and gives 0): the engine's and poolgen's values, and the word each reads next, are the same."""
    # function-local: the implementation the engine is held to; the engine module does not import it
    from poolgen.rng import big_integers, derive_stream

    label = ("poolgen/v1", "lab", "p1", "big")
    ours, theirs = Stream(SEED_A, label), derive_stream(SEED_A, *label)
    drawn = [big_integers(theirs, bound, 1)[0] for _ in range(5)]
    assert [big_integer(ours, bound) for _ in range(5)] == drawn
    assert ours.words(1) == theirs.words(1).tolist()


@pytest.mark.parametrize("count", [3, 200])
def test_a_slot_its_first_word_does_not_settle_reads_more_words_as_section_3_says(count):
    """`Weights` [w + 1, 2^64 - w], w the stream's first word: the boundary (w + 1) 2^64 / (2^64 + 1)
    lies strictly inside the first word's interval, so slot 0 takes more words; the engine and poolgen
    (its few-slot and many-slot paths) give the same indices and read on from the same word."""
    # function-local: the implementation the engine is held to; the engine module does not import it
    from poolgen.rng import Weights, derive_stream

    label = ("poolgen/v1", "lab", "p1", "settle")
    first = Stream(SEED_A, label).words(1)[0]
    weights = [first + 1, (1 << 64) - first]
    ours, theirs = Stream(SEED_A, label), derive_stream(SEED_A, *label)
    assert choices(ours, weights, count) == Weights(weights).choices(theirs, count).tolist()
    assert ours.words(1) == theirs.words(1).tolist()
