"""Step 8's run-level test of the top prizes in the same book of print order across the pools of a run
(docs/statistics.md 1a, *The same book in every pool*).

The pools of an order are printed, cut into cartons and shipped alike (`poolgen imaging sequence`: cartons of
consecutive books of print order), so book s of print order of every pool can go the same way. The run-level
tests of 1a see a group kept from the start or end of every pool, 1d a bias each pool shows; the top prize of
each of a run's five pools put in book 1,235 of print order (each swapped with a ticket there) moves none of
them: each pool's top prize is still one ticket anywhere. So, for each group of 1a (a pool's k highest
amounts), over the printed pools holding it (two or more, whole books of one size m), with K_p the books of
pool p (B_p of them) holding the group:

  c_s = the pools whose book s (print order, 0-based) holds the group; x = max_s c_s;
  p = min(1, sum over s of P(C_s >= x)), C_s the sum over the pools of independent Bernoulli(K_p / B_p)
      (0 for a pool of B_p <= s books): a Poisson binomial law, exact.

Under a uniform shuffle (and under pack parameters: the packs are exchangeable, docs/statistics.md 1b) the
books of a pool holding the group are a uniform K_p-subset of its books given K_p, independently across the
pools (one stream each), so each c_s is C_s exactly; the union bound over the books makes p conservative.
"""

from __future__ import annotations

import numpy as np

from audit.stats.tests import Finding

__all__ = ["same_book_finding", "tail_at_least"]


def tail_at_least(q: list[float], x: int) -> float:
    """P(sum of independent Bernoulli(q_i) >= x)."""
    law = np.zeros(len(q) + 1)
    law[0] = 1.0
    for qi in q:
        law[1:] = law[1:] * (1 - qi) + law[:-1] * qi
        law[0] *= 1 - qi
    return float(law[x:].sum())


def same_book_finding(label: str, groups: list[tuple[int, int | None, np.ndarray]]) -> Finding | None:
    """The test of one group: (the pool's tickets N_p, its books' size, the group's positions) per pool.
    None unless two or more printed pools of whole books of one size hold the group."""
    held = [(n, m, pos) for n, m, pos in groups if len(pos)]
    sizes = {m for _, m, _ in held}
    if len(held) < 2 or len(sizes) != 1 or None in sizes:
        return None
    m = int(next(iter(sizes)) or 1)
    if any(n % m for n, _, _ in held):  # a pool of a short last book: its books are not alike
        return None
    books = [(n // m, np.unique(pos // m)) for n, _, pos in held]
    most = max(b for b, _ in books)
    counts = np.zeros(most, dtype=np.int64)
    for _, which in books:
        counts[which] += 1
    s = int(np.argmax(counts))
    x = int(counts[s])
    # slots s grouped by which pools reach them (B_p > s): the pools' laws are the same within a stretch
    p = 0.0
    edges = sorted({0, *(b for b, _ in books)})
    for lo, hi in zip(edges, edges[1:], strict=False):
        q = [len(which) / b for b, which in books if b > lo]
        p += (hi - lo) * tail_at_least(q, x)
    pools = len(held)
    return Finding(f"{label}: the same book of print order in the most pools, pools combined",
                   "exact, conservative: sum_s P(C_s >= x), C_s Poisson binomial (K_p / B_p over the pools)",
                   f"{pools} pools hold it; book {s + 1:,} of print order holds it in {x} of them",
                   min(1.0, p))
