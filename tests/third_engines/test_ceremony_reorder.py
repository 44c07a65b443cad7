"""The third engine's reading of "A second order of the same pools" (docs/ceremony.md;
tests/third_engines/ceremony_bundles.py) against audit's step 5, word for word: Wild Side's p1 printed again
as run r-2 from ceremony c2, which follows the first order (the root conftest's `sealed_run`, run r from c1),
audited with both bundles and the first order's signed manifest, honest and tampered; and the first order
audited with the reorder's bundle (a later order)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from audit.checklist import Step
from audit.read.manifest import Manifest, load_public_key
from audit.steps.ceremony_bundles import Earlier as AuditEarlier
from audit.steps.ceremony_bundles import check_bundles, read_bundle
from audit.verify import attempt
from tests.support import spec_path
from tests.support.ceremony import PARTIES, commit, invoke, new_args, ok, reveal, round_file
from tests.third_engines import ceremony_bundles as third

SECOND_ROUND, SECOND_CLOSE, SECOND_BEFORE = 10024141, "2024-08-05T00:00:00Z", "2024-08-04T12:00:00Z"


@pytest.fixture(scope="module")
def orders(sealed_run, tmp_path_factory):
    """Order 1 (sealed_run) and order 2: ceremony c2 following order 1's signed manifest, generated."""
    tmp = tmp_path_factory.mktemp("third-reorder")
    first = sealed_run.run / "manifest.json"
    args = new_args(tmp, tmp / "c2.ceremony", "--follows", str(first), "--public-key",
                    str(sealed_run.keys.public))
    for option, value in (("--id", "c2"), ("--run-id", "r-2"), ("--beacon-round", str(SECOND_ROUND)),
                          ("--reveals-close", SECOND_CLOSE)):
        args[args.index(option) + 1] = value
    ok(*args, now=SECOND_BEFORE)
    file = tmp / "c2.ceremony"
    for p in PARTIES:
        commit(file, p)
    ok("ceremony", "publish", str(file), "--out", str(tmp / "c2.json"))
    shutil.copyfile(sealed_run.bundle, tmp / "c1.json")  # before its reveals
    for p in PARTIES:
        assert reveal(file, p, now=SECOND_BEFORE).exit_code == 0
    assert invoke("ceremony", "seal", str(file), "--round", str(round_file(tmp, SECOND_ROUND)), "--yes",
                  now="2024-08-05T17:00:00Z").exit_code == 0
    ok("generate", str(spec_path("wild_side")), "--out", str(tmp / "runs"), "--pool", "p1", "--workers", "1",
       "--key", str(sealed_run.keys.private), "--ceremony", str(file))
    key = load_public_key(sealed_run.keys.public)
    return SimpleNamespace(tmp=tmp, first=first, second=tmp / "runs" / "r-2" / "manifest.json", key=key,
                           raw=key.public_bytes(Encoding.Raw, PublicFormat.Raw).hex(),
                           b1=(tmp / "c1.json", read_bundle(tmp / "c1.json")),
                           b2=(tmp / "c2.json", read_bundle(tmp / "c2.json")))


def _both(orders, manifest: Path, bundles, earlier: list[tuple[str, bytes, bytes]], with_key: bool = True):
    """Step 5's bundle verdict by audit and by the third engine, on the same files."""
    data = manifest.read_bytes()
    key = orders.key if with_key else None
    verdict = attempt(Step.FIGURES, check_bundles, Manifest.parse(data), bundles,
                      [AuditEarlier(Path(n), d, s) for n, d, s in earlier], key, data)
    try:
        mine = ("pass", third.check_bundles(json.loads(data), [(p.name, d) for p, d in bundles],
                                            [third.Earlier(n, d, s) for n, d, s in earlier],
                                            orders.raw if with_key else None, data))
    except third.Refused as refused:
        mine = ("fail", str(refused))
    return verdict, mine


def _signed(manifest: Path) -> tuple[str, bytes, bytes]:
    return manifest.name, manifest.read_bytes(), manifest.with_name("manifest.sig").read_bytes()


def test_the_reorder_rules_agree_with_audit_word_for_word(orders):
    first = _signed(orders.first)
    other_key = Ed25519PrivateKey.generate()
    forged = ("forged.json", first[1], other_key.sign(first[1]))
    unnamed = ("r-2.json", *_signed(orders.second)[1:])
    cases = [
        ([orders.b1, orders.b2], [first], True),
        ([orders.b1, orders.b2], [], True),
        ([orders.b1, orders.b2], [first], False),
        ([orders.b1, orders.b2], [forged], True),
        ([orders.b1, orders.b2], [first, unnamed], True),
        ([orders.b2], [first], True),
    ]
    for bundles, earlier, with_key in cases:
        audit_verdict, mine = _both(orders, orders.second, bundles, earlier, with_key)
        assert mine == audit_verdict, ([p.name for p, _ in bundles], [e[0] for e in earlier], with_key)
    assert _both(orders, orders.second, [orders.b1, orders.b2], [first])[0][0] == "pass"


def test_the_first_order_audited_with_the_reorders_bundle_lists_it_as_a_later_order(orders):
    audit_verdict, mine = _both(orders, orders.first, [orders.b1, orders.b2], [])
    assert mine == audit_verdict
    assert audit_verdict[0] == "pass"
    assert "c2.json: ceremony c2 for run r-2, a later order" in audit_verdict[1]
