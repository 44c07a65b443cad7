"""The third engine for poker_hand (tests/third_engines/cards.py `poker_hand_row`, written from
docs/styles/poker_hand.md and play.md alone) against audit's step 4 on real runs: Poker Lotto Instant Win
(specs/examples/poker_lotto_instant.toml) cut to one pool of 5,460 tickets, and a game of a 53-card deck
(the JOKER wild, the chart from five of a kind down). Every generated row is legal and pays its prize;
every known hand of tests/support/poker_ranks.py shown on a row pays what the chart gives its RANK, as
audit says; every tampered row (a loser shown a paid hand, a card twice, the JOKER where the deck has none,
codes out of range) is refused by both with audit's very reasons and amount; and so are 600 rows of each
run tampered at random."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_example
from tests.support.poker_ranks import KNOWN, hand
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit, cards

Row = dict
CHART = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]
CENTS = [100_000, 50_000, 10_000, 2_000, 1_000, 700, 500, 300, 200, 100]
GAMES = {"poker_lotto_instant": 5460, "joker": 1200}


def _joker(folder: Path) -> Path:
    """A 53-card game paying five of a kind ($1,000) down to jacks or better ($1), a tier a rank."""
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${c // 100:,}", "value": f"{c // 100}.00"}
              for i, c in enumerate(CENTS)]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz", "joker": True,
            "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(CHART)]}
    tiers = [{"id": h, "count": 20, "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"}]}
             for i, h in enumerate(CHART)]
    (folder / "joker.toml").write_text(dumps(base_doc([area], prizes, tiers, max_wins=1, pool_tickets=1200)))
    return folder / "joker.toml"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("poker3")
    made = {}
    for name, tickets in GAMES.items():
        (root / name).mkdir()
        path = _joker(root / name) if name == "joker" else small_example(root / name, name, tickets)
        made[name] = generate(GenerateRequest(load_spec(path), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                              out=root / name, run_id="r")).folder
    return made


@pytest.mark.parametrize("game", list(GAMES))
def test_every_generated_row_is_legal_and_pays_its_prize(runs, game):
    table = pl.read_parquet(runs[game] / "pool-p1.parquet")
    assert table.height == GAMES[game]
    assert cards.judge(against_audit.play(runs[game]), table) == {}
    assert against_audit.layouts(runs[game])[0] == "pass"


@pytest.mark.parametrize(("text", "rank"), KNOWN, ids=[t for t, _ in KNOWN])
def test_a_known_hand_on_a_loser_pays_what_the_chart_gives_its_rank(runs, tmp_path, text, rank):
    if rank == "none":  # a loser showing an unpaid hand is legal: shown on a winner, it pays nothing
        tier, pays = "jacks_or_better", 0
    else:
        tier, pays = "lose", CENTS[CHART.index(rank)]
    _, paid = against_audit.agrees(cards.judge, runs["joker"], tmp_path / "r", tier,
                                   {f"ph_card_{i}": c for i, c in enumerate(hand(text))})
    assert paid == pays


def _shown(text: str) -> Callable[[Row], dict]:
    return lambda r: {f"hand_card_{i}": c for i, c in enumerate(hand(text))}


TAMPERED: list[tuple[str, str, Callable[[Row], dict], str]] = [
    ("poker_lotto_instant", "lose", _shown("AH KH QH JH 10H"), "a loser shows a royal flush"),
    ("poker_lotto_instant", "two_pair", _shown("AC AD 9H 9S 9C"), "two pair shown as a full house"),
    ("poker_lotto_instant", "lose", lambda r: {"hand_card_0": r["hand_card_3"]}, "a card shown twice"),
    ("poker_lotto_instant", "lose", lambda r: {"hand_card_4": 52}, "the JOKER where the deck has none"),
    ("poker_lotto_instant", "lose", lambda r: {"hand_card_1": None, "hand_card_2": 255}, "a null and 255"),
    ("poker_lotto_instant", "royal_flush", lambda r: {"tier": "straight_flush"},
     "a royal flush stored as less"),
    ("joker", "lose", lambda r: {"ph_card_0": 52, "ph_card_1": 52}, "the JOKER twice"),
    ("joker", "lose", lambda r: {"ph_card_2": 53}, "a code past the JOKER"),
    ("joker", "five_of_a_kind", lambda r: {"ph_card_0": 52 if r["ph_card_1"] != 52 else 0},
     "five of a kind's JOKER shown twice, or a card for it"),
]


@pytest.mark.parametrize(("game", "tier", "values", "what"), TAMPERED, ids=[c[3] for c in TAMPERED])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(runs, tmp_path, game, tier, values, what):
    row = pl.read_parquet(runs[game] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(cards.judge, runs[game], tmp_path / "r", tier, values(row))


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


@pytest.mark.parametrize("game", list(GAMES))
def test_rows_tampered_at_random_are_judged_as_audit_judges_them(runs, game):
    """600 rows, the card columns widened to Int32, each with one to three cells (or its tier) set from a
    seeded generator: a null, a negative value, one of 9999 or more, the JOKER, a code out of range,
    another card of the row, any card. Both refuse the same rows with the same reasons and amounts."""
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[game] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    table = table.with_columns(pl.col(layout).cast(pl.Int32))
    rows, rng = table.to_dicts(), random.Random(f"poker3 {game}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 600)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice((-3, 12000, 52, 53, 60, 255)) if u < 0.2 else r[rng.choice(layout)]
                    if u < 0.5 else rng.randrange(52))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert cards.judge(play, tampered) == audit
    assert len(audit) > 300  # most tampered rows are refused
