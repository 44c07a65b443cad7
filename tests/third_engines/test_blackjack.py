"""The third engine for blackjack (tests/third_engines/blackjack.py, written from docs/styles/blackjack.md,
play.md and randomness.md alone) on real runs: Pennsylvania Blackjack '10 (specs/examples/pa_blackjack_10
.toml) cut to 3,000 tickets, a table of printed totals (k = 1, totals over 21 among them, four HANDS) and
one of three cards a HAND. Every printed ticket (imaging file) pays what its pool row states and every
row is legal; the layout drawn again from the seed by section 7 is the pool's, byte for byte; tampered
rows are refused with audit's very reasons and amounts; and a pool of a small table holds section 7's
law (every display of a tier, the prize of a HAND that does not win) by chi-square."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from scipy.stats import chisquare

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, SEED_B, small_example
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit
from tests.third_engines import blackjack as bj

GAMES = ["pa_blackjack_10", "printed_totals", "three_cards"]


def _table(aid: str, hands: int, k: int, points: list[int], dealer: list[int],
           tiers: list[tuple[str, int, list[str]]], tickets: int) -> dict:
    """A game of one blackjack area: cards c0.. of `points`, DEALER'S TOTALS d0.. of `dealer`, $ prizes."""
    symbols = ([{"group": "card", "code": f"c{i}", "symbol": f"C{i}"} for i in range(len(points))]
               + [{"group": "dealer", "code": f"d{i}", "symbol": f"D{i}"} for i in range(len(dealer))]
               + [{"group": "pz", "code": p, "symbol": f"${p}.00", "value": f"{p}.00"} for p in ("1", "5")])
    area = {"id": aid, "style": "blackjack", "hands": hands, "hand_cards": k, "numbers": "card",
            "points": points, "dealer_totals": "dealer", "dealer_points": dealer, "prizes": "pz"}
    rows = [{"id": t, "count": n, "wins": [{"area": aid, "prize": p, "how": "match"} for p in wins]}
            for t, n, wins in tiers]
    return base_doc([area], symbols, rows, max_wins=hands, pool_tickets=tickets)


def _spec(folder: Path, name: str) -> Path:
    if name == "pa_blackjack_10":
        return small_example(folder, name, 3000)
    if name == "printed_totals":  # one printed total a HAND, 22 and 25 never win; BUST, 17, 19, 20
        doc = _table("tot", 4, 1, [14, 17, 19, 21, 22, 25], [0, 17, 19, 20],
                     [("a", 200, ["1"]), ("b", 100, ["5", "1"]), ("c", 40, ["1", "1", "5"]),
                      ("d", 20, ["5", "5", "5", "5"])], 1200)
    else:  # three cards 2, 5, 9, 10, A a HAND: 6 to 33
        doc = _table("tri", 2, 3, [2, 5, 9, 10, 11], [17, 19, 0],
                     [("a", 300, ["1"]), ("b", 100, ["5", "1"])], 1200)
    (folder / f"{name}.toml").write_text(dumps(doc))
    return folder / f"{name}.toml"


def _generate(spec: Path, out: Path, seed: bytes = SEED_A, run_id: str = "r") -> Path:
    return Path(generate(GenerateRequest(load_spec(spec), seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=out,
                                         run_id=run_id)).folder)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("blackjack3")
    made = {}
    for name in GAMES:
        (root / name).mkdir()
        made[name] = _generate(_spec(root / name, name), root / name)
    return made


@pytest.mark.parametrize("game", GAMES)
def test_every_printed_ticket_pays_what_its_pool_row_states_and_every_row_is_legal(runs, game):
    assert bj.from_files(runs[game]) == []
    table = pl.read_parquet(runs[game] / "pool-p1.parquet")
    assert bj.judge(against_audit.play(runs[game]), table) == {}
    assert against_audit.layouts(runs[game])[0] == "pass"


