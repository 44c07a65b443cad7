"""A third engine for step 8's pools' tests combined across a run, written from docs/statistics.md
section 1d alone: which tests (the key of a name, made once in each of two or more pools), which
p-values (each pool's, before Holm), which statistic (Fisher's X = -2 sum ln p against a chi-square
with 2k df) and which threshold (Holm at 0.002 over the run's combined tests).

It imports neither poolgen nor audit nor scipy: the chi-square tail with an even df 2k is the Poisson
sum P(chi2_2k >= X) = e^(-X/2) sum_{j<k} (X/2)^j / j!, taken in logarithms."""

from __future__ import annotations

import math
import re

ALPHA_COMBINED = 0.002


def key(name: str) -> str:
    return re.sub(r"; [0-9,]+ of ([0-9,]+) books\)", r"; k of \1 books)", name)


def tail(x: float, k: int) -> float:
    """P(chi2 with 2k df >= x)."""
    if x == math.inf:
        return 0.0
    h = x / 2
    if h == 0:
        return 1.0
    logs = [j * math.log(h) - math.lgamma(j + 1) for j in range(k)]
    top = max(logs)
    return min(1.0, math.exp(-h + top + math.log(sum(math.exp(v - top) for v in logs))))


def combine(pools: list[list[tuple[str, float]]]) -> list[tuple[str, float, bool]]:
    """(name, combined p, rejected) of each combined test, in the order their keys first occur."""
    order: list[str] = []
    ps: dict[str, list[float]] = {}
    bad: set[str] = set()
    for pool in pools:
        keys = [key(name) for name, _ in pool]
        bad |= {k for k in keys if keys.count(k) > 1}
        for k, (_, p) in zip(keys, pool, strict=True):
            if k not in ps:
                order.append(k)
                ps[k] = []
            ps[k].append(p)
    tests = []
    for k in order:
        values = ps[k]
        if k in bad or len(values) < 2:
            continue
        x = math.inf if min(values) == 0 else -2 * sum(math.log(p) for p in values)
        tests.append((f"{k}: {len(values)} pools combined", tail(x, len(values))))
    ranked = sorted(range(len(tests)), key=lambda i: tests[i][1])
    rejected, going = set(), True
    for i, t in enumerate(ranked):
        going = going and tests[t][1] <= ALPHA_COMBINED / (len(tests) - i)
        if going:
            rejected.add(t)
    return [(name, p, i in rejected) for i, (name, p) in enumerate(tests)]
