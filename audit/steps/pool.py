"""Steps 4 to 6 of the checklist (audit/verify.py), per pool: layouts re-evaluated, figures recounted,
the Merkle root recomputed."""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.checklist import SHOWN
from audit.errors import VerificationError
from audit.merkle import ALGORITHM as MERKLE_ALGORITHM
from audit.merkle import MerkleError, table_root
from audit.read.manifest import Manifest, PoolEntry
from audit.read.spec import SpecFigures, compare_pool
from audit.read.spec.printed import StyledFigures, check_styled_against_spec
from audit.styles import einstant_engine
from audit.styles import evaluate as evaluate_styles

# ---- step 4 -------------------------------------------------------------------------------------

def check_layouts(table: pl.DataFrame, pool: PoolEntry, rules: str, play: dict | None = None) -> str:
    """(4) every layout, evaluated by the audit's own engine of its styles (audit.styles, from the
    manifest's `play` entry), pays the stored prize. A run without a `play` entry is refused."""
    if play is not None and "style" in play:  # an eInstant of a generic style
        try:
            result = einstant_engine(play["style"]).evaluate(table, pool.raw, play)
        except ValueError as exc:
            raise VerificationError(4, str(exc)) from None
        engine_name = f"audit.styles.{play['style']}"
    elif play is not None:
        result = evaluate_styles(table, pool.raw, play)
        engine_name = "audit.styles (" + ", ".join(sorted({a["style"] for a in play["areas"]})) + ")"
    else:  # every game is of play styles: a run without a play entry names rules no engine has
        raise VerificationError(4, f"no audit rules for game rules {rules!r}")
    n = table.height
    prize = np.asarray(result.prize_cents, dtype=np.int64)
    wins = np.asarray(result.wins, dtype=np.int64)
    if prize.shape != (n,) or wins.shape != (n,):
        raise VerificationError(4, f"the rules engine returned {prize.shape} prizes and {wins.shape} wins "
                                   f"for {n:,} rows")
    stored = table["prize_cents"].cast(pl.Int64).to_numpy()
    ticket = table["ticket"]
    problems = []
    wrong = np.flatnonzero(prize != stored)
    if wrong.size:
        shown = ", ".join(f"{ticket[int(r)]} (row {r}) pays {prize[r]} cents, stores {stored[r]}"
                          for r in wrong[:SHOWN])
        problems.append(f"{wrong.size:,} layout(s) do not pay the stored prize: {shown}")
    odd = np.flatnonzero((prize > 0) != (wins > 0))
    if odd.size:
        shown = ", ".join(f"row {r}: {wins[r]} win(s), {prize[r]} cents" for r in odd[:SHOWN])
        problems.append(f"{odd.size:,} layout(s) win without paying or pay without a win: {shown}")
    if result.illegal:
        shown = "; ".join(f"{ticket[int(r)]} (row {r}): {why}" for r, why in result.illegal[:SHOWN])
        problems.append(f"{len(result.illegal):,} illegal layout(s): {shown}")
    if problems:
        raise VerificationError(4, "; ".join(problems))
    return (f"{n:,} layouts evaluated by {engine_name}: each pays its stored prize "
            f"({int((prize > 0).sum()):,} winners), none illegal")


# ---- step 5 -------------------------------------------------------------------------------------

def decimal_text(num: int, den: int, places: int = 4) -> str:
    """num/den rounded half-up to `places` decimals, as the manifest writes it ("3.4130")."""
    scale = 10**places
    q, r = divmod(num * scale, den)
    if 2 * r >= den:
        q += 1
    return f"{q // scale}.{q % scale:0{places}d}"


def check_figures(table: pl.DataFrame, pool: PoolEntry) -> str:
    """(5) counts, winners, prize cost, odds and payout recounted from the table equal the manifest's."""
    problems = []
    stated = {t.id: t for t in pool.tiers}
    if len(stated) != len(pool.tiers):
        problems.append("a tier id appears twice in the manifest")
    found = table.group_by("tier", maintain_order=True).agg(  # problems in the table's order
        pl.len().alias("n"), pl.col("prize_cents").min().alias("lo"), pl.col("prize_cents").max().alias("hi"))
    seen = {}
    for tier, n, lo, hi in found.iter_rows():
        t = stated.get(tier)
        if t is None:
            problems.append(f"{n:,} ticket(s) of tier {tier!r}, which the manifest does not list")
            continue
        seen[tier] = n
        if lo != t.prize_cents or hi != t.prize_cents:
            problems.append(f"tier {tier!r} pays {t.prize_cents} cents, but its tickets store {lo}..{hi}")
    for t in pool.tiers:
        if seen.get(t.id, 0) != t.count:
            problems.append(f"tier {t.id!r}: {seen.get(t.id, 0):,} tickets, the manifest says {t.count:,}")
    prizes = table["prize_cents"].cast(pl.Int64)
    tickets = table.height
    winners = int((prizes > 0).sum())
    cost = int(prizes.sum())
    odds = decimal_text(tickets, winners) if winners else None
    payout = decimal_text(100 * cost, tickets * pool.price_cents) if tickets and pool.price_cents else None
    for name, got, says in (("tickets", tickets, pool.tickets), ("winners", winners, pool.winners),
                            ("prize cost (cents)", cost, pool.prize_cost_cents),
                            ("odds 1 in", odds, pool.odds_1_in), ("payout %", payout, pool.payout_pct)):
        if got != says:
            problems.append(f"{name}: recounted {got}, the manifest says {says}")
    if sum(t.count for t in pool.tiers) != pool.tickets:
        problems.append("the manifest's tier counts do not add up to its tickets")
    if problems:
        raise VerificationError(5, "; ".join(problems))
    return (f"{len(pool.tiers)} tiers, {tickets:,} tickets, {winners:,} winners, prize cost {cost:,} cents, "
            f"odds 1 in {odds}, payout {payout}% as stated")


