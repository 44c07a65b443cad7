"""The win-all third engine (tests/third_engines/win_all.py, from docs/styles/key_number_match.md and
docs/styles/play.md alone, reading the spec, not the manifest) on real runs: Money Bag Match cut to one
pool of 3,000 and the win-all games of tests/third_engines/win_all_specs.py (sums of one multiset or
many, two areas with a win-all each, a key symbol area, three spots, and two of them with win-alls that
pin their prizes, `shows`). Every generated row is legal and
pays its stored prize, which is its tier's; a win-all ticket's prizes are drawn as section 7.1 says
(each sequence adding up to the sum alike, the symbol's spot uniform); and on every tampered row the
engine refuses exactly what audit's step 4 refuses, in its very words and amount."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from scipy.special import chdtrc

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A
from tests.support.spec_docs import dumps
from tests.third_engines import against_audit, win_all, win_all_layout, win_all_specs

GAMES = ("money_bag_match", "mixed", "two_areas", "two_areas_plain", "key_symbols", "uniform", "pinned",
         "pinned_areas")


def _money_bag(folder: Path) -> Path:
    """specs/examples/money_bag_match.toml cut to one pool of 3,000 (counts per pool / 10, at least 1)."""
    text = (ROOT / "specs/examples/money_bag_match.toml").read_text()
    text = text.replace("order_tickets = 90000", "order_tickets = 3000").replace(
        "pool_tickets = 30000", "pool_tickets = 3000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m[1]) // 10)}", text, flags=re.M)
    path = folder / "money_bag_match.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Each game's (spec, run folder)."""
    root = tmp_path_factory.mktemp("winall")
    made = {}
    for name in GAMES:
        (root / name).mkdir()
        if name == "money_bag_match":
            spec = _money_bag(root / name)
        else:
            spec = root / name / f"{name}.toml"
            spec.write_text(dumps(getattr(win_all_specs, name)()))
        run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                       out=root / name, run_id="r")).folder
        made[name] = (spec, run)
    return made


def _pool(runs: dict, game: str) -> pl.DataFrame:
    return pl.read_parquet(runs[game][1] / "pool-p1.parquet")


@pytest.mark.parametrize("game", GAMES)
def test_every_win_all_row_is_legal_and_pays_the_sum_of_its_prizes(runs, game):
    spec, _ = runs[game]
    engine = win_all.read_spec(spec)
    table = _pool(runs, game)
    assert win_all.judge(engine, table) == {}
    counts = Counter(table["tier"])
    want = win_all.pool_counts(engine, table.height)
    assert {t: counts[t] for t in want} == want
    assert counts["lose"] == table.height - sum(want.values())
    alls = [t for t, (_, wins) in engine.tiers.items() if any(w[1] == "all" for w in wins)]
    assert sum(counts[t] for t in alls) >= 20  # the rows above hold win-all tickets to judge


def test_a_win_all_ticket_shows_every_sequence_of_its_sum_alike(runs):
    """Section 7.1 on three spots and $6 of $1, $2, $3: 1,400 tickets over the seven sequences (2,2,2)
    and the six orders of (1,2,3), over the symbol's three spots, and both together. Weighting the two
    multisets alike instead of by their orderings gives (2,2,2) half the tickets: p about 0."""
    spec, _ = runs["uniform"]
    table = _pool(runs, "uniform").filter(pl.col("tier") == "a6")
    area = win_all.read_spec(spec).areas[0]
    assert win_all.sequences(area, 600) == {(0, 3, 0): 1, (1, 1, 1): 6}
    shown = Counter(table.select([f"play_prize_{j}" for j in range(3)]).rows())
    assert set(shown) == {(1, 1, 1), (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)}
    spots = Counter(r.index(6) for r in table.select([f"play_your_{j}" for j in range(3)]).rows())
    # apart from the prizes: the symbol's spot and the sequence jointly, 21 cells (a symbol always on the
    # largest prize, say, leaves most of them empty)
    both = Counter((r[:3], r[3:].index(6)) for r in table.select(
        [f"play_prize_{j}" for j in range(3)] + [f"play_your_{j}" for j in range(3)]).rows())
    assert len(both) == 21
    for seen, k in ((shown, 7), (spots, 3), (both, 21)):
        e = table.height / k
        assert chdtrc(k - 1, sum((v - e) ** 2 / e for v in seen.values())) > 0.001, seen


