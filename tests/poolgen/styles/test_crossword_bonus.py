"""A crossword's BONUS WORD (docs/styles/crossword.md, section 9), read back by a reader written here
from the contract: a full pool of the Kansas "$100,000 Crossword" example
(specs/examples/hundred_thousand_crossword.toml) shows a listed 5-letter bonus word on every ticket,
completed by YOUR LETTERS exactly on the tickets whose tier lists the bonus win; the loader refuses, in
one line, every bonus field and tier it cannot lay out; a crossword without a bonus word lays out byte
for byte as before."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.support.cli import invoke, one_line
from tests.support.laid_out import laid_out_first_pool, layout_digest
from tests.support.random_specs import generates_and_verifies
from tests.support.spec_docs import dumps

EXAMPLE = "specs/examples/hundred_thousand_crossword.toml"
WORDS = "poolgen/styles/crossword/words.txt"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture(scope="module")
def full_pool():
    return laid_out_first_pool(EXAMPLE)


def test_every_ticket_completes_its_bonus_word_exactly_when_its_tier_pays_it(full_pool):
    spec, pool, tiers, cols = full_pool
    assert [c for c in cols if "bonus" in c] == [f"puzzle_bonus_{k}" for k in range(5)]
    letters = np.stack([cols[f"puzzle_letter_{j}"] for j in range(20)], axis=1).astype(np.int64)
    word = np.stack([cols[f"puzzle_bonus_{k}"] for k in range(5)], axis=1).astype(np.int64)
    assert letters.shape == (120_000, 20) and word.max() < 26
    have = np.zeros(letters.shape[0], dtype=np.int64)
    for j in range(20):
        have |= np.left_shift(1, letters[:, j])
    completed = ((have[:, None] >> word) & 1).all(axis=1)
    pays = np.array([any(w.how == "bonus" for w in spec.play.wins[t.id]) for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(completed, pays)
    assert int(pays.sum()) == 8000 + 2000 + 300  # tiers b, w4b and w6b
    lines = Path(WORDS).read_text(encoding="utf-8").splitlines()
    fives = {w for w in lines if len(w) == 5 and not w.startswith("#")}
    packed = np.unique((word * 26 ** np.arange(5)).sum(axis=1)).tolist()
    shown = {"".join(ALPHABET[v // 26 ** k % 26] for k in range(5)) for v in packed}
    assert shown <= fives, shown - fives
    assert len(shown) > 5000  # drawn among the list's thousands of 5-letter words, not a few


def test_a_bonus_word_is_drawn_the_same_way_for_winners_and_losers(full_pool):
    """Section 9: the bonus word is drawn with the grids whatever the tier; only redraws (a word no
    letter set fits) tell tiers apart. The mean number of distinct letters of the bonus words of the
    tickets that pay it and of those that do not differ by less than 0.1 (a word of fewer distinct
    letters is completed more often: drawn after YOUR LETTERS, among the words they complete or not, the
    winners' would hold about 0.15 fewer: 4.51 against 4.67 for 20 letters of 26)."""
    spec, pool, tiers, cols = full_pool
    word = np.stack([cols[f"puzzle_bonus_{k}"] for k in range(5)], axis=1).astype(np.int64)
    distinct = np.array([len(set(r)) for r in word.tolist()])
    pays = np.array([any(w.how == "bonus" for w in spec.play.wins[t.id]) for t in pool.tiers])[tiers]
    assert abs(distinct[pays].mean() - distinct[~pays].mean()) < 0.05


def test_each_letter_shows_in_winners_and_losers_bonus_words_alike(full_pool):
    """Section 9, letter by letter: the share of bonus words holding each letter differs between the
    10,300 tickets that pay it and the others by at most 2 points (1.0 here, U; one standard error is
    about 0.5). Drawn after YOUR LETTERS, among the words they complete or not, the winners' would avoid
    the letters a grid target leaves out: E in 37% of the winners' words against 47% of the losers', A
    35% against 44%, S 39% against 47% (a mean of distinct letters hides most of it: 0.2)."""
    spec, pool, tiers, cols = full_pool
    word = np.stack([cols[f"puzzle_bonus_{k}"] for k in range(5)], axis=1).astype(np.int64)
    holds = np.zeros((word.shape[0], len(ALPHABET)), dtype=bool)
    for k in range(5):
        holds[np.arange(word.shape[0]), word[:, k]] = True
    pays = np.array([any(w.how == "bonus" for w in spec.play.wins[t.id]) for t in pool.tiers])[tiers]
    gap = np.abs(holds[pays].mean(axis=0) - holds[~pays].mean(axis=0))
    wide = {ALPHABET[c]: round(float(gap[c]), 3) for c in np.flatnonzero(gap >= 0.02)}
    assert float(gap.max()) < 0.02, wide


def _doc(bonus: object = None, letters: int = 20, wins: list | None = None) -> dict:
    symbols = [{"group": "abc", "code": ch, "symbol": ch} for ch in ALPHABET]
    symbols += [{"group": "legend", "code": c, "symbol": f"${c}", "value": f"{c}.00"}
                for c in ("1", "2", "5")]
    area = {"id": "cw", "style": "crossword", "letters": letters, "alphabet": "abc", "prizes": "legend",
            "grids": [["....#", ".#.##", ".#..."]], "legend": [{"words": 1, "prize": "1"}]}
    if bonus is not None:
        area["bonus"] = bonus
    return {"format": 2,
            "game": {"id": "cw_game", "name": "CW", "number": 9, "regulation": "none", "source": "tests",
                     "prize_table": "designed"},
            "printed": {"price": "1.00", "order_tickets": 500, "pool_tickets": 500, "first_ticket": 0,
                        "last_ticket": 49, "counts_per": "pool"},
            "play": {"max_wins": 2}, "areas": [area], "symbols": symbols,
            "tiers": [{"id": "t", "count": 50,
                       "wins": wins or [{"area": "cw", "prize": "1", "how": "match"},
                                        {"area": "cw", "prize": "5", "how": "bonus"}]}]}


def _refused(tmp_path: Path, doc: dict, message: str) -> None:
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize(("bonus", "message"), [
    ({"length": 7, "prize": "5"},
     "areas[0].bonus.length: no listed word of 7 letters is spelt in the alphabet (lengths 3, 4, 5, 6)"),
    ({"length": 5, "prize": "9"}, "areas[0].bonus.prize: '9' is not one of the area's prize symbols"),
    ({"length": 5, "prize": "5", "by": 2}, "areas[0].bonus.by: unknown field"),
    ({"length": 5}, "areas[0].bonus.prize: "),
    ([5, "5"], "areas[0].bonus: must be a table { length, prize }"),
])
def test_bonus_fields_it_cannot_read_are_refused(tmp_path, bonus, message):
    _refused(tmp_path, _doc(bonus), message)


@pytest.mark.parametrize(("wins", "message"), [
    ([{"area": "cw", "prize": "2", "how": "bonus"}],
     "tiers[0].wins[0].prize: area 'cw' (crossword): prize '2' is not the bonus word's ('5')"),
    ([{"area": "cw", "prize": "5", "how": "bonus", "by": 2}],
     "tiers[0].wins[0].by: area 'cw' (crossword): the bonus word's prize wins as listed: no `by`"),
    ([{"area": "cw", "prize": "5", "how": "bonus"}, {"area": "cw", "prize": "5", "how": "bonus"}],
     "tiers[0].wins: area 'cw' (crossword): a ticket wins its bonus word's prize once"),
    ([{"area": "cw", "prize": "1", "how": "reveal"}],
     "tiers[0].wins[0].how: area 'cw' (crossword): how = 'reveal': a crossword win is \"match\" (the "
     "legend's prize for its number of completed words) or \"bonus\" (its bonus word's prize)"),
])
def test_bonus_wins_the_area_does_not_give_are_refused(tmp_path, wins, message):
    _refused(tmp_path, _doc({"length": 5, "prize": "5"}, wins=wins), message)


def test_a_bonus_win_in_an_area_without_a_bonus_word_is_refused(tmp_path):
    _refused(tmp_path, _doc(wins=[{"area": "cw", "prize": "1", "how": "bonus"}]),
             "tiers[0].wins[0].how: area 'cw' (crossword): how = 'bonus': a crossword win is \"match\" (the "
             "legend's prize for its number of completed words)")


def test_a_tier_whose_bonus_word_no_draw_completes_is_refused(tmp_path):
    # 4 YOUR LETTERS: some draw completes one grid word, none a 6-letter bonus word besides (one of 4
    # distinct letters or fewer, as BANANA; with 5, since the word list lost its slurs, a draw finds one)
    _refused(tmp_path, _doc({"length": 6, "prize": "5"}, letters=4),
             "tiers[0].wins: area 'cw' (crossword): this tier: none of 16,384 draws of the grids and 4 YOUR "
             "LETTERS completes 1..1 words and completes a bonus word")


def test_a_bonus_word_no_tier_wins_is_refused(tmp_path):
    """Every ticket would print a bonus word and its prize that never win: a field nothing uses."""
    _refused(tmp_path, _doc({"length": 5, "prize": "5"}, wins=[{"area": "cw", "prize": "1", "how": "match"}]),
             "areas[0].bonus: not used: no tier wins it (every ticket would print it, and it could never "
             "win)")


# sha256 over every layout column (name, then its bytes) of 6,000 rows of each example's first pool,
# as poolgen laid them out at commit 30bcd96, before the bonus word: a spec without one draws as before
# (with today's word list copied into that commit; with its own list, before the slurs LDNOOBW and the
# hand review removed, it gave 78e09dab... and 4272786c...)
BEFORE = {"super_red_hot_crossword": "a2d941a345df4954f815a03b9072a92fde9754b8a151ed18934073040c70a00a",
          "granite_state_money_puzzle": "4ca39233c37aefc204422cabdace2d9c628585344653cf82cce9d3154f7768fd"}


@pytest.mark.parametrize("name", BEFORE)
def test_a_crossword_without_a_bonus_word_lays_out_byte_for_byte_as_before(name):
    digest, columns = layout_digest(f"specs/examples/{name}.toml")
    assert not any(re.search(r"_bonus_\d+$", c) for c in columns)  # no bonus word columns
    assert digest == BEFORE[name]


def test_a_legend_prize_no_tier_wins_is_refused(tmp_path):
    """The one legend's line no tier wins, beside a bonus word a tier wins: every ticket would print a
    prize that never wins (contract, section 2)."""
    _refused(tmp_path, _doc({"length": 5, "prize": "5"}, letters=5,
                            wins=[{"area": "cw", "prize": "5", "how": "bonus"}]),
             "areas[0].legend[0].prize: not used: no tier wins '1' (every ticket would print it in the "
             "legend, and it could never win)")


def test_a_bonus_prize_that_is_also_a_legend_prize_is_read_one_way(tmp_path):
    """The bonus word's prize may be the symbol a legend line shows (two boxes print "$1"): a win's `how`
    says which box pays (contract, section 9), so a ticket of either win or both is read one way. Every
    row of a pool of the three tiers, generated and verified, pays exactly its tier."""
    def win(how: str) -> dict:
        return {"area": "cw", "prize": "1", "how": how}

    doc = _doc({"length": 5, "prize": "1"})
    doc["tiers"] = [{"id": "legend", "count": 50, "wins": [win("match")]},
                    {"id": "bonus", "count": 50, "wins": [win("bonus")]},
                    {"id": "both", "count": 50, "wins": [win("match"), win("bonus")]}]
    doc["symbols"] = [s for s in doc["symbols"] if s["code"] not in ("2", "5")]
    generates_and_verifies(tmp_path, doc)
