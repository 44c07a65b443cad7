"""Step 5 of the checklist (audit/verify.py): tier counts, winners, prize cost, odds and payout
recounted per pool, the run's totals, and, with --spec, the run against what the spec says it holds
(audit/read/specs/)."""

from __future__ import annotations

import polars as pl

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.fields import fixed_values, play_fields, unlisted_fields
from audit.read.manifest import Manifest, PoolEntry
from audit.read.names import name_problems
from audit.read.specs import SpecExpectation
from audit.read.specs.model import same
from audit.steps.split import check_split_bounds


def decimal_text(num: int, den: int, places: int = 4) -> str:
    """num/den rounded half-up to `places` decimals, as the manifest writes it ("3.4130")."""
    scale = 10**places
    q, r = divmod(num * scale, den)
    if 2 * r >= den:
        q += 1
    return f"{q // scale}.{q % scale:0{places}d}"


def check_figures(table: pl.DataFrame, pool: PoolEntry, sign: str = "$") -> str:
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
        raise VerificationError(Step.FIGURES, "; ".join(problems))
    unit = "shares" if pool.raw.get("denomination_cents") is not None else "tickets"  # an eInstant's
    amount = f"{sign}{cost // 100:,}.{cost % 100:02d}"  # the game's currency (docs/manifest.md)
    return (f"{len(pool.tiers) - 1} prize tiers and the losing tier, {tickets:,} {unit}, {winners:,} "
            f"winners, prize cost {amount}, odds 1 in {odds}, payout {payout}% as stated")


def check_totals(manifest: Manifest) -> str:
    """(5) the run's totals are the sums of its pools, and a split order's pools hold their shares
    (audit/steps/split.py)."""
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
             for k, v in want.items() if said.get(k) != v or type(said.get(k)) is not type(v)]  # true: not 1
    if wrong:
        raise VerificationError(Step.FIGURES, "totals: " + "; ".join(wrong))
    split = check_split_bounds(manifest)
    return f"totals over {len(pools)} pool(s) add up" + (f"; {split}" if split else "")


def check_fields(manifest: Manifest) -> str:
    """(5) the manifest holds only the fields docs/manifest.md lists: it is published before sale, and a
    field outside the contract (audit/read/fields.py) might tell where a prize is."""
    extra = unlisted_fields(manifest.doc) + play_fields(manifest.doc)
    if extra:
        shown = ", ".join(extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
        raise VerificationError(Step.FIGURES, f"manifest field(s) docs/manifest.md does not list: {shown} "
                                "(the manifest is published; only the listed fields are known to tell "
                                "no outcome)")
    fixed = fixed_values(manifest.doc) + name_problems(manifest)  # and the names docs/pool-files.md derives
    if fixed:
        raise VerificationError(Step.FIGURES, "manifest field(s) not the value the contract gives them: "
                                + "; ".join(fixed))
    return "every manifest field is one docs/manifest.md lists"


def check_against_spec(manifest: Manifest, spec: SpecExpectation) -> str:
    """(5) the run is the spec's: same file hash, same game, and every claim of the spec (its pools,
    and its areas and tiers or the play entry its style derives) holds of the manifest."""
    stated = manifest.doc["spec"]
    problems = []
    if stated.get("sha256") != spec.sha256:
        problems.append(f"spec {spec.file} has SHA-256 {spec.sha256}, the manifest says "
                        f"{stated.get('sha256')} (file {stated.get('file')})")
    game = manifest.doc["game"]
    for key, value in spec.game:
        if not same(game.get(key), value):
            problems.append(f"game.{key}: manifest {game.get(key)!r}, spec {value!r}")
    for claim in spec.claims:
        problems += claim.problems(manifest)
    if problems:
        raise VerificationError(Step.FIGURES, "; ".join(problems))
    return (f"spec {spec.file} (SHA-256 {spec.sha256[:16]}...) matches the manifest; {spec.scope} is as "
            "it says")
