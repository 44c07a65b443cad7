"""Who may receive each file a run writes, and whether it holds outcomes (docs/validation.md,
section 1)."""

from __future__ import annotations

# role -> (files, holds outcomes, who may receive it). `generate` prints one line per role it wrote,
# and the manifest lists every file with its role (docs/validation.md, section 1).
ROLES: dict[str, tuple[str, bool, str]] = {
    "pool": ("pool-*.parquet", True,
             "operations and auditors only, until claims close"),
    "imaging": ("imaging-*.parquet", True,
                "the printer only (seal it to the printer's key with `poolgen seal`)"),
    "validation": ("validation-low.bin", True,
                   "the central validation system only (opened with the low-tier validation key)"),
    "validation-high": ("validation-high.bin", True,
                        "the claim centre only (opened with the high-tier validation key)"),
    "packs": ("packs.csv", False,
              "the warehouse and retailers' distribution: no outcome, no pool"),
    "manifest": ("manifest.json, manifest.sig", False, "anyone"),
}


# What the other commands write from a run, and who may receive it (docs/proofs.md, docs/validation.md,
# docs/publish-and-reveal.md): `generate` prints these after its own files, so that every file the
# tool writes has its line. The third field names the role a run must hold for the command to write
# anything from it (an eInstant has no imaging file, so `imaging export` and `seal` refuse its runs).
LATER: tuple[tuple[str, str, str | None], ...] = (
    ("RUN.seed (a fresh seed), contribution files", "secret, mode 0600: no one until claims close; "
                                                    "then the seed is published for the reveal", None),
    ("`proof` PDF (specimens), `report` PDF, `publish` bundle", "hold no outcome: anyone", None),
    ("`proof --real` PDF, `report --internal` PDF", "hold outcomes, mode 0600: operations and auditors "
                                                   "only, until claims close", None),
    ("`imaging export` CSV or fixed-width records, `seal` output",
     "hold outcomes, mode 0600: the printer only (sealed)", "imaging"),
)


def who_gets_what(roles: set[str], later: bool = True, signed: bool = True) -> list[str]:
    """One line per file class of a run: what it holds and who may receive it; with `later`, one per
    kind of file the other commands can write from it (none from imaging files a run does not hold). An
    unsigned run has no manifest.sig to name."""
    lines = []
    for role, (files, secret, whom) in ROLES.items():
        if role == "manifest" and not signed:
            files = "manifest.json"
        if role in roles or role == "manifest":
            held = "holds outcomes, mode 0600" if secret else "holds no outcome"
            lines.append(f"{files}: {held}; may leave the building to {whom}")
    if later:
        lines += [f"later, {files}: {whom}" for files, whom, needs in LATER
                  if needs is None or needs in roles]
    return lines
