"""Step 2's check of the manifest's deliverables list itself (docs/validation.md, section 1): the
roles, pools and tiers by which step 9 (audit/steps/deliverables.py) finds the files it checks."""

from __future__ import annotations

from typing import Any

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest

__all__ = ["ROLES", "TIER_OF", "deliverables", "listing_problems"]


def deliverables(manifest: Manifest) -> list[dict[str, Any]]:
    files = manifest.doc.get("deliverables", [])
    if not isinstance(files, list) or not all(isinstance(f, dict) and isinstance(f.get("name"), str)
                                              and "/" not in f["name"] for f in files):
        raise VerificationError(Step.FILES, "the manifest's deliverables are not a list of files")
    return files


ROLES = ("pool", "imaging", "packs", "validation", "validation-high")
TIER_OF = {"validation": "low", "validation-high": "high"}


def listing_problems(manifest: Manifest) -> list[str]:
    """(2) what is wrong with the deliverables list itself (docs/validation.md, section 1): a role
    outside ROLES, a pool file not its pool entry's, an imaging file of no pool or two of one, a
    printed run's pack list not listed exactly once, a validation file whose tier is not its role's
    or listed twice or alone, a key check value not 16 hex digits. Step 9 finds the files it checks
    by role, pool and tier: a file listed under another one would be hashed and never checked."""
    files, problems = deliverables(manifest), []
    pools = {p.id: p.file for p in manifest.pools}
    if len({f["name"] for f in files}) != len(files):
        problems.append("a file is listed twice")
    seen: dict[tuple[str, object], int] = {}
    for f in files:
        role, name = f.get("role"), f["name"]
        if role not in ROLES or (role != "pool" and manifest.kind != "printed"):
            problems.append(f"{name}: role {role!r} is not one of a {manifest.kind} run's "
                            f"({', '.join(ROLES if manifest.kind == 'printed' else ROLES[:1])})")
            continue
        key = (role, f.get("pool") if role in ("pool", "imaging") else None)
        seen[key] = seen.get(key, 0) + 1
        if role in ("pool", "imaging") and f.get("pool") not in pools:
            problems.append(f"{name} ({role}): pool {f.get('pool')!r} is not a pool of the manifest")
        elif role == "pool" and name != pools[f["pool"]]:
            problems.append(f"{name} (pool): pool {f['pool']}'s file is {pools[f['pool']]}")
        elif role in TIER_OF and f.get("tier") != TIER_OF[role]:
            problems.append(f"{name} ({role}): tier {f.get('tier')!r}, not {TIER_OF[role]!r}")
        elif role in TIER_OF and not (isinstance(f.get("key_check"), str) and len(f["key_check"]) == 16
                                      and all(c in "0123456789abcdef" for c in f["key_check"])):
            problems.append(f"{name} ({role}): key_check {f.get('key_check')!r} is not 16 hex digits")
    problems += [f"{n} {role} files listed for {f'pool {pool}' if pool else 'the run'}"
                 for (role, pool), n in seen.items() if n > 1]
    problems += [f"pool {p}: its pool file is not listed" for p in pools if ("pool", p) not in seen]
    if manifest.kind == "printed" and ("packs", None) not in seen:
        problems.append("no pack list (role packs) listed")
    if (("validation", None) in seen) != (("validation-high", None) in seen):
        problems.append("one validation file listed without the other tier's")
    return problems
