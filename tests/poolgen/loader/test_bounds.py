"""Red-team findings: specs that `poolgen check` accepted (or crashed on) although generate or verify
could not honour them. Each is now refused as the spec loads, one line naming the file and field."""

from __future__ import annotations

import copy

import pytest

from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import SPECS
from tests.support.spec_docs import DELETE, kn_doc, write
from tests.support.spec_docs import edit as _edit

NAME = "(a-z, 0-9, _; at most 64)"
REFUSED = [
    # an order of no tickets made no pools: check crashed (IndexError) instead of refusing it
    ("printed.order_tickets", 0, "g.toml: printed.order_tickets: an order holds at least one ticket"),
    # the ticket id GGG-BBBBBBB-TTT and the barcode: generate wrote ids and barcodes verify refused
    ("game.number", -230, "g.toml: game.number: must be 0..9999 (the first 3 digits of every ticket id, 4 "
                          "from 1000), not -230"),
    ("game.number", 10000, "g.toml: game.number: must be 0..9999 (the first 3 digits of every ticket id, 4 "
                           "from 1000), not 10000"),
    ("printed.last_ticket", 1000,
     "g.toml: printed.last_ticket: books of 1,001 tickets; at most 1,000 (three digits of every ticket id)"),
    # a book numbered 001 .. 050 (the regulation's (d)) was printed 000 .. 049, its pack list saying so:
    # first_ticket gave only the book's size
    ("printed.first_ticket", 1,
     "g.toml: printed.first_ticket: 1; every book's tickets are numbered from 000 (docs/pool-files.md: "
     "ticket_no is position % tickets per book), so a game whose tickets start at 001 cannot be printed "
     "as its regulation says"),
    # a game id of 65+ characters passed check, then generate refused its default run id as --run-id;
    # a trailing newline passed the name pattern ($ matches before it); it is now refused earlier, as a
    # control character in any text of a spec
    ("game.id", "g" * 65, f"g.toml: game.id: {'g' * 65!r} is not a lower-case name {NAME}"),
    ("game.id", "test_game\n", "g.toml: game.id: text holds a control character (U+000A)"),
    ("areas.0.id", "play\n", "g.toml: areas[0].id: text holds a control character (U+000A)"),
    # a name, caption or code with a terminal escape or NUL was accepted, printed raw by check and
    # written into the manifest, proofs and the press's files
    ("game.name", "Happy\x1b[2J", "g.toml: game.name: text holds a control character (U+001B)"),
    ("symbols.1.code", "1\x00", "g.toml: symbols[1].code: text holds a control character (U+0000)"),
    # a right-to-left override made a name read otherwise than its bytes, on screen and on paper
    ("game.name", "Happy \u202eyadiloH",
     "g.toml: game.name: text holds a bidirectional control character (U+202E)"),
    ("symbols.1.caption", "ONE\u2066",
     "g.toml: symbols[1].caption: text holds a bidirectional control character (U+2066)"),
    # Decimal reads the digits of every script: "\uff11.\uff10\uff10" (fullwidth) was a $1.00 ticket
    ("printed.price", "\uff11.\uff10\uff10", "g.toml: printed.price: '\uff11.\uff10\uff10' is not an amount"),
    ("symbols.7.value", "\u0665.00", "g.toml: symbols[7].value: '\u0665.00' is not an amount"),
    # texts the report prints in one table cell: a 10,000-character name made report crash (LayoutError)
    ("game.name", "W" * 201, "g.toml: game.name: text longer than 200 characters"),
    ("game.regulation", "R" * 201, "g.toml: game.regulation: text longer than 200 characters"),
    ("game.source", "S" * 501, "g.toml: game.source: text longer than 500 characters"),
    ("tiers.1.id", "T" * 65, "g.toml: tiers[1].id: text longer than 64 characters"),
    # a format-2 body with format = 3 (or "2", or none) was refused as "areas: unknown field"
    ("format", 3, "g.toml: format: must be 1 or 2 (a game of play areas), not 3"),
    ("format", "2", "g.toml: format: must be 1 or 2 (a game of play areas), not '2'"),
    ("format", True, "g.toml: format: must be 1 or 2 (a game of play areas), not True"),
    ("format", DELETE, "g.toml: format: missing field"),
]


