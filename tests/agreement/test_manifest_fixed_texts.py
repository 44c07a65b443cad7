"""docs/manifest.md writes out, byte for byte, every text step 5 holds a manifest's fixed fields to
(audit/read/fields.py): a third engine written from the page alone must refuse exactly what audit
refuses, so the page and audit's constants cannot drift apart."""

from __future__ import annotations

import re

from audit.read import fields
from audit.read.game_number import BARCODE_4
from tests.support import ROOT


def _documented() -> dict[str, str]:
    text = (ROOT / "docs" / "manifest.md").read_text()
    block = re.search(r"```\n(drbg\.algorithm .*?)```", text, flags=re.S)
    assert block is not None, "docs/manifest.md: the block of fixed texts is gone"
    rows = [re.split(r" {2,}", line.strip(), maxsplit=1) for line in block.group(1).splitlines()]
    return {name: value for name, value in rows}


def test_the_fixed_texts_of_docs_manifest_md_are_audits():
    documented = _documented()
    assert documented == {
        "drbg.algorithm": fields.DRBG,
        "tool.code.algorithm": fields.CODE_HASH,
        "runs before v2": fields.CODE_HASH_V1,
        "print.barcode": fields.BARCODE,
        "game 1000..9999": BARCODE_4,  # a game numbered 1000..9999 (docs/validation.md, section 2)
        "print.split.rule": "even",  # audit/steps/split.py
        "print.book_numbers": "a permutation of the order's book slots from the stream "
                              "poolgen/v1/RULES/order/books",
        "under a book key": fields.KEYED_BOOKS,
    }
    assert f"`seed_commitment.algorithm` `{fields.COMMITMENT}`" in (ROOT / "docs" / "manifest.md").read_text()
