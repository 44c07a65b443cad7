"""The central validation system's third engine (tests/third_engines/validation_desk.py, from
docs/validation.md sections 2 and 3 and docs/back-office.md section 3 alone) against the known-answer
vectors and real small printed runs (tests/support/printed_runs.py): every validation file byte for
byte, every record opened to its pool's prize, and `poolgen validate` answering every ticket of a run
as a clerk's system built from the docs would."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from tests.support import ROOT
from tests.support.cli import invoke
from tests.support.printed_runs import NAMES, Made
from tests.third_engines import validation_desk as vd

FILES = {"low": "validation-low.bin", "high": "validation-high.bin"}


def _vectors() -> list[dict[str, str]]:
    lines = (ROOT / "tests/vectors/validation.txt").read_text().splitlines()
    return [dict(f.split("=", 1) for f in line.split()) for line in lines if not line.startswith("#")]


def test_the_records_are_the_known_answer_vectors():
    vectors = _vectors()
    assert len(vectors) == 16
    for v in vectors:
        key = bytes.fromhex(v["key"])
        keys = vd.Keys.of(key, v["run"])
        held = vd.value(int(v["prize"]), v["free"] == "1", v["tier"] == "high", int(v["threshold"]))
        assert held == int(v["value"])
        m = vd.messages([v["barcode"]], [v["virn"]])
        assert vd.records(keys, m, [held])[0].hex() == v["record"]
        assert vd.known(keys, [v["barcode"]])[0].hex() == v["known"]
        assert vd.key_check(key) == v["key_check"]


def test_every_vectors_barcode_is_a_barcode_number_a_desk_accepts():
    """A vector whose check digits fail is one a central system's desk refuses before any record."""
    assert [v["barcode"] for v in _vectors() if not vd.is_barcode(v["barcode"])] == []


def _tickets(made: Made) -> tuple[dict, list[vd.Ticket], list[str]]:
    """The manifest, every ticket of the run (barcode and VIRN from its imaging file, prize from its pool
    file, free from print.free_ticket_tiers) and their tiers, pool after pool as the manifest lists them."""
    manifest = json.loads((made.run / "manifest.json").read_text())
    free = set(manifest["print"].get("free_ticket_tiers", []))
    tickets, tiers = [], []
    for pool in manifest["pools"]:
        image = pl.read_parquet(made.run / f"imaging-{pool['id']}.parquet", columns=["barcode", "virn"])
        table = pl.read_parquet(made.run / pool["file"]["name"], columns=["tier", "prize_cents"])
        for (code, virn), (tier, cents) in zip(image.iter_rows(), table.iter_rows(), strict=True):
            tickets.append(vd.Ticket(code, virn, cents, tier in free))
            tiers.append(tier)
    return manifest, tickets, tiers


def _key(path: Path) -> bytes:
    return bytes.fromhex(path.read_text().strip())


@pytest.mark.parametrize("name", NAMES)
def test_both_validation_files_are_byte_for_byte_section_3s(printed_run, name):
    made = printed_run(name)
    manifest, tickets, _ = _tickets(made)
    for tier, path in (("low", made.low), ("high", made.high)):
        expected = vd.validation_file(tickets, _key(path), tier, manifest["run_id"],
                                      manifest["game"]["number"], manifest["print"]["high_tier_cents"])
        assert (made.run / FILES[tier]).read_bytes() == expected


@pytest.mark.parametrize("name", NAMES)
def test_every_record_opens_to_its_pools_prize_and_no_record_is_left_over(printed_run, name):
    made = printed_run(name)
    manifest, tickets, _ = _tickets(made)
    high_from = manifest["print"]["high_tier_cents"]
    for tier, path in (("low", made.low), ("high", made.high)):
        opened = vd.Opened.read((made.run / FILES[tier]).read_bytes(), _key(path))
        assert opened.head["records"] == len(opened.by_index) == len(opened.known) == len(tickets)
        seen = Counter()
        for t in tickets:
            held = opened.open(t.barcode, t.virn)
            assert opened.knows(t.barcode)
            if t.prize_cents == 0:
                assert held == 0
            elif (t.prize_cents >= high_from) != (tier == "high"):
                assert held == vd.OTHER_TIER
            else:
                assert held == t.prize_cents | (vd.FREE if t.free else 0)
            seen["other" if held == vd.OTHER_TIER else "free" if held and held & vd.FREE else
                 "prize" if held else "none"] += 1
        mine = (sum(t.prize_cents >= high_from for t in tickets if t.prize_cents) if tier == "low" else
                sum(0 < t.prize_cents < high_from for t in tickets))
        assert seen["other"] == mine and sum(seen.values()) == len(tickets)
        assert seen["free"] == sum(t.free and (t.prize_cents >= high_from) == (tier == "high")
                                   for t in tickets)


