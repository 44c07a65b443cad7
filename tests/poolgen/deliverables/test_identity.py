"""Ticket identity on paper (poolgen/deliverables/identity.py, docs/validation.md): barcode check
digits that catch every single-digit error and adjacent transposition, and secret book numbers that
carry no information about their pool."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from audit.read.game_number import barcode_numbers
from poolgen.deliverables.identity import barcode, barcodes, book_numbers, is_valid
from poolgen.loader import load_spec
from tests.support import SEED_A, SEED_B, spec_path

# ---- barcode check digits ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 9999), st.integers(0, 9_999_999), st.integers(0, 999))
def test_check_digits_catch_every_single_digit_error_and_adjacent_transposition(game, book, ticket):
    number = barcode(game, book, ticket)
    assert len(number) == (15 if game < 1000 else 16) and is_valid(number)  # 16 digits: a game 1000..9999
    audits = barcode_numbers(game, np.array([book]), np.array([ticket]))  # audit's own
    assert audits.tolist() == [int(number)]
    for i in range(len(number)):  # every position, check digits included
        for d in "0123456789":
            if d != number[i]:
                assert not is_valid(number[:i] + d + number[i + 1 :])
    for i in range(len(number) - 1):
        if number[i] != number[i + 1]:
            assert not is_valid(number[:i] + number[i + 1] + number[i] + number[i + 2 :])


def test_vectorised_barcodes_are_the_scalar_ones():
    book, ticket = np.array([0, 1234, 9_999_999]), np.array([0, 17, 999])
    assert barcodes(465, book, ticket).astype(str).tolist() == [
        barcode(465, b, t) for b, t in zip(book.tolist(), ticket.tolist(), strict=True)
    ]
    assert barcode(465, 1234, 17) == "465000123401782"


# ---- book numbers reveal nothing about pools --------------------------------------------------------


@pytest.mark.parametrize("seed", [SEED_A, SEED_B])
def test_book_numbers_carry_no_information_about_their_pool(seed):
    spec = load_spec(spec_path("happy_holidays"))  # 6 pools of 1,000 books
    numbers = book_numbers(seed, spec.id, 6000)
    assert sorted(numbers.tolist()) == list(range(6000))
    pool_of_slot = np.repeat(np.arange(6), 1000)
    decile = numbers // 600
    table = np.zeros((10, 6), dtype=int)
    np.add.at(table, (decile, pool_of_slot), 1)
    assert table.sum(axis=1).tolist() == [600] * 10
    assert chi2_contingency(table).pvalue > 0.001  # uniform: every decile holds books of every pool alike
    # the old numbering (slot = book) would fail the same test completely
    assert (
        chi2_contingency(np.eye(6, dtype=int).repeat(100, 0)[:600].reshape(10, 60, 6).sum(1) + 1).pvalue
        < 1e-6
    )