@pytest.mark.parametrize(("path", "value", "message"), REFUSED,
                         ids=[f"{r[0]}={r[1]!r}"[:60] for r in REFUSED])
def test_refused_with_one_line(tmp_path, path, value, message):
    doc = copy.deepcopy(kn_doc())
    _edit(path, value)(doc)
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == f"{tmp_path}/{message}"  # the spec as given: tmp_path/g.toml


def test_an_order_of_more_books_than_ticket_ids_number_is_refused(tmp_path):
    doc = kn_doc()
    doc["printed"] |= {"last_ticket": 0, "pool_tickets": 2_000_000, "order_tickets": 20_000_000}
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: printed.order_tickets: 20,000,000 books of 1; at most "
                              "10,000,000 (seven digits of every ticket id)")


def test_the_edges_of_a_ticket_id_are_accepted(tmp_path):
    doc = kn_doc()
    doc["game"]["number"] = 999
    doc["printed"] |= {"first_ticket": 0, "last_ticket": 999, "pool_tickets": 2000, "order_tickets": 2000}
    spec = load_spec(write(tmp_path, doc))
    assert (spec.number, spec.tickets_per_book) == (999, 1000)
    doc["game"]["number"] = 0
    assert load_spec(write(tmp_path, doc)).number == 0


def test_check_of_an_order_of_no_tickets_exits_2_with_one_line(tmp_path):
    from typer.testing import CliRunner

    from poolgen.cli.main import app

    doc = kn_doc()
    doc["printed"]["order_tickets"] = 0
    result = CliRunner().invoke(app, ["check", str(write(tmp_path, doc))])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.strip().splitlines() == [
        f"poolgen: error: {tmp_path}/g.toml: printed.order_tickets: an order holds at least one ticket"]


def test_a_spec_above_64_kib_verifies_with_its_spec(tmp_path):
    """Audit read the spec in step 9 (deliverables) with a 64 KiB bound, below the 1 MiB both sides
    accept elsewhere: long captions passed check and generate, then verify --spec exited 2."""
    from datetime import UTC, datetime

    from audit.checklist import Step
    from audit.verify import VerifyRequest, verify_run
    from poolgen.run.generate import GenerateRequest, generate
    from tests.support import SEED_A

    doc = kn_doc()
    for s in doc["symbols"]:
        s["caption"] = "C" * 9000
    path = write(tmp_path, doc)
    assert 65_536 < path.stat().st_size < 1 << 20
    spec = load_spec(path)
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path,
                                   run_id="r"))
    report = verify_run(VerifyRequest(run=run.folder, spec=path))
    step9 = report.step(Step.DELIVERABLES)
    assert (step9.step, step9.status) == (9, "pass"), report.to_json()


def test_area_match_with_more_decompositions_than_memory_is_refused(tmp_path):
    """play_areas up to 16 passed the spec, and `check` of Primetime Payout at 16 areas (or 6) was
    killed for memory enumerating every decomposition; at 5 it held 28 million partial ones."""
    from poolgen.check.game import check_spec

    text = (SPECS / "primetime_payout.toml").read_text()
    assert "play_areas = [1, 2, 3, 4]" in text
    path = tmp_path / "pp.toml"
    path.write_text(text.replace("play_areas = [1, 2, 3, 4]", "play_areas = [5]"))
    with pytest.raises(SpecError) as err:
        check_spec(load_spec(path))
    assert str(err.value) == (f"{tmp_path}/pp.toml: einstant.play_areas: pool d1.00, multiplier 5000: more "
                              "than "
                              "5,000,000 partial decompositions of 5 area values to enumerate; use fewer "
                              "play areas or amount multipliers")