def test_the_header_writes_a_non_ascii_run_id_as_ascii_escapes(printed_run):
    """Section 3: the header is Python's json.dumps with ensure_ascii (not manifest.md's UTF-8 form); the
    keys' HKDF info holds the run id's UTF-8 bytes."""
    made = printed_run("high_at_one_dollar")
    head = (made.run / "validation-low.bin").read_bytes().split(b"\n", 1)[0]
    assert b'"run_id":"hh-\\u00e9\\u20ac"' in head and head.isascii()


def _desk(made: Made, claims: list[tuple[str, str]], tiers: tuple[str, ...], folder: Path) -> list[dict]:
    (folder / "claims.csv").write_text("ticket,virn\n" + "".join(f"{t},{v}\n" for t, v in claims))
    keys = [a for t in tiers for a in (("--validation-key", made.low) if t == "low" else
                                       ("--high-validation-key", made.high))]
    result = invoke("validate", made.run, "--batch", folder / "claims.csv", "--json", "--public-key",
                    made.public, "--index-dir", folder / "index", *keys)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def _mine(files: list[vd.Opened], claims: list[tuple[str, str]], digits: int) -> list[tuple]:
    return [tuple(vd.answer(files, t, v, digits).values()) for t, v in claims]


def _theirs(answers: list[dict]) -> list[tuple]:
    return [(a["outcome"], a["prize_cents"], a["free_ticket"]) for a in answers]


@pytest.mark.parametrize("name, counts", [
    ("split", {"not a winner": 11746, "prize": 254}),
    ("happy_holidays", {"not a winner": 2122, "prize": 878}),
    ("game_2029", {"not a winner": 2122, "prize": 878})])  # the same game as game 2029: the same draws
@pytest.mark.parametrize("tiers", [("low", "high"), ("low",), ("high",)])
def test_the_reference_desk_answers_every_ticket_as_a_clerks_system_from_the_docs(printed_run, name, counts,
                                                                                   tiers, tmp_path):
    made = printed_run(name)
    manifest, tickets, _ = _tickets(made)
    files = [vd.Opened.read((made.run / FILES[t]).read_bytes(), _key(made.low if t == "low" else made.high))
             for t in tiers]
    claims = [(t.barcode, t.virn) for t in tickets]
    mine = _mine(files, claims, manifest["print"]["virn_digits"])
    assert _theirs(_desk(made, claims, tiers, tmp_path)) == mine
    got = Counter(outcome for outcome, _, _ in mine)
    if tiers == ("low", "high"):
        assert got == counts
    else:  # the other tier's winners are sent elsewhere, never told "not a winner"
        assert got["not a winner"] == counts["not a winner"] and sum(got.values()) == len(tickets)


def test_edge_claims_get_the_answers_of_back_office_section_3(printed_run, tmp_path):
    """A printed id, a VIRN without its leading zero or with one more, of 19 digits, check digits one off,
    a ticket of no book of the run, and a ticket of the order's other pools (a cut of a split order)."""
    made, whole = printed_run("split_cut"), printed_run("split")
    _, tickets, _ = _tickets(made)
    _, others, _ = _tickets(whole)
    mine_codes = {t.barcode for t in tickets}
    other = next(t for t in others if t.barcode not in mine_codes)
    zero, zero2 = [t for t in tickets if t.virn.startswith("0")][:2]  # a batch names a ticket once
    t0, t1, t2 = tickets[:3]
    claims = [(f"{t0.barcode[:3]}-{t0.barcode[3:10]}-{t0.barcode[10:13]}", t0.virn),
              (zero.barcode, zero.virn.lstrip("0")), (zero2.barcode, "0" + zero2.virn),
              (t1.barcode, t1.virn + "0000000"),
              (t2.barcode[:13] + f"{(int(t2.barcode[13:]) + 1) % 100:02d}", t2.virn),
              (vd.barcode(7, 9_999_999, 0), t1.virn), (other.barcode, other.virn)]
    files = [vd.Opened.read((made.run / FILES[t]).read_bytes(), _key(k))
             for t, k in (("low", made.low), ("high", made.high))]
    mine = _mine(files, claims, 12)
    assert [m[0] for m in mine] == [vd.answer(files, t0.barcode, t0.virn, 12)["outcome"],
                                    "wrong validation number", "wrong validation number",
                                    "wrong validation number", "not a barcode number", "unknown ticket",
                                    "unknown ticket"]
    assert _theirs(_desk(made, claims, ("low", "high"), tmp_path)) == mine


