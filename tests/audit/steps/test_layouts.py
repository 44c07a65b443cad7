"""Step 4 (audit/steps/layouts.py) called directly: every layout evaluated by the style's engine
(audit/styles) against its stored prize, message by message, on a small printed run of play styles and on
an eInstant pool (tests/audit/steps/conftest.py's small_printed, tests/audit/conftest.py's pp_folder).
Step 4 on signed runs an insider edited: test_layouts_contract_rules.py, test_layouts_unpaid_displays.py,
test_layouts_style_rules.py (a rule of each other style)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.steps.layouts import check_layouts
from audit.verify import VerifyRequest, verify_run


def test_step4_of_a_styled_game_is_evaluated_by_audit_styles(small_printed):
    run, manifest = small_printed
    play = manifest.doc["play"]
    styles = ", ".join(sorted({a["style"] for a in play["areas"]}))
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert check_layouts(table, manifest.pools[0], manifest.rules, play) == (
        f"9 layouts evaluated by audit.styles ({styles}): each pays its stored prize (3 winners), "
        "none illegal")
    assert styles


@pytest.mark.parametrize("rules", ["wild_side", "_shared", "styles.match_n", ""])
def test_step4_refuses_a_run_without_a_play_entry_in_one_line(small_printed, tmp_path, rules):
    """A run whose manifest has no `play` entry names rules of its own (the old format-1 printed
    games): no engine evaluates them, so step 4 fails for every pool, in one line, and nothing crashes."""
    run = Path(shutil.copytree(small_printed[0], tmp_path / "s"))
    doc = json.loads((run / "manifest.json").read_bytes())
    del doc["play"]
    doc["game"]["rules"] = rules
    (run / "manifest.json").write_text(json.dumps(doc))
    manifest = Manifest.parse((run / "manifest.json").read_bytes())
    table = pl.read_parquet(run / "pool-p1.parquet")
    with pytest.raises(VerificationError) as info:
        check_layouts(table, manifest.pools[0], manifest.rules, None)
    assert (info.value.step, info.value.reason) == (4, f"no audit rules for game rules {rules!r}")
    report = verify_run(VerifyRequest(run=run))
    step4 = report.step(Step.LAYOUTS)
    assert (step4.status, step4.reasons) == ("fail", [f"pool p1: no audit rules for game rules {rules!r}"])
    assert 4 in report.failed


# ---- an eInstant pool ---------------------------------------------------------------------------

def _step4(pp_folder, edit=lambda doc: None, edit_table=lambda table: table) -> str:
    doc = json.loads((pp_folder / "manifest.json").read_bytes())
    edit(doc)
    manifest = Manifest.parse(json.dumps(doc).encode())
    pool = manifest.pools[0]
    return check_layouts(edit_table(pl.read_parquet(pp_folder / pool.file)), pool,
                         manifest.doc["game"]["rules"], manifest.doc["play"])


def test_step4_evaluates_every_share_with_the_styles_engine(pp_folder):
    assert _step4(pp_folder) == ("1,000,000 layouts evaluated by audit.styles.area_match: each pays its "
                                 "stored prize (330,943 winners), none illegal")


def test_step4_fails_on_a_play_entry_the_engine_cannot_read(pp_folder):
    with pytest.raises(VerificationError) as info:
        _step4(pp_folder, lambda doc: doc["play"].update(spots="five"))
    assert (info.value.step, info.value.reason) == (
        4, "manifest play entry (area_match): spots must be a whole number 1..16, not 'five'")


def test_step4_names_every_problem_of_a_changed_layout(pp_folder):
    """Share 2 (row 1) wins 50 cents by a bonus; shown as four 13s it also matches, and pays 100."""
    def four_alike(table):
        row = pl.int_range(pl.len()) == 1
        return table.with_columns(**{f"a0_s{j}": pl.when(row).then(13).otherwise(f"a0_s{j}").cast(pl.UInt8)
                                     for j in range(4)})
    with pytest.raises(VerificationError) as info:
        _step4(pp_folder, edit_table=four_alike)
    assert (info.value.step, info.value.reason) == (
        4, "1 layout(s) do not pay the stored prize: d1.00x1-0000002 (row 1) pays 100 cents, stores 50; "
           "1 illegal layout(s): d1.00x1-0000002 (row 1): area 0: a0_bonus is 2 but its symbols trigger no "
           "bonus (0); areas pay 100 = 100 cents, prize_cents is 50")


class _WrongShape:  # an engine that answers for another number of rows
    @staticmethod
    def evaluate(table, pool, play):
        from audit.styles.interface import Evaluation
        return Evaluation(np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), [])


def test_step4_refuses_an_engine_answer_of_another_length(pp_folder, monkeypatch):
    import audit.styles
    monkeypatch.setitem(audit.styles.TICKET_ENGINES, "area_match", _WrongShape)
    with pytest.raises(VerificationError) as info:
        _step4(pp_folder)
    assert (info.value.step, info.value.reason) == (
        4, "the rules engine returned (2,) prizes and (2,) wins for 1,000,000 rows")
