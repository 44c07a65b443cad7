"""Step 8 names a prize level in the game's currency (`sign`, from the manifest's `game.currency`:
audit/read/manifest.py), every test of a pool alike: the positions, the book numbers, the levels near
the top, the chain's pack tests by tenth of the books and the pair tests under a value floor, and the
run-level tests of the pools' top prizes. The same pool judged in dollars and in pounds gives the same
tests, the same figures, and names that differ only in the sign."""

from __future__ import annotations

import hashlib
import tomllib

from audit.read.specs.packs import read_packs
from audit.stats.step import pool_statistics, run_lines, run_statistics
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support.packs import small_packs
from tests.support.stats import Entry


def test_a_pool_judged_in_pounds_names_every_amount_with_the_pound_sign(tmp_path):
    floor = 'min_winners = 7\nmin_prize_value = "12.00"\ncaps = [ { prize = "100.00", at_most = 1 } ]'
    path = small_packs(tmp_path, floor, "floor.toml")  # tests/audit/stats/test_packs_pairs.py's
    spec, rules = load_spec(path), read_packs(tomllib.loads(path.read_text()))
    pool = spec.pools[0]
    seed = hashlib.sha256(b"poolgen/tests/currency-names").digest()
    table = build_pool(spec, pool, seed)
    judged = {}
    for sign in ("$", "£"):
        s = pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind, per_book=30, pools=1,
                            play=spec.play.document(), packs=rules, sign=sign)
        run = run_lines(run_statistics([s.top] if s.top else [], 1))
        judged[sign] = ([(j.finding.name, j.finding.figures, j.finding.p) for j in s.judged], s.not_tested,
                        [line for _, line in run])
    dollars, pounds = judged["$"], judged["£"]
    names = [n for n, _, _ in pounds[0]]
    assert not [n for n in names if "$" in n]
    assert [n for n in names if n.startswith("prize level £1.00 (") and "by tenth of the books" in n]
    assert "tier 2 (£2.00) per book given the rest of its pair of books: toward the richer book" in names
    assert any(n.startswith("top prizes (£100") for n in names)
    assert [(n.replace("£", "$"), f, p) for n, f, p in pounds[0]] == dollars[0]
    assert pounds[1] == dollars[1]
    assert [line.replace("£", "$") for line in pounds[2]] == dollars[2]
    assert any("top prize of each pool (£100)" in line for line in pounds[2]), pounds[2]
