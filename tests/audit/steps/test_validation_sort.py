"""Step 9's sort of the records and known values it re-derives (audit/steps/validation.py
`sorted_rows`): numpy S values in byte order, whether ordered by their first 8 bytes as one big-endian
integer (no two alike there) or by all their bytes (two or more share their first 8); and its check of
a file's order (`first_unsorted`), by the first 8 bytes when they rise, else by all of them."""

from __future__ import annotations

import numpy as np

from audit.steps.validation import first_unsorted, sorted_rows


def _rows(*hexes: str) -> np.ndarray:
    return np.array([list(bytes.fromhex(h)) for h in hexes], dtype=np.uint8)


def test_rows_are_ordered_by_their_first_bytes_not_as_native_integers():
    rows = _rows("0100000000000000" + "ff" * 8, "0001000000000000" + "00" * 8, "00000000000000ff" + "11" * 8)
    got = sorted_rows(rows)
    assert got.dtype == np.dtype("S16")
    assert [bytes(v).hex() for v in got.view(np.uint8).reshape(-1, 16)] == [
        "00000000000000ff" + "11" * 8, "0001000000000000" + "00" * 8, "0100000000000000" + "ff" * 8]


def test_rows_sharing_their_first_8_bytes_are_ordered_by_the_rest():
    same = "a5" * 8
    rows = _rows(same + "02" + "00" * 7, same + "01" + "ff" * 7, same + "01" + "00" * 7)
    assert [bytes(v).hex() for v in sorted_rows(rows).view(np.uint8).reshape(-1, 16)] == [
        same + "01" + "00" * 7, same + "01" + "ff" * 7, same + "02" + "00" * 7]


def test_random_rows_sort_as_byte_strings_whatever_their_count():
    for n in (0, 1, 2, 5_000):
        rows = np.frombuffer(np.random.default_rng(n).bytes(n * 32), dtype=np.uint8).reshape(n, 32)
        want = np.sort(rows.copy().view("S32").ravel())
        got = sorted_rows(rows)
        assert got.dtype == np.dtype("S32") and got.tobytes() == want.tobytes()


def test_first_unsorted_reads_rows_by_their_bytes_not_as_native_integers():
    rising = _rows("00000000000000ff" + "11" * 8, "0001000000000000" + "00" * 8,
                   "0100000000000000" + "ff" * 8)
    assert first_unsorted(rising) is None
    assert first_unsorted(rising[::-1]) == 0
    assert first_unsorted(rising[[0, 2, 1]]) == 1


def test_first_unsorted_looks_past_the_first_8_bytes_when_two_rows_share_them():
    same = "a5" * 8
    rows = _rows("00" * 16, same + "01" + "00" * 7, same + "01" + "ff" * 7, same + "02" + "00" * 7)
    assert first_unsorted(rows) is None
    assert first_unsorted(rows[[0, 2, 1, 3]]) == 1  # the same first 8 bytes, the rest falling
    assert first_unsorted(rows[[0, 1, 1, 3]]) == 1  # a row twice
