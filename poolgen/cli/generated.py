"""`poolgen generate --json`: what a run wrote, as one JSON document a script can read (docs/manifest.md,
"What `generate --json` prints")."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Literal

from poolgen.deliverables.roles import ROLES

SeedSource = Literal["fresh", "seed-file", "ceremony"]

# What each pool's entry keeps of the manifest's: the keys scripts read from `generate --json` when it
# printed the manifest itself (the rest of the manifest is under "manifest", whole).
POOL_KEYS = ("id", "tickets", "winners", "payout_pct", "file", "merkle")


def _mode(path: Path) -> str:
    return f"{path.stat().st_mode & 0o777:04o}"


def _written(folder: Path, name: str, role: str, pool: str | None, size: int, sha256: str) -> dict[str, Any]:
    return {"name": name, "path": str(folder / name), "role": role, "pool": pool, "bytes": size,
            "sha256": sha256, "mode": _mode(folder / name), "outcomes": ROLES[role][1]}


def _own(folder: Path, name: str) -> dict[str, Any]:
    """manifest.json or manifest.sig: hashed here (the manifest cannot list itself or its signature)."""
    data = (folder / name).read_bytes()
    return _written(folder, name, "manifest", None, len(data), hashlib.sha256(data).hexdigest())


def run_document(folder: Path, manifest: dict[str, Any], seed_source: SeedSource,
                 seed_file: Path) -> dict[str, Any]:
    """The run folder, its seed's source and file (never the seed), its signature, its pools, every file
    written into it with its size, SHA-256, mode and whether it holds outcomes, then the manifest."""
    signature = manifest["signature"]
    pools = {p["id"]: p for p in manifest["pools"]}
    files = [_own(folder, "manifest.json")]
    if signature["signed"]:
        files.append(_own(folder, signature["file"]))
    listed = manifest.get("deliverables") or [{"name": p["file"]["name"], "pool": p["id"], "role": "pool"}
                                              for p in manifest["pools"]]  # a manifest of no deliverables
    for entry in listed:
        made = pools[entry["pool"]]["file"] if entry["role"] == "pool" else entry
        files.append(_written(folder, entry["name"], entry["role"], entry.get("pool"), made["bytes"],
                              made["sha256"]))
    return {
        "run": str(folder),
        "run_id": manifest["run_id"],
        "seed": {"source": seed_source, "file": str(seed_file)},
        "signed": signature["signed"],
        "key_fingerprint": signature.get("key_fingerprint"),
        "pools": [{**{k: p[k] for k in POOL_KEYS}, "path": str(folder / p["file"]["name"])}
                  for p in manifest["pools"]],
        "totals": manifest["totals"],
        "files": files,
        "manifest": manifest,
    }
