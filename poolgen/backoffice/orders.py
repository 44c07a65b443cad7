"""An order made in several runs (docs/back-office.md, section 6, "An order in several runs"): the run
folders of one order, opened as the back office opens a run and held to be one order (the same game,
spec, seed, ceremony, split and signing key; distinct run ids, disjoint pools), so that prizes remaining
and the closing report cover the order, not one cut of it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.vouched import Run, open_vouched
from poolgen.money import fmt_cents

# the manifest fields runs of one order share, each as (its name in a refusal, how to read it)
_SHARED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("game", ("game",)), ("spec.sha256", ("spec", "sha256")), ("seed_commitment", ("seed_commitment",)),
    ("ceremony", ("ceremony",)), ("print.split", ("print", "split")), ("signature", ("signature",)),
)


@dataclass(frozen=True)
class Order:
    """The runs of one order, in the order given (at least one)."""

    runs: tuple[Run, ...]

    @property
    def first(self) -> Run:
        return self.runs[0]

    @property
    def run_ids(self) -> frozenset[str]:
        return frozenset(r.run_id for r in self.runs)

    @property
    def named(self) -> str:
        """`run R` or `runs R1, R2`, as a report's heading names them."""
        ids = [r.run_id for r in self.runs]
        return f"run{'s' if len(ids) > 1 else ''} {', '.join(ids)}"

    def totals(self, field: str) -> int:
        """The sum of the manifests' `totals.FIELD` (integer cents or counts)."""
        return sum(int(r.folder.manifest["totals"][field]) for r in self.runs)

    def to_json(self) -> dict[str, Any]:
        """Each run's id, manifest SHA-256 and figures, and the order's (the sums)."""
        split = _field(self.first.folder.manifest, ("print", "split"))
        figures = {"tickets": self.totals("tickets"), "sales_cents": self.totals("sales_cents"),
                   "prize_cost_cents": self.totals("prize_cost_cents"),
                   **({"order_tickets": split["order_tickets"]} if isinstance(split, dict) else {})}
        return {**({"run_id": self.first.run_id} if len(self.runs) == 1 else {}),
                "runs": [_run_json(r) for r in self.runs], "order": figures}


def _run_json(run: Run) -> dict[str, Any]:
    totals = run.folder.manifest["totals"]
    return {"run_id": run.run_id, "manifest_sha256": hashlib.sha256(run.folder.manifest_bytes).hexdigest(),
            "pools": [p.id for p in run.folder.parsed.pools], "tickets": int(totals["tickets"]),
            "sales_cents": int(totals["sales_cents"]), "prize_cost_cents": int(totals["prize_cost_cents"])}


_ABSENT = object()


def _field(doc: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = doc
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return _ABSENT
        value = value[key]
    return value


def prizes_add_up(designed: int, runs: Sequence[Run]) -> None:
    """Refuse a report whose levels' prizes (`designed`, cents) are not exactly the runs' manifests'
    `totals.prize_cost_cents` summed."""
    stated = sum(int(r.folder.manifest["totals"]["prize_cost_cents"]) for r in runs)
    if designed != stated:
        cur = runs[0].folder.currency  # one order, one game
        raise BackOfficeError(f"the runs' levels hold {fmt_cents(designed, cur)} of prizes, their manifests' "
                              f"totals {fmt_cents(stated, cur)}: the figures would not add up")


def open_order(runs: Sequence[Path], public_key: Path | None) -> Order:
    """The runs given (each opened as `open_vouched` opens one: its signature verified with
    `public_key` when given), held to one order (`one_order`)."""
    if not runs:
        raise BackOfficeError("give the run folder: RUN, or every run of the order (RUN ... or --run RUN, "
                              "repeated)")
    return one_order([open_vouched(r, public_key) for r in runs])


def one_order(runs: Sequence[Run]) -> Order:
    """`runs` as an Order, if they are runs of one order: every shared manifest field (`_SHARED`) the
    first run's, distinct run ids, disjoint pool ids; else a BackOfficeError naming the run and field."""
    first = runs[0]
    ids: dict[str, Path] = {}
    pools: dict[str, Path] = {}
    for run in runs:
        doc = run.folder.manifest
        for name, path in _SHARED:
            if run is not first and _field(doc, path) != _field(first.folder.manifest, path):
                raise BackOfficeError(f"{run.path}: {name} is not {first.path}'s: not a run of the same "
                                      "order")
        if run.run_id in ids:
            raise BackOfficeError(f"{run.path}: run id {run.run_id} again (also {ids[run.run_id]}); give "
                                  "each run of the order once")
        ids[run.run_id] = run.path
        for entry in run.folder.parsed.pools:
            if entry.id in pools:
                raise BackOfficeError(f"{run.path}: pool {entry.id} is also in {pools[entry.id]}: the runs "
                                      "overlap; give each pool of the order once")
            pools[entry.id] = run.path
    return Order(tuple(runs))