def test_a_ticket_of_too_many_spots_is_refused_before_anything_is_sized_by_them(tmp_path):
    """yours = 1,000,000 passed check (the memory estimate did not count spots) and generate of a
    1,200-ticket pool grew past 8 GB; now a ticket's spots are bounded and the estimate counts them."""
    doc = kn_doc()
    doc["areas"][0] |= {"yours": 1_000_000, "spots": 2_000_002}
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == f"{tmp_path}/g.toml: areas[0].spots: 2,000,002 spots; a ticket has at most 1,024"
    doc = kn_doc()
    doc["areas"][0] |= {"yours": 500, "spots": 1002}
    doc["areas"].append({"id": "wild", "style": "key_number_match", "spots": 200, "winning_from": "play",
                         "yours": 100, "numbers": "number", "prizes": "prize"})
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == f"{tmp_path}/g.toml: areas: 1,202 spots on a ticket; at most 1,024"
    doc["areas"].pop()
    doc["printed"] |= {"pool_tickets": 100_000, "order_tickets": 100_000}
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: printed: pool p1 would need about 10.9 GiB of memory to "
                              "build; at "
                              "most 8 GiB")
    doc["printed"] |= {"pool_tickets": 2000, "order_tickets": 2000}
    assert load_spec(write(tmp_path, doc)).play.spots() == 1002

def test_a_float_format_is_refused(tmp_path):
    """`format = 2.0` equals 2 in Python and was read as a format-2 spec."""
    path = write(tmp_path, kn_doc())
    path.write_text(path.read_text().replace("format = 2\n", "format = 2.0\n"))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == f"{tmp_path}/g.toml: format: must be 1 or 2 (a game of play areas), not 2.0"


def test_first_spot_loss_is_written_in_ascii_digits(tmp_path):
    """`first_spot_loss = "\u0661/\u0664"` (Arabic-Indic 1/4) passed, and the manifest carried it."""
    text = (SPECS / "hand_to_hand_tactics.toml").read_text()
    assert 'first_spot_loss = "1/4"' in text
    path = tmp_path / "hh.toml"
    path.write_text(text.replace('first_spot_loss = "1/4"', 'first_spot_loss = "\u0661/\u0664"'))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/hh.toml: play.first_spot_loss: must be a fraction string such "
                              "as \"1/4\", "
                              "not '\u0661/\u0664'")


def test_a_spec_of_256_tiers_generates_a_run_audit_reads(tmp_path):
    """256 tiers is the spec's bound; the manifest adds the losing tier, and audit refused a pool of
    257 tiers as an invalid manifest (verify, report exited 2 on a run check had accepted)."""
    from datetime import UTC, datetime
    from itertools import combinations_with_replacement

    from audit.checklist import Step
    from audit.verify import VerifyRequest, verify_run
    from poolgen.run.generate import GenerateRequest, generate
    from tests.support import SEED_A

    doc = kn_doc()
    doc["areas"][0] |= {"yours": 4, "spots": 10}
    doc["play"]["max_wins"] = 4
    prizes = ("FREE", "1", "5")
    singles = [{"area": "play", "prize": p, "how": h} for h in ("match", "automatic") for p in prizes]
    singles += [{"area": "play", "prize": p, "how": "multiplier", "by": 2} for p in ("1", "5")]
    ways = [list(c) for n in (1, 2, 3, 4) for c in combinations_with_replacement(singles, n)]
    doc["tiers"] = [{"id": f"t{i}", "count": 1, "wins": w} for i, w in enumerate(ways[:256])]
    path = write(tmp_path, doc)
    spec = load_spec(path)
    assert len(spec.pools[0].tiers) == 257
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path,
                                   run_id="r"))
    report = verify_run(VerifyRequest(run=run.folder, spec=path))
    per_pool = (Step.FILES, Step.COMPLETENESS, Step.LAYOUTS, Step.FIGURES, Step.MERKLE_ROOTS)
    assert [report.step(s).status for s in per_pool] == ["pass"] * 5, report.to_json()


def test_an_amount_multiplier_beyond_the_money_bound_is_refused(tmp_path):
    """A losing area shows any amount multiplier x the denomination as its decoy: 10^15 x $1,000.00
    passed check, and generate of a pool of losers crashed (int64 overflow, a traceback)."""
    text = (SPECS / "primetime_payout.toml").read_text()
    assert '"2500", "5000"]' in text
    path = tmp_path / "pp.toml"
    path.write_text(text.replace('"2500", "5000"]', '"2500", "5000", "200000000"]'))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/pp.toml: layout.amount_multipliers[58]: 200000000 x $7.50 is "
                              "more than "
                              "$1,000,000,000.00")


def test_a_spec_saved_with_a_byte_order_mark_is_told_so(tmp_path):
    path = write(tmp_path, kn_doc())
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/g.toml: not valid TOML: it starts with a byte-order mark; save "
                              "it as UTF-8 "
                              "without one")
