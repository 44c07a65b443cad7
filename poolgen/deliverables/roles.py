"""Who may receive each file a run writes, and whether it holds outcomes (docs/validation.md,
section 1)."""

from __future__ import annotations

# role -> (files, holds outcomes, who may receive it). `generate` prints one line per role it wrote,
# and the manifest lists every file with its role (docs/validation.md, section 1).
ROLES: dict[str, tuple[str, bool, str]] = {
    "pool": ("pool-*.parquet", True,
             "operations and auditors only, until the game closes"),
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


def who_gets_what(roles: set[str]) -> list[str]:
    """One line per file class of a run: what it holds and who may receive it."""
    lines = []
    for role, (files, secret, whom) in ROLES.items():
        if role in roles or role == "manifest":
            held = "holds outcomes, mode 0600" if secret else "holds no outcome"
            lines.append(f"{files}: {held}; may leave the building to {whom}")
    return lines