def test_money_bag_sums_are_made_of_the_multisets_check_enumerates(runs):
    spec, _ = runs["money_bag_match"]
    engine = win_all.read_spec(spec)
    area = engine.areas[0]
    table = _pool(runs, "money_bag_match")
    for tier, (total, _) in engine.tiers.items():
        if not tier.startswith("bag"):
            continue
        made = win_all.sequences(area, total)
        rows = table.filter(pl.col("tier") == tier).select([f"play_prize_{j}" for j in range(10)]).rows()
        assert rows and {tuple(Counter(r).get(i, 0) for i in range(8)) for r in rows} <= set(made)
    assert win_all.sequences(area, 2000) == {(10, 0, 0, 0, 0, 0, 0, 0): 1}


def _first(runs: dict, game: str, tier: str) -> dict:
    return _pool(runs, game).filter(pl.col("tier") == tier).row(0, named=True)


def _agrees(runs: dict, game: str, folder: Path, tier: str, values: dict) -> tuple[str, int]:
    engine = win_all.read_spec(runs[game][0])
    return against_audit.agrees(lambda _play, table: win_all.judge(engine, table), runs[game][1], folder,
                                tier, values)


def _bag(r: dict, area: str, code: int, yours: int) -> tuple[int, list[int]]:
    """The spot showing the win-all symbol (code), and the others."""
    j = next(j for j in range(yours) if r[f"{area}_your_{j}"] == code)
    return j, [i for i in range(yours) if i != j]


# mixed: numbers 0..8, BAG 9, STAR 10, 2X 11; prizes $1, $2, $5, $10
MIXED = [
    ("two win-alls", lambda r, b, o: {f"play_your_{o[0]}": 9}, "play: 2 win-all symbols"),
    ("two win-alls and a star", lambda r, b, o: {f"play_your_{o[0]}": 9, f"play_your_{o[1]}": 10},
     "play: 2 win-all symbols; play: a win-all symbol beside 1 other win(s)"),
    ("beside a match", lambda r, b, o: {f"play_your_{o[0]}": r["play_win_2"]},
     "play: a win-all symbol beside 1 other win(s)"),
    ("beside a 2X", lambda r, b, o: {f"play_your_{o[0]}": 11},
     "play: a win-all symbol beside 1 other win(s)"),
    ("beside a match whose prize code is out of range", lambda r, b, o: {
        f"play_your_{o[0]}": r["play_win_1"], f"play_prize_{o[0]}": 9}, "play: a prize code out of range"),
    ("its own prize code out of range", lambda r, b, o: {f"play_prize_{b}": 7},
     "play: a prize code out of range"),
    ("another prize code null", lambda r, b, o: {f"play_prize_{o[0]}": None},
     "play: a prize code out of range"),
    ("a sum of another tier", lambda r, b, o: {f"play_prize_{o[0]}": 3}, "its wins are not its tier 'b10''s"),
]


@pytest.mark.parametrize(("case", "change", "reason"), MIXED, ids=[c[0] for c in MIXED])
def test_a_tampered_win_all_row_is_refused_as_audit_refuses_it(runs, tmp_path, case, change, reason):
    r = _first(runs, "mixed", "b10")
    bag, others = _bag(r, "play", 9, 5)
    values = change(r, bag, others)
    reasons, pays = _agrees(runs, "mixed", tmp_path / "r", "b10", values)
    assert reasons.startswith(reason), reasons
    prizes = [values.get(f"play_prize_{j}", r[f"play_prize_{j}"]) for j in range(5)]
    assert pays == sum((100, 200, 500, 1000)[q] for q in prizes if q is not None and q < 4)


