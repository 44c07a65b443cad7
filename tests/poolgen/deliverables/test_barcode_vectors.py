"""Printed identities against tests/vectors/barcodes.txt (made by tests/vectors/reference_barcodes.py, a
stand-alone reference of docs/validation.md section 2): ticket ids and barcode numbers of games numbered
0..999 (three digits) and 1000..9999 (four: 16-digit barcodes), from poolgen, audit and the third engine;
and validation records of 16-digit barcodes (section 3) from poolgen's and audit's validation files."""

from __future__ import annotations

import numpy as np
import pytest

from audit.read.game_number import barcode_numbers as audit_barcode_numbers
from audit.steps.validation import Tickets, expected, values
from poolgen.backoffice.tickets import parse_ticket
from poolgen.deliverables.identity import barcode, barcode_digits, barcodes, is_barcode_text, is_valid
from poolgen.deliverables.validation import known, plain, record
from poolgen.pdf.barcode import human_readable
from tests.support import vector_lines
from tests.third_engines import validation_desk

LINES = [dict(part.split("=", 1) for part in line.split(" "))
         for line in vector_lines("barcodes.txt") if line]
IDS = [v for v in LINES if "id" in v]
RECORDS = [v for v in LINES if "record" in v]


def test_the_vector_file_holds_nine_identities_and_four_sixteen_digit_records():
    assert (len(IDS), len(RECORDS)) == (9, 4)
    assert sorted({len(v["barcode"]) for v in RECORDS}) == [16]
    assert [v["barcode"] for v in IDS if v["game"] == "2029"] == ["2029123456704229", "2029000000007482"]


@pytest.mark.parametrize("v", IDS, ids=[v["id"] for v in IDS])
def test_every_side_writes_the_vectors_ids_and_barcodes(v):
    game, book, ticket = int(v["game"]), int(v["book"]), int(v["ticket"])
    assert barcode(game, book, ticket) == v["barcode"] == validation_desk.barcode(game, book, ticket)
    assert len(v["barcode"]) == barcode_digits(game) == (15 if game < 1000 else 16)
    many = barcodes(game, np.array([book]), np.array([ticket]))
    assert many.astype(str).tolist() == [v["barcode"]]
    assert audit_barcode_numbers(game, np.array([book]), np.array([ticket])).tolist() == [int(v["barcode"])]
    assert is_valid(v["barcode"]) and is_barcode_text(v["barcode"])
    assert validation_desk.is_barcode(v["barcode"])
    assert parse_ticket(v["barcode"]).ticket_id == v["id"]
    assert parse_ticket(v["id"]).barcode == v["barcode"]
    assert validation_desk.ticket_barcode(v["id"]) == v["barcode"]
    g = len(v["barcode"]) - 12
    assert human_readable(v["barcode"]).split(" ") == [v["id"][:g], v["id"][g + 1:g + 8], v["id"][-3:],
                                                       v["barcode"][-2:]]


def test_a_sixteen_digit_text_starting_with_0_is_no_barcode_number_though_it_reads_1_mod_97():
    """0 before a 15-digit barcode number reads as that number: no desk may take it for a ticket."""
    code = "0" + barcode(465, 0, 0)
    assert int(code) % 97 == 1
    assert not is_barcode_text(code) and not validation_desk.is_barcode(code)
    assert validation_desk.ticket_barcode("0465-0000000-000") is None
    assert known(bytes(32), "run", code) == bytes(16)
    with pytest.raises(ValueError, match="not a barcode number and validation number"):
        record(bytes(32), "run", code, "000000000000", 0)


@pytest.mark.parametrize("v", RECORDS, ids=[f"{v['run']}-{v['tier']}-{v['barcode']}" for v in RECORDS])
def test_sixteen_digit_barcodes_records_are_the_vectors_on_both_sides(v):
    key = bytes.fromhex(v["key"])
    held = plain(v["tier"], int(v["threshold"]), int(v["prize"]), v["free"] == "1")
    assert held == int(v["value"])
    assert record(key, v["run"], v["barcode"], v["virn"], held).hex() == v["record"]
    assert known(key, v["run"], v["barcode"]).hex() == v["known"]
    tickets = Tickets(np.array([int(v["barcode"])]), np.array([int(v["virn"])]), len(v["virn"]),
                      np.array([int(v["prize"])]), np.array([v["free"] == "1"]))
    assert values(v["tier"] == "high", int(v["threshold"]), tickets).tolist() == [held]
    recs, knowns = expected(key, v["run"], tickets, np.array([held], dtype=np.uint64))
    assert (recs.tobytes().hex(), knowns.tobytes().hex()) == (v["record"], v["known"])