@pytest.mark.parametrize("game", GAMES)
def test_section_7_drawn_again_from_the_seed_is_the_pools_layout_byte_for_byte(runs, game):
    """Steps 1 to 5 followed literally (split.py's stream): `row_permutations(H)` for every tier, the
    losers' included; step 4's one `integers` call over bounds W(d) or L(d) that differ slot by slot."""
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    play, pool = manifest["play"], manifest["pools"][0]
    wins = {t["id"]: [w["prize"] for w in t["wins"]] for t in play["tiers"]}
    tiers = [(t["id"], t["count"], wins[t["id"]]) for t in pool["tiers"]]
    table = pl.read_parquet(runs[game] / "pool-p1.parquet")
    at, cols = bj.lay_out(SEED_A, manifest["game"]["rules"], "p1", play["areas"][0], tiers,
                          manifest["game"]["tickets_per_book"])
    assert at == table["tier"].to_list()
    assert pl.DataFrame(cols).cast(pl.UInt8).equals(table.select(list(cols)))


def test_the_other_reading_of_step_1_no_permutation_for_a_loser_is_not_the_pools(runs):
    """What the contract left open until 2026-12-05 (section 7 now says it): a tier of no wins draws
    `row_permutations(H)` all the same. Drawn without it, the pool's layout is not the generator's."""
    manifest = json.loads((runs["three_cards"] / "manifest.json").read_text())
    play = manifest["play"]
    wins = {t["id"]: [w["prize"] for w in t["wins"]] for t in play["tiers"]}
    tiers = [(t["id"], t["count"], wins[t["id"]]) for t in manifest["pools"][0]["tiers"]]
    _, cols = bj.lay_out(SEED_A, "test_game", "p1", play["areas"][0], tiers, 50, perm_for_losers=False)
    table = pl.read_parquet(runs["three_cards"] / "pool-p1.parquet")
    assert not pl.DataFrame(cols).cast(pl.UInt8).equals(table.select(list(cols)))


def _first(run: Path, tier: str) -> dict:
    return pl.read_parquet(run / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)


# printed_totals: cards 14, 17, 19, 21, 22, 25 (codes 0..5); DEALER'S TOTALS BUST, 17, 19, 20 (0..3)
TAMPERED = [
    ("printed_totals", "lose", {"tot_dealer_0": 1, "tot_card_0": 3}, "a loser shown 21 against 17"),
    ("printed_totals", "lose", {"tot_dealer_0": 0, "tot_card_0": 4, "tot_card_1": 5, "tot_card_2": 4,
                             "tot_card_3": 3}, "22 and 25 lose to a BUST, 21 wins"),
    ("printed_totals", "a", {"tot_dealer_0": 3, "tot_card_0": 3, "tot_card_1": 3, "tot_card_2": 0,
                             "tot_card_3": 0}, "two 21s against 20: one win too many"),
    ("printed_totals", "a", {"tot_dealer_0": 1, "tot_card_0": 2, "tot_card_1": 2, "tot_card_2": 2,
                             "tot_card_3": 2}, "19 against 17 on every HAND"),
    ("printed_totals", "d", {"tot_dealer_0": 2, "tot_card_0": 2, "tot_card_1": 2, "tot_card_2": 2,
                             "tot_card_3": 3}, "three 19s against 19: ties lose"),
    ("printed_totals", "lose", {"tot_dealer_0": 4}, "a DEALER'S TOTAL out of range"),
    ("printed_totals", "d", {"tot_dealer_0": 9, "tot_card_2": 6, "tot_prize_3": 2},
     "three codes out of range"),
    ("printed_totals", "d", {"tot_prize_1": 200}, "a winning PRIZE 200: the last prize"),
    ("three_cards", "b", {"tri_card_0": 4, "tri_card_1": 4, "tri_card_2": 0}, "A A 2 = 24 over 21"),
    ("three_cards", "lose", {"tri_card_5": 255}, "a card 255: the HAND does not win"),
    ("pa_blackjack_10", "p2", {"table_dealer_0": 5, "table_card_0": 10, "table_card_1": 10,
                               "table_card_2": 9, "table_card_3": 10}, "A A loses to a BUST, K A wins"),
]


