"""The suite's order, and the fixtures that test modules of more than one folder share: runs that
poolgen makes and audit checks (paths, seeds and builders that are not fixtures are in tests/support)."""

from __future__ import annotations

import os
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import PRINTED, SEED_A, SPECS, spec_path
from tests.support.ceremony import PARTIES, ok
from tests.support.ceremony import commit as _commit
from tests.support.ceremony import new as _new
from tests.support.ceremony import reveal as _reveal
from tests.support.ceremony import seal as _seal

TESTS = Path(__file__).resolve().parent
NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture(scope="session")
def specs_dir() -> Path:
    return SPECS


# The suite runs from the bottom layer up, so that the first test to fail (`pytest -x`) is the one meant
# for what broke: a DRBG change fails the DRBG's known answers before any test that pins a pool's hash.
_FIRST = ("poolgen/rng/test_drbg.py", "poolgen/rng/test_sampling.py", "poolgen/rng/test_sampling_ties.py",
          "poolgen/rng/test_sampling_few.py", "poolgen/test_money.py", "agreement/test_merkle.py",
          "poolgen/run/test_build.py", "poolgen/styles/test_key_number_match_decoys.py")
# Then the slowest files, slowest first (seconds, `--durations=0` summed by file, one full run on a
# loaded machine, 2026-12-04 23:12; end_to_end/test_heldout_examples.py counted with its check as timed
# after the crossword letter sets were made faster, 30 s not 208; the files of 2026-12-05 placed by their
# wall time alone on the loaded machine, `/usr/bin/time python -m pytest -p no:xdist FILE`: cards 50 s,
# style rules 50, insider poker hands 42, poker_lab_charts 33, poker_lab 31, steps/test_packs 24, the poker
# rankings' 20 to 22, test_blocks 18, insider boards 12 and the crowded packs 11 once cut), and the rest
# by their number of tests, most first: with
# --dist loadfile (and --no-loadscope-reorder,
# pyproject) each worker takes the next file when it is free, so long files started last would leave the
# other worker idle at the end. A file not listed runs with the rest; tests/test_suite_order.py checks
# that every file named here exists.
_SLOW = ("boundary/test_command_line_sweep.py", "third_engines/test_cards.py",
         "audit/steps/test_layouts_style_rules.py", "audit/stats/test_insider_poker_hands.py",
         "third_engines/test_poker_lab_charts.py", "third_engines/test_poker_lab.py",
         "end_to_end/test_heldout_examples.py",
         "poolgen/seeds/test_ceremony.py", "boundary/test_interrupts.py",
         "boundary/test_mutated_inputs.py", "poolgen/pdf/test_proofs.py",
         "poolgen/pdf/test_proof_faces.py", "audit/test_verify.py", "audit/steps/test_packs.py",
         "poolgen/styles/test_poker_hand_law_joker.py", "poolgen/styles/test_poker_ranking.py",
         "audit/steps/test_layouts_poker_hand_entry.py", "audit/steps/test_blocks.py",
         "poolgen/run/test_packs_beside.py", "boundary/test_spec_input.py",
         "end_to_end/test_example_specs.py", "end_to_end/test_primetime_payout.py",
         "audit/steps/test_deliverables.py", "end_to_end/test_blocks_example.py",
         "poolgen/backoffice/test_read_only_ledgers.py", "poolgen/styles/test_area_match.py",
         "boundary/test_damaged_runs.py", "boundary/test_interrupt_corpus.py",
         "poolgen/styles/test_crossword_doubler.py",
         "poolgen/backoffice/test_hostile.py", "audit/stats/test_packs_exact.py",
         "audit/steps/test_ceremony.py", "poolgen/pdf/test_report.py", "audit/steps/test_identity.py",
         "boundary/test_spec_fuzz.py", "poolgen/cli/test_generate.py", "audit/stats/test_step.py",
         "poolgen/styles/test_cards.py", "poolgen/cli/test_help.py", "third_engines/test_grid.py",
         "boundary/test_closed_stdout.py", "poolgen/run/test_generate.py", "end_to_end/test_double_bag.py",
         "audit/steps/test_ceremony_reorder.py", "audit/stats/test_insider_boards.py",
         "poolgen/run/test_packs_rejected_crowded.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    first = {name: i for i, name in enumerate(_FIRST)}
    slow = {name: i for i, name in enumerate(_SLOW)}
    names = [item.path.relative_to(TESTS).as_posix() for item in items]
    tests = Counter(names)

    def place(name: str) -> tuple[int, int, str]:
        if name in first:
            return 0, first[name], ""
        if name in slow:
            return 1, slow[name], ""
        return 2, -tests[name], name  # the name keeps each file's tests together

    order = sorted(range(len(items)), key=lambda i: place(names[i]))  # stable: a file's own order kept
    items[:] = [items[i] for i in order]


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict:
    """One signed run of one full pool of every printed game, with two real validation keys: what
    poolgen delivers (tests/poolgen/deliverables/test_validation.py) and audit's step 9 checks
    (tests/audit/steps/test_deliverables.py). Tests copy a run before changing it."""
    root = tmp_path_factory.mktemp("deliver")
    files = new_key_pair(root / "keys", None)
    signer = Signer.from_file(files.private)
    new_validation_key(root / "vk" / "low.key")
    new_validation_key(root / "vk" / "high.key")
    keys = (read_validation_key(root / "vk" / "low.key"), read_validation_key(root / "vk" / "high.key"))
    old = os.umask(0)  # the modes must not depend on the umask
    try:
        out = {}
        for name, path in PRINTED.items():
            spec = load_spec(path)
            pool = spec.pools[-1].id  # a full pool (for a partial last pool, the smaller one)
            out[name] = generate(GenerateRequest(spec, SEED_A, now=NOW, out=root / "runs", run_id=name,
                                                 pool_ids=[pool], signature=signer.manifest_entry(),
                                                 validation_keys=keys), finish=signer.sign_run).folder
    finally:
        os.umask(old)
    return {"root": root, "runs": out, "public": files.public, "signer": signer, "keys": keys}


@pytest.fixture(scope="session")
def sealed_run(tmp_path_factory):
    """A three-party ceremony run through the command line (its bundle published before the reveals,
    `bundle`), and a signed run generated from it: the
    ceremony (tests/poolgen/seeds/test_ceremony.py) and audit's step 7 of it
    (tests/audit/steps/test_ceremony.py). Tests copy what they change."""
    tmp = tmp_path_factory.mktemp("ceremony")
    file = _new(tmp)
    commitments = {p: _commit(file, p) for p in PARTIES}
    bundle = tmp / "c1.public.json"  # published before any reveal, as verify's step 5 takes it
    ok("ceremony", "publish", str(file), "--out", str(bundle))
    for p in PARTIES:
        assert _reveal(file, p).stdout == f"{p}: revealed; it matches its commitment\n"
    sealed = _seal(file)
    assert sealed.exit_code == 0, sealed.output
    keys = new_key_pair(tmp / "keys")
    generated = ok("generate", str(spec_path("wild_side")), "--out", str(tmp / "runs"), "--pool", "p1",
                   "--workers", "1", "--key", str(keys.private), "--ceremony", str(file), "--json")
    return SimpleNamespace(tmp=tmp, file=file, commitments=commitments, sealed=sealed.stdout.splitlines(),
                           keys=keys, bundle=bundle,
                           run=tmp / "runs" / "r", generated=generated)
