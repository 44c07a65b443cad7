"""The third engine of step 8's combined tests (tests/third_engines/combined.py, written from
docs/statistics.md 1d alone, with the chi-square tail in closed form instead of scipy's) against audit's
(audit/stats/combined.py through `audit.stats.step.combined_statistics`): on an honest run of six small
pools and one whose every pool leaks in spot 3, the same combined tests in the same order, p-values
equal to 1e-9 relative, the same verdicts."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from tests.support.order_leaks import judged_order
from tests.support.stats import small_spec
from tests.third_engines import combined


def test_the_engine_imports_neither_poolgen_nor_audit_nor_scipy():
    tree = ast.parse(Path(combined.__file__).read_text())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert names == {"__future__", "math", "re"}


@pytest.mark.parametrize(("label", "share", "refused"), [("agree-honest", 0.0, 0), ("agree-leak", 0.12, 1)])
def test_the_third_engine_combines_every_test_as_audit_does(tmp_path, label, share, refused):
    stats, audit_side = judged_order(small_spec(tmp_path), label, 6, share)
    ours = combined.combine([[(j.finding.name, j.finding.p) for j in s.judged] for s in stats])
    theirs = [(j.finding.name, j.finding.p, j.rejected) for j in audit_side.judged]
    assert [n for n, _, _ in ours] == [n for n, _, _ in theirs]
    made = Counter(combined.key(j.finding.name) for s in stats for j in s.judged)  # a test some pools lack
    assert len(ours) == sum(n >= 2 for n in made.values()) >= len(stats[0].judged) - 2  # (1l's, by its data)
    assert [p for _, p, _ in ours] == pytest.approx([p for _, p, _ in theirs], rel=1e-9, abs=1e-300)
    assert [r for _, _, r in ours] == [r for _, _, r in theirs] and sum(r for _, _, r in ours) == refused