@pytest.mark.parametrize(("game", "tier", "values", "what"), TAMPERED, ids=[c[3] for c in TAMPERED])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(runs, tmp_path, game, tier, values, what):
    against_audit.agrees(bj.judge, runs[game], tmp_path / "r", tier, values)


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


@pytest.mark.parametrize("game", GAMES)
def test_rows_tampered_at_random_are_judged_as_audit_judges_them(runs, game):
    """400 rows, the layout widened to Int32, one to three cells (or the tier) set from a seeded generator:
    a null, a negative value, 256 or more, any code in or just past range, another cell of the row."""
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[game] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    table = table.with_columns(pl.col(layout).cast(pl.Int32))
    rows, rng = table.to_dicts(), random.Random(f"blackjack3 {game}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 400)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice((-3, 256, 12000)) if u < 0.2 else r[rng.choice(layout)] if u < 0.4
                    else rng.randrange(13))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert bj.judge(play, tampered) == audit
    assert len(audit) > 150


# the law's table: two HANDS of two cards 5, 10, A; DEALER'S TOTALS 12, 20, BUST (W: 7, 2, 8; L: 2, 7, 1)
LAW = {"id": "bj", "style": "blackjack", "hands": 2, "hand_cards": 2, "numbers": ["c0", "c1", "c2"],
       "points": [5, 10, 11], "dealer_totals": ["d0", "d1", "d2"], "dealer_points": [12, 20, 0],
       "prizes": [{"code": "1"}, {"code": "5"}]}
PER_TIER = 2000


@pytest.fixture(scope="module")
def law_pool(tmp_path_factory) -> pl.DataFrame:
    root = tmp_path_factory.mktemp("blackjack_law")
    tiers = [("w1", PER_TIER, ["1"]), ("w2", PER_TIER, ["5", "1"])]
    doc = _table("bj", 2, 2, [5, 10, 11], [12, 20, 0], tiers, 3 * PER_TIER)
    (root / "g.toml").write_text(dumps(doc))
    tables = [pl.read_parquet(_generate(root / "g.toml", root, seed, f"r{i}") / "pool-p1.parquet")
              for i, seed in enumerate((SEED_A, SEED_B))]
    return pl.concat(tables)


@pytest.mark.parametrize(("tier", "w"), [("lose", 0), ("w1", 1), ("w2", 2)])
def test_a_tiers_displays_follow_the_law_of_section_7(law_pool, tier, w):
    """Each (DEALER'S TOTAL, HAND 1's cards, HAND 2's cards) of a tier of w wins as often as the law says:
    54, 72 and 117 displays, 4,000 rows each."""
    law = bj.law(LAW, w)
    assert len(law) == {0: 54, 1: 72, 2: 117}[w]
    rows = law_pool.filter(pl.col("tier") == tier).select("bj_dealer_0", *[f"bj_card_{i}" for i in range(4)])
    seen = Counter((d, ((a, b), (c, e))) for d, a, b, c, e in rows.rows())
    assert set(seen) <= set(law)
    keys = sorted(law)
    p = chisquare([seen[k] for k in keys], [float(law[k]) * rows.height for k in keys]).pvalue
    assert p > 1e-4, p


def test_a_hand_that_does_not_win_shows_a_prize_by_the_pools_wins(law_pool):
    """Step 2: the pool's wins in the area are 2,000 x $1 + 2,000 x ($5 and $1): weights 4,000 and 2,000."""
    shown: Counter = Counter()
    for row in law_pool.iter_rows(named=True):
        wins, _ = bj.blackjack_row(LAW, {c: row[c] for c in bj.columns(LAW)})
        won = len(wins)
        if row["tier"] == "lose" or won < 2:
            losers = [h for h in range(2) if not bj.beats(sum(LAW["points"][row[f"bj_card_{2 * h + j}"]]
                                                             for j in range(2)),
                                                         LAW["dealer_points"][row["bj_dealer_0"]])]
            shown.update(row[f"bj_prize_{h}"] for h in losers)
    total = shown[0] + shown[1]
    assert chisquare([shown[0], shown[1]], [total * 2 / 3, total / 3]).pvalue > 1e-4
