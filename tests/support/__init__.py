"""Helpers the test modules share: paths, seeds and small builders (no tests here).

Test modules import from here, never from one another nor from a conftest.py; shared fixtures are in
the nearest conftest.py. `pythonpath` in pyproject.toml puts the project's root on sys.path (so that
this package is `tests.support`) and tests/vectors (the stand-alone reference implementations).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
ASSETS = ROOT / "tests" / "assets"
VECTORS = ROOT / "tests" / "vectors"

SEED_A = bytes(range(32))
SEED_B = bytes(range(1, 33))


def spec_path(rules: str) -> Path:
    """specs/<rules>.toml, a real spec."""
    return SPECS / f"{rules}.toml"


def small_happy_holidays(folder: Path, order_tickets: int, text: str | None = None) -> Path:
    """Happy Holidays cut to pools of 3,000 tickets (counts per pool, 1/600 of the order's), an order of
    `order_tickets`, written as folder/happy_holidays.toml: a real printed game whose run takes seconds.
    `text`: a changed specs/happy_holidays.toml's, cut the same way."""
    return _cut(folder, "happy_holidays", (1800000, order_tickets), (300000, 3000), 600, least=0, text=text)


def small_wild_side(folder: Path, text: str | None = None) -> Path:
    """Wild Side cut to five pools of 3,000 tickets (50 books of 60; counts per pool, 1/250 of the order's,
    at least 1), written as folder/wild_side.toml: the real game's manifest, field for field, in a run
    that takes a second. `text`: a changed specs/wild_side.toml's, cut the same way."""
    return _cut(folder, "wild_side", (750000, 15000), (150000, 3000), 250, least=1, text=text)


def _cut(folder: Path, rules: str, order: tuple[int, int], pool: tuple[int, int], divisor: int,
         least: int, text: str | None = None) -> Path:
    """specs/<rules>.toml (a printed game, counts per order; or `text`, a changed copy of it) with its
    order and pool sizes replaced (from, to), counts per pool, every tier's count divided by `divisor`
    (at least `least`)."""
    text = spec_path(rules).read_text() if text is None else text
    for was, now in ((f"order_tickets = {order[0]}", f"order_tickets = {order[1]}"),
                     (f"pool_tickets = {pool[0]}", f"pool_tickets = {pool[1]}"),
                     ('counts_per = "order"', 'counts_per = "pool"')):
        assert text.count(was) == 1, f"specs/{rules}.toml: {was!r} is not there once: the cut would not cut"
        text = text.replace(was, now)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(least, int(m.group(1)) // divisor)}", text,
                  flags=re.M)
    path = folder / f"{rules}.toml"
    path.write_text(text)
    return path


def small_lucky_pairs(folder: Path) -> Path:
    """specs/examples/lucky_pairs.toml (pictures with `art`) cut to an order of two pools of 2,400
    tickets (12 books of 200 each), every tier's count a hundredth (at least 1), written as
    folder/lucky_pairs.toml."""
    text = (ROOT / "specs/examples/lucky_pairs.toml").read_text()
    text = text.replace("order_tickets = 240000", "order_tickets = 4800").replace(
        "pool_tickets = 240000", "pool_tickets = 2400")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 100)}", text, flags=re.M)
    path = folder / "lucky_pairs.toml"
    path.write_text(text)
    return path


def small_example(folder: Path, name: str, tickets: int) -> Path:
    """specs/examples/<name>.toml cut to one pool of `tickets` (order and pool sizes, and every tier's
    count, divided by pool_tickets // tickets, a count at least 1; published figures dropped), written
    as folder/<name>.toml: a real example of its style whose pool builds in a second."""
    text = (ROOT / "specs" / "examples" / f"{name}.toml").read_text()
    match = re.search(r"^pool_tickets = (\d+)", text, flags=re.M)
    assert match is not None, name
    k = int(match.group(1)) // tickets
    text = re.sub(r"^(order_tickets|pool_tickets) = (\d+)",
                  lambda m: f"{m.group(1)} = {int(m.group(2)) // k}", text, flags=re.M)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // k)}", text, flags=re.M)
    path = folder / f"{name}.toml"
    path.write_text(re.sub(r"^published_\w+ = .*\n", "", text, flags=re.M))
    return path


def small_einstant(folder: Path, rules: str, shares: int) -> Path:
    """specs/<rules>.toml, an eInstant, cut to pools of `shares` (every tier's count divided by
    1,000,000 // shares, at least 1; the order 16 such pools), written as folder/<rules>.toml: the real
    game's every pool builds in a fraction of a second."""
    k = 1000000 // shares
    text = spec_path(rules).read_text().replace("pool_shares = 1000000", f"pool_shares = {shares}")
    text = re.sub(r"^order_shares = \d+", f"order_shares = {16 * shares}", text, flags=re.M)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // k)}", text, flags=re.M)
    path = folder / f"{rules}.toml"
    path.write_text(text)
    return path


def vector_lines(name: str) -> list[str]:
    """The lines of tests/vectors/<name> that are not comments (its header says how it was made)."""
    return [line for line in (VECTORS / name).read_text().splitlines() if not line.startswith("#")]


# The printed games (format 2, every printed style): the real ones and specs/examples.
PRINTED = {
    "happy_holidays": spec_path("happy_holidays"),
    "wild_side": spec_path("wild_side"),
    "hit_50": ROOT / "specs/examples/hit_50.toml",
    "cash_explosion": ROOT / "specs/examples/cash_explosion.toml",
    "double_take": ROOT / "specs/examples/double_take.toml",
}
