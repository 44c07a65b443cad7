"""A ceremony binds the printed game (transcript v4, docs/ceremony.md "What a ceremony is for"): the game
number and the regulation, which the spec's free `game.id` does not change. Step 5 (and the third engine)
compare a bundle's printed game with the run's, so a twin ceremony made from a renamed copy of the spec
(same tickets, another game id) is a second seed for this run's pools, refused naming both bundles; and a
bundle of another printed game is listed, so an auditor can hand every bundle the operator published.
The sealed run is the root conftest's `sealed_run` (Wild Side, game 358, pool p1, run r)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.steps.ceremony import check_bound, transcript_rules
from audit.steps.ceremony_bundles import check_bundles, read_bundle, same_printed
from audit.verify import attempt
from tests.support import spec_path
from tests.support.ceremony import PARTIES, commit, new_args, ok
from tests.third_engines import ceremony as third
from tests.third_engines.ceremony_bundles import check_bundles as third_bundles

WILD_SIDE = "game 358 of K.A.R. 111-4-3762"


def _spec(tmp_path: Path, name: str, *changes: tuple[str, str]) -> Path:
    """Wild Side's spec with `changes` (old, new) made once each, checked."""
    text = spec_path("wild_side").read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    ok("check", str(path))
    return path


def _published(tmp_path: Path, name: str, spec: Path, run_id: str) -> tuple[Path, dict]:
    """Ceremony c1 (other keys) of `spec`, pool p1, run `run_id`, every party committed, published."""
    folder = tmp_path / name
    folder.mkdir()
    args = new_args(folder, folder / "c1.ceremony")
    args[args.index("--spec") + 1] = str(spec)
    args[args.index("--run-id") + 1] = run_id
    ok(*args)
    for p in PARTIES:
        commit(folder / "c1.ceremony", p)
    out = tmp_path / f"{name}.json"
    ok("ceremony", "publish", str(folder / "c1.ceremony"), "--out", str(out))
    return out, read_bundle(out)


def _both(sealed_run, bundles: list[tuple[Path, dict]]) -> tuple[tuple[str, str], tuple[str, str]]:
    """Step 5's verdict on the bundles, and the third engine's."""
    data = (sealed_run.run / "manifest.json").read_bytes()
    audited = attempt(Step.FIGURES, check_bundles, Manifest.parse(data), bundles)
    try:
        mine = ("pass", third_bundles(json.loads(data), [(p.name, d) for p, d in bundles]))
    except third.Refused as refused:
        mine = ("fail", str(refused))
    return audited, mine


def _own(sealed_run, tmp_path: Path) -> tuple[Path, dict]:
    out = tmp_path / "c1.json"
    shutil.copyfile(sealed_run.bundle, out)  # published before the reveals
    return out, read_bundle(out)


def test_the_run_binds_its_printed_game(sealed_run):
    t = json.loads((sealed_run.run / "manifest.json").read_bytes())["ceremony"]["transcript"]
    assert t["printed"] == {"number": 358, "regulation": "K.A.R. 111-4-3762"}


def test_a_twin_from_a_renamed_spec_under_another_run_id_is_refused_naming_both_bundles(sealed_run, tmp_path):
    # The insider's second seed for the same printed tickets: game.id renamed, another run id; before v4
    # step 5 called it "another game" and an auditor collecting by game id never saw it.
    twin_spec = _spec(tmp_path, "twin", ('id = "wild_side" ', 'id = "wild_side_b"'))
    twin = _published(tmp_path, "twin", twin_spec, "r2")
    why = (f"bundle twin.json: ceremony c1 (under game id wild_side_b: this run's printed game, {WILD_SIDE}) "
           "also bound pool p1 of this run (as run r2) and was not aborted: its seed was one more to choose "
           "from (this run's ceremony c1 is bundle c1.json)")
    assert _both(sealed_run, [twin, _own(sealed_run, tmp_path)]) == (("fail", why), ("fail", why))


@pytest.mark.parametrize("changes", [
    [('id = "wild_side" ', 'id = "wild_side_b"'), ('regulation = "K.A.R. 111-4-3762"',
                                                    'regulation = "KAR 111-4-3762."')],
    [('id = "wild_side" ', 'id = "wild_side_b"'), ("number = 358", "number = 359")],
], ids=["regulation respelled", "number changed"])
def test_a_twin_is_the_same_printed_game_by_its_number_or_its_regulation(sealed_run, tmp_path, changes):
    twin = _published(tmp_path, "twin", _spec(tmp_path, "twin", *changes), "r")
    audited, mine = _both(sealed_run, [_own(sealed_run, tmp_path), twin])
    assert audited == mine and audited[0] == "fail"
    assert audited[1].startswith("bundle twin.json: ceremony c1 (under game id wild_side_b: this run's "
                                 f"printed game, {WILD_SIDE}) also bound run r and was not aborted")


def test_a_bundle_of_another_printed_game_is_listed_not_refused(sealed_run, tmp_path):
    # Happy Holidays (game 465) also has a pool p1 and here even the run id r: another printed game.
    other = _published(tmp_path, "other", spec_path("happy_holidays"), "r")
    said = ("ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; other.json: "
            "ceremony c1 of another printed game (game 465 of K.A.R. 111-4-3836), not this run's "
            f"({WILD_SIDE})")
    assert _both(sealed_run, [_own(sealed_run, tmp_path), other]) == (("pass", said), ("pass", said))


