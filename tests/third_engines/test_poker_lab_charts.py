"""The poker lab (tests/third_engines/poker_lab.py, from docs/styles/poker_hand.md and play.md alone) on the
charts of 2026-12-05: a pair line of any rank (`tens_or_better`, `kings_or_better`), `five_of_a_kind =
false` and `joker_multiplier`. The lab's counts per RANK against section 9's tables as printed and against
the example specs' tier counts; `five_of_a_kind = false` read both ways section 1 and 5 word it; every
class of hands (sorted ranks, suited or not; the JOKER in each place) under every pair line judged as
audit's step 4 judges it; and every row of small real runs of specs/examples/tens_or_better_poker.toml and
oh_joker_poker.toml, untouched, tampered by hand and at random, judged from the run's files as audit
judges them. poolgen and audit are used only as black boxes: generate, and step 4 on files."""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A
from tests.support.poker_ranks import hand
from tests.third_engines import against_audit
from tests.third_engines import poker_lab as lab

EXAMPLES = {"tens_or_better_poker": 100, "oh_joker_poker": 100}  # each example's counts divided by this
TENS, KINGS = lab.PAIRS.index("tens"), lab.PAIRS.index("kings")


def _cut(folder: Path, name: str, k: int) -> Path:
    """specs/examples/<name>.toml, every tier's count divided by k (at least 1), its pool the whole books
    of 60 in pool_tickets / k."""
    text = (ROOT / "specs" / "examples" / f"{name}.toml").read_text()
    text = re.sub(r"^(order_tickets|pool_tickets) = (\d+)",
                  lambda m: f"{m.group(1)} = {int(m.group(2)) // k // 60 * 60}", text, flags=re.M)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // k)}", text, flags=re.M)
    (folder / f"{name}.toml").write_text(text)
    return folder / f"{name}.toml"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pokercharts")
    made = {}
    for name, k in EXAMPLES.items():
        (root / name).mkdir()
        made[name] = generate(GenerateRequest(load_spec(_cut(root / name, name, k)), SEED_A,
                                              now=datetime(2026, 1, 2, tzinfo=UTC), out=root / name,
                                              run_id="r")).folder
    return made


@pytest.fixture(scope="module")
def counted() -> dict[str, dict[str, tuple[int, int]]]:
    """The lab's counts of the 53-card deck: a chart down to tens, and Ohio's (kings, no five of a kind)."""
    return {"tens": lab.counts(True, TENS), "ohio": lab.counts(True, KINGS, five=False)}


# section 9's second table, as printed: 52 cards, 53, of which show the JOKER (sets), 53 none, of which
# show the JOKER (sets)
PAIR_LINES = {"tens": (422400, 578892, 156492, 621, 1991736, 13356, 53),
              "kings": (168960, 262956, 93996, 373, 2307672, 75852, 301)}


def test_the_lab_counts_section_9s_pair_lines_as_printed(counted):
    for name, got in (("tens", counted["tens"]), ("kings", counted["ohio"])):
        line, none = got[f"{name}_or_better"], got["none"]
        plain = line[0] - line[1], line[0], line[1], line[1] // 252, none[0], none[1], none[1] // 252
        assert (plain, line[1] % 252, none[1] % 252) == (PAIR_LINES[name], 0, 0)
        assert sum(n for n, _ in got.values()) == 2869685
    assert counted["tens"]["none"][0] - counted["tens"]["none"][1] == 1978380  # 52 cards: none


def test_each_pair_rank_is_84480_hands_and_the_joker_pairs_the_top_of_674_sets():
    """Without the JOKER each pair rank adds 84,480 hands to the pair line; with it, a pair line from rank
    t is 252 hands a set of four ranks no sequence holds topped at t or higher (section 9)."""
    lines = [lab.counts(False, low)[lab.pair_line(low)][0] for low in range(13)]
    assert [a - b for a, b in zip(lines, [*lines[1:], 0], strict=True)] == [84480] * 13
    sequences = [set(range(s, s + 5)) for s in range(9)] + [{12, 0, 1, 2, 3}]
    loose = [s for s in combinations(range(13), 4) if not any(set(s) <= q for q in sequences)]
    assert len(loose) == 674
    topped = [252 * sum(max(s) >= t for s in loose) for t in (TENS, lab.JACKS, KINGS)]
    assert topped == [156492, 143388, 93996]


