"""audit/read/specs/multiplies.py's `refuse_pair_multipliers` and wins.py: a yours_beats_theirs area's
`multipliers` (docs/styles/yours_beats_theirs.md, section 2) refused by audit's spec reader in the
loader's words, field and message: one multiplier alone, two of the same `by`, a win without `by`, a
`by` no multiplier has, a free ticket multiplied."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.poolgen.styles.test_yours_beats_theirs_multipliers import ONE, TWICE, _doc
from tests.support.spec_docs import dumps

BY2 = [{"area": "yt", "prize": "1", "how": "match", "by": 2}]
FREE = _doc(wins=[{"area": "yt", "prize": "F", "how": "match", "by": 2}])
FREE["symbols"].append({"group": "pz", "code": "F", "symbol": "FREE", "free": True})


@pytest.mark.parametrize("doc", [_doc(symbols=ONE, wins=BY2), _doc(symbols=TWICE, wins=BY2),
                                 _doc(wins=[{"area": "yt", "prize": "1", "how": "match"}]),
                                 _doc(wins=[{"area": "yt", "prize": "1", "how": "match", "by": 4}]), FREE],
                         ids=["one", "twice", "no_by", "by_4", "free"])
def test_audits_reader_refuses_pair_multipliers_in_the_loaders_words(tmp_path, doc):
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as audit:
        read_spec(spec)
    assert str(audit.value) == str(loader.value)


def test_audits_reader_takes_the_spec_the_loader_takes(tmp_path):
    spec = tmp_path / "g.toml"
    doc = _doc()
    doc["tiers"].append({"id": "t2", "count": 10,
                         "wins": [{"area": "yt", "prize": "2", "how": "match", "by": 5}]})
    spec.write_text(dumps(doc), encoding="utf-8")
    load_spec(spec)
    read_spec(spec)
