"""The two properties every style's random-spec test states (tests/end_to_end/test_random_*_specs.py):
a spec `check` accepts generates a pool audit verifies, each tier's count exact; and a broken variant
is refused with one line naming the file."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
from hypothesis import assume

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.game.model import Game
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A
from tests.support.spec_docs import dumps

PER_POOL = (Step.FILES, Step.COMPLETENESS, Step.LAYOUTS, Step.FIGURES, Step.MERKLE_ROOTS)


def load_drawn(path: Path, refusal: Callable[[str], bool] | None = None) -> Game:
    """The spec at `path`; a drawn spec the loader refuses is no case (hypothesis draws another) when
    `refusal(message)` says the refusal is one the style's contract allows, else the test fails."""
    try:
        return load_spec(path)
    except SpecError as exc:
        assert refusal is not None and refusal(str(exc)), str(exc)
        assume(False)
        raise


def generates_and_verifies(folder: Path, doc: dict, refusal: Callable[[str], bool] | None = None,
                           steps: tuple[Step, ...] = PER_POOL) -> None:
    """`doc`, written to folder/g.toml, checks, generates and passes every step in `steps`, every tier
    of every pool at its count. Tiers with too few layouts for the default neighbour rule
    (docs/new-game.md, 2b) are refused by check naming packs.neighbours; the spec then says
    neighbours = "off", as an operator would, and must check."""
    path = folder / "g.toml"
    path.write_text(dumps(doc))
    spec = load_drawn(path, refusal)
    try:
        problems = check_spec(spec).problems
    except SpecError as exc:
        assert "packs.neighbours" in str(exc), exc
        path.write_text(dumps({**doc, "packs": {"neighbours": "off"}}))
        spec = load_spec(path)
        problems = check_spec(spec).problems
    assert problems == []
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=folder,
                                   run_id="r"))
    report = verify_run(VerifyRequest(run=run.folder, spec=path))
    assert [report.step(s).status for s in steps] == ["pass"] * len(steps), report.to_json()
    for pool in run.manifest["pools"]:
        table = pl.read_parquet(run.folder / f"pool-{pool['id']}.parquet")
        want = {t["id"]: t["count"] for t in pool["tiers"] if t["count"]}
        assert dict(table.group_by("tier").len().iter_rows()) == want


def refused_in_one_line(folder: Path, doc: dict, variant: int) -> None:
    """`doc` (a broken variant), written to folder/g.toml, is refused in one line naming the file."""
    path = folder / "g.toml"
    path.write_text(dumps(doc))
    try:
        load_spec(path)
    except SpecError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: ") and "\n" not in message
    else:
        raise AssertionError(f"variant {variant} was accepted")
