"""Small real printed runs with both validation keys, for the third engines of the press and the central
validation system (tests/third_engines/print_run.py, validation_desk.py): Happy Holidays, Wild Side,
Cash Explosion with a partial last pool, a split order and a cut of it, a run of one pool of three
under a book key and one of another single pool from the seed, and Happy Holidays as game 2029 (a
four-digit game number). Each is made with SEED_A in about a
second."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import ROOT, SEED_A, small_happy_holidays, small_wild_side, spec_path
from tests.support.split_run import cut, split_run


@dataclass(frozen=True)
class Made:
    run: Path
    spec: Path
    low: Path
    high: Path
    public: Path | None = None  # signed runs only
    book_key: Path | None = None


def _keys(folder: Path) -> tuple[bytes, bytes]:
    for tier in ("low", "high"):
        if not (folder / f"{tier}.key").exists():
            new_validation_key(folder / f"{tier}.key")
    return read_validation_key(folder / "low.key"), read_validation_key(folder / "high.key")


def _cash_explosion(folder: Path) -> Path:
    """specs/examples/cash_explosion.toml as an order of 7,500 tickets: pools of 3,000, the last of
    1,500 (`last_pool = "partial"`, books of 150), every count /240 to a multiple of 5 (at least 5)."""
    text = (ROOT / "specs/examples/cash_explosion.toml").read_text()
    text = text.replace("order_tickets = 1800000", "order_tickets = 7500").replace(
        "pool_tickets = 240000", "pool_tickets = 3000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(5, int(m[1]) // 240 // 5 * 5)}", text,
                  flags=re.M)
    text = re.sub(r"^published_\w+ = .*\n", "", text, flags=re.M)
    path = folder / "cash_explosion.toml"
    path.write_text(re.sub(r"\[published\].*?\n\n", "", text, flags=re.S))
    return path


def _plain(folder: Path, spec: Path, run_id: str, pool_ids: list[str] | None = None, book_key: bool = False,
           high_tier_cents: int | None = None) -> Made:
    """A run of `spec` from SEED_A, signed with a new key, both validation keys (and the book key: folder/
    book.key) beside it."""
    if book_key:
        new_validation_key(folder / "book.key")
    pair = new_key_pair(folder / "keys", None)
    signer = Signer.from_file(pair.private)
    made = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 4, tzinfo=UTC),
                                    out=folder / "runs", run_id=run_id, validation_keys=_keys(folder),
                                    signature=signer.manifest_entry(), pool_ids=pool_ids,
                                    high_tier_cents=high_tier_cents,
                                    book_key=read_validation_key(folder / "book.key") if book_key else None),
                    finish=signer.sign_run)
    return Made(made.folder, spec, folder / "low.key", folder / "high.key", pair.public,
                folder / "book.key" if book_key else None)


def make(root: Path, name: str) -> Made:
    """The run `name` in a new folder root/name."""
    folder = root / name
    folder.mkdir()
    if name == "happy_holidays":
        return _plain(folder, small_happy_holidays(folder, 3000), "hh")
    if name == "wild_side":
        return _plain(folder, small_wild_side(folder), "ws")
    if name == "cash_explosion":
        return _plain(folder, _cash_explosion(folder), "ce")
    if name == "book_key_p3":
        return _plain(folder, small_happy_holidays(folder, 9000), "bk", pool_ids=["p3"], book_key=True)
    if name == "seed_p2":
        return _plain(folder, small_happy_holidays(folder, 9000), "p2", pool_ids=["p2"])
    if name == "game_2029":  # a four-digit game number: GGGG-BBBBBBB-TTT, 16-digit barcodes
        text = spec_path("happy_holidays").read_text()
        assert text.count("\nnumber = 465\n") == 1
        spec = small_happy_holidays(folder, 3000, text.replace("\nnumber = 465\n", "\nnumber = 2029\n"))
        return _plain(folder, spec, "g4")
    if name == "high_at_one_dollar":
        return _plain(folder, small_happy_holidays(folder, 3000), "hh-\u00e9\u20ac", high_tier_cents=100)
    made = split_run(folder)
    if name == "split_cut":
        made = cut(made, ["p5", "p2"], "cut")
    return Made(made.folder, made.spec, made.low, made.high, made.public)


NAMES = ["happy_holidays", "wild_side", "cash_explosion", "split", "split_cut", "book_key_p3", "seed_p2",
         "high_at_one_dollar", "game_2029"]
