"""The DRBG (poolgen/rng/drbg.py): its known answers (tests/vectors/drbg.txt), a second
implementation (tests/vectors/reference_drbg.py), domain-separated labels; and the stream object beyond
its known answers: what it refuses, the label it keeps, how many bytes it has read, and reads longer
than its 1 MiB encryption chunk."""

from __future__ import annotations

import numpy as np
import pytest
import reference_drbg

from poolgen.rng import derive_stream
from poolgen.rng.drbg import Stream, encode_label, label_text
from tests.support import vector_lines as _vectors


def test_drbg_known_answers():
    lines = _vectors("drbg.txt")
    assert len(lines) == 2
    for line in lines:
        fields = dict(part.split("=", 1) for part in line.split())
        label = tuple(fields["label"].split("/"))
        label = ("poolgen/v1", *label[2:]) if label[:2] == ("poolgen", "v1") else label
        stream = derive_stream(bytes.fromhex(fields["seed"]), *label)
        assert stream.read(96).hex() == fields["bytes"]


def test_drbg_matches_second_implementation_across_blocks():
    label = ("poolgen/v1", "x", "y")
    ours = derive_stream(bytes(range(32)), *label)
    first = ours.read(100)
    rest = ours.read(230)  # reads continue mid-block
    assert first + rest == reference_drbg.keystream(bytes(range(32)), label, 330)


def test_labels_are_domain_separated():
    assert encode_label(("ab", "c")) != encode_label(("a", "bc"))
    a = derive_stream(bytes(32), "ab", "c").read(32)
    b = derive_stream(bytes(32), "a", "bc").read(32)
    assert a != b


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33)])
def test_seed_length_is_enforced(bad):
    with pytest.raises(ValueError, match="seed must be 32 bytes"):
        derive_stream(bad, "x")


SEED = bytes(range(32))


@pytest.mark.parametrize("key", [b"", bytes(31), bytes(33)])
def test_a_stream_key_is_32_bytes(key):
    with pytest.raises(ValueError) as info:
        Stream(key, ("x",))
    assert str(info.value) == "stream key must be 32 bytes"


@pytest.mark.parametrize("label", [(), ("a", ""), ("",), ("", "b")])
def test_a_label_has_one_or_more_non_empty_parts(label):
    with pytest.raises(ValueError) as info:
        derive_stream(SEED, *label)
    assert str(info.value) == "a stream label needs one or more non-empty parts"


def test_a_stream_keeps_its_label():
    assert derive_stream(SEED, "poolgen/v1", "wild_side", "p1", "order").label == (
        "poolgen/v1", "wild_side", "p1", "order")
    assert Stream(bytes(32), ("x", "y")).label == ("x", "y")


def test_label_text_joins_the_parts_with_slashes():
    assert label_text(("poolgen/v1", "wild_side", "p1", "order")) == "poolgen/v1/wild_side/p1/order"
    assert label_text(("one",)) == "one"


def test_encode_label_is_big_endian_length_prefixed_utf8():
    assert encode_label(("ab", "é")) == b"\x00\x00\x00\x02ab\x00\x00\x00\x02\xc3\xa9"
    assert encode_label(()) == b""


def test_bytes_read_counts_every_read():
    s = derive_stream(SEED, "count")
    assert s.bytes_read == 0
    s.read(5)
    s.words(3)
    s.array(7)
    assert s.bytes_read == 5 + 24 + 7


def test_words_are_the_little_endian_uint64s_of_the_keystream():
    label = ("poolgen/v1", "test", "words")
    raw = reference_drbg.keystream(SEED, label, 8 * 9)
    words = derive_stream(SEED, *label).words(9)
    assert words.dtype == np.uint64 and words.shape == (9,)
    assert words.tolist() == [int.from_bytes(raw[i:i + 8], "little") for i in range(0, 72, 8)]


def test_a_read_across_the_encryption_chunk_is_the_same_keystream():
    """Reads are encrypted 1 MiB at a time: a longer read gives the same bytes as short reads."""
    n = (1 << 20) + 1000
    whole = derive_stream(SEED, "chunks").read(n)
    pieces = derive_stream(SEED, "chunks")
    parts = [pieces.read(1 << 19), pieces.read(1 << 19), pieces.read(600), pieces.read(400)]
    assert len(whole) == n and whole == b"".join(parts)
    assert derive_stream(SEED, "chunks").read(2 << 20)[:n] == whole


def test_short_reads_across_the_keystream_made_ahead_are_the_keystream():
    """Short reads are served from keystream made ahead (drbg._AHEAD bytes at a time): reads ending just
    before, at and past its end, and a long read beside them, give one long read's bytes."""
    sizes = [5, 4090, 1, 7, 4096, 4095, 1, 8191, 3, 70_000, 2, 0, 4097]
    pieces = derive_stream(SEED, "ahead")
    got = b"".join(pieces.read(n) for n in sizes)
    assert got == derive_stream(SEED, "ahead").read(sum(sizes))
    assert pieces.bytes_read == sum(sizes)
