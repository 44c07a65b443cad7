"""Step 8's run-level blocks (audit/stats/step.py `statistics_lines`): the pools' top tiers and the
pools' tests combined, each its lines and figures, or one `fail` line for the run when it cannot be
computed, the other block still reported."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from audit.stats.step import (
    PoolStatistics,
    combined_statistics,
    pool_lines,
    run_lines,
    run_statistics,
    statistics_lines,
)


def test_a_run_level_block_that_cannot_be_computed_is_one_fail_line_and_the_next_still_runs():
    broken = [PoolStatistics(p, 2, 0.004, (), (), top="no top levels") for p in ("p1", "p2")]
    with pytest.raises(AttributeError) as raised:
        run_statistics([s.top for s in broken], 2)
    figures: list[dict] = []
    lines = statistics_lines([(SimpleNamespace(id=s.pool), s) for s in broken], 2, figures)
    assert lines == [
        *((status, line, "pool p1") for status, line in pool_lines(broken[0])),
        *((status, line, "pool p2") for status, line in pool_lines(broken[1])),
        ("fail", f"could not be checked: AttributeError: {raised.value}", "run"),
        *((status, line, "run") for status, line in run_lines(combined_statistics(broken, 2)))]
    assert str(raised.value) == "'str' object has no attribute 'levels'" and figures == []