def test_a_loser_showing_the_win_all_symbol_pays_all_its_prizes_and_is_refused(runs, tmp_path):
    r = _first(runs, "mixed", "lose")
    reasons, pays = _agrees(runs, "mixed", tmp_path / "r", "lose", {"play_your_0": 9})
    assert pays == sum((100, 200, 500, 1000)[r[f"play_prize_{j}"]] for j in range(5))
    assert reasons == f"its wins are not its tier 'lose''s (1 win(s) paying {pays} cents)"


def test_a_wild_win_all_is_held_to_the_lucky_numbers_it_matches(runs, tmp_path):
    """two_areas: numbers 0..11, ALL 12; the WILD area matches the LUCKY area's WINNING NUMBERS."""
    r = _first(runs, "two_areas", "w20")
    _, others = _bag(r, "wild", 12, 6)
    lucky = r["lucky_win_0"]
    assert _agrees(runs, "two_areas", tmp_path / "a", "w20", {f"wild_your_{others[0]}": lucky}) == (
        "wild: a win-all symbol beside 1 other win(s)", 2000)
    assert _agrees(runs, "two_areas", tmp_path / "b", "w20", {
        f"wild_your_{others[0]}": lucky, f"wild_your_{others[1]}": lucky}) == (
        "wild: 2 matches use the WINNING NUMBERS unevenly (2, 0 times); "
        "wild: a win-all symbol beside 2 other win(s)", 2000)
    repeat = {f"wild_your_{others[0]}": r[f"wild_your_{others[1]}"]}
    assert _agrees(runs, "two_areas", tmp_path / "c", "w20", repeat) == (
        "wild: a YOUR NUMBER that matches nothing shows twice", 2000)
    both = _first(runs, "two_areas", "both")
    q = both["wild_prize_0"]
    assert _agrees(runs, "two_areas", tmp_path / "d", "both", {"wild_prize_0": (q + 1) % 4})[0] == (
        f"its wins are not its tier 'both''s (2 win(s) paying "
        f"{4500 + (100, 300, 400, 900)[(q + 1) % 4] - (100, 300, 400, 900)[q]} cents)")


def test_a_key_symbol_win_all_beside_a_seven_is_refused(runs, tmp_path):
    """key_symbols: pictures 0..6, FLAME 7, SEVEN 8."""
    r = _first(runs, "key_symbols", "a19")
    _, others = _bag(r, "keys", 7, 8)
    assert _agrees(runs, "key_symbols", tmp_path / "r", "a19", {f"keys_your_{others[0]}": 8}) == (
        "keys: a win-all symbol beside 1 other win(s)", 1900)


def test_a_pinned_row_showing_other_prizes_of_its_sum_is_refused_as_audit_refuses_it(runs, tmp_path):
    """pinned: $1, $2, $5, $10 (codes 0..3); b10 pins $1 x 3, $2 and $5. Five $2 still pay $10 but are
    not the prizes the tier prints; a $1 whose code is out of range (9) counts as the nearest code, $10
    (section 5), after rule 3's reason and the sum's."""
    expected = ("play: its win-all symbol shows 5 x '2', not the prizes its tier pins (3 x '1', 1 x '2', "
                "1 x '5')")
    assert _agrees(runs, "pinned", tmp_path / "a", "b10", {f"play_prize_{j}": 1 for j in range(5)}) == (
        expected, 1000)
    r = _first(runs, "pinned", "b10")
    one = next(j for j in range(5) if r[f"play_prize_{j}"] == 0)
    reasons, pays = _agrees(runs, "pinned", tmp_path / "b", "b10", {f"play_prize_{one}": 9})
    assert pays == 900 and reasons.startswith("play: a prize code out of range (")
    assert reasons.endswith("its wins are not its tier 'b10''s (1 win(s) paying 900 cents); play: its "
                            "win-all symbol shows 2 x '1', 1 x '2', 1 x '5', 1 x '10', not the prizes its "
                            "tier pins (3 x '1', 1 x '2', 1 x '5')"), reasons


