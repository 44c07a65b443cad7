"""`poolgen check` for a printed game's pack parameters and an eInstant's block parameters
(docs/new-game.md, "Pack parameters"; a block of serials is a pack).

The loader refused what no pool could meet by counting (poolgen/loader/packs.py). Here, per pool:
- how much each parameter constrains it: the share of packs a plain uniform shuffle would leave
  breaking it (exact: hypergeometric for winners, caps and spacing; for the prize value the
  multivariate hypergeometric of one pack, tier by tier);
- that the neighbour rule can be drawn: every tier's layouts vary enough (`check_layouts_vary`);
- proof that the parameters together are possible: under winners only, the counts above suffice;
  otherwise the chain's descent (poolgen/run/packs/chain.py) exhibits one pool meeting them all,
  from a fixed public check stream (nothing of a run's seed). If it finds none, check refuses the
  spec in one line naming the parameters still broken.
A split order's pool (`split = "even"`: its counts drawn from the seed) is proved for every count it
may draw, with every share rounded down where a minimum is given, else rounded up
(poolgen/check/split_packs.py says why that covers every draw).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from poolgen.check.figures import GameCheck
from poolgen.check.split_packs import EVERY_VECTOR, arrangement, every_vector, has_minimum, place_extras
from poolgen.errors import SpecError
from poolgen.game.model import Game, Pool, Published, TierFigures
from poolgen.money import fmt_cents
from poolgen.rng import Stream, derive_stream
from poolgen.rng.labels import stream_label
from poolgen.run.packs import NoArrangement, Rules, chained, descended, pack_size, refusal, rules_for
from poolgen.run.packs.beside import exactly_beside
from poolgen.run.packs.capped import exactly_capped
from poolgen.run.packs.caps import acceptance, caps_alone, exactly_caps
from poolgen.run.packs.neighbours import MAX_ROUNDS
from poolgen.run.packs.rejected import acceptance as rejected_acceptance
from poolgen.run.packs.rejected import arrange_rejected, exactly_rejected, left_out, rejected_kind
from poolgen.run.packs.rejected import exhausted as rejected_exhausted
from poolgen.run.packs.rejected import kept as rejected_kept
from poolgen.run.packs.several import (
    FEW_TRIES,
    KEPT,
    MAX_TRIES,
    MEASURED,
    arrange_several,
    exactly_several,
    exhausted,
    kept,
    primary,
    spaced_alone,
)
from poolgen.run.packs.several import acceptance as several_acceptance
from poolgen.run.packs.spaced import chain_orders, exactly_spaced
from poolgen.run.split import most_losers, rounded_down

__all__ = ["check_layouts_vary", "check_packs", "share_breaking"]

CHECK_SEED = bytes(32)  # public: check's proof of possibility decides no outcome
PROBE_PAIRS = 256  # pairs of one tier's layouts drawn to see how often two match
GIVES_UP = 1e-6  # the most runs a pool may hold, expected, that MAX_ROUNDS lay-outs leave unseparated


def longest_run(count: int, n: int) -> int:
    """The longest run of one tier that a uniform shuffle of n tickets, `count` of them of that tier, is
    expected to hold: the least L with n (1 - p) p^L <= 1, p = count / n (about one run of L or more
    expected in the pool, the classical estimate while other tickets are many), and at least the
    tier's mean run when the other n - count tickets cut it into n - count + 1 runs; at least 2, at
    most n."""
    if count >= n:
        return n
    p = count / n
    classical = math.ceil(math.log(n * (1 - p)) / -math.log(p))
    return max(2, min(n, max(classical, -(-count // (n - count + 1)))))


def gives_up(count: int, n: int, cut: int, match: float) -> float:
    """How many runs of a tier of `count` among `n` tickets, in segments of `cut` (packs, blocks or the
    pool), a uniform shuffle is expected to leave that the neighbour rule lays out MAX_ROUNDS times
    and still finds holding an identical pair (poolgen/run/packs/neighbours.py), when two of the tier's
    layouts match with chance `match`. A run of L is drawn without a pair with chance about
    s = (1 - match)^(L - 1); a segment of `cut` holds about ((cut - L - 1) (1 - p)^2 + 2 (1 - p)) p^L
    runs of exactly L < cut, and p^cut of L = cut (p = count / n, as independent draws). Floating
    point: an estimate for check, deciding no outcome."""
    p, segments = count / n, n / cut
    if p <= 0 or cut < 2:
        return 0.0
    top = cut if p >= 1 else min(cut, 2 + math.ceil(math.log(1e-30 / n) / math.log(p)))  # p^L n below 1e-30
    length = np.arange(2, top + 1, dtype=float)
    runs = np.where(length < cut, ((cut - length - 1) * (1 - p) ** 2 + 2 * (1 - p)) * p ** length,
                    p ** length)
    # (1 - s)^MAX_ROUNDS in logarithms: s underflows to 0 for long runs of a tier that matches often
    s = np.exp((length - 1) * math.log1p(-min(match, 1.0))) if match < 1 else np.zeros_like(length)
    return float(segments * (runs * np.exp(MAX_ROUNDS * np.log1p(-s))).sum())


def check_layouts_vary(game: Game, per_book: int | None) -> None:
    """Refuse (one line naming packs.neighbours, an eInstant's blocks.neighbours) a game whose tiers
    have too few layouts for the neighbour rule: of PROBE_PAIRS pairs of one tier's layouts from a
    fixed public stream, k match; the rule is refused when the runs of that tier a pool is expected to
    hold include more than GIVES_UP that generation would lay out MAX_ROUNDS times without separating
    (`gives_up`: a printed game's runs are cut at its packs, an eInstant's at its blocks under "within
    blocks" only). The message names a printed game's pack, an eInstant's longest run of the tier a
    pool is expected to hold (`longest_run`). Every pool is probed with its own layouts and counts
    (pools alike but for their id once: a denomination's areas and prizes change its layouts)."""
    table = "blocks" if game.packs.einstant else "packs"
    probed: set[Pool] = set()
    bare = _as_laid_out(game)
    for pool in game.pools:
        alike = replace(pool, id="", first_book=None)  # a printed order's pools differ in it alone
        if alike in probed:
            continue
        probed.add(alike)
        named = f" of pool {pool.id}" if len(game.pools) > 1 else ""
        # the most of each tier a pool may hold: a split's ceiling game holds the fewest losers
        most = [most_losers(game, pool)] + [t.count for t in pool.tiers[1:]]
        # a tier with at most one ticket a pool has no neighbour of its own tier
        probe = [i for i, c in enumerate(most) if c >= 2]
        if not probe:
            continue
        for i, k in zip(probe, _matches(bare, pool, probe), strict=True):
            tier = pool.tiers[i]
            if not game.packs.einstant:
                cut = per_book or pool.tickets  # a printed game always has packs
                where = f"a pack of {cut}"
            else:
                cut = per_book if per_book is not None and game.packs.neighbours == "within packs" else \
                    pool.tickets
                run = min(longest_run(most[i], pool.tickets), cut)
                where = f"a run of {run} shares of the tier (the longest a pool is expected to hold)"
            if gives_up(most[i], pool.tickets, cut, (k + 1) / PROBE_PAIRS) > GIVES_UP:
                raise SpecError(f"{game.file}: {table}.neighbours: tier {tier.id}{named}: {k} of "
                                f"{PROBE_PAIRS} pairs of its layouts drawn at random are identical, too many "
                                f"to keep the neighbours of {where} apart; write neighbours = \"off\" in "
                                f"[{table}] (or give the tier more varied layouts)")


# The probes check drew last, by the game as laid out, the pool and its tiers probed: a game checked again
# with other published figures (or from another folder) is not laid out again. Its key is everything the
# probe reads: the lay-out is drawn from the key's own game, so a probe is a function of its key.
_PROBED: list[tuple[tuple[Game, Pool, tuple[int, ...]], tuple[int, ...]]] = []
_PROBES_KEPT = 32


def _as_laid_out(game: Game) -> Game:
    """The game as the probe lays it out: without the published figures (check's reconciliation, which
    no play reads) and with its file's name alone (what a play's messages name), no hash."""
    return replace(game, path=Path(game.path.name), sha256="", published=Published(),
                   tiers=tuple(replace(t, published=TierFigures()) for t in game.tiers))


def _matches(game: Game, pool: Pool, probe: list[int]) -> tuple[int, ...]:
    """Of PROBE_PAIRS pairs of each probed tier's layouts (drawn as in the pool: its mix), how many are
    identical, from the pool's fixed public check stream."""
    key = (game, pool, tuple(probe))
    for seen, matches in _PROBED:
        if seen == key:
            return matches
    stream = derive_stream(CHECK_SEED, *stream_label(game.id, pool.id, "check-layouts"))
    tiers = np.repeat(np.array(probe, dtype=np.int16), 2 * PROBE_PAIRS)
    layout = game.play.lay_out(game, pool, tiers, stream, [t.count for t in pool.tiers])
    same = np.ones(len(probe) * PROBE_PAIRS, dtype=bool)
    for values in layout.values():
        same &= values[0::2] == values[1::2]
    matches = tuple(int(k) for k in same.reshape(len(probe), PROBE_PAIRS).sum(axis=1).tolist())
    _PROBED.insert(0, (key, matches))
    del _PROBED[_PROBES_KEPT:]
    return matches


def _hypergeom_pmf(total: int, held: int, drawn: int) -> np.ndarray:
    """P(k of `drawn` tickets drawn from `total` hold k of the `held`), k = 0..min(held, drawn): from
    P(0) = prod (1 - held / (total - i)), i < drawn, and the ratio of consecutive probabilities, in
    logarithms (within about 1e-13 of the exact law; scipy.stats' pmf takes about 6 ms a call on a
    pool of 200,000, 2,548 calls in a $5 game's check). Where no k = 0 is possible (fewer other
    tickets than drawn), scipy.stats' own."""
    ks = np.arange(0, min(held, drawn) + 1)
    if total - held < drawn:
        from scipy.stats import hypergeom  # lazy, as in share_breaking; rare (few tickets outside the tier)

        return np.asarray(hypergeom.pmf(ks, total, held, drawn), dtype=float)
    first = float(np.log1p(-held / (total - np.arange(drawn, dtype=float))).sum())
    k = ks[:-1].astype(float)
    steps = np.log((held - k) * (drawn - k)) - np.log((k + 1) * (total - held - drawn + k + 1))
    return np.exp(first + np.concatenate(([0.0], np.cumsum(steps))))


def _value_short(rules: Rules) -> float:
    """P(a pack's prizes < min_cents) under a uniform shuffle (multivariate hypergeometric)."""
    assert rules.min_cents is not None
    unit = math.gcd(rules.min_cents, *[p for p in rules.prizes if p])
    need = rules.min_cents // unit + (rules.min_cents % unit > 0)
    m = rules.m
    dist = np.zeros((m + 1, need + 1))  # (tickets drawn so far, value in units capped at need)
    dist[0, 0] = 1.0
    rest = sum(rules.counts)
    for count, prize in zip(rules.counts[1:], rules.prizes[1:], strict=True):
        new = np.zeros_like(dist)
        step = prize // unit
        for j in np.flatnonzero(dist.sum(axis=1) > 0).tolist():
            pmf = _hypergeom_pmf(rest, count, m - j)
            ks = np.arange(0, len(pmf))
            for k in ks[pmf > 1e-16]:
                shifted = np.zeros(need + 1)
                gain = int(k) * step
                if gain >= need:
                    shifted[need] = dist[j].sum()
                else:
                    shifted[gain:need] = dist[j, : need - gain]
                    shifted[need] = dist[j, need - gain:].sum()
                new[j + k] += pmf[k] * shifted
        dist, rest = new, rest - count
    return float(dist[:, :need].sum())


def share_breaking(rules: Rules) -> dict[str, float]:
    """Per parameter: the share of packs a plain uniform shuffle of the pool leaves breaking it."""
    # scipy.stats is imported here, not with the module: it costs about 0.9 s of CPU, and every
    # poolgen command loads this module (the CLI loads every command's); only `check` uses it.
    from scipy.stats import hypergeom

    n, m = sum(rules.counts), rules.m
    winners = n - rules.counts[0]
    out = {}
    if rules.lo > 0:
        out["min_winners"] = float(hypergeom.cdf(rules.lo - 1, n, winners, m))
    if rules.hi < m:
        out["max_winners"] = float(hypergeom.sf(rules.hi, n, winners, m))
    if rules.min_cents is not None:
        out["min_prize_value"] = _value_short(rules)
    for c, (tiers, most) in enumerate(rules.caps):
        out[f"caps[{c}]"] = float(hypergeom.sf(most, n, sum(rules.counts[t] for t in tiers), m))
    for s, (tiers, d) in enumerate(rules.spacing):
        held = sum(rules.counts[t] for t in tiers)
        js = np.arange(2, min(held, m) + 1)
        room = [m - (j - 1) * (d - 1) for j in js.tolist()]
        apart = [math.comb(r, j) / math.comb(m, j) if r >= j else 0.0
                 for r, j in zip(room, js.tolist(), strict=True)]
        out[f"spacing[{s}]"] = float((hypergeom.pmf(js, n, held, m) * (1 - np.asarray(apart))).sum())
    return out


def _possible(game: Game, pool: Pool, rules: Rules, table: str, named: str = "") -> str:
    """What proves the pool's `rules` possible (a refusal names the pool, `named` after its id)."""
    if rules.winners_only:
        return "possible by the counts alone; drawn exactly (docs/randomness.md, 5.2)"
    if exactly_capped(rules):
        return ("possible by the counts alone; drawn exactly (docs/randomness.md, "
                f"{'5.6' if rules.caps[0][1] == 1 else '5.7'})")
    if exactly_spaced(rules):
        return "possible by the counts alone; drawn exactly (docs/randomness.md, 5.8)"
    if exactly_beside(rules):
        return "possible by the counts alone; drawn exactly (docs/randomness.md, 5.9)"
    if exactly_caps(rules):
        return ("possible by the counts alone; drawn exactly (docs/randomness.md, 5.10: several caps "
                f"by rejection, each try accepted with probability about {acceptance(rules)})")
    stream = derive_stream(CHECK_SEED, *stream_label(game.id, pool.id, "check"))
    if exactly_several(rules):
        return _several_possible(game, replace(pool, id=pool.id + named), rules, stream)
    if exactly_rejected(rules):
        return _several_possible(game, replace(pool, id=pool.id + named), rules, stream, rejected=True)
    try:
        found = descended(stream, rules)
        if len(rules.spacing) > 1:  # its packs put in order as generate does (several rules may refuse)
            chain_orders(stream, rules, found.reshape(rules.books, rules.m))
    except NoArrangement as exc:
        raise refusal(game, replace(pool, id=pool.id + named), exc) from None
    slow = (" (5.10's exact draw of caps alone: each try accepted with probability about "
            f"{acceptance(rules)}: below 1e-3, or the caps' tickets more than half the pool)"
            if caps_alone(rules) else
            (" (5.12's exact draw of several spacing rules: each try accepted with probability about "
             f"{several_acceptance(rules)} by the estimate, below exp(-4))" if spaced_alone(rules) else
             (" (5.13's exact draw by rejection: each try accepted with probability about "
              f"{rejected_acceptance(rules)} by the estimate, below exp(-4))"
              if rejected_kind(rules) else "")))
    return ("possible: check found a pool meeting every parameter; drawn by the chain "
            f"(docs/randomness.md, 5.3){slow}")


def _several_possible(game: Game, pool: Pool, rules: Rules, stream: Stream, rejected: bool = False) -> str:
    """5.12's proof (5.13's with `rejected`): an exhibit drawn as generate draws it (the tries, then the
    chain); where it took more than FEW_TRIES tries, MEASURED more tries from check's stream, at least KEPT
    of which must meet every rule, else the spec is refused: a run's pool would too often reach MAX_TRIES."""
    if rejected:
        draw, count_kept, names = arrange_rejected, rejected_kept, left_out(rules)
        said, ends, rule = f"{rejected_acceptance(rules)} by the estimate", rejected_exhausted, "rule"
        what = "5.13: caps and spacing rules by rejection from the exact draw of some of them"
    else:
        draw, count_kept = arrange_several, kept
        names = [f"spacing[{k}]" for k in range(len(rules.spacing)) if k != primary(rules)]
        said, ends, rule = f"{several_acceptance(rules)} by the estimate", exhausted, "spacing rule"
        what = "5.12: several spacing rules by rejection"
    packs, tries = draw(stream, rules)
    try:
        if packs is None:
            chained(stream, rules)
    except NoArrangement as exc:
        raise refusal(game, pool, ends(rules, exc)) from None
    if packs is None or tries > FEW_TRIES:
        count = count_kept(stream, rules, MEASURED)
        if count < KEPT:
            raise refusal(game, pool, NoArrangement(
                f"check's pool took {tries:,} tries and {count} of {MEASURED:,} more met every {rule} "
                f"(at least {KEPT} needed; each try accepted with probability about {said}): a run's pool "
                f"would too often meet none in {MAX_TRIES:,} (docs/randomness.md, {what[:4]})", names))
        return (f"possible: check drew a pool meeting every parameter in {tries:,} tries, and {count} of "
                f"{MEASURED:,} more tries met every rule; drawn exactly (docs/randomness.md, {what}, each "
                f"try accepted with probability about {said})")
    return ("possible: check drew a pool meeting every parameter; drawn exactly (docs/randomness.md, "
            f"{what}, each try accepted with probability about {said})")


def _split_possible(game: Game, pool: Pool, rules: Rules, low: Rules, table: str) -> str:
    """The proof that a pool of a split order meets its parameters for every count vector the seed can
    draw (`rules` with every share rounded up, `low` rounded down; check/split_packs.py says why)."""
    said = f"for every count the split may draw of pool {pool.id}"
    if not has_minimum(low):
        return (f"{said}: with every share rounded up (the most of every tier), "
                f"{_possible(game, pool, rules, table, ' (every share rounded up)')}")
    down = replace(pool, id=f"{pool.id} (every share rounded down)")
    try:
        found = arrangement(CHECK_SEED, game.id, pool.id, low)
    except NoArrangement as exc:
        raise refusal(game, down, exc) from None
    extras = [i for i, (a, b) in enumerate(zip(low.counts, rules.counts, strict=True)) if b > a]
    stuck = place_extras(low, found, extras)
    if stuck is not None and len(extras) <= EVERY_VECTOR and every_vector(CHECK_SEED, game.id, pool.id, low,
                                                                          extras):
        return (f"{said}: check found a pool meeting every parameter for each of the {2 ** len(extras)} "
                f"count vectors the split may draw (the {len(extras)} tiers that may round up, each rounded "
                "up or not: docs/new-game.md, 2b); drawn with the seed's counts (docs/randomness.md, 5.11)")
    if stuck is not None:
        tier, stops = stuck
        raise SpecError(f"{game.file}: {', '.join(f'{table}.{s}' for s in stops)}: {down.id}: check found "
                        f"no place for one more ticket of tier {pool.tiers[tier].id}, which the split may "
                        "round up, in a pool meeting every parameter (docs/new-game.md, section 2b)")
    return (f"{said}: check found the pool with every share rounded down meeting every parameter, and "
            f"placed one more ticket of each of the {len(extras)} tiers that may round up on its losers "
            "without breaking any (docs/new-game.md, 2b); drawn with the seed's counts (docs/randomness.md, "
            "5.11)")


def check_packs(game: Game, result: GameCheck, layouts: bool = True) -> None:
    """Notes on the neighbour rule and on what each parameter does to each distinct pool (none for a
    game with the default rule alone: a printed game's neighbour rule within packs, an eInstant's
    across every pair of consecutive serials). `layouts`: whether the neighbour rule's layouts can be
    drawn to check (not when the play could not lay every tier out: that is the problem to fix)."""
    packs, m = game.packs, pack_size(game)
    table, pack = ("blocks", "block of serials") if packs.einstant else ("packs", "pack")
    if packs.neighbours is None:
        result.notes.append(f"{game.name}: the neighbour rule is off ({table}.neighbours = \"off\")")
    elif layouts:
        check_layouts_vary(game, m)
    if m is None:
        return  # an eInstant without blocks: its default rule goes without saying
    if packs.neighbours in (None, "within packs") and not packs.composition and packs.block is None:
        return  # the default rule of every printed game goes without saying (docs/new-game.md, 2b)
    if packs.block is not None:
        result.notes.append(f"{game.name}: blocks of {m:,} consecutive serials (blocks.shares)")
    if packs.neighbours is not None:
        result.notes.append(f"{game.name}: consecutive tickets of a {pack} never show identical play data"
                            + (f", nor the last of a {pack} and the first of the next" if packs.neighbours ==
                               "across packs" else "") + " (a run holding a pair is laid out again)")
    seen: set[tuple[Rules, Rules | None]] = set()
    for pool in game.pools:  # a split order's pools hold every share rounded up here (check/game.py)
        rules, low = rules_for(game, pool), rules_for(game, rounded_down(game, pool))
        if rules is None or (rules, low) in seen:
            continue
        seen.add((rules, low))
        if low is not None and low != rules:  # counts a split draws: the worst case (check/split_packs.py)
            proof = _split_possible(game, pool, rules, low, table)
            rules = low if has_minimum(low) else rules
        else:
            proof = _possible(game, pool, rules, table)
        shares = share_breaking(rules)
        floor = "min_prize_times" if packs.block is not None else "min_prize_value"  # as the spec names it
        said = "; ".join(f"{floor if name == 'min_prize_value' else name} {100 * share:.3g}%"
                         for name, share in shares.items())
        money = f" (min {fmt_cents(rules.min_cents, game.currency)})" if rules.min_cents is not None else ""
        result.notes.append(f"{game.name}: pool {pool.id}: {table} a uniform shuffle would leave breaking "
                            f"each parameter{money}: {said}; {proof}")
