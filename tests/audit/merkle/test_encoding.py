"""audit's row encoding (audit/merkle/encoding.py): what it refuses, in its words."""

from __future__ import annotations

import pytest

import audit.merkle as am


def test_audit_names_the_column_of_text_that_has_no_utf8_form():
    with pytest.raises(am.MerkleError) as info:
        am.leaf_of_row({"a": "ok", "t": "\udc80"})
    assert str(info.value) == "column 't': the value is not valid Unicode text (it has no UTF-8 form)"


def test_a_column_name_must_be_text():
    with pytest.raises(am.MerkleError) as info:
        am.leaf_of_row({"a": 1, 7: 2})
    assert str(info.value) == "column name 7 is not text"


def test_audit_names_a_column_name_that_has_no_utf8_form():
    with pytest.raises(am.MerkleError) as info:
        am.leaf_of_row({"a": 1, "\udc80": 2})
    assert str(info.value) == "column name '\\udc80' is not valid Unicode text (it has no UTF-8 form)"
