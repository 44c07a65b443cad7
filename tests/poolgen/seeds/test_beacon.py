"""drand quicknet rounds verified offline (poolgen/seeds/beacon.py): the real published rounds of
tests/vectors/drand_quicknet.txt verify; the same signature under another round, a changed byte, the
identity point and a point outside G1 do not; a round's time is the chain's genesis plus its period."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from poolgen.seeds.beacon import QUICKNET, BeaconError, chain, parse_round, read_round, signature_verifies
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


@pytest.mark.parametrize("nesting", [30_000, 33])  # 60,000 bytes: within the round files' size limit
def test_a_round_file_of_deeply_nested_brackets_is_no_round_and_never_reaches_the_parser(tmp_path, nesting):
    """json's C parser recursing through deep brackets (100,000) overflowed a test worker thread's stack (a
    segfault, not a RecursionError, seen for a validation file's header in CI): a round file nested
    deeper than poolgen.limits.MAX_NESTING is refused in one line before it is parsed."""
    path = tmp_path / "round.json"
    path.write_bytes(b"[" * nesting + b"]" * nesting)
    with pytest.raises(BeaconError) as caught:
        read_round(path, QUICKNET, 1000)
    assert str(caught.value) == f"{path}: not a drand round (not JSON)"


def test_deep_brackets_in_a_thread_of_a_small_stack_give_the_one_line_not_a_segfault(tmp_path):
    """The same round file and a validation file's header read in a thread of a 256 KiB stack, in a real
    process whose recursion limit something raised (as in the CI worker that died: the C parser's depth is
    bounded only by that limit): the one-line refusals, exit 0; before the depth check, json's C
    recursion overflowed the stack and the process died of SIGSEGV."""
    import subprocess
    import sys

    (tmp_path / "round.json").write_bytes(b"[" * 30_000 + b"]" * 30_000)
    (tmp_path / "validation-low.bin").write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    code = f"""
import threading
from pathlib import Path
from poolgen.deliverables.validation import ValidationError, ValidationFile
from poolgen.seeds.beacon import QUICKNET, BeaconError, read_round
folder = Path({str(tmp_path)!r})
def both():
    for read, error in ((lambda: read_round(folder / "round.json", QUICKNET, 1000), BeaconError),
                        (lambda: ValidationFile.read(folder / "validation-low.bin"), ValidationError)):
        try:
            read()
        except error as exc:
            print(str(exc).replace(str(folder) + "/", ""))
import sys
sys.setrecursionlimit(1_000_000)
threading.stack_size(256 * 1024)
t = threading.Thread(target=both)
t.start()
t.join()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "round.json: not a drand round (not JSON)\n"
                                                 "validation-low.bin: not a poolgen-validation/2 file\n")