def test_a_bundle_made_before_v4_under_another_game_id_is_refused_as_before(sealed_run, tmp_path):
    _, doc = _published(tmp_path, "old", _spec(tmp_path, "old", ('id = "wild_side" ', 'id = "wild_side_b"')),
                        "r2")
    del doc["transcript"]["printed"]  # as yesterday's poolgen wrote it: v2
    doc["transcript_sha256"] = third.transcript_hash(doc["transcript"])
    why = "bundle old.json: ceremony c1 binds game wild_side_b, not this run's (wild_side)"
    assert _both(sealed_run, [_own(sealed_run, tmp_path), (tmp_path / "old.json", doc)]) == (
        ("fail", why), ("fail", why))


@pytest.mark.parametrize(("printed", "same"), [
    ({"number": 358, "regulation": "something else"}, True),
    ({"number": 359, "regulation": "k.a.r. 111-4-3762"}, True),
    ({"number": None, "regulation": "K.A.R.\u00a0111\u20134\u20133762"}, True),  # no-break space, en dashes
    ({"number": 359, "regulation": "K.A.R. 111-4-3763"}, False),
    ({"number": None, "regulation": "..."}, False),  # no letter or digit: no regulation
])
def test_same_printed_game_by_number_or_regulation_letters_and_digits(printed, same):
    game = {"number": 358, "regulation": "K.A.R. 111-4-3762"}
    assert same_printed({"printed": printed}, game) is same


def test_same_printed_game_is_unknown_before_v4():
    assert same_printed({"game": "wild_side"}, {"number": 358, "regulation": "K.A.R. 111-4-3762"}) is None


def test_step_5_refuses_a_manifest_whose_printed_game_is_not_the_bound_one(sealed_run):
    doc = json.loads((sealed_run.run / "manifest.json").read_bytes())
    doc["game"]["number"] = 359
    assert attempt(Step.FIGURES, check_bound, Manifest.parse(json.dumps(doc).encode())) == (
        "fail", f"the run is not the one ceremony c1 binds: printed game 359 of K.A.R. 111-4-3762 (bound: "
        f"{WILD_SIDE})")
    with pytest.raises(third.Refused, match="^the run is not the one ceremony c1 binds: printed$"):
        third.check_entry(doc)


GENESIS, PERIOD = 1692803367, 3
ROUND_AT_RULE = 34_541_812  # published at 2026-12-05T00:00:00Z, the 600 s rule's first second


def _transcript(close: str, round_: int, **more: object) -> dict:
    return {"id": "c1", "run_id": "r1", "parties": [{"name": "a", "public_key": "ab" * 32},
                                                     {"name": "b", "public_key": "cd" * 32}],
            "beacon": {"chain": third.QUICKNET, "reveals_close": close, "round": round_}} | more


def test_the_round_at_the_rule_is_published_at_its_first_second():
    assert GENESIS + PERIOD * (ROUND_AT_RULE - 1) == 1796428800  # date -d 2026-12-05T00:00:00Z +%s


@pytest.mark.parametrize(("close", "round_", "more", "gap"), [
    ("2026-12-04T23:59:59Z", ROUND_AT_RULE, {}, 1),  # a close before the rule, the round not
    ("2023-08-23T15:59:00Z", 1000, {"printed": {"number": 358, "regulation": "K.A.R. 111-4-3762"}}, 24),
], ids=["round due at the rule", "v4 transcript"])
def test_the_rule_before_600_s_is_not_claimed_by_a_chosen_close_date(close, round_, more, gap):
    # The exemption dates a ceremony by what it cannot choose: its round's time, and a v4 transcript is
    # made only by code that has the 600 s rule. A reveals-close date alone is the transcript's choice.
    t = _transcript(close, round_, **more)
    due = third.utc(GENESIS + PERIOD * (round_ - 1))
    why = (f"round {round_} is published at {due}, {gap} s after reveals close ({close}), not the 600 s (10 "
           "minutes) a party needs to see a reveal arrive after the close")
    with pytest.raises(VerificationError) as said:
        transcript_rules(t, Step.FIGURES)
    assert str(said.value).endswith(why)
    with pytest.raises(third.Refused) as refused:
        third.check_rules(t)
    assert str(refused.value) == why


def test_an_old_transcript_whose_round_came_before_the_rule_keeps_the_rule_before_it():
    t = _transcript("2023-08-23T15:59:00Z", 1000)  # a real run of 3dd8dad: round 1000, 24 s after the close
    transcript_rules(t, Step.FIGURES)
    third.check_rules(t)


@pytest.mark.parametrize(("where", "value"), [("printed", -1), ("printed", 2**64), ("round", -1)])
def test_a_transcript_number_no_u64_holds_is_malformed_not_an_overflow(sealed_run, where, value):
    # u64() of a negative number, or of one past 2^64 - 1, raised OverflowError (not a ValueError): the
    # step said "could not be checked: OverflowError: ..." instead of naming the transcript.
    doc = json.loads((sealed_run.run / "manifest.json").read_bytes())
    t = doc["ceremony"]["transcript"]
    if where == "printed":
        t["printed"]["number"] = value
    else:
        t["beacon"]["round"] = value
    assert attempt(Step.FIGURES, check_bound, Manifest.parse(json.dumps(doc).encode())) == (
        "fail", "the manifest's ceremony transcript is malformed")
