"""Building one pool (poolgen/run/build.py), step by step on small pools: exact tier counts, the order
stream's shuffle, ticket identity, salts, and how the layout's columns join the table."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from poolgen.deliverables.identity import book_numbers
from poolgen.game.model import Pool, PoolTier
from poolgen.game.play import AreaPlay, TicketPlay
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from poolgen.run.build import (
    build_pool,
    build_pool_counted,
    identity_columns,
    order_book_slots,
    salt_column,
    shuffled_tiers,
    tier_base,
)
from tests.support import SEED_A, SPECS, spec_path


def _small(rules: str, pool_id: str, counts: list[int], **changes) -> tuple:
    """The spec and one of its pools cut down to `counts` tickets per tier (losers first)."""
    spec = load_spec(spec_path(rules))
    pool = spec.pool(pool_id)
    tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, counts, strict=False))
    return spec, replace(pool, tiers=tiers, tickets=sum(counts), **changes)


def test_tier_base_holds_exactly_each_tiers_count_in_tier_order():
    pool = Pool(id="x", price_cents=100, tickets=9,
                tiers=(PoolTier("lose", 0, 4), PoolTier("a", 100, 0), PoolTier("b", 200, 3),
                       PoolTier("c", 500, 2)))
    base = tier_base(pool)
    assert base.tolist() == [0, 0, 0, 0, 2, 2, 2, 3, 3]
    assert base.dtype == np.int16


def test_tier_base_of_a_real_pool_has_every_count():
    spec = load_spec(spec_path("wild_side"))
    pool = spec.pool("p2")
    counts = np.bincount(tier_base(pool), minlength=len(pool.tiers))
    assert counts.tolist() == [t.count for t in pool.tiers]
    assert counts.sum() == pool.tickets == 150_000


def test_shuffled_tiers_are_the_base_permuted_by_the_order_stream():
    spec, pool = _small("happy_holidays", "p2", [50, 7, 5, 3, 2, 1, 1])
    got = shuffled_tiers(spec, pool, SEED_A)
    stream = derive_stream(SEED_A, "poolgen/v1", "happy_holidays", "p2", "order")
    assert got.tolist() == tier_base(pool)[permutation(stream, pool.tickets)].tolist()
    assert np.bincount(got, minlength=len(pool.tiers)).tolist() == [50, 7, 5, 3, 2, 1, 1]
    assert got.tolist() != sorted(got.tolist())


def test_printed_identity_is_book_and_ticket_from_the_first_book_slot():
    spec, pool = _small("wild_side", "p3", [130], first_book=5000)
    assert spec.tickets_per_book == 60
    cols = identity_columns(spec, pool, SEED_A)
    assert list(cols) == ["position", "ticket", "book", "ticket_no"]
    assert cols["position"].to_list() == list(range(130)) and cols["position"].dtype == pl.UInt32
    # book slots 5000, 5001, 5002 of the order carry the printed numbers of the secret permutation
    numbers = book_numbers(SEED_A, spec.id, order_book_slots(spec))
    b0, b1, b2 = (int(numbers[5000 + k]) for k in range(3))
    assert len({b0, b1, b2}) == 3
    assert cols["book"].to_list() == [b0] * 60 + [b1] * 60 + [b2] * 10
    assert cols["book"].dtype == pl.UInt32
    assert cols["ticket_no"].to_list() == list(range(60)) * 2 + list(range(10))
    assert cols["ticket_no"].dtype == pl.UInt16
    assert cols["ticket"].to_list()[:2] == [f"358-{b0:07d}-000", f"358-{b0:07d}-001"]
    assert cols["ticket"][59] == f"358-{b0:07d}-059" and cols["ticket"][60] == f"358-{b1:07d}-000"
    assert cols["ticket"][129] == f"358-{b2:07d}-009"
    assert all(c.name == name for name, c in cols.items())


def test_einstant_identity_is_a_serial_from_one():
    spec, pool = _small("primetime_payout", "d7.50x4", [12])
    cols = identity_columns(spec, pool, SEED_A)
    assert list(cols) == ["position", "ticket", "serial"]
    assert cols["position"].to_list() == list(range(12))
    assert cols["serial"].to_list() == list(range(1, 13)) and cols["serial"].dtype == pl.UInt32
    assert cols["ticket"].to_list()[0] == "d7.50x4-0000001" and cols["ticket"][11] == "d7.50x4-0000012"
    assert all(c.name == name for name, c in cols.items())


def test_salts_are_the_salt_stream_16_bytes_a_ticket():
    spec, pool = _small("happy_holidays", "p1", [40])
    salts = salt_column(spec, pool, SEED_A)
    raw = derive_stream(SEED_A, "poolgen/v1", "happy_holidays", "p1", "salt").read(16 * 40)
    assert salts.name == "salt" and salts.dtype == pl.String
    assert salts.to_list() == [raw[i:i + 16].hex() for i in range(0, 16 * 40, 16)]


def test_a_small_pool_has_its_identity_tiers_prizes_salts_and_layout():
    spec, pool = _small("happy_holidays", "p1", [30, 4, 3, 2, 1, 0, 1])
    table = build_pool(spec, pool, SEED_A)
    assert table.height == 41
    assert table.columns == ["position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt",
                             *(f"play_spot_{j}" for j in range(6))]
    tiers = shuffled_tiers(spec, pool, SEED_A)
    ids = [t.id for t in pool.tiers]
    assert table["tier"].to_list() == [ids[t] for t in tiers]
    assert table["prize_cents"].to_list() == [pool.tiers[t].prize_cents for t in tiers]
    assert table["prize_cents"].dtype == pl.Int64 and table["tier"].dtype == pl.String
    assert table["salt"].to_list() == salt_column(spec, pool, SEED_A).to_list()
    assert table["ticket"].to_list() == identity_columns(spec, pool, SEED_A)["ticket"].to_list()


@pytest.mark.parametrize(("rules", "pool_id", "counts"), [
    ("happy_holidays", "p1", [30, 4, 3, 2, 1, 0, 1]),  # a tier of none counts 0
    ("primetime_payout", "d7.50x4", [50] + [i % 3 for i in range(58)]),  # all 59 tiers
])
def test_the_tier_counts_built_with_the_table_are_its_tier_columns_counts(rules, pool_id, counts):
    spec, pool = _small(rules, pool_id, counts)
    table, built = build_pool_counted(spec, pool, SEED_A)
    found = dict(table.group_by("tier").len().iter_rows())
    assert built == [found.get(t.id, 0) for t in pool.tiers] == [t.count for t in pool.tiers]
    assert table.equals(build_pool(spec, pool, SEED_A))


@pytest.mark.parametrize("name", ["position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt"])
def test_a_layout_column_that_clashes_with_a_pool_column_is_refused(name):
    spec, pool = _small("happy_holidays", "p1", [5])

    class Clashing:  # stands for the game's play (spec.play), which lays the pool out
        @staticmethod
        def lay_out(spec, pool, tiers, stream):
            return {"spot_0": np.zeros(tiers.size, dtype=np.uint8), name: np.zeros(tiers.size)}

    with pytest.raises(ValueError) as info:
        build_pool(replace(spec, play=Clashing), pool, SEED_A)
    assert str(info.value) == f"layout column {name!r} clashes with a pool column"


def test_a_layout_of_no_columns_leaves_the_common_columns_only():
    spec, pool = _small("happy_holidays", "p1", [3, 1])

    class Empty:
        @staticmethod
        def lay_out(spec, pool, tiers, stream):
            return {}

    table = build_pool(replace(spec, play=Empty), pool, SEED_A)
    assert table.columns == ["position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt"]
    assert table.height == 4


def test_the_layout_stream_is_the_pools_layout_stream():
    spec, pool = _small("happy_holidays", "p1", [4])
    seen = []

    class Recording:
        @staticmethod
        def lay_out(spec, pool, tiers, stream):
            seen.append((stream.label, tiers.tolist(), stream.read(8)))
            return {}

    build_pool(replace(spec, play=Recording), pool, SEED_A)
    label = ("poolgen/v1", "happy_holidays", "p1", "layout")
    assert seen == [(label, [0, 0, 0, 0], derive_stream(SEED_A, *label).read(8))]


def test_an_einstant_of_a_style_is_laid_out_by_its_style_module():
    spec, pool = _small("primetime_payout", "d7.50x4", [3, 1])
    assert isinstance(spec.play, TicketPlay) and spec.play.style == "area_match"
    seen = []

    class Recording:
        @staticmethod
        def lay_out(params, game, pool, tiers, stream):
            seen.append((stream.label, tiers.tolist(), stream.read(8)))
            return {"a0_s0": np.arange(tiers.size, dtype=np.uint8)}

    table = build_pool(replace(spec, play=replace(spec.play, module=Recording)), pool, SEED_A)
    label = ("poolgen/v1", "primetime_payout", "d7.50x4", "layout")
    tiers = shuffled_tiers(spec, pool, SEED_A).tolist()
    assert seen == [(label, tiers, derive_stream(SEED_A, *label).read(8))]
    assert table.columns == ["position", "ticket", "serial", "tier", "prize_cents", "salt", "a0_s0"]
    assert table["a0_s0"].to_list() == [0, 1, 2, 3]


def test_an_einstant_of_a_style_has_its_style_modules_layout():
    spec, pool = _small("primetime_payout", "d1.00x1", [6, 1, 1])
    table = build_pool(spec, pool, SEED_A)
    want = spec.play.module.lay_out(
        spec.play.params, spec, pool, shuffled_tiers(spec, pool, SEED_A),
        derive_stream(SEED_A, "poolgen/v1", "primetime_payout", "d1.00x1", "layout"))
    assert table.columns[6:] == list(want) and len(want) > 0
    for name, values in want.items():
        assert table[name].to_list() == values.tolist()


def test_order_book_slots_is_the_end_of_the_last_pools_books_in_any_pool_order():
    spec = load_spec(spec_path("wild_side"))
    assert [(p.first_book, p.books) for p in spec.pools][-1] == (10000, 2500)
    assert order_book_slots(spec) == 12500
    p1, p2 = spec.pools[0], spec.pools[1]
    assert order_book_slots(replace(spec, pools=(replace(p2, books=10), p1))) == 2510


def test_a_styled_game_is_laid_out_by_its_play_styles():
    spec = load_spec(SPECS / "examples" / "hit_50.toml")
    assert isinstance(spec.play, AreaPlay)
    pool = spec.pool("p1")
    tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, [3, 1, 1], strict=False))
    pool = replace(pool, tiers=tiers, tickets=5)
    table = build_pool(spec, pool, SEED_A)
    want = spec.play.lay_out(spec, pool, shuffled_tiers(spec, pool, SEED_A),
                               derive_stream(SEED_A, "poolgen/v1", "hit_50", "p1", "layout"))
    assert table.columns[7:] == list(want) and len(want) == 12
    for name, values in want.items():
        assert table[name].to_list() == values.tolist()