def test_a_four_digit_games_claims_by_id_and_barcode_get_the_answers_of_back_office_section_3(printed_run,
                                                                                               tmp_path):
    """Game 2029 (docs/validation.md section 2): a printed id GGGG-BBBBBBB-TTT is its 16-digit barcode; the
    id cut to three digits (029-...) is a barcode number of game 29, no ticket of this run; check digits
    one off are no barcode number. Every barcode of the run has 16 digits, the first not 0."""
    made = printed_run("game_2029")
    _, tickets, _ = _tickets(made)
    assert {(len(t.barcode), t.barcode[:4]) for t in tickets} == {(16, "2029")}
    t0, t1, t2 = tickets[:3]
    claims = [(f"{t0.barcode[:4]}-{t0.barcode[4:11]}-{t0.barcode[11:14]}", t0.virn),
              (f"{t1.barcode[1:4]}-{t1.barcode[4:11]}-{t1.barcode[11:14]}", t1.virn),
              (t2.barcode[:14] + f"{(int(t2.barcode[14:]) + 1) % 100:02d}", t2.virn), (t1.barcode, t1.virn)]
    files = [vd.Opened.read((made.run / FILES[t]).read_bytes(), _key(k))
             for t, k in (("low", made.low), ("high", made.high))]
    mine = _mine(files, claims, 12)
    first, second = (vd.answer(files, t.barcode, t.virn, 12)["outcome"] for t in (t0, t1))
    assert [m[0] for m in mine] == [first, "unknown ticket", "not a barcode number", second]
    assert mine[0][0] in ("not a winner", "prize")
    assert _theirs(_desk(made, claims, ("low", "high"), tmp_path)) == mine


def test_a_sixteen_digit_text_starting_with_0_is_no_ticket_at_either_desk(printed_run, tmp_path):
    """Section 2: 0 followed by a 15-digit barcode number would read as that number; the reference desk
    answers it "not a barcode number", poolgen refuses it as no ticket, one line, exit 2."""
    made = printed_run("game_2029")
    ticket = _tickets(printed_run("happy_holidays"))[1][0]  # a 15-digit barcode number of game 465
    assert vd.answer([], "0" + ticket.barcode, ticket.virn, 12)["outcome"] == "not a barcode number"
    result = invoke("validate", made.run, "0" + ticket.barcode, ticket.virn, "--validation-key", made.low,
                    "--public-key", made.public)
    assert result.exit_code == 2
    assert result.stderr == (f"poolgen: error: ticket '0{ticket.barcode}': not a barcode number (15 digits; "
                             "16 for a game numbered 1000..9999) nor a ticket id GGG-BBBBBBB-TTT (ASCII "
                             "digits only)\n")


def test_an_einstant_gets_no_validation_files(tmp_path):
    """docs/validation.md section 6: given validation keys, generate refuses an eInstant in one line."""
    from tests.support import small_einstant  # noqa: PLC0415

    spec = small_einstant(tmp_path, "hand_to_hand_tactics", 2000)
    for tier in ("low", "high"):
        assert invoke("keys", "validation", "new", tmp_path / f"{tier}.key").exit_code == 0
    result = invoke("generate", spec, "--pool", "d1.00", "--unsigned", "--out", tmp_path / "runs",
                    "--validation-key", tmp_path / "low.key", "--high-validation-key", tmp_path / "high.key")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        f"poolgen: error: {spec}: validation files are for printed games; an eInstant's "
        "pool file is its serving order")
    assert not (tmp_path / "runs").exists()