def check_totals(manifest: Manifest) -> str:
    """(5) the run's totals are the sums of its pools."""
    pools = [p.raw for p in manifest.pools]
    tickets = sum(p["tickets"] for p in pools)
    winners = sum(p["winners"] for p in pools)
    cost = sum(p["prize_cost_cents"] for p in pools)
    sales = sum(p["tickets"] * p["price_cents"] for p in pools)
    want = {"pools": len(pools), "tickets": tickets, "winners": winners, "prize_cost_cents": cost,
            "sales_cents": sales, "odds_1_in": decimal_text(tickets, winners) if winners else None,
            "payout_pct": decimal_text(100 * cost, sales) if sales else None}
    said = manifest.doc["totals"]
    wrong = [f"{k}: recounted {v}, the manifest says {said.get(k)}"
             for k, v in want.items() if said.get(k) != v]
    if wrong:
        raise VerificationError(5, "totals: " + "; ".join(wrong))
    return f"totals over {len(pools)} pool(s) add up"


def check_against_spec(manifest: Manifest, spec: SpecFigures) -> str:
    """(5) the run is the spec's: same file hash, same game, every pool as the spec says."""
    if isinstance(spec, StyledFigures):
        return check_styled_against_spec(manifest, spec)
    stated = manifest.doc["spec"]
    problems = []
    if stated.get("sha256") != spec.sha256:
        problems.append(f"spec {spec.file} has SHA-256 {spec.sha256}, the manifest says "
                        f"{stated.get('sha256')} (file {stated.get('file')})")
    game = manifest.doc["game"]
    for key in ("name", "number", "regulation", "rules", "kind", "style"):
        if game.get(key) != spec.game.get(key):
            problems.append(f"game.{key}: manifest {game.get(key)!r}, spec {spec.game.get(key)!r}")
    if manifest.style is not None:  # an eInstant style: its play entry is the spec's parameters
        problems += _play_against_spec(manifest, spec)
    for p in manifest.pools:
        problems += [f"pool {p.id}: {why}" for why in compare_pool(spec, p.raw)]
    if problems:
        raise VerificationError(5, "; ".join(problems))
    return f"spec {spec.file} (SHA-256 {spec.sha256[:16]}...) matches the manifest; every pool is as it says"


def _play_against_spec(manifest: Manifest, spec: SpecFigures) -> list[str]:
    """The manifest's play entry is what the style's contract derives from the spec (its section 1),
    for a style whose engine derives it (`play_from_spec`)."""
    try:
        derive = getattr(einstant_engine(manifest.style), "play_from_spec", None)
    except ValueError as exc:
        return [str(exc)]
    if derive is None:
        return []
    try:
        expected = derive(spec.doc)
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError) as exc:
        return [f"spec {spec.file}: not a spec of style {manifest.style!r} ({type(exc).__name__}: {exc})"]
    stated = manifest.doc.get("play") or {}
    wrong = [k for k in sorted(set(expected) | set(stated)) if expected.get(k) != stated.get(k)]
    return [f"play.{k}: manifest {stated.get(k)!r}, spec {expected.get(k)!r}" for k in wrong]


# ---- step 6 -------------------------------------------------------------------------------------

def check_merkle(table: pl.DataFrame, pool: PoolEntry) -> str:
    """(6) the Merkle root over the table's rows equals the manifest's."""
    if pool.merkle_algorithm != MERKLE_ALGORITHM:
        raise VerificationError(6, f"unknown Merkle algorithm {pool.merkle_algorithm!r}")
    try:
        root = table_root(table).hex()
    except MerkleError as exc:
        raise VerificationError(6, f"{pool.file}: {exc}") from None
    if root != pool.merkle_root:
        raise VerificationError(6, f"recomputed root {root} is not the manifest's {pool.merkle_root}")
    return f"root {root[:16]}... recomputes over {table.height:,} tickets"
