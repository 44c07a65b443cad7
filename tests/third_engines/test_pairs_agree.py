"""The third engine of step 8's tests of each tier given the rest of its pair of packs
(tests/third_engines/pairs.py, written from docs/statistics.md 1b alone, in exact rational
arithmetic) against audit's (audit/stats/pairs.py, through `audit.stats.packs.pack_block_findings`):
on small honest chain pools (bench/stats_packs.py's cases "floor" and "chain": Happy Holidays cut to
100 books of 30), an insider's reordering, tampered pools and an eInstant's blocks, the same tests in
the same order, p-values equal to 1e-9 relative, the figures' words and numbers equal, and the same
"not tested" line."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.read.manifest import Tier
from audit.read.specs.packs import PackCap, PackRules, PackSpacing, for_pool, read_blocks, read_packs
from audit.stats.packs import pack_block_findings
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support.blocks import blocks_variant
from tests.support.packs import small_packs, tier_across_pairs
from tests.third_engines import pairs

# bench/stats_packs.py CASES "floor" and "chain": pools the chain of docs/randomness.md 5.3 draws
FLOOR = 'min_winners = 7\nmin_prize_value = "12.00"\ncaps = [ { prize = "100.00", at_most = 1 } ]'
CHAIN = ('min_winners = 6\nmax_winners = 12\nmin_prize_value = "12.00"\n'
         'caps = [ { prize = "100.00", at_most = 1 } ]\n'
         'spacing = [ { tiers = ["5", "20", "100"], min_distance = 3 } ]')
PRIZE_SPACED = ('min_winners = 6\nmin_prize_value = "12.00"\n'  # a spacing rule naming a prize
                'spacing = [ { prize = "2.00", min_distance = 2 } ]')
TWO_SPACING = ('min_winners = 7\nmin_prize_value = "12.00"\n'
               'spacing = [ { tiers = ["5"], min_distance = 3 }, { tiers = ["2"], min_distance = 2 } ]')
TWO_SHARED = ('min_winners = 6\nmin_prize_value = "12.00"\n'  # two spacing rules holding the $5 tier both
              'spacing = [ { tiers = ["2", "5"], min_distance = 2 }, { tiers = ["5", "20", "100"], '
              'min_distance = 3 } ]')
PAIR_WORDS = "given the rest of its pair"
PAIR_LINE = "each tier per "  # the pair tests' "not tested" line (the chain's own line names them too)
M = 30


def _seed(text: str) -> bytes:
    return hashlib.sha256(f"tests/third_engines/pairs/{text}".encode()).digest()


class Pool:
    """One built pool: its columns in print order, its rules (audit's and plain) and manifest tiers."""

    def __init__(self, path: Path, seed: str, blocks: bool = False):
        spec = load_spec(path)
        entry = spec.pools[0]
        doc = tomllib.loads(path.read_text())
        table = build_pool(spec, entry, _seed(seed))
        self.prize = table["prize_cents"].to_numpy()
        self.tier = table["tier"].to_numpy()
        self.rules: PackRules = for_pool(read_blocks(doc), entry.price_cents) if blocks else read_packs(doc)
        self.tiers = entry.tiers
        self.m = self.rules.size if blocks else M
        self.unit = "block" if blocks else "book"


def _plain(rules: PackRules) -> dict:
    """audit's rules as the engine takes them: plain dicts (a rule naming a prize keeps it in cents)."""
    return {"min_winners": rules.min_winners, "max_winners": rules.max_winners,
            "floor_cents": rules.min_prize_cents,
            "caps": [{"tiers": list(c.tiers), "prize_cents": c.prize_cents, "at_most": c.at_most}
                     for c in rules.caps],
            "spacing": [{"tiers": list(s.tiers), "prize_cents": s.prize_cents, "min_distance": s.min_distance}
                        for s in rules.spacing]}


NUMBER = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?")


def _numbers(figures: str) -> list[float]:
    return [float(x.replace(",", "")) for x in NUMBER.findall(figures)]


def both(pool: Pool, prize: np.ndarray | None = None, tier: np.ndarray | None = None,
         rules: PackRules | None = None) -> tuple[list, list[str], list, list[str]]:
    """audit's pair findings and lines, and the engine's, on the pool (or the columns given)."""
    prize = pool.prize if prize is None else prize
    tier = pool.tier if tier is None else tier
    rules = pool.rules if rules is None else rules
    found, lines = pack_block_findings(prize, pool.m, rules, pool.tiers, tier)
    audit = [(f.name, f.figures, f.p) for f in found if PAIR_WORDS in f.name]
    audit_lines = [line for line in lines if line.startswith(PAIR_LINE)]
    mine, mine_lines, too_few = pairs.pair_tests([int(v) for v in prize], [str(v) for v in tier], pool.m,
                                                 _plain(rules), [(t.id, t.prize_cents) for t in pool.tiers],
                                                 pool.unit)
    counted = [line for line in lines if "too few tickets to bin or rank" in line]
    if mine:  # the pair tests not made are among audit's count of the pack tests not made
        assert counted and int(counted[0].split()[0]) >= too_few
    return audit, audit_lines, mine, mine_lines


def assert_agree(audit: list, mine: list) -> None:
    assert [a[0] for a in audit] == [b[0] for b in mine]
    for (name, fig_a, p_a), (_, fig_b, p_b) in zip(audit, mine, strict=True):
        assert p_b == pytest.approx(p_a, rel=1e-9, abs=0), name
        assert NUMBER.sub("#", fig_a) == NUMBER.sub("#", fig_b), name  # the contract's words
        got, want = _numbers(fig_a), _numbers(fig_b)
        assert got[0] == want[0], name  # n pairs
        assert got == pytest.approx(want, abs=0.011), name  # as printed (2 or 3 decimals)


def _why(lines: list[str]) -> str:
    """The reason a "not tested" line gives, as one word."""
    assert len(lines) == 1, lines
    return next(w for k, w in (("fewer than 20 pairs", "pairs"), ("break", "broken")) if k in lines[0])


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pairs")
    return {"floor": small_packs(folder, FLOOR, "floor.toml"),
            "chain": small_packs(folder, CHAIN, "chain.toml"),
            "prize-spaced": small_packs(folder, PRIZE_SPACED, "prize_spaced.toml"),
            "two": small_packs(folder, TWO_SPACING, "two.toml"),
            "two-shared": small_packs(folder, TWO_SHARED, "two_shared.toml")}


@pytest.mark.parametrize("case", ["floor", "chain", "prize-spaced", "two", "two-shared"])
@pytest.mark.parametrize("i", range(3))
def test_honest_chain_pools_get_the_same_pair_tests_and_p_values(specs, case, i):
    audit, audit_lines, mine, mine_lines = both(Pool(specs[case], f"{case}/{i}"))
    assert len(mine) >= 4 and audit_lines == mine_lines == []  # tiers 1, 2 and free at least
    assert_agree(audit, mine)


@pytest.mark.parametrize("to_poorer", [True, False], ids=["to-poorer", "to-richer"])
def test_an_insider_moving_a_tier_across_pairs_is_judged_alike(specs, to_poorer):
    pool = Pool(specs["floor"], "insider")
    table = tier_across_pairs(_table(pool), M, "2", 7, 1200, to_poorer=to_poorer)
    audit, _, mine, mine_lines = both(pool, table["prize_cents"].to_numpy(), table["tier"].to_numpy())
    assert mine_lines == []
    assert_agree(audit, mine)
    assert "tier 2 ($2.00) per book given the rest of its pair of books: toward the richer book" in [
        name for name, _, _ in mine]


def _table(pool: Pool) -> pl.DataFrame:
    return pl.DataFrame({"tier": pool.tier, "prize_cents": pool.prize})


def test_an_odd_last_book_is_left_out_of_the_pairs(specs):
    pool = Pool(specs["chain"], "odd")
    cut = 81 * M  # 40 pairs and one book left over
    audit, audit_lines, mine, mine_lines = both(pool, pool.prize[:cut], pool.tier[:cut])
    assert audit_lines == mine_lines == [] and mine
    assert_agree(audit, mine)


def test_fewer_than_20_pairs_of_books_get_the_line_alone(specs):
    pool = Pool(specs["floor"], "few")
    cut = 39 * M
    audit, audit_lines, mine, mine_lines = both(pool, pool.prize[:cut], pool.tier[:cut])
    assert audit == mine == []
    assert _why(audit_lines) == _why(mine_lines) == "pairs"


def _below_floor(prize: np.ndarray, tier: np.ndarray, book: int, donor: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows reordered: book `book`'s winners swapped, one by one, with losers of book `donor` until
    `book` pays less than the floor ($12)."""
    prize, tier = prize.copy(), tier.copy()
    wins = book * M + np.flatnonzero(prize[book * M:(book + 1) * M] > 0)
    losers = donor * M + np.flatnonzero(prize[donor * M:(donor + 1) * M] == 0)
    for x, y in zip(wins, losers, strict=False):
        if prize[book * M:(book + 1) * M].sum() < 1200:
            break
        prize[[x, y]], tier[[x, y]] = prize[[y, x]], tier[[y, x]]
    assert prize[book * M:(book + 1) * M].sum() < 1200
    return prize, tier


@pytest.mark.parametrize("case", ["floor", "chain"])
def test_a_book_below_the_floor_leaves_both_untested(specs, case):
    pool = Pool(specs[case], f"{case}/broken")
    prize, tier = _below_floor(pool.prize, pool.tier, 0, 99)
    audit, audit_lines, mine, mine_lines = both(pool, prize, tier)
    assert audit == mine == []
    assert _why(audit_lines) == _why(mine_lines) == "broken"


def test_a_broken_odd_last_book_leaves_both_untested(specs):
    """The contract's "a pack breaking its parameters" is any pack step 5 names, the odd last one too
    (it is in no pair, but a pool holding it is not the chain's target)."""
    pool = Pool(specs["floor"], "odd-broken")
    prize, tier = _below_floor(pool.prize, pool.tier, 80, 0)
    cut = 81 * M
    audit, audit_lines, mine, mine_lines = both(pool, prize[:cut], tier[:cut])
    assert audit == mine == []
    assert _why(audit_lines) == _why(mine_lines) == "broken"


def test_spaced_tickets_too_close_leave_both_untested(specs):
    """Two of the spacing rule's tickets next to each other in one book: its composition still fits
    (h(c) > 0), but step 5 names the book, so the pair tests are not made."""
    pool = Pool(specs["chain"], "close")
    held = np.isin(pool.tier, ["5", "20", "100"]) & (pool.prize > 0)
    book = next(b for b in range(100) if held[b * M:(b + 1) * M].sum() >= 2)
    at = book * M + np.flatnonzero(held[book * M:(book + 1) * M])
    prize, tier = pool.prize.copy(), pool.tier.copy()
    x, y = at[1], at[0] + 1  # the second spaced ticket moved next to the first
    prize[[x, y]], tier[[x, y]] = prize[[y, x]], tier[[y, x]]
    audit, audit_lines, mine, mine_lines = both(pool, prize, tier)
    assert audit == mine == []
    assert _why(audit_lines) == _why(mine_lines) == "broken"


def test_an_einstants_blocks_are_tested_per_block_with_the_floor_at_the_share_price(tmp_path):
    """Hand to Hand Tactics with its blocks (a floor of 40 x the share price: the chain's) cut to 200
    blocks of 100: the tests read "block", and the floor is 40 x 100 cents (without it the laws differ)."""
    pool = Pool(blocks_variant(tmp_path, 50), "blocks", blocks=True)
    assert pool.rules.min_prize_cents == 4000
    audit, audit_lines, mine, mine_lines = both(pool)
    assert audit_lines == mine_lines == [] and len(mine) >= 10
    assert all(" per block given the rest of its pair of blocks: " in name for name, _, _ in mine)
    assert_agree(audit, mine)
    unfloored = _plain(pool.rules) | {"floor_cents": None}
    other, _, _ = pairs.pair_tests([int(v) for v in pool.prize], [str(v) for v in pool.tier], pool.m,
                                   unfloored, [(t.id, t.prize_cents) for t in pool.tiers], "block")
    assert [p for _, _, p in other] != [p for _, _, p in mine]


def test_an_einstants_floor_not_yet_in_cents_is_refused_not_dropped(tmp_path):
    """The floor of an eInstant's blocks is min_prize_times x the share price: rules read from the spec
    but not priced for the pool (`for_pool`) would drop it from every pair's law, so they are refused."""
    pool = Pool(blocks_variant(tmp_path, 50), "unpriced", blocks=True)
    unpriced = read_blocks(tomllib.loads(blocks_variant(tmp_path, 50).read_text()))
    with pytest.raises(ValueError, match="min_prize_times"):
        pack_block_findings(pool.prize, pool.m, unpriced, pool.tiers, pool.tier)


def _synthetic(prize: np.ndarray, tier: np.ndarray, m: int, rules: PackRules, tiers: list[Tier]) -> list:
    found, lines = pack_block_findings(prize, m, rules, tiers, tier)
    audit = [(f.name, f.figures, f.p) for f in found if PAIR_WORDS in f.name]
    mine, mine_lines, _ = pairs.pair_tests(prize.tolist(), tier.tolist(), m, _plain(rules),
                                           [(t.id, t.prize_cents) for t in tiers])
    assert [line for line in lines if line.startswith(PAIR_LINE)] == mine_lines == []
    assert_agree(audit, mine)
    return mine


def test_of_two_classes_as_numerous_the_first_in_order_is_the_losers():
    """Two losing tiers of 240 tickets each: L is "lose" (the first by tier as text), so "void" is tested
    as a class of $0.00, and the names agree."""
    rng = np.random.default_rng(5)
    tier = rng.permutation(np.array(["lose"] * 240 + ["void"] * 240 + ["1"] * 80 + ["2"] * 40))
    cents = {"lose": 0, "void": 0, "1": 100, "2": 200}
    prize = np.array([cents[t] for t in tier], dtype=np.int64)
    floor = int(prize.reshape(60, 10).sum(axis=1).min())  # a floor every book meets: the chain's rules
    tiers = [Tier(t, c, 0) for t, c in cents.items()]
    mine = _synthetic(prize, tier, 10, PackRules(min_prize_cents=floor), tiers)
    assert "tier void ($0.00) per book given the rest of its pair of books: spread" in [n for n, _, _ in mine]


@pytest.mark.parametrize("seed", range(24))
def test_random_pools_with_every_parameter_at_its_bound_agree(seed):
    """Shuffled pools of 3 to 6 classes (tiers sorting as text unlike as numbers, $1,000.00 prizes), the
    rules set to what the pool just meets (winners bounds, floor, a cap and a spacing distance at their
    observed extremes, a cap naming a prize), so they bind in many pairs' laws."""
    rng = np.random.default_rng(seed)
    m, books, k = int(rng.integers(4, 16)), int(rng.integers(40, 90)), int(rng.integers(3, 7))
    ids = ["lose", "void", "1", "10", "2", "5", "9", "Z", "a", "free"]
    names = rng.choice(ids, k, replace=False).tolist()
    amounts = [0 if n in ("lose", "void") else int(rng.choice([100, 200, 500, 100000])) for n in names]
    amounts[0] = 0
    pick = rng.choice(k, size=books * m, p=rng.dirichlet(np.full(k, 0.7)))
    tier, prize = np.array(names)[pick], np.array(amounts, dtype=np.int64)[pick]
    winners = [n for n, c in zip(names, amounts, strict=True) if c > 0]

    def held(ids: list[str]) -> np.ndarray:
        return (np.isin(tier, ids) & (prize > 0)).reshape(books, m)

    caps, spacing = [], []
    if winners and rng.random() < 0.7:
        ids = rng.choice(winners, int(rng.integers(1, len(winners) + 1)), replace=False).tolist()
        if rng.random() < 0.3:  # a cap naming a prize: every tier paying it
            cents = amounts[names.index(ids[0])]
            ids = [n for n, c in zip(names, amounts, strict=True) if c == cents]
            caps = [PackCap("packs.caps[0]", int(held(ids).sum(axis=1).max()), (), cents)]
        else:
            caps = [PackCap("packs.caps[0]", int(held(ids).sum(axis=1).max()), tuple(ids))]
    if winners:  # the rarest winning tier and another, d apart in every pack if their counts fit
        ids = sorted({min(winners, key=lambda n: int((tier == n).sum())), str(rng.choice(winners))})
        d = int(rng.integers(2, 4))
        if held(ids).sum(axis=1).max() <= (m - 1) // d + 1:
            spacing = [PackSpacing("packs.spacing[0]", d, tuple(ids))]
            order = np.arange(books * m).reshape(books, m)
            for b, h in enumerate(held(ids)):  # each pack's held tickets to its places 0, d, 2d, ...
                goal = np.zeros(m, dtype=bool)
                goal[: h.sum() * d: d] = True
                order[b, goal], order[b, ~goal] = order[b, h], order[b, ~h]
            tier, prize = tier[order.ravel()], prize[order.ravel()]
    w = (prize > 0).reshape(books, m).sum(axis=1)
    rules = PackRules(min_winners=int(w.min()) if rng.random() < 0.6 else None,
                      max_winners=int(w.max()) if rng.random() < 0.6 else None,
                      min_prize_cents=int(prize.reshape(books, m).sum(axis=1).min()),
                      caps=tuple(caps), spacing=tuple(spacing))
    assert _synthetic(prize, tier, m, rules, [Tier(n, c, 0) for n, c in zip(names, amounts, strict=True)])
