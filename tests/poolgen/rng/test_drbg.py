"""The DRBG's stream object (poolgen/rng/drbg.py) beyond its known answers: what it refuses, the label
it keeps, how many bytes it has read, and reads longer than its 1 MiB encryption chunk."""

from __future__ import annotations

import numpy as np
import pytest
import reference_drbg

from poolgen.rng import derive_stream
from poolgen.rng.drbg import Stream, encode_label, label_text

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
