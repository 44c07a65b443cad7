"""drand quicknet rounds verified offline (poolgen/seeds/beacon.py): the real published rounds of
tests/vectors/drand_quicknet.txt verify; the same signature under another round, a changed byte, the
identity point and a point outside G1 do not; a round's time is the chain's genesis plus its period."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from poolgen.seeds.beacon import QUICKNET, BeaconError, chain, parse_round, signature_verifies
from tests.support.ceremony import invoke, new_args, refused, rounds

IDENTITY = "c0" + "00" * 47  # the compressed point at infinity
NOT_IN_G1 = "80" + "00" * 46 + "04"  # x = 4: on the curve, outside the prime-order group


@pytest.mark.parametrize("number", sorted(rounds()))
def test_real_published_rounds_verify(number):
    r = rounds()[number]
    assert signature_verifies(QUICKNET, number, bytes.fromhex(r["signature"]))
    assert hashlib.sha256(bytes.fromhex(r["signature"])).hexdigest() == r["randomness"]
    assert parse_round(r, "r.json", QUICKNET, number).randomness == r["randomness"]


def test_a_signature_verifies_for_its_round_only():
    r = rounds()[1000]
    sig = bytes.fromhex(r["signature"])
    assert not signature_verifies(QUICKNET, 1001, sig)
    assert not signature_verifies(QUICKNET, 10024141, sig)
    flipped = sig[:-1] + bytes([sig[-1] ^ 1])
    assert not signature_verifies(QUICKNET, 1000, flipped)
    assert not signature_verifies(QUICKNET, 1000, bytes.fromhex(IDENTITY))
    assert not signature_verifies(QUICKNET, 1000, bytes.fromhex(NOT_IN_G1))
    with pytest.raises(BeaconError, match="^r.json: the signature of round 1000 does not verify against "
                                          "chain quicknet's public key$"):
        parse_round({"round": 1000, "signature": IDENTITY}, "r.json", QUICKNET, 1000)


def test_round_times_and_chains():
    assert QUICKNET.round_time(1).timestamp() == 1692803367
    assert QUICKNET.round_time(1000).isoformat() == "2023-08-23T15:59:24+00:00"
    with pytest.raises(BeaconError, match="^x: beacon chain 00 is not one poolgen verifies"):
        chain("00", "x")
    for doc, message in (([], "not a drand round"), ({"round": True, "signature": ""}, "round: missing"),
                         ({"round": 0, "signature": ""}, "round: missing")):
        with pytest.raises(BeaconError, match=f"^r.json: {message}"):
            parse_round(doc, "r.json", QUICKNET, 1000)


@pytest.mark.parametrize("flag", [381, 382, 383], ids=["sign", "infinity", "compression"])
def test_a_round_signature_has_one_encoding(flag):
    # randomness is the SHA-256 of the signature's bytes: a second encoding of the same point passing would
    # be a second seed to pick from for whoever holds every reveal; flipping a flag bit never verifies
    r = rounds()[1000]
    other = (int(r["signature"], 16) ^ (1 << flag)).to_bytes(48, "big")
    assert not signature_verifies(QUICKNET, 1000, other)


@pytest.mark.parametrize("number", [2**63 - 1, 2**62, 83_903_165_812])
def test_a_round_due_after_the_year_9999_is_one_line_exit_2(tmp_path, number):
    # A round no UTC time YYYY-MM-DDTHH:MM:SSZ can date (83,903,165,812 is the first after
    # 9999-12-31T23:59:59Z): `ceremony new` crashed with a traceback (OverflowError, or ValueError past
    # the year 9999) instead of refusing the option in one line.
    args = new_args(tmp_path, tmp_path / "far.ceremony")
    args[args.index("--beacon-round") + 1] = str(number)
    refused(invoke(*args), f"ceremony c1: beacon round {number} is published after 9999-12-31T23:59:59Z, "
                           "the last time a ceremony can name")
    assert not (tmp_path / "far.ceremony").exists()
    assert QUICKNET.round_time(83_903_165_811) == datetime(9999, 12, 31, 23, 59, 57, tzinfo=UTC)