def test_a_pinned_wild_area_is_held_to_its_pin_beside_an_unpinned_lucky_win_all(runs, tmp_path):
    """pinned_areas: $1, $3, $4, $9 (codes 0..3); `both` pins WILD's $36 as $9 x 3 + $3 x 3 and leaves
    LUCKY's $9 free. WILD showing $9 x 3 + $4 x 2 + $1 ($36 too) is refused, in audit's words."""
    both = _first(runs, "pinned_areas", "both")
    assert sorted(both[f"wild_prize_{j}"] for j in range(6)) == [1, 1, 1, 3, 3, 3]
    values = {f"wild_prize_{j}": q for j, q in enumerate((3, 3, 3, 2, 2, 0))}
    assert _agrees(runs, "pinned_areas", tmp_path / "r", "both", values) == (
        "wild: its win-all symbol shows 1 x '1', 2 x '4', 3 x '9', not the prizes its tier pins (3 x '3', "
        "3 x '9')", 4500)


@pytest.mark.parametrize(("values", "yours", "total"), [
    ((200, 400, 500, 1000, 2000, 5000, 10000, 100000), 10, 5000),  # Money Bag Match's $50
    ((101, 307, 512, 999, 1234, 2047), 6, 4001),  # no set makes it
    ((101, 307, 512, 999, 1234, 2047), 6, 3563),
    ((100, 300, 700, 1100), 8, 1900),
])
def test_check_searches_as_many_partial_sums_as_the_contract_counts(monkeypatch, values, yours, total):
    """Section 2's bound on the search, held at the engine's count exactly: the spec's sum is decided
    with that many partial sums allowed and refused with one fewer."""
    # function-local: poolgen's own search, whose bound this test moves (the engine never imports it)
    from poolgen.styles import key_number_all

    count = win_all.searched(list(values), yours, total)
    assert count > 0
    monkeypatch.setattr(key_number_all, "MOST_STATES", count)
    key_number_all.prize_sets.cache_clear()
    key_number_all.prize_sets(values, yours, total)
    monkeypatch.setattr(key_number_all, "MOST_STATES", count - 1)
    key_number_all.prize_sets.cache_clear()
    with pytest.raises(key_number_all.TooManySets, match=f"^more than {count - 1:,} partial sums"):
        key_number_all.prize_sets(values, yours, total)
    key_number_all.prize_sets.cache_clear()


@pytest.mark.parametrize("game", ["mixed", "uniform", "key_symbols", "money_bag_match", "two_areas",
                                  "two_areas_plain", "pinned", "pinned_areas"])
def test_the_layouts_are_sections_7_and_7_1_drawn_from_the_seed(runs, game):
    """Every row of the pool drawn again from the seed and the spec alone (win_all_layout.py): the pool
    order, then per tier the numbers, the spots' order, every spot's losing number and prize, one draw
    of WINNING NUMBERS per match win, and a win-all tier's prizes, in that order (Money Bag Match, with
    distinct numbers: section 8.1's order instead; two areas: every tier of the first, then the second's,
    which reads the first's WINNING NUMBERS; a pinned win-all tier: its pinned prizes in a uniform order,
    no multiset drawn)."""
    spec, run = runs[game]
    tiers, columns = win_all_layout.lay_out(SEED_A, spec)
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert tiers == table["tier"].to_list()
    areas = tuple(f"{a.id}_" for a in win_all.read_spec(spec).areas)
    assert set(columns) == {c for c in table.columns if c.startswith(areas)}
    for column, values in columns.items():
        assert values == table[column].to_list(), column
