"""tests/conftest.py orders the suite by file: the bottom layer first, then the slowest files. A file it
names that no longer exists would silently fall back to the rest's order."""

from __future__ import annotations

from tests.conftest import _FIRST, _SLOW, TESTS


def test_every_file_the_suite_order_names_exists():
    missing = [name for name in _FIRST + _SLOW if not (TESTS / name).is_file()]
    assert missing == []
    assert len(set(_FIRST + _SLOW)) == len(_FIRST) + len(_SLOW)
