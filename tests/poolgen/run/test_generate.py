"""Pools: exact counts, byte-identical from the same seed, different from another, uniform positions."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import cryptography
import numpy as np
import polars as pl
import pytest
from scipy.stats import chisquare

from poolgen.deliverables.validation import TIERS, file_bytes
from poolgen.errors import RunError
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.run.build import build_pool, shuffled_tiers
from poolgen.run.generate import GenerateRequest, generate, self_check
from poolgen.run.provenance import code_entry
from tests.support import SEED_A, SEED_B, small_einstant, small_happy_holidays, small_wild_side, spec_path

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)


def _run(tmp_path, rules, pool_ids, seed, name="run", workers=1):
    spec = load_spec(spec_path(rules))
    return generate(GenerateRequest(spec, seed, now=NOW, out=tmp_path, run_id=name, pool_ids=pool_ids,
                                    workers=workers))


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """full(rules, pool id): that full pool generated from SEED_A, once for the module's tests (they read
    it, change nothing)."""
    made: dict = {}

    def run(rules: str, pool_id: str):
        if (rules, pool_id) not in made:
            made[rules, pool_id] = _run(tmp_path_factory.mktemp("full"), rules, [pool_id], SEED_A, "a")
        return made[rules, pool_id]
    return run


@pytest.mark.parametrize(("rules", "pool_id"), [("hand_to_hand_tactics", "d5.00"),
                                                ("wild_side", "p3"), ("happy_holidays", "p6")])
def test_full_pool_is_exact_and_the_seed_s_order(full, rules, pool_id):
    a = full(rules, pool_id)
    name = f"pool-{pool_id}.parquet"
    spec = load_spec(spec_path(rules))
    pool = spec.pool(pool_id)
    table = pl.read_parquet(a.folder / name)
    assert table.height == pool.tickets
    assert table["position"].to_list() == list(range(pool.tickets))
    counts = dict(table.group_by("tier").len().iter_rows())
    assert counts == {t.id: t.count for t in pool.tiers if t.count}
    prize = dict(zip([t.id for t in pool.tiers], [t.prize_cents for t in pool.tiers], strict=True))
    assert (table["prize_cents"] == table["tier"].replace_strict(prize, return_dtype=pl.Int64)).all()
    assert table["ticket"].n_unique() == pool.tickets
    # the seed decides the order: the file's is SEED_A's, and SEED_B's differs (a third full run, to
    # compare its file, told nothing more: a different order is a different file)
    ids = np.array([t.id for t in pool.tiers])
    assert table["tier"].to_list() == ids[shuffled_tiers(spec, pool, SEED_A)].tolist()
    assert table["tier"].to_list() != ids[shuffled_tiers(spec, pool, SEED_B)].tolist()
    assert a.manifest["pools"][0]["tiers"] == [
        {"id": t.id, "prize_cents": t.prize_cents, "count": t.count} for t in pool.tiers]


@pytest.mark.parametrize(("rules", "pool_id"), [("hand_to_hand_tactics", "d5.00"),
                                                ("wild_side", "p3"), ("happy_holidays", "p6")])
def test_a_pool_generated_twice_from_one_seed_is_the_same_file(tmp_path, rules, pool_id):
    """Byte-identical files from the same seed, on each game cut small (the same code as a full pool;
    a full pool's rows are pinned by tests/vectors/pools.txt, test_build_vectors.py, and Happy
    Holidays' full p1 and p2 are generated twice in test_workers_do_not_change_the_files)."""
    spec = {"hand_to_hand_tactics": lambda: small_einstant(tmp_path, rules, 20_000),
            "wild_side": lambda: small_wild_side(tmp_path),
            "happy_holidays": lambda: small_happy_holidays(tmp_path, 18_000)}[rules]()
    a, b = (generate(GenerateRequest(load_spec(spec), SEED_A, now=NOW, out=tmp_path, run_id=name,
                                     pool_ids=[pool_id])) for name in ("a", "b"))
    name = f"pool-{pool_id}.parquet"
    assert pl.read_parquet(a.folder / name).height in (20_000, 3_000)
    assert (a.folder / name).read_bytes() == (b.folder / name).read_bytes()
    assert a.manifest["pools"] == b.manifest["pools"]


def test_printed_ticket_identity(full):
    run = full("wild_side", "p3")
    t = pl.read_parquet(run.folder / "pool-p3.parquet", columns=["book", "ticket_no", "ticket"])
    books = t["book"][::60]  # book slots 5000..7499, numbered by the order's secret permutation
    assert books.n_unique() == 2500 and books.max() < 12500 and books.to_list() != list(range(5000, 7500))
    assert t["ticket_no"].min() == 0 and t["ticket_no"].max() == 59
    assert t["ticket"][0] == f"358-{books[0]:07d}-000" and t["ticket"][-1] == f"358-{books[-1]:07d}-059"
    assert t.group_by("book").len()["len"].unique().to_list() == [60]


@pytest.fixture(scope="module")
def two_pools(tmp_path_factory):
    """Happy Holidays' p1 and p2 from SEED_A by one process (the tests read it, change nothing)."""
    return _run(tmp_path_factory.mktemp("two"), "happy_holidays", ["p1", "p2"], SEED_A)


def test_manifest_is_canonical_and_names_streams_not_the_seed(two_pools):
    run = two_pools
    raw = (run.folder / "manifest.json").read_bytes()
    assert raw == canonical_bytes(run.manifest)
    assert SEED_A.hex().encode() not in raw
    assert run.manifest["drbg"]["streams"] == [
        "poolgen/v1/happy_holidays/p1/order", "poolgen/v1/happy_holidays/p1/layout",
        "poolgen/v1/happy_holidays/p1/salt",
        "poolgen/v1/happy_holidays/p2/order", "poolgen/v1/happy_holidays/p2/layout",
        "poolgen/v1/happy_holidays/p2/salt", "poolgen/v1/happy_holidays/order/books",
        "poolgen/v1/happy_holidays/p1/virn", "poolgen/v1/happy_holidays/p2/virn"]
    assert run.manifest["totals"]["tickets"] == 600_000 and run.manifest["totals"]["winners"] == 175_800
    assert run.manifest["tool"] == {"name": "poolgen", "version": "0.1.0", "numpy": np.__version__,
                                    "polars": pl.__version__, "cryptography": cryptography.__version__,
                                    "code": code_entry()}
    assert sorted(p.name for p in run.folder.iterdir()) == [
        "imaging-p1.parquet", "imaging-p2.parquet", "manifest.json", "packs.csv", "pool-p1.parquet",
        "pool-p2.parquet"]


def test_pools_of_one_run_differ(tmp_path):
    spec = load_spec(spec_path("happy_holidays"))
    a = shuffled_tiers(spec, spec.pool("p1"), SEED_A)
    b = shuffled_tiers(spec, spec.pool("p2"), SEED_A)
    assert not np.array_equal(a, b)


def test_workers_do_not_change_the_files(tmp_path, two_pools):
    one = two_pools  # workers=1
    two = _run(tmp_path, "happy_holidays", ["p1", "p2"], SEED_A, "two", workers=2)
    for name in ("pool-p1.parquet", "pool-p2.parquet"):
        assert (one.folder / name).read_bytes() == (two.folder / name).read_bytes()
    assert one.manifest["pools"] == two.manifest["pools"]


def test_winner_positions_are_uniform():
    """Winners of a full 1,000,000-share pool fall evenly over 100 blocks of 10,000 (99%)."""
    spec = load_spec(spec_path("hand_to_hand_tactics"))
    tiers = shuffled_tiers(spec, spec.pool("d1.00"), SEED_A)
    per_block = (tiers.reshape(100, 10_000) > 0).sum(axis=1)
    assert per_block.sum() == 338_644
    assert chisquare(per_block).pvalue > 0.01


def test_the_position_test_catches_clustering():
    spec = load_spec(spec_path("hand_to_hand_tactics"))
    tiers = shuffled_tiers(spec, spec.pool("d1.00"), SEED_A)
    tiers[:20_000] = np.sort(tiers[:20_000])  # losers drift to the front of the first two blocks
    per_block = (tiers.reshape(100, 10_000) > 0).sum(axis=1)
    assert chisquare(per_block).pvalue < 0.01


def test_build_pool_has_the_layout_of_its_game():
    spec = load_spec(spec_path("happy_holidays"))
    table = build_pool(spec, spec.pool("p1"), SEED_A)
    assert table.columns[:6] == ["position", "ticket", "book", "ticket_no", "tier", "prize_cents"]


def test_every_ticket_has_its_own_salt_from_the_salt_stream():
    spec = load_spec(spec_path("wild_side"))
    pool = spec.pool("p1")
    salts = build_pool(spec, pool, SEED_A)["salt"].to_list()
    raw = derive_stream(SEED_A, "poolgen/v1", "wild_side", "p1", "salt").read(16 * pool.tickets)
    assert salts[0] == raw[:16].hex() and salts[-1] == raw[-16:].hex()
    assert salts == [raw[i:i + 16].hex() for i in range(0, len(raw), 16)]
    assert len(set(salts)) == pool.tickets == 150_000
    assert build_pool(spec, pool, SEED_B)["salt"][0] != salts[0]


class _NoEngine:  # a ticket-wide style audit has no engine for
    styles = ("no_such_style",)

    @staticmethod
    def document() -> dict:
        return {"style": "no_such_style"}


def test_self_check_refuses_a_style_audit_has_no_engine_for():
    spec = load_spec(spec_path("primetime_payout"))
    with pytest.raises(RunError) as info:
        self_check(replace(spec, play=_NoEngine()), spec.pools[0], pl.DataFrame())
    assert str(info.value) == (f"{spec.file}: no audit rules engine for 'no_such_style'; "
                               "refusing to write layouts nobody can check")


class _Unreadable:  # a play entry audit's engines cannot read (a multiplier of 0)
    styles = ("match_n",)

    @staticmethod
    def document() -> dict:
        area = {"id": "play", "style": "match_n", "spots": 6, "match": 3,
                "prizes": [{"code": "1", "cents": 100}], "multipliers": [{"code": "0X", "by": 0}]}
        return {"max_wins": 1, "areas": [area], "tiers": [{"id": "lose", "wins": []}]}


def test_self_check_refuses_a_play_entry_audit_cannot_read_in_one_line():
    """Should check ever let through an entry audit refuses, generate says so instead of crashing."""
    spec = load_spec(spec_path("happy_holidays"))
    with pytest.raises(RunError) as info:
        self_check(replace(spec, play=_Unreadable()), spec.pools[0], pl.DataFrame({"tier": ["lose"]}))
    assert str(info.value) == (
        f"{spec.file}: pool p1: audit's engine refuses the run (manifest play entry: area 'play': spots, "
        "match, prizes or multipliers unreadable); nothing was written")


def test_validation_files_merged_from_the_workers_are_the_order_in_one_piece(tmp_path):
    """Each pool's worker makes and sorts its validation records; the run's file merges them. With one
    worker or two, it is the file made in one call from every ticket of the order (docs/validation.md)."""
    spec = load_spec(small_happy_holidays(tmp_path, 12_000))
    keys = (bytes(range(32)), bytes(range(32, 64)))
    folders = [generate(GenerateRequest(spec, SEED_A, now=NOW, out=tmp_path / f"w{w}", run_id="run",
                                        workers=w, validation_keys=keys)).folder for w in (1, 2)]
    pools = [p.id for p in spec.pools]
    assert len(pools) == 4
    imaging = pl.concat([pl.read_parquet(folders[0] / f"imaging-{p}.parquet", columns=["barcode", "virn"])
                         for p in pools])
    table = pl.concat([pl.read_parquet(folders[0] / f"pool-{p}.parquet", columns=["prize_cents", "tier"])
                       for p in pools])
    prizes, free = table["prize_cents"].to_numpy(), (table["tier"] == "free").to_numpy()
    codes, virns = (imaging[c].str.to_integer().to_numpy() for c in ("barcode", "virn"))
    # none high-tier (the high file marks the winners OTHER_TIER); some free tickets (flagged FREE)
    assert len(prizes) == 12_000 and (prizes >= 60000).sum() == 0 and free.sum() > 0
    for (tier, name), key in zip(TIERS.items(), keys, strict=True):
        whole = file_bytes(tier, key, "run", 465, 60000, codes, virns, 12, prizes, free)
        assert (folders[0] / name).read_bytes() == (folders[1] / name).read_bytes() == whole


def test_pools_split_between_this_process_and_its_workers_are_the_same_files(tmp_path):
    """--workers 3 on five pools: two worker processes take the largest pools, one at a time, and this
    process the smallest (poolgen/run/generate.py `_in_parallel`). Every file of the run, validation
    files and manifest included, is the one --workers 1 writes, byte for byte."""
    spec = load_spec(small_happy_holidays(tmp_path, 15_000))
    keys = (bytes(range(32)), bytes(range(32, 64)))
    folders = [generate(GenerateRequest(spec, SEED_A, now=NOW, out=tmp_path / f"w{w}", run_id="run",
                                        workers=w, validation_keys=keys)).folder for w in (1, 3)]
    names = sorted(p.name for p in folders[0].iterdir())
    assert len(spec.pools) == 5 and len(names) == 2 * 5 + 4  # pools, imaging; packs, validation x 2, manifest
    assert sorted(p.name for p in folders[1].iterdir()) == names
    assert [(folders[1] / n).read_bytes() for n in names] == [(folders[0] / n).read_bytes() for n in names]
