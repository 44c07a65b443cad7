"""CPU seconds a ticket, per play style: generate, audit verify and poolgen verify of one example spec
of each style, cut to one pool of about 100,000 tickets, in one process (docs/scaling.md, "Styles").

    python bench/styles.py                              # every style's example, 100,000 tickets, best of 2
    python bench/styles.py cards key_number_match --tickets 20000 --repeat 3
    python bench/styles.py cards --profile generate     # cProfile of one side, the 25 costliest calls

Each example is cut as tests/support's small_example does (every count divided alike), its order one
pool. Generate is poolgen's `generate` of the one-pool run (no validation keys, no signature); audit verify is
`verify_run` without a seed (step 7 skipped); poolgen verify is `verify_run` with the seed, the spec and
poolgen's generator (step 7 regenerates the pool). Printed: CPU seconds (user + system, every thread)
a ticket, in microseconds, the best of `--repeat`, and each figure's ratio to key_number_match's.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.verify import VerifyRequest, verify_run  # noqa: E402
from poolgen.cli.verify import regenerate  # noqa: E402
from poolgen.errors import SpecError  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate  # noqa: E402

SEED = bytes(range(32))
# One example a style: a spec whose areas are of that style alone where the examples have one,
# else the style beside key_number_match (whose cost is known from its own row).
EXAMPLES = {
    "key_number_match": "hit_50", "match_n": "cash_explosion", "add_up": "bank_roll",
    "blackjack": "pa_blackjack_10",
    "area_match": "lucky_reels_areas", "bingo": "bingo_bonanza", "bonus_reveal": "true_north",
    "cards": "iowa_full_of_300s", "crossword": "granite_state_money_puzzle", "lines": "tic_tac_cash",
    "maze": "arrow_maze", "poker_hand": "poker_lotto_instant", "prize_box": "lucky_pairs",
    "prize_legend_duel": "elemental_duel",
    "symbol_count": "five_alarm_flames", "ticket_multiplier": "diamond_life",
    "yours_beats_theirs": "high_card_duel", "keno": "ne_scratch_keno",
}
SIDES = ("generate", "audit verify", "poolgen verify")


def _best(repeat: int, fn: Callable[[int], Any]) -> float:
    """The least CPU seconds of `repeat` calls fn(i)."""
    best = float("inf")
    for i in range(repeat):
        c = _cpu()
        fn(i)
        best = min(best, _cpu() - c)
    return best


def _passed(report: Any, style: str) -> None:
    """Every step passed or was skipped (else the figures would be of a verify cut short); step 8 may fail
    (its designed false-failure rate: every test ran)."""
    failed = [(s.title, s.reasons) for s in report.steps if s.status == "fail" and s.title != "statistics"]
    if failed:
        raise SystemExit(f"{style}: verify failed: {failed}")


def _cpu() -> float:
    """CPU seconds of this process (every thread) and of the child processes it has waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cut(folder: Path, example: str, tickets: int) -> tuple[Path, Any]:
    """specs/examples/<example>.toml cut as small_example does (every count divided by k, at least 1;
    published figures dropped) to an order of one pool of about `tickets`, a multiple of 600 (whole
    books of 60, 100, 200 or 300): the first k from pool_tickets // tickets up that the loader takes."""
    text = (ROOT / "specs" / "examples" / f"{example}.toml").read_text()
    size = r"^((?:order|pool)_(?:tickets|shares)) = (\d+)"
    sizes = {m.group(1): int(m.group(2)) for m in re.finditer(size, text, flags=re.M)}
    pool = sizes.get("pool_tickets") or sizes["pool_shares"]
    per_order = re.search(r'^counts_per = "order"', text, flags=re.M) is not None
    pools = max(sizes.values()) // pool if per_order else 1  # the counts are an order's of `pools` pools
    text = re.sub(r"^(published_\w+|last_pool|split) = .*\n", "", text, flags=re.M)  # one pool: neither
    path = folder / f"{example}.toml"
    why: Exception | None = None
    for k in range(max(1, pool // tickets), 2 * max(1, pool // tickets)):
        new = f"\\1 = {pool // k // 600 * 600}"
        cut = re.sub(size, new, text, flags=re.M)
        divide = k * pools
        counted = re.sub(r"^count = (\d+)", lambda m, d=divide: f"count = {max(1, int(m.group(1)) // d)}",
                         cut, flags=re.M)
        path.write_text(counted)
        try:
            return path, load_spec(path)
        except SpecError as exc:
            why = exc
    raise SystemExit(f"{example}: no cut of about {tickets} tickets loads: {why}")


def measure(style: str, tickets: int, repeat: int, tmp: Path, profile: str | None) -> tuple[int, list[float]]:
    """(the first pool's tickets, CPU seconds of each side)."""
    folder = tmp / style
    folder.mkdir()
    spec_path, game = cut(folder, EXAMPLES[style], tickets)
    seed_file = folder / "seed"
    seed_file.write_text(SEED.hex())
    seed_file.chmod(0o600)
    now = datetime(2026, 12, 5, tzinfo=UTC)

    def gen(i: int) -> Path:
        return generate(GenerateRequest(game, SEED, now=now, out=folder, run_id=f"r{i}",
                                        pool_ids=[game.pools[0].id])).folder

    run = gen(99)

    def audit(_: int) -> None:
        report = verify_run(VerifyRequest(run=run))
        _passed(report, style)

    def poolgen(_: int) -> None:
        report = verify_run(VerifyRequest(run=run, spec=spec_path, seed_file=seed_file,
                                          regenerate=regenerate))
        _passed(report, style)

    sides = dict(zip(SIDES, (gen, audit, poolgen), strict=True))
    if profile:
        prof = cProfile.Profile()
        prof.runcall(sides[profile], 98)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return game.pools[0].tickets, [_best(repeat, fn) for fn in sides.values()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("styles", nargs="*", default=list(EXAMPLES))
    ap.add_argument("--tickets", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--profile", choices=SIDES, default=None)
    args = ap.parse_args()
    print(f"{os.cpu_count()} core(s), load average {os.getloadavg()[0]:.1f}; CPU microseconds a ticket "
          f"(best of {args.repeat}), and the ratio to key_number_match's")
    print("| style | example | tickets | generate | audit verify | poolgen verify |")
    print("|---|---|---|---|---|---|")
    base: list[float] | None = None
    with tempfile.TemporaryDirectory(prefix="bench-styles-") as tmp:
        for style in args.styles:
            n, cpu = measure(style, args.tickets, args.repeat, Path(tmp), args.profile)
            per = [1e6 * c / n for c in cpu]
            if base is None and style == "key_number_match":
                base = per
            cells = [f"{p:.0f}" + (f" ({p / b:.1f}x)" if base else "") for p, b in zip(per, base or per,
                                                                                      strict=True)]
            print(f"| {style} | {EXAMPLES[style]} | {n:,} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
