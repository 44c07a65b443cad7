"""A share's claim names whom it pays: share ids are sequential (POOL-NNNNNNN), so anyone can name a
sold winning share that is not theirs; the answer says the buyer in text as in JSON (the text said
only "paid"), and `--player REF` refuses a claim by anyone but the buyer, recording nothing. The
run is the conftest's `einstant`."""

from __future__ import annotations

import json

from tests.support.cli import invoke
from tests.support.ledger_heads import payments_head


def _setup(einstant, ledger):
    prizes = einstant["prizes"]
    winner = next(i for i, p in enumerate(prizes, start=1) if p > 0)
    for n in range(1, winner + 1):
        sold = invoke("sales", "sell", einstant["folder"],
                      "--public-key", einstant["public"], "--ledger", ledger, "--pool", "d1.00", "--channel",
                      "web", "--player", f"player-{n}")
        assert sold.exit_code == 0
    return f"d1.00-{winner:07d}", f"player-{winner}", prizes[winner - 1]


def test_a_share_claimed_by_another_player_is_refused(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    share, buyer, prize = _setup(einstant, ledger)
    other = invoke("sales", "claim", einstant["folder"],
                   "--public-key", einstant["public"], share, "--ledger", ledger, "--player", "player-x",
                   "--json")
    assert other.exit_code == 1
    assert json.loads(other.output)["reason"] == f"pool d1.00: {share}: sold to another player; not paying it"
    paid = invoke("sales", "claim", einstant["folder"],
                  "--public-key", einstant["public"], share, "--ledger", ledger, "--player", buyer)
    cash = f"${prize // 100:,}.{prize % 100:02d}"
    assert paid.exit_code == 0
    assert paid.stdout.startswith(f"{share}: prize {cash} to player {buyer} - paid at ")
    assert paid.stderr == f"ledger {ledger}: head {payments_head(ledger)}\n"  # the anchor to record


def test_the_text_answer_names_the_player_paid_as_the_json_does(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    share, buyer, _ = _setup(einstant, ledger)
    paid = invoke("sales", "claim", einstant["folder"],
                  "--public-key", einstant["public"], share, "--ledger", ledger, "--json")
    assert paid.exit_code == 0 and json.loads(paid.output)["player"] == buyer
    assert f"to player {buyer}" in json.loads(paid.output)["text"]


def test_another_players_claim_says_nothing_of_the_shares_outcome(einstant, tmp_path):
    """`--player` is checked before whether the share was paid: a stranger naming a sold share is told
    it is another player's, whether it won and was paid or not (the answer was "already paid at T" for
    a paid winner, "sold to another player" for every other share, telling the stranger which serials
    won)."""
    ledger = tmp_path / "sales.sqlite"
    share, buyer, _ = _setup(einstant, ledger)
    loser = next(f"d1.00-{i:07d}" for i, p in enumerate(einstant["prizes"], start=1) if p == 0)
    assert invoke("sales", "claim", einstant["folder"], "--public-key", einstant["public"], share,
                  "--ledger", ledger, "--player", buyer).exit_code == 0
    answers = {}
    for named in (share, loser):
        other = invoke("sales", "claim", einstant["folder"], "--public-key", einstant["public"], named,
                       "--ledger", ledger, "--player", "player-x", "--json")
        assert other.exit_code == 1
        answers[named] = json.loads(other.output)["reason"]
    assert answers == {n: f"pool d1.00: {n}: sold to another player; not paying it" for n in (share, loser)}