def test_no_five_of_a_kind_counts_as_section_9_and_ohios_lines(counted):
    ohio = counted["ohio"]
    assert ohio["five_of_a_kind"] == (0, 0)
    assert ohio["four_of_a_kind"] == (3133, 2509)
    stated = {"royal_flush": (4, 20), "straight_flush": (36, 144), "four_of_a_kind": (624, 2509),
              "full_house": (3744, 2808), "flush": (5108, 2696), "straight": (10200, 10332),
              "three_of_a_kind": (54912, 82368), "two_pair": (123552, 0), "kings_or_better": (168960, 93996)}
    assert {r: (n - j, j) for r, (n, j) in ohio.items() if r in stated} == stated
    assert ohio["none"][0] == 2307672
    assert {r: n for r, n in counted["tens"].items() if r != "tens_or_better" and r != "none"} == {
        r: n for r, n in lab.counts(True).items() if r != "jacks_or_better" and r != "none"}


def test_the_examples_tier_counts_are_the_stated_share_of_the_labs_hands(counted):
    """tens_or_better_poker.toml: each tier a quarter of its RANK's hands; oh_joker_poker.toml: a fifth of
    its cell's, rounded down, the royal flush without the JOKER once (the specs' headers)."""
    def tiers(name: str) -> dict[str, int]:
        doc = tomllib.loads((ROOT / "specs" / "examples" / f"{name}.toml").read_text())
        return {t["id"]: t["count"] for t in doc["tiers"]}
    tens = {r: (n - j) // 4 for r, (n, j) in counted["tens"].items() if r not in ("none", "five_of_a_kind")}
    assert tiers("tens_or_better_poker") == tens
    ohio = {}
    for r, (n, j) in counted["ohio"].items():
        if r not in ("none", "five_of_a_kind"):
            ohio[r] = max(1, (n - j) // 5)
            ohio |= {f"{r}_joker": j // 5} if j else {}
    assert tiers("oh_joker_poker") == ohio


KNOWN = [  # section 5's known answers of the new charts, as printed
    ("10C 10D AH 7S 2C", TENS, True, "tens_or_better"), ("JOKER 2C 7D 9H 10S", TENS, True, "tens_or_better"),
    ("9C 9D AH 7S 2C", TENS, True, "none"), ("JOKER 9C 9D 9H 9S", lab.JACKS, False, "four_of_a_kind"),
    ("JOKER 2C 7D 9H KS", KINGS, False, "kings_or_better"), ("QC QD AH 7S 2C", KINGS, False, "none")]


@pytest.mark.parametrize(("text", "low", "five", "rank"), KNOWN, ids=[f"{t} {r}" for t, _, _, r in KNOWN])
def test_the_lab_ranks_the_new_charts_known_hands_as_the_contract_does(text, low, five, rank):
    assert lab.rank(hand(text), low, five) == rank


def test_no_five_of_a_kind_is_the_joker_standing_for_a_card_the_hand_does_not_show():
    """Section 1 (the JOKER stands only for a card the hand does not show) and section 5 (a five_of_a_kind
    found is four_of_a_kind) name the same RANK for every class of four cards and the JOKER."""
    for rs in combinations_with_replacement(range(13), 4):
        if max(rs.count(r) for r in rs) > 4:
            continue
        for suited in (False, True) if len(set(rs)) == 4 else (False,):
            cards = [r * 4 + (0 if suited else i % 4) for i, r in enumerate(rs)]
            assert lab.rank([lab.JOKER, *cards], KINGS, five=False) == lab.rank_unshown(cards, KINGS), cards


def _audit(play: dict, pool: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """audit's step 4 on a table, in the lab's judge's shape: each row illegal or not paying its stored
    prize, by position: (its reasons, what it pays)."""
    ev = evaluate(table, pool, play)
    said = dict(ev.illegal)
    stored = table["prize_cents"].to_list()
    return {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(table.height)
            if i in said or ev.prize_cents[i] != stored[i]}


def _manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


def _with_chart(play: dict, low: int, five: bool) -> dict:
    """Ohio's play entry, its pair line `low`'s, and with `five` five of a kind a rank paying $10,000."""
    play = json.loads(json.dumps(play))
    entry = play["areas"][0]
    entry["chart"][-1]["hand"] = lab.pair_line(low)
    if five:
        del entry["five_of_a_kind"]
        entry["chart"].insert(0, {"hand": "five_of_a_kind", "prize": "10000"})
        entry["prizes"].insert(0, {"code": "10000", "cents": 1000000})
    return play


def _classes(joker: bool) -> list[list[int]]:
    """One hand of each class section 5 reads (sorted ranks, suited or not), the JOKER (if any) in place
    i % 5 of the i-th."""
    out = []
    for rs in combinations_with_replacement(range(13), 4 if joker else 5):
        if max(rs.count(r) for r in rs) > 4:
            continue
        for suited in (False, True) if len(set(rs)) == len(rs) else (False,):
            cards = [r * 4 + (0 if suited else i % 4) for i, r in enumerate(rs)]
            out.append(cards[:len(out) % 5] + [lab.JOKER] + cards[len(out) % 5:] if joker else cards)
    return out


CHARTS = [(0, False), (TENS, True), (KINGS, False), (12, True)]  # the pair line's edges and the examples'


@pytest.mark.parametrize(("low", "five"), CHARTS, ids=[f"{lab.pair_line(lo)} five={f}" for lo, f in CHARTS])
def test_every_class_of_hands_pays_under_a_new_chart_as_audit_pays_it(runs, low, five):
    """Ohio's play entry with the pair line at `low`, with or without five of a kind: one hand of every
    class of 52 cards and of the JOKER's (a row of tier 'lose', so a paid hand is illegal) judged by the
    lab as audit's step 4 judges it, the JOKER's paid hands paying twice the chart."""
    manifest = _manifest(runs["oh_joker_poker"])
    hands = _classes(False) + _classes(True)
    base = pl.read_parquet(runs["oh_joker_poker"] / "pool-p1.parquet").head(1)
    table = pl.concat([base] * len(hands)).with_columns(
        pl.Series("position", range(len(hands)), dtype=base.schema["position"]),
        pl.lit("lose").alias("tier"), pl.lit(0).cast(base.schema["prize_cents"]).alias("prize_cents"),
        *(pl.Series(f"hand_card_{i}", [h[i] for h in hands], dtype=base.schema[f"hand_card_{i}"])
          for i in range(5)))
    play = _with_chart(manifest["play"], low, five)
    judged = lab.judge(play, table)
    assert judged == _audit(play, manifest["pools"][0], table)
    paid = sorted({pays for _, pays in judged.values()})
    assert len(judged) == {0: 8720, TENS: 6907, KINGS: 5999, 12: 5618}[low]  # of 7,462 + 2,535
    assert (paid[0], paid[-1]) == ((200, 2000000) if five else (200, 1000000))


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_every_row_of_the_examples_runs_shows_its_tiers_rank_and_pays_it(runs, game):
    """Each row's hand is of the RANK its tier is named after, the JOKER shown exactly on a `_joker` tier,
    a loser's hand of no RANK the chart pays; and every row pays its stored prize, to the lab and to audit."""
    manifest = _manifest(runs[game])
    entry, table = manifest["play"]["areas"][0], pl.read_parquet(runs[game] / "pool-p1.parquet")
    low, five = lab.chart_pair(entry["chart"]), entry.get("five_of_a_kind", True)
    for row in table.iter_rows(named=True):
        cards = [row[f"hand_card_{i}"] for i in range(5)]
        tier = row["tier"]
        assert lab.rank(cards, low, five) == ("none" if tier == "lose" else tier.removesuffix("_joker")), row
        assert (lab.JOKER in cards) == tier.endswith("_joker") or tier == "lose", row
    assert lab.judge(manifest["play"], table) == {}
    assert against_audit.layouts(runs[game])[0] == "pass"


def _shown(text: str) -> Callable[[dict], dict]:
    return lambda r: {f"hand_card_{i}": c for i, c in enumerate(hand(text))}


TAMPERED: list[tuple[str, str, Callable[[dict], dict], str]] = [
    ("tens_or_better_poker", "lose", _shown("10C 10D AH 7S 2C"), "a loser shows tens"),
    ("tens_or_better_poker", "two_pair", _shown("9C 9D AH 7S 2C"), "a two pair shows nines"),
    ("oh_joker_poker", "lose", _shown("JOKER 2C 7D 9H KS"), "a loser's JOKER pairs a king, paid twice"),
    ("oh_joker_poker", "lose", _shown("JOKER 9C 9D 9H 9S"), "the JOKER and four nines, four of a kind"),
    ("oh_joker_poker", "four_of_a_kind", _shown("JOKER 9C 9D 9H 2S"), "four of a kind by the JOKER"),
    ("oh_joker_poker", "four_of_a_kind_joker", _shown("9C 9D 9H 9S 2S"), "four of a kind without it"),
    ("oh_joker_poker", "lose", lambda r: {"hand_card_0": 52, "hand_card_3": 52}, "the JOKER twice"),
]


@pytest.mark.parametrize(("game", "tier", "values", "what"), TAMPERED, ids=[c[3] for c in TAMPERED])
def test_a_tampered_row_of_a_new_chart_is_refused_by_the_lab_as_audit_refuses_it(runs, tmp_path, game, tier,
                                                                                  values, what):
    row = pl.read_parquet(runs[game] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(lab.judge, runs[game], tmp_path / "r", tier, values(row))


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_rows_of_a_new_chart_tampered_at_random_are_judged_by_the_lab_as_audit_judges_them(runs, game):
    """400 rows, the layout widened to Int32, one to three cells (or the tier) set from a seeded generator:
    a null, a negative value, 9999 or more, the JOKER, out of range, another cell of the row, any card."""
    manifest = _manifest(runs[game])
    play, table = manifest["play"], pl.read_parquet(runs[game] / "pool-p1.parquet")
    layout = [f"hand_card_{i}" for i in range(5)]
    table = table.with_columns(pl.col(layout).cast(pl.Int32))
    rows, rng = table.to_dicts(), random.Random(f"poker lab charts {game}")
    tiers = [t["id"] for t in play["tiers"]] + ["nope"]
    for r in (rows[i] for i in rng.sample(range(len(rows)), 400)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice(tiers) if c == "tier" else None if u < 0.05
                    else rng.choice((-3, 12000, 9999, 52, 53, 105, 255)) if u < 0.2 else r[rng.choice(layout)]
                    if u < 0.5 else rng.randrange(53))
    tampered = pl.DataFrame(rows, schema=table.schema)
    judged = lab.judge(play, tampered)
    assert judged == _audit(play, manifest["pools"][0], tampered)
    assert len(judged) > 200


def test_a_value_read_as_the_joker_is_a_joker_hand_paid_by_the_multiplier(runs):
    """Section 6: an illegal row's negative value reads as -1 and 105 as 105, each modulo 53 the JOKER, so
    `-1 2C 7D 9H KS` and `105 2C 7D 9H KS` pair the king and pay 2 x $2, as `JOKER 2C 7D 9H KS` does."""
    manifest = _manifest(runs["oh_joker_poker"])
    pool = pl.read_parquet(runs["oh_joker_poker"] / "pool-p1.parquet")
    base = pool.filter(pl.col("tier") == "lose").head(3)
    table = base.with_columns(pl.Series("position", [0, 1, 2], dtype=base.schema["position"]),
                              pl.Series("hand_card_0", [-1, 105, 52], dtype=pl.Int32),
                              *(pl.Series(f"hand_card_{i}", [c] * 3, dtype=pl.Int32)
                                for i, c in enumerate(hand("2C 7D 9H KS"), start=1)))
    judged = lab.judge(manifest["play"], table)
    assert judged == _audit(manifest["play"], manifest["pools"][0], table)
    assert [judged[i][1] for i in range(3)] == [400, 400, 400]
    assert judged[0][0].startswith("hand: a code out of range in hand_card_0; its wins")


UNREADABLE: list[tuple[str, Callable[[dict], None]]] = [  # section 3's entries step 4 cannot read
    ("five_of_a_kind true", lambda e: e.update(five_of_a_kind=True)),
    ("joker_multiplier 1", lambda e: e.update(joker_multiplier=1)),
    ("joker_multiplier 11", lambda e: e.update(joker_multiplier=11)),
    ("joker_multiplier a string", lambda e: e.update(joker_multiplier="2")),
    ("both without the JOKER", lambda e: e.update(joker=False, deck="standard-52")),
    ("a pair line of no pair", lambda e: e["chart"][-1].update(hand="elevens_or_better")),
    ("two pair lines", lambda e: e["chart"].append({"hand": "aces_or_better", "prize": "2"})),
    ("five of a kind charted without it", lambda e: e["chart"].insert(0, {"hand": "five_of_a_kind",
                                                                          "prize": "5000"})),
]


@pytest.mark.parametrize(("what", "edit"), UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_an_entry_section_3_calls_unreadable_fails_step_4_judging_no_row(runs, tmp_path, what, edit):
    folder = tmp_path / "r"
    folder.mkdir()
    for f in runs["oh_joker_poker"].iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    manifest = _manifest(folder)
    edit(manifest["play"]["areas"][0])
    (folder / "manifest.json").write_text(json.dumps(manifest))
    status, text = against_audit.layouts(folder)
    assert (status, "unreadable" in text, "layout(s)" in text) == ("fail", True, False), text
