"""CPU seconds of one pool's Merkle root, both sides, on the first pool of each game (docs/merkle.md).

    python bench/merkle_root.py                          # Primetime Payout, Happy Holidays, Wild Side
    python bench/merkle_root.py --game wild_side --repeat 7
    python bench/merkle_root.py --against 548317f        # before (that commit's two modules) and now

Each pool is built once (`build_pool`, seed bytes 0..31), written to Parquet and read back as verify
reads it; then generate's root (poolgen/run/merkle.py) and audit's (audit/merkle/table.py, step 6)
are taken in turn, `--repeat` times, and the least CPU time of each kept (`time.process_time`: every
thread of this process). With `--against REV`, REV's versions of those two files (`git show`; audit's
with this tree's encoding.py and tree.py) are timed too, alternating with this tree's. Nothing is
asserted but that every root is the same.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.merkle import table_root  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from poolgen.run.merkle import root  # noqa: E402

SEED = bytes(range(32))
GAMES = ["primetime_payout", "happy_holidays", "wild_side"]


def _old(rev: str, path: str, name: str, folder: Path) -> Any:
    """The module at `path` as of commit `rev`, imported under `name`."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                            capture_output=True).stdout
    (folder / f"{name}.py").write_bytes(source)
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="a game (default: all three)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", metavar="REV", help="also time this commit's two modules, alternating")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-merkle-") as tmp:
        sides: dict[str, Callable[[pl.DataFrame], bytes]] = {"generate": root, "audit": table_root}
        if args.against:
            sides = {f"generate {args.against}": _old(args.against, "poolgen/run/merkle.py", "old_pg",
                                                      Path(tmp)).root,
                     "generate": root,
                     f"audit {args.against}": _old(args.against, "audit/merkle/table.py", "old_au",
                                                   Path(tmp)).table_root,
                     "audit": table_root}
        for name in args.game or GAMES:
            game = load_spec(ROOT / "specs" / f"{name}.toml")
            pool = game.pools[0]
            build_pool(game, pool, SEED).write_parquet(Path(tmp) / "pool.parquet")
            table = pl.read_parquet(Path(tmp) / "pool.parquet").rechunk()
            best = dict.fromkeys(sides, float("inf"))
            roots = set()
            for _ in range(args.repeat):
                for side, fn in sides.items():
                    t = time.process_time()
                    roots.add(fn(table))
                    best[side] = min(best[side], time.process_time() - t)
            if len(roots) != 1:
                raise SystemExit(f"{name}: the roots differ")
            cpu = ", ".join(f"{side} {seconds:.3f} s" for side, seconds in best.items())
            print(f"{game.name}, pool {pool.id} ({table.height:,} rows): root {roots.pop().hex()[:16]}..., "
                  f"CPU {cpu}", flush=True)

if __name__ == "__main__":
    main()
